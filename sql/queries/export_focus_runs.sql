-- export focus: the runs started in [:from_ms, :to_ms), ordered so that
-- the runs of one session on one UTC day are consecutive: by day,
-- backend, session (runs naming no session together), then run id.
SELECT r.started_day,
       r.backend,
       r.session_id,
       r.total_duration_ms,
       r.computed_nanos,
       r.billed_nanos,
       r.tags
  FROM run r
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
 ORDER BY r.started_day, r.backend, r.session_id NULLS FIRST, r.run_id;
