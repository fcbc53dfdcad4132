-- Per session of one backend, its runs started in [:from_ms, :to_ms), and
-- whether the session has any live line (of any kind, in any period).
SELECT r.session_id,
       COUNT(*) AS runs,
       SUM(r.computed_nanos),
       SUM(r.billed_nanos),
       CASE WHEN EXISTS (SELECT 1 FROM billing_line l
                          WHERE l.backend = r.backend AND l.session_id = r.session_id
                            AND l.superseded_by IS NULL)
            THEN 1 ELSE 0 END AS has_line
  FROM run r
 WHERE r.backend = :backend AND r.started_ms >= :from_ms AND r.started_ms < :to_ms
 GROUP BY r.backend, r.session_id
 ORDER BY r.session_id NULLS FIRST;
