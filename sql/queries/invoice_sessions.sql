-- Invoices on a billed basis: per backend, session and customer, the runs
-- started in [:from_ms, :to_ms): computed cost and exec time (to split a
-- session's bill by), and their own billed_cost_usd: all of it
-- (own_billed), and that of sessions with no live line of kind billed
-- (fill_billed; Tax lines cover nothing) or metered (fill_metered) in any
-- period, as the reconciler fills gaps.  The customer is the one the run
-- is invoiced to: its value of tag :tag ('(untagged)' without it), or NULL
-- when another finalized invoice charged it (invoice_claimed.sql says
-- which are kept: those of an invoice of this set that they still belong
-- to, and those that moved to a customer with an invoice of this set), so
-- that their share of a bill is set aside, not charged twice.
WITH runs AS (
    SELECT r.backend, r.session_id, r.total_duration_ms, r.computed_nanos, r.billed_nanos,
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
           END AS customer
      FROM run r
      LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
      LEFT JOIN invoice_run ir ON ir.run_id = r.run_id AND ir.duplicate = 0
      LEFT JOIN invoice i ON i.invoice_id = ir.invoice_id
      LEFT JOIN run_tag ti ON ti.rid = r.rid AND ti.name = i.tag
     WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms)
SELECT r.backend,
       r.session_id,
       r.customer,
       COUNT(*) AS runs,
       SUM(r.total_duration_ms) AS exec_ms,
       SUM(r.computed_nanos) AS computed_nanos,
       SUM(r.billed_nanos) AS own_billed,
       SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM billing_line l
                                  WHERE l.backend = r.backend AND l.session_id = r.session_id
                                    AND l.kind = 'billed' AND l.superseded_by IS NULL
                                    AND COALESCE(l.category, '') <> 'Tax')
                THEN r.billed_nanos END) AS fill_billed,
       SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM billing_line l
                                  WHERE l.backend = r.backend AND l.session_id = r.session_id
                                    AND l.kind = 'metered' AND l.superseded_by IS NULL)
                THEN r.billed_nanos END) AS fill_metered
  FROM runs r
 GROUP BY r.backend, r.session_id, r.customer
 ORDER BY r.backend, r.session_id NULLS FIRST, r.customer NULLS FIRST;
