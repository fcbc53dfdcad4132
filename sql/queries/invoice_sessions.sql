-- Invoices on a billed basis: per backend, session and customer, the runs
-- started in [:from_ms, :to_ms): computed cost and exec time (to split a
-- session's bill by), and their own billed_cost_usd: all of it
-- (own_billed), and that of sessions with no live line of kind billed
-- (fill_billed; Tax lines cover nothing) or metered (fill_metered) in any
-- period, as the reconciler fills gaps.
SELECT r.backend,
       r.session_id,
       COALESCE(t.value, '(untagged)') AS customer,
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
  FROM run r
  LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
 GROUP BY r.backend, r.session_id, COALESCE(t.value, '(untagged)')
 ORDER BY r.backend, r.session_id, customer;
