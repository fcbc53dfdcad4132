-- summary.sql grouped by the value of tag :tag instead: the runs started
-- in [:from_ms, :to_ms) by tag value and model, ordered so; runs without
-- the tag group under '(untagged)'.  The columns are summary.sql's.
SELECT COALESCE(t.value, '(untagged)') AS group_key,
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
 ORDER BY group_key, r.model NULLS FIRST;
