-- Runs of a backend started since an instant, with their end and their executions'
-- durations (one row per execution, from the run's run_execs row; summary-only
-- runs one row with NULL), ordered by start, run and execution (the index on
-- started_ms gives that order), to recompute their card cost.
-- PostgreSQL (sql/queries/run_reprice_list.sql is SQLite's, with json_each): the
-- executions are the elements of the JSON array, in order (WITH ORDINALITY), each
-- one's duration_ms its third element read as a BIGINT (as the execution view does).
SELECT r.rid, COALESCE(r.plan, ''), r.started_ms, r.has_executions, r.total_duration_ms,
       CAST(e.value ->> 2 AS BIGINT) AS duration_ms,   -- the execution's duration_ms (sql/schema/010_scale.sql)
       r.ended_ms
  FROM run r
  LEFT JOIN run_execs x ON x.rid = r.rid
  LEFT JOIN LATERAL json_array_elements(CAST(x.execs AS json)) WITH ORDINALITY AS e (value, ord) ON TRUE
 WHERE r.backend = :backend AND r.started_ms >= :from_ms
 ORDER BY r.started_ms, r.rid, e.ord;
