-- summary.sql over the day rollups (sql/schema/005_rollup.sql, 010_scale.sql):
-- the runs started in [:from_ms, :to_ms) grouped by :by ('backend', 'day'
-- or 'model') and by model, with the columns of summary.sql, ordered so.
-- The whole UTC days of the period, [:from_day, :to_day), come from
-- run_day; the rest, [:from_ms, :head_end_ms) and [:tail_start_ms, :to_ms),
-- from run.  A group's billed sum is null when none of its runs has one;
-- a rollup row left with no run (a run replaced into another group) adds
-- nothing.  A sum past 64 bits is a REAL here (the caller refuses it).
WITH parts (group_key, model, runs, exec_count, total_duration_ms, cpu_ms, memory_peak_mb, bytes_read,
           bytes_written, computed_nanos, billed_nanos, billed_runs, card_nanos, card_runs,
           input_tokens, output_tokens) AS (
    SELECT CASE :by WHEN 'backend' THEN backend WHEN 'day' THEN day
                    ELSE CASE model WHEN '' THEN '(none)' ELSE model END END,
           NULLIF(model, ''),
           runs, exec_count, exec_ms, cpu_ms, CASE WHEN runs > 0 THEN memory_peak_mb END,
           bytes_read, bytes_written, computed_nanos, billed_nanos, billed_runs, card_nanos,
           card_runs, input_tokens, output_tokens
      FROM run_day
     WHERE day >= :from_day AND day < :to_day
    UNION ALL
    SELECT CASE :by WHEN 'backend' THEN r.backend WHEN 'day' THEN r.started_day
                    ELSE COALESCE(r.model, '(none)') END, r.model,
           1, r.exec_count, r.total_duration_ms, r.cpu_ms, r.memory_peak_mb, r.bytes_read,
           r.bytes_written, r.computed_nanos, COALESCE(r.billed_nanos, 0),
           CASE WHEN r.billed_nanos IS NULL THEN 0 ELSE 1 END,
           COALESCE(r.card_nanos, 0), CASE WHEN r.card_nanos IS NULL THEN 0 ELSE 1 END,
           r.input_tokens, r.output_tokens
      FROM run r
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
