-- The day rollups hold exactly the sums of the runs, of the tagged runs and of the untagged ones (sql/schema/005_rollup.sql, 010_scale.sql).
-- The query lists what breaks it.
-- As sql/checks/06_run_rollups.sql: every run counts once in run_day,
-- once per tag in run_day_tag, and once per tracked tag name it lacks
-- (run_tag_name) in run_day_untagged; each group holds the sums of its
-- runs' figures (billed_nanos and card_nanos of the runs that have one,
-- billed_runs and card_runs counting them) and their largest
-- memory_peak_mb; a stored group of nothing but zeros is no group.  On
-- PostgreSQL SUM of a BIGINT is a numeric, exact at any size, and a
-- rollup column is a BIGINT that cannot hold more (the writer's sum past
-- 64 bits is an error, not SQLite's REAL): the sums are compared whole,
-- where SQLite's check splits them in 32-bit halves.  The groups are
-- compared with EXCEPT both ways.
WITH counted AS (
    SELECT 'day' AS kind, CAST(NULL AS TEXT) AS name, CAST(NULL AS TEXT) AS value, r.started_day AS day,
           r.backend, COALESCE(r.model, '') AS model, r.memory_peak_mb, r.total_duration_ms AS exec_ms,
           r.computed_nanos, r.input_tokens, r.output_tokens, r.exec_count, r.cpu_ms, r.bytes_read,
           r.bytes_written, COALESCE(r.billed_nanos, 0) AS billed_nanos,
           CASE WHEN r.billed_nanos IS NULL THEN 0 ELSE 1 END AS billed_runs,
           COALESCE(r.card_nanos, 0) AS card_nanos, CASE WHEN r.card_nanos IS NULL THEN 0 ELSE 1 END AS card_runs
      FROM run r
    UNION ALL
    SELECT 'tag', t.name, t.value, r.started_day, r.backend, COALESCE(r.model, ''), r.memory_peak_mb,
           r.total_duration_ms, r.computed_nanos, r.input_tokens, r.output_tokens, r.exec_count, r.cpu_ms,
           r.bytes_read, r.bytes_written, COALESCE(r.billed_nanos, 0),
           CASE WHEN r.billed_nanos IS NULL THEN 0 ELSE 1 END,
           COALESCE(r.card_nanos, 0), CASE WHEN r.card_nanos IS NULL THEN 0 ELSE 1 END
      FROM run r JOIN run_tag t ON t.rid = r.rid
    UNION ALL
    SELECT 'untagged', n.name, NULL, r.started_day, r.backend, COALESCE(r.model, ''), r.memory_peak_mb,
           r.total_duration_ms, r.computed_nanos, r.input_tokens, r.output_tokens, r.exec_count, r.cpu_ms,
           r.bytes_read, r.bytes_written, COALESCE(r.billed_nanos, 0),
           CASE WHEN r.billed_nanos IS NULL THEN 0 ELSE 1 END,
           COALESCE(r.card_nanos, 0), CASE WHEN r.card_nanos IS NULL THEN 0 ELSE 1 END
      FROM run r CROSS JOIN run_tag_name n
     WHERE NOT EXISTS (SELECT 1 FROM run_tag t WHERE t.rid = r.rid AND t.name = n.name)),
want AS (
    SELECT kind, name, value, day, backend, model, COUNT(*) AS runs, MAX(memory_peak_mb) AS memory_peak_mb,
           SUM(exec_ms) AS exec_ms, SUM(computed_nanos) AS computed_nanos, SUM(input_tokens) AS input_tokens,
           SUM(output_tokens) AS output_tokens, SUM(exec_count) AS exec_count, SUM(cpu_ms) AS cpu_ms,
           SUM(bytes_read) AS bytes_read, SUM(bytes_written) AS bytes_written,
           SUM(billed_nanos) AS billed_nanos, SUM(billed_runs) AS billed_runs,
           SUM(card_nanos) AS card_nanos, SUM(card_runs) AS card_runs
      FROM counted
     GROUP BY kind, name, value, day, backend, model),
stored AS (
    SELECT 'day' AS kind, CAST(NULL AS TEXT) AS name, CAST(NULL AS TEXT) AS value, day, backend, model, runs,
           memory_peak_mb, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms,
           bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs
      FROM run_day
    UNION ALL
    SELECT 'tag', name, value, day, backend, model, runs, memory_peak_mb, exec_ms, computed_nanos,
           input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos,
           billed_runs, card_nanos, card_runs
      FROM run_day_tag
    UNION ALL
    SELECT 'untagged', name, NULL, day, backend, model, runs, memory_peak_mb, exec_ms, computed_nanos,
           input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos,
           billed_runs, card_nanos, card_runs
      FROM run_day_untagged),
have AS (
    SELECT kind, name, value, day, backend, model, runs, memory_peak_mb,
           CAST(exec_ms AS numeric), CAST(computed_nanos AS numeric), CAST(input_tokens AS numeric),
           CAST(output_tokens AS numeric), CAST(exec_count AS numeric), CAST(cpu_ms AS numeric),
           CAST(bytes_read AS numeric), CAST(bytes_written AS numeric), CAST(billed_nanos AS numeric),
           CAST(billed_runs AS numeric), CAST(card_nanos AS numeric), CAST(card_runs AS numeric)
      FROM stored
     WHERE runs <> 0 OR exec_ms <> 0 OR computed_nanos <> 0 OR input_tokens <> 0 OR output_tokens <> 0
        OR exec_count <> 0 OR cpu_ms <> 0 OR bytes_read <> 0 OR bytes_written <> 0 OR billed_nanos <> 0
        OR billed_runs <> 0 OR card_nanos <> 0 OR card_runs <> 0)
SELECT DISTINCT
       CASE kind
            WHEN 'day' THEN 'run_day ' || day || ' ' || backend || ' ' || model || ': the rollup disagrees with the runs'
            WHEN 'tag' THEN 'run_day_tag ' || name || '=' || value || ' ' || day || ' ' || backend || ' ' || model
                            || ': the rollup disagrees with the tagged runs'
            ELSE 'run_day_untagged ' || name || ' ' || day || ' ' || backend || ' ' || model
                 || ': the rollup disagrees with the runs without the tag' END
  FROM ((SELECT * FROM want EXCEPT SELECT * FROM have)
        UNION ALL
        (SELECT * FROM have EXCEPT SELECT * FROM want)) AS d
 ORDER BY 1;
