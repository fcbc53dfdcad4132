-- The runs started in [:from_ms, :to_ms) grouped by a key and by model,
-- ordered by key then model.  :by chooses the key: 'backend', 'day' (UTC
-- date), 'model' or 'session'; runs without the key group under '(none)'.
-- (Grouping by a tag is summary_tag.sql: the join to run_tag costs a
-- lookup per run, which the other keys need not pay.)
-- card_priced < runs means some run has no card cost.
SELECT CASE :by
         WHEN 'backend' THEN r.backend
         WHEN 'day' THEN r.started_day
         WHEN 'model' THEN COALESCE(r.model, '(none)')
         ELSE COALESCE(r.session_id, '(none)')
       END AS group_key,
       r.model,
       COUNT(*) AS runs,
       SUM(r.exec_count),
       SUM(r.total_duration_ms),
       SUM(r.cpu_ms),
       MAX(r.memory_peak_mb),
       SUM(r.bytes_read),
       SUM(r.bytes_written),
       SUM(r.computed_nanos),
       SUM(r.billed_nanos),
       SUM(r.card_nanos),
       COUNT(r.card_nanos) AS card_priced,
       SUM(r.input_tokens),
       SUM(r.output_tokens)
  FROM run r
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
 GROUP BY group_key, r.model
 ORDER BY group_key, r.model NULLS FIRST;
