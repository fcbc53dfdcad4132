-- The finalized invoices by tag :tag over exactly [:from_ms, :to_ms), by
-- customer.
SELECT invoice_id, number, customer, basis, currency, total_nanos, runs, notes, created_ms
  FROM invoice
 WHERE tag = :tag AND from_ms = :from_ms AND to_ms = :to_ms
 ORDER BY customer, invoice_id;
