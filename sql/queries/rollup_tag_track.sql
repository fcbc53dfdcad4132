-- Track the tag name :name, which no stored run has had: it joins
-- run_tag_name (rollup_tag_name_insert.sql) and every run stored so far is
-- untagged for it, so its untagged rollup is run_day as it stands.
INSERT INTO run_day_untagged (name, day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs, memory_peak_mb)
SELECT CAST(:name AS TEXT), day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs, memory_peak_mb
  FROM run_day;
