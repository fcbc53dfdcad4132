-- The day rollups hold exactly the sums of the runs (sql/schema/005_rollup.sql).
-- The query lists what breaks it.
-- A sum is compared in two halves, the high and the low 32 bits of each
-- run's figure summed apart, so that a group whose sum passes 64 bits
-- (stored as a REAL, see 005_rollup.sql) is checked too, without an
-- "integer overflow" from SUM.
WITH parts (day, backend, model, runs, exec_ms_hi, exec_ms_lo, computed_nanos_hi, computed_nanos_lo, input_tokens_hi, input_tokens_lo, output_tokens_hi, output_tokens_lo) AS (
    SELECT started_day, backend, COALESCE(model, ''), COUNT(*),
           SUM(total_duration_ms >> 32), SUM(total_duration_ms & 4294967295),
           SUM(computed_nanos >> 32), SUM(computed_nanos & 4294967295),
           SUM(input_tokens >> 32), SUM(input_tokens & 4294967295),
           SUM(output_tokens >> 32), SUM(output_tokens & 4294967295)
      FROM run
     GROUP BY started_day, backend, COALESCE(model, '')),
want AS (
    SELECT day, backend, model, runs,
           exec_ms_hi + (exec_ms_lo >> 32) AS exec_ms_hi, exec_ms_lo & 4294967295 AS exec_ms_lo,
           computed_nanos_hi + (computed_nanos_lo >> 32) AS computed_nanos_hi, computed_nanos_lo & 4294967295 AS computed_nanos_lo,
           input_tokens_hi + (input_tokens_lo >> 32) AS input_tokens_hi, input_tokens_lo & 4294967295 AS input_tokens_lo,
           output_tokens_hi + (output_tokens_lo >> 32) AS output_tokens_hi, output_tokens_lo & 4294967295 AS output_tokens_lo
      FROM parts),
have AS (
    SELECT * FROM run_day
     WHERE runs <> 0 OR exec_ms <> 0 OR computed_nanos <> 0 OR input_tokens <> 0 OR output_tokens <> 0)
SELECT 'run_day ' || COALESCE(w.day, h.day) || ' ' || COALESCE(w.backend, h.backend) || ' '
       || COALESCE(w.model, h.model) || ': the rollup disagrees with the runs'
  FROM want w FULL JOIN have h USING (day, backend, model)
 WHERE w.runs IS NOT h.runs
    OR NOT CASE typeof(h.exec_ms)
           WHEN 'integer' THEN (h.exec_ms >> 32) = w.exec_ms_hi AND (h.exec_ms & 4294967295) = w.exec_ms_lo
           WHEN 'real' THEN w.exec_ms_hi NOT BETWEEN -2147483648 AND 2147483647
           ELSE 0 END
    OR NOT CASE typeof(h.computed_nanos)
           WHEN 'integer' THEN (h.computed_nanos >> 32) = w.computed_nanos_hi AND (h.computed_nanos & 4294967295) = w.computed_nanos_lo
           WHEN 'real' THEN w.computed_nanos_hi NOT BETWEEN -2147483648 AND 2147483647
           ELSE 0 END
    OR NOT CASE typeof(h.input_tokens)
           WHEN 'integer' THEN (h.input_tokens >> 32) = w.input_tokens_hi AND (h.input_tokens & 4294967295) = w.input_tokens_lo
           WHEN 'real' THEN w.input_tokens_hi NOT BETWEEN -2147483648 AND 2147483647
           ELSE 0 END
    OR NOT CASE typeof(h.output_tokens)
           WHEN 'integer' THEN (h.output_tokens >> 32) = w.output_tokens_hi AND (h.output_tokens & 4294967295) = w.output_tokens_lo
           WHEN 'real' THEN w.output_tokens_hi NOT BETWEEN -2147483648 AND 2147483647
           ELSE 0 END;
