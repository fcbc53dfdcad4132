-- Each run's aggregates agree with its executions (the SDK's add_exec rule).
-- The query lists what breaks it.
-- A run that lists all of its executions (exec_count their number) has
-- their sums, their maximum memory, and their cost within one nanodollar
-- per execution.  A partly detailed run (exec_count more than the
-- executions listed: the SDK's __add__ of a summary-only usage and a
-- detailed one) keeps its own aggregates, and the listed executions stay
-- within them: each sum at most the run's, the maximum memory at most the
-- run's, their cost at most computed_nanos plus one nanodollar each.
-- More executions than exec_count is always wrong.
SELECT 'run ' || r.run_id || ': aggregates disagree with its ' || COUNT(x.seq) || ' executions'
       || CASE WHEN r.exec_count > COUNT(x.seq) THEN ' (of exec_count ' || r.exec_count || ')' ELSE '' END
  FROM run r JOIN execution x ON x.rid = r.rid
 GROUP BY r.rid, r.run_id, r.exec_count, r.total_duration_ms, r.cpu_ms, r.bytes_read,
          r.bytes_written, r.memory_peak_mb, r.computed_nanos
HAVING r.exec_count < COUNT(x.seq)
    OR (r.exec_count = COUNT(x.seq)
        AND (r.total_duration_ms <> SUM(x.duration_ms)
             OR r.cpu_ms <> SUM(x.cpu_ms)
             OR r.bytes_read <> SUM(x.bytes_read)
             OR r.bytes_written <> SUM(x.bytes_written)
             OR r.memory_peak_mb <> MAX(x.memory_peak_mb)
             OR ABS(r.computed_nanos - COALESCE(SUM(x.cost_nanos), 0)) > COUNT(x.seq)))
    OR (r.exec_count > COUNT(x.seq)
        AND (r.total_duration_ms < SUM(x.duration_ms)
             OR r.cpu_ms < SUM(x.cpu_ms)
             OR r.bytes_read < SUM(x.bytes_read)
             OR r.bytes_written < SUM(x.bytes_written)
             OR r.memory_peak_mb < MAX(x.memory_peak_mb)
             OR COALESCE(SUM(x.cost_nanos), 0) - r.computed_nanos > COUNT(x.seq)));
