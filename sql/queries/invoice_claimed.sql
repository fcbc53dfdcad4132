-- Invoices by tag :tag over [:from_ms, :to_ms): the runs of the period
-- that another finalized invoice charged, left out of this set (a run is
-- on one finalized invoice at most, sql/schema/009_invoice_once.sql).
-- Per customer the run has now under :tag ('(untagged)' without it),
-- backend, model ('' for none), the invoice that charged it (number) and
-- whether the run still belongs to that invoice (belongs: its tag still
-- has the invoice's customer as value and the run still starts in the
-- invoice's period): how many runs, their exec time, computed cost and
-- tokens.  A run charged by an invoice is kept (not listed here) when
-- that invoice is one of this set (same tag and period) and the run still
-- belongs to it (the invoice is reprinted as stored; its adjustment
-- counts the run as it is now), and when it has left an invoice of this
-- same tag (moved: its customer or start changed since) and its customer
-- now has a finalized invoice of this set (whose adjustment takes it in).
-- By customer, backend, model, number.
WITH claimed AS (
    SELECT COALESCE(t.value, '(untagged)') AS customer,       -- its customer now, under :tag
           r.backend, COALESCE(r.model, '') AS model,
           r.total_duration_ms, r.computed_nanos, r.input_tokens, r.output_tokens,
           i.number, i.tag AS inv_tag, i.from_ms AS inv_from, i.to_ms AS inv_to,
           CASE WHEN COALESCE(ti.value, '(untagged)') = i.customer
                     AND r.started_ms >= i.from_ms AND r.started_ms < i.to_ms
                THEN 1 ELSE 0 END AS belongs                      -- 1: it still belongs to it
      FROM run r
      JOIN invoice_run ir ON ir.run_id = r.run_id AND ir.duplicate = 0
      JOIN invoice i ON i.invoice_id = ir.invoice_id
      LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
      LEFT JOIN run_tag ti ON ti.rid = r.rid AND ti.name = i.tag
     WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms)
SELECT c.customer, c.backend, c.model, c.number, c.belongs,
       COUNT(*) AS runs,
       SUM(c.total_duration_ms) AS exec_ms,
       SUM(c.computed_nanos) AS computed_nanos,
       SUM(c.input_tokens) AS input_tokens,
       SUM(c.output_tokens) AS output_tokens
  FROM claimed c
 WHERE NOT (c.inv_tag = :tag AND c.inv_from = :from_ms AND c.inv_to = :to_ms AND c.belongs = 1)
   AND NOT (c.inv_tag = :tag AND c.belongs = 0
            AND EXISTS (SELECT 1 FROM invoice m
                         WHERE m.tag = :tag AND m.customer = c.customer
                           AND m.from_ms = :from_ms AND m.to_ms = :to_ms))
 GROUP BY c.customer, c.backend, c.model, c.number, c.belongs
 ORDER BY c.customer, c.backend, c.model, c.number, c.belongs;
