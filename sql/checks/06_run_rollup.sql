-- The day rollups hold exactly the sums of the runs (sql/schema/005_rollup.sql).
-- The query lists what breaks it.
-- Each sum is compared as its high and low 32 bits, the runs' high and
-- low halves summed apart, so that a group whose sum passed 64 bits (kept
-- as a REAL, see 005_rollup.sql) is checked too, without an "integer
-- overflow" from SUM: both sides then hold NULL halves.  The groups are
-- compared with EXCEPT both ways, which sorts (a join of two CTEs would
-- compare every row with every row).
WITH parts AS (
    SELECT started_day AS day, backend, COALESCE(model, '') AS model, COUNT(*) AS runs,
           SUM(total_duration_ms >> 32) AS exec_ms_hi, SUM(total_duration_ms & 4294967295) AS exec_ms_lo,
           SUM(computed_nanos >> 32) AS computed_nanos_hi, SUM(computed_nanos & 4294967295) AS computed_nanos_lo,
           SUM(input_tokens >> 32) AS input_tokens_hi, SUM(input_tokens & 4294967295) AS input_tokens_lo,
           SUM(output_tokens >> 32) AS output_tokens_hi, SUM(output_tokens & 4294967295) AS output_tokens_lo
      FROM run
     GROUP BY started_day, backend, COALESCE(model, '')),
carried AS (
    SELECT day, backend, model, runs,
           exec_ms_hi + (exec_ms_lo >> 32) AS exec_ms_hi, exec_ms_lo & 4294967295 AS exec_ms_lo,
           computed_nanos_hi + (computed_nanos_lo >> 32) AS computed_nanos_hi, computed_nanos_lo & 4294967295 AS computed_nanos_lo,
           input_tokens_hi + (input_tokens_lo >> 32) AS input_tokens_hi, input_tokens_lo & 4294967295 AS input_tokens_lo,
           output_tokens_hi + (output_tokens_lo >> 32) AS output_tokens_hi, output_tokens_lo & 4294967295 AS output_tokens_lo
      FROM parts),
want AS (
    SELECT day, backend, model, runs,
           CASE WHEN exec_ms_hi BETWEEN -2147483648 AND 2147483647 THEN exec_ms_hi END,
           CASE WHEN exec_ms_hi BETWEEN -2147483648 AND 2147483647 THEN exec_ms_lo END,
           CASE WHEN computed_nanos_hi BETWEEN -2147483648 AND 2147483647 THEN computed_nanos_hi END,
           CASE WHEN computed_nanos_hi BETWEEN -2147483648 AND 2147483647 THEN computed_nanos_lo END,
           CASE WHEN input_tokens_hi BETWEEN -2147483648 AND 2147483647 THEN input_tokens_hi END,
           CASE WHEN input_tokens_hi BETWEEN -2147483648 AND 2147483647 THEN input_tokens_lo END,
           CASE WHEN output_tokens_hi BETWEEN -2147483648 AND 2147483647 THEN output_tokens_hi END,
           CASE WHEN output_tokens_hi BETWEEN -2147483648 AND 2147483647 THEN output_tokens_lo END
      FROM carried),
have AS (
    SELECT day, backend, model, runs,
           CASE typeof(exec_ms) WHEN 'integer' THEN exec_ms >> 32 END,
           CASE typeof(exec_ms) WHEN 'integer' THEN exec_ms & 4294967295 END,
           CASE typeof(computed_nanos) WHEN 'integer' THEN computed_nanos >> 32 END,
           CASE typeof(computed_nanos) WHEN 'integer' THEN computed_nanos & 4294967295 END,
           CASE typeof(input_tokens) WHEN 'integer' THEN input_tokens >> 32 END,
           CASE typeof(input_tokens) WHEN 'integer' THEN input_tokens & 4294967295 END,
           CASE typeof(output_tokens) WHEN 'integer' THEN output_tokens >> 32 END,
           CASE typeof(output_tokens) WHEN 'integer' THEN output_tokens & 4294967295 END
      FROM run_day
     WHERE runs <> 0 OR exec_ms <> 0 OR computed_nanos <> 0 OR input_tokens <> 0 OR output_tokens <> 0)
SELECT DISTINCT 'run_day ' || day || ' ' || backend || ' ' || model || ': the rollup disagrees with the runs'
  FROM (SELECT * FROM (SELECT * FROM want EXCEPT SELECT * FROM have)
        UNION ALL
        SELECT * FROM (SELECT * FROM have EXCEPT SELECT * FROM want))
 ORDER BY 1;
