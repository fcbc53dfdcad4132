-- The day rollups hold exactly the sums of the runs and of the tagged runs (sql/schema/005_rollup.sql).
-- The query lists what breaks it.
-- Every run counts once in run_day (name and value NULL here) and once
-- per tag in run_day_tag.  Each sum is compared as its high and low 32
-- bits, the runs' halves summed apart, so that a group whose sum passed
-- 64 bits (kept as a REAL, see 005_rollup.sql) is checked too, without an
-- "integer overflow" from SUM: both sides then hold NULL halves.  The
-- groups are compared with EXCEPT both ways, which sorts (a join of two
-- CTEs would compare every row with every row).
WITH counted (name, value, day, backend, model, exec_ms, computed_nanos, input_tokens, output_tokens) AS (
    SELECT NULL, NULL, started_day, backend, COALESCE(model, ''), total_duration_ms, computed_nanos,
           input_tokens, output_tokens
      FROM run
    UNION ALL
    SELECT t.name, t.value, r.started_day, r.backend, COALESCE(r.model, ''), r.total_duration_ms,
           r.computed_nanos, r.input_tokens, r.output_tokens
      FROM run r JOIN run_tag t ON t.rid = r.rid),
parts AS (
    SELECT name, value, day, backend, model, COUNT(*) AS runs,
           SUM(exec_ms >> 32) AS exec_ms_hi, SUM(exec_ms & 4294967295) AS exec_ms_lo,
           SUM(computed_nanos >> 32) AS computed_nanos_hi, SUM(computed_nanos & 4294967295) AS computed_nanos_lo,
           SUM(input_tokens >> 32) AS input_tokens_hi, SUM(input_tokens & 4294967295) AS input_tokens_lo,
           SUM(output_tokens >> 32) AS output_tokens_hi, SUM(output_tokens & 4294967295) AS output_tokens_lo
      FROM counted
     GROUP BY name, value, day, backend, model),
want AS (
    SELECT name, value, day, backend, model, runs,
           CASE WHEN exec_ms_hi + (exec_ms_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN exec_ms_hi + (exec_ms_lo >> 32) END,
           CASE WHEN exec_ms_hi + (exec_ms_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN exec_ms_lo & 4294967295 END,
           CASE WHEN computed_nanos_hi + (computed_nanos_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN computed_nanos_hi + (computed_nanos_lo >> 32) END,
           CASE WHEN computed_nanos_hi + (computed_nanos_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN computed_nanos_lo & 4294967295 END,
           CASE WHEN input_tokens_hi + (input_tokens_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN input_tokens_hi + (input_tokens_lo >> 32) END,
           CASE WHEN input_tokens_hi + (input_tokens_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN input_tokens_lo & 4294967295 END,
           CASE WHEN output_tokens_hi + (output_tokens_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN output_tokens_hi + (output_tokens_lo >> 32) END,
           CASE WHEN output_tokens_hi + (output_tokens_lo >> 32) BETWEEN -2147483648 AND 2147483647 THEN output_tokens_lo & 4294967295 END
      FROM parts),
stored (name, value, day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens) AS (
    SELECT NULL, NULL, day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens FROM run_day
    UNION ALL
    SELECT name, value, day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens FROM run_day_tag),
have AS (
    SELECT name, value, day, backend, model, runs,
           CASE typeof(exec_ms) WHEN 'integer' THEN exec_ms >> 32 END,
           CASE typeof(exec_ms) WHEN 'integer' THEN exec_ms & 4294967295 END,
           CASE typeof(computed_nanos) WHEN 'integer' THEN computed_nanos >> 32 END,
           CASE typeof(computed_nanos) WHEN 'integer' THEN computed_nanos & 4294967295 END,
           CASE typeof(input_tokens) WHEN 'integer' THEN input_tokens >> 32 END,
           CASE typeof(input_tokens) WHEN 'integer' THEN input_tokens & 4294967295 END,
           CASE typeof(output_tokens) WHEN 'integer' THEN output_tokens >> 32 END,
           CASE typeof(output_tokens) WHEN 'integer' THEN output_tokens & 4294967295 END
      FROM stored
     WHERE runs <> 0 OR exec_ms <> 0 OR computed_nanos <> 0 OR input_tokens <> 0 OR output_tokens <> 0)
SELECT DISTINCT
       CASE WHEN name IS NULL
            THEN 'run_day ' || day || ' ' || backend || ' ' || model || ': the rollup disagrees with the runs'
            ELSE 'run_day_tag ' || name || '=' || value || ' ' || day || ' ' || backend || ' ' || model
                 || ': the rollup disagrees with the tagged runs' END
  FROM (SELECT * FROM (SELECT * FROM want EXCEPT SELECT * FROM have)
        UNION ALL
        SELECT * FROM (SELECT * FROM have EXCEPT SELECT * FROM want))
 ORDER BY 1;
