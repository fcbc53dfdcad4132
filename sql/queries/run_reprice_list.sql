-- Runs of a backend started since an instant, with their end and their executions'
-- durations (one row per execution; summary-only runs one row with NULL),
-- ordered by run, to recompute their card cost.
SELECT r.rid, COALESCE(r.plan, ''), r.started_ms, r.has_executions, r.total_duration_ms,
       e.duration_ms, r.ended_ms
  FROM run r LEFT JOIN execution e ON e.rid = r.rid
 WHERE r.backend = :backend AND r.started_ms >= :from_ms
 ORDER BY r.rid, e.seq;
