-- Every run's stored executions are a JSON array of executions of the right shape (sql/schema/010_scale.sql).
-- The query lists what breaks it.
-- As sql/checks/07_run_executions_shape.sql, over the text as the
-- execution view reads it (CAST AS json): a non-empty array whose every
-- element is an array of nine values, the text ones (0 and 8) strings
-- or null, the counters (2 to 6) integers, exit_code and cost_nanos (1,
-- 7) integers or null.  An integer is a JSON number without fraction or
-- exponent within 64 bits (what the view's CAST AS BIGINT takes; SQLite
-- calls a longer one an integer too, and reads it as a real).  Validity
-- is sbledger_json_valid (sql/pg/schema/010_init.sql), so that a bad row
-- is listed rather than ending the query, asked once per row (a
-- materialized CTE: each call is a subtransaction); each execution's
-- nine values read by one json_array_elements (each -> of a json value
-- reads its whole text again: nine times slower); each cast is guarded by
-- a CASE, which PostgreSQL evaluates in order.
WITH checked AS MATERIALIZED (
    SELECT x.rid, x.execs, sbledger_json_valid(x.execs) AS valid
      FROM run_execs x)
SELECT 'run ' || COALESCE(r.run_id, '(rid ' || x.rid || ')') || ': its stored executions are '
       || CASE WHEN NOT x.valid THEN 'not valid JSON'
               WHEN json_typeof(CAST(x.execs AS json)) <> 'array' THEN 'not a JSON array'
               ELSE 'an empty array' END
  FROM checked x LEFT JOIN run r ON r.rid = x.rid
 WHERE CASE WHEN NOT x.valid THEN true
            WHEN json_typeof(CAST(x.execs AS json)) <> 'array' THEN true
            ELSE json_array_length(CAST(x.execs AS json)) = 0 END
UNION ALL
SELECT 'run ' || COALESCE(r.run_id, '(rid ' || x.rid || ')') || ': its execution ' || (e.ord - 1)
       || ' is not [command, exit_code, duration_ms, cpu_ms, memory_peak_mb, bytes_read, bytes_written, cost_nanos, extra]'
  FROM checked x
  LEFT JOIN run r ON r.rid = x.rid
 CROSS JOIN LATERAL json_array_elements(
           CASE WHEN x.valid AND json_typeof(CAST(x.execs AS json)) = 'array'
                THEN CAST(x.execs AS json) ELSE CAST('[]' AS json) END) WITH ORDINALITY AS e (value, ord)
 WHERE CASE WHEN json_typeof(e.value) <> 'array' THEN true
            WHEN json_array_length(e.value) <> 9 THEN true
            ELSE EXISTS (SELECT 1
                           FROM json_array_elements(e.value) WITH ORDINALITY AS v (value, n)
                           JOIN (VALUES (1, 'text', true), (2, 'int', true), (3, 'int', false),
                                        (4, 'int', false), (5, 'int', false), (6, 'int', false),
                                        (7, 'int', false), (8, 'int', true), (9, 'text', true)) AS p (n, kind, nullable)
                             ON p.n = v.n
                          WHERE NOT CASE json_typeof(v.value)
                                         WHEN 'null' THEN p.nullable
                                         WHEN 'string' THEN p.kind = 'text'
                                         WHEN 'number' THEN
                                              p.kind = 'int'
                                              AND CASE WHEN (v.value #>> '{}') ~ '^-?[0-9]{1,19}$'
                                                       THEN CAST(v.value #>> '{}' AS numeric)
                                                            BETWEEN -9223372036854775808 AND 9223372036854775807
                                                       ELSE false END
                                         ELSE false END)
       END;
