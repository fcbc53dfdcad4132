-- summary_tag.sql over the day rollups (sql/schema/005_rollup.sql,
-- 010_scale.sql): the runs started in [:from_ms, :to_ms) by the value of
-- tag :tag and by model, '(untagged)' for the runs without it, with the
-- columns of summary.sql, ordered so.  The whole UTC days of the period,
-- [:from_day, :to_day), come from run_day_tag, and the runs without the
-- tag from run_day_untagged when :tag is a tracked name (:tracked 1), else
-- (no run has the tag: :tracked 0) from run_day; the rest of the period,
-- [:from_ms, :head_end_ms) and [:tail_start_ms, :to_ms), from run.  (A tag
-- some runs have that is not tracked is read from the runs:
-- summary_tag.sql.)
WITH parts (group_key, model, runs, exec_count, total_duration_ms, cpu_ms, memory_peak_mb, bytes_read,
           bytes_written, computed_nanos, billed_nanos, billed_runs, card_nanos, card_runs,
           input_tokens, output_tokens) AS (
    SELECT value, NULLIF(model, ''),
           runs, exec_count, exec_ms, cpu_ms, CASE WHEN runs > 0 THEN memory_peak_mb END,
           bytes_read, bytes_written, computed_nanos, billed_nanos, billed_runs, card_nanos,
           card_runs, input_tokens, output_tokens
      FROM run_day_tag
     WHERE name = :tag AND day >= :from_day AND day < :to_day
    UNION ALL
    SELECT '(untagged)', NULLIF(model, ''),
           runs, exec_count, exec_ms, cpu_ms, CASE WHEN runs > 0 THEN memory_peak_mb END,
           bytes_read, bytes_written, computed_nanos, billed_nanos, billed_runs, card_nanos,
           card_runs, input_tokens, output_tokens
      FROM run_day_untagged
     WHERE :tracked = 1 AND name = :tag AND day >= :from_day AND day < :to_day
    UNION ALL
    SELECT '(untagged)', NULLIF(model, ''),
           runs, exec_count, exec_ms, cpu_ms, CASE WHEN runs > 0 THEN memory_peak_mb END,
           bytes_read, bytes_written, computed_nanos, billed_nanos, billed_runs, card_nanos,
           card_runs, input_tokens, output_tokens
      FROM run_day
     WHERE :tracked = 0 AND day >= :from_day AND day < :to_day
    UNION ALL
    SELECT COALESCE(t.value, '(untagged)'), r.model,
           1, r.exec_count, r.total_duration_ms, r.cpu_ms, r.memory_peak_mb, r.bytes_read,
           r.bytes_written, r.computed_nanos, COALESCE(r.billed_nanos, 0),
           CASE WHEN r.billed_nanos IS NULL THEN 0 ELSE 1 END,
           COALESCE(r.card_nanos, 0), CASE WHEN r.card_nanos IS NULL THEN 0 ELSE 1 END,
           r.input_tokens, r.output_tokens
      FROM run r
      LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
     WHERE (r.started_ms >= :from_ms AND r.started_ms < :head_end_ms)
        OR (r.started_ms >= :tail_start_ms AND r.started_ms < :to_ms))
SELECT group_key,
       model,
       SUM(runs) AS runs,
       SUM(exec_count),
       SUM(total_duration_ms),
       SUM(cpu_ms),
       MAX(memory_peak_mb),
       SUM(bytes_read),
       SUM(bytes_written),
       SUM(computed_nanos),
       CASE WHEN SUM(billed_runs) > 0 THEN SUM(billed_nanos) END,
       SUM(card_nanos),
       SUM(card_runs) AS card_priced,
       SUM(input_tokens),
       SUM(output_tokens)
  FROM parts
 GROUP BY group_key, model
HAVING SUM(runs) > 0
 ORDER BY group_key, model NULLS FIRST;
