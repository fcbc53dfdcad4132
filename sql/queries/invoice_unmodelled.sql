-- Invoices by tag :tag over [:from_ms, :to_ms): the runs with tokens but
-- no model (token_usage without a model: no price, so their token cost is
-- unknown), per customer, by run id.  The customer is the one the run is
-- invoiced to, as in invoice_sessions.sql: runs another finalized invoice
-- charged are left out.
SELECT c.customer, c.run_id, c.input_tokens, c.output_tokens
  FROM (SELECT r.run_id, r.input_tokens, r.output_tokens,
               CASE WHEN ir.run_id IS NULL THEN COALESCE(t.value, '(untagged)')
                    WHEN i.tag = :tag AND i.from_ms = :from_ms AND i.to_ms = :to_ms
                         AND COALESCE(ti.value, '(untagged)') = i.customer
                    THEN COALESCE(t.value, '(untagged)')
                    WHEN i.tag = :tag
                         AND NOT (COALESCE(ti.value, '(untagged)') = i.customer
                                  AND r.started_ms >= i.from_ms AND r.started_ms < i.to_ms)
                         AND EXISTS (SELECT 1 FROM invoice m
                                      WHERE m.tag = :tag AND m.customer = COALESCE(t.value, '(untagged)')
                                        AND m.from_ms = :from_ms AND m.to_ms = :to_ms)
                    THEN COALESCE(t.value, '(untagged)')
               END AS customer                               -- NULL: charged on another finalized invoice
          FROM run r
          LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
          LEFT JOIN invoice_run ir ON ir.run_id = r.run_id AND ir.duplicate = 0
          LEFT JOIN invoice i ON i.invoice_id = ir.invoice_id
          LEFT JOIN run_tag ti ON ti.rid = r.rid AND ti.name = i.tag
         WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
           AND r.model IS NULL AND (r.input_tokens <> 0 OR r.output_tokens <> 0)) c
 WHERE c.customer IS NOT NULL
 ORDER BY c.customer, c.run_id;
