-- The aggregation of 'sbledger reconcile' over the runs written as one
-- bare query, the yardstick for reconcile (bench/run.sh runs it with the
-- sqlite3 shell, :from_ms and :to_ms set to the period): per backend, the
-- runs started in the period, their sessions, computed and billed sums,
-- the runs' own billed cost where no billing line covers their session,
-- and the lifetime figures of the explanation.
SELECT r.backend,
       COUNT(*),
       COUNT(DISTINCT r.session_id),
       SUM(r.exec_count),
       SUM(r.computed_nanos),
       SUM(r.billed_nanos),
       SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM billing_line l
                                  WHERE l.backend = r.backend AND l.session_id = r.session_id
                                    AND l.superseded_by IS NULL)
                THEN r.billed_nanos END),
       COUNT(r.ended_ms),
       SUM(r.ended_ms - r.started_ms),
       SUM(r.lifetime_nanos),
       SUM(r.card_nanos)
  FROM run r
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
 GROUP BY r.backend
 ORDER BY r.backend;
