-- The finalized invoices of one customer (tag :tag = :customer) whose
-- period overlaps [:from_ms, :to_ms), oldest first.
SELECT number, from_ms, to_ms
  FROM invoice
 WHERE tag = :tag AND customer = :customer AND from_ms < :to_ms AND to_ms > :from_ms
 ORDER BY from_ms, number;
