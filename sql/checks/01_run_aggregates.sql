-- Each run's aggregates agree with its executions (the SDK's add_exec rule).
-- The query lists what breaks it.
SELECT 'run ' || r.run_id || ': aggregates disagree with its ' || COUNT(x.seq) || ' executions'
  FROM run r JOIN execution x ON x.rid = r.rid
 GROUP BY r.rid, r.run_id, r.exec_count, r.total_duration_ms, r.cpu_ms, r.bytes_read,
          r.bytes_written, r.memory_peak_mb, r.computed_nanos
HAVING r.exec_count <> COUNT(x.seq)
    OR r.total_duration_ms <> SUM(x.duration_ms)
    OR r.cpu_ms <> SUM(x.cpu_ms)
    OR r.bytes_read <> SUM(x.bytes_read)
    OR r.bytes_written <> SUM(x.bytes_written)
    OR r.memory_peak_mb <> MAX(x.memory_peak_mb)
    OR ABS(r.computed_nanos - COALESCE(SUM(x.cost_nanos), 0)) > COUNT(x.seq);
