-- Every run's stored executions are a JSON array of executions of the right shape (sql/schema/010_scale.sql).
-- The query lists what breaks it.
-- run_execs holds one row per run that lists executions: a non-empty
-- array whose every element is an array of nine values, [command,
-- exit_code, duration_ms, cpu_ms, memory_peak_mb, bytes_read,
-- bytes_written, cost_nanos, extra], the text ones text or null, the
-- counters integers, exit_code and cost_nanos integers or null.  A row
-- of a run that is not there is a foreign key fault (05_foreign_keys.sql).
SELECT 'run ' || COALESCE(r.run_id, '(rid ' || x.rid || ')') || ': its stored executions are '
       || CASE WHEN NOT json_valid(x.execs) THEN 'not valid JSON'
               WHEN json_type(x.execs) <> 'array' THEN 'not a JSON array'
               ELSE 'an empty array' END
  FROM run_execs x LEFT JOIN run r ON r.rid = x.rid
 WHERE NOT json_valid(x.execs) OR json_type(x.execs) <> 'array' OR json_array_length(x.execs) = 0
UNION ALL
SELECT 'run ' || COALESCE(r.run_id, '(rid ' || x.rid || ')') || ': its execution ' || e.key
       || ' is not [command, exit_code, duration_ms, cpu_ms, memory_peak_mb, bytes_read, bytes_written, cost_nanos, extra]'
  FROM run_execs x LEFT JOIN run r ON r.rid = x.rid, json_each(x.execs) e
 WHERE json_valid(x.execs) AND json_type(x.execs) = 'array'
   AND (e.type <> 'array' OR json_array_length(e.value) <> 9
        OR json_type(e.value, '$[0]') NOT IN ('text', 'null')
        OR json_type(e.value, '$[1]') NOT IN ('integer', 'null')
        OR json_type(e.value, '$[2]') <> 'integer'
        OR json_type(e.value, '$[3]') <> 'integer'
        OR json_type(e.value, '$[4]') <> 'integer'
        OR json_type(e.value, '$[5]') <> 'integer'
        OR json_type(e.value, '$[6]') <> 'integer'
        OR json_type(e.value, '$[7]') NOT IN ('integer', 'null')
        OR json_type(e.value, '$[8]') NOT IN ('text', 'null'));
