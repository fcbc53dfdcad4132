-- The runs started in [:from_ms, :to_ms) grouped by a key and by model,
-- ordered by key then model.  :by chooses the key: 'backend', 'day' (UTC
-- date), 'model', 'session', or 'tag' (the value of tag :tag).  Runs
-- without the key group under '(none)', or '(untagged)' for a tag.
-- card_priced < runs means some run has no card cost.
SELECT CASE :by
         WHEN 'backend' THEN r.backend
         WHEN 'day' THEN r.started_day
         WHEN 'model' THEN COALESCE(r.model, '(none)')
         WHEN 'session' THEN COALESCE(r.session_id, '(none)')
         ELSE COALESCE(t.value, '(untagged)')
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
  LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
 GROUP BY group_key, r.model
 ORDER BY group_key, r.model;
