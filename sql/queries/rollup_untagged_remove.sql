-- Take the stored run :rid out of the untagged rollups of the tracked tag
-- names it lacks (before --replace deletes it; as rollup_day_remove.sql).
INSERT INTO run_day_untagged (name, day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs, memory_peak_mb)
SELECT n.name, r.started_day, r.backend, COALESCE(r.model, ''), -1,
       -r.total_duration_ms, -r.computed_nanos, -r.input_tokens, -r.output_tokens, -r.exec_count,
       -r.cpu_ms, -r.bytes_read, -r.bytes_written, -COALESCE(r.billed_nanos, 0),
       CASE WHEN r.billed_nanos IS NULL THEN 0 ELSE -1 END,
       -COALESCE(r.card_nanos, 0), CASE WHEN r.card_nanos IS NULL THEN 0 ELSE -1 END,
       -1 - r.memory_peak_mb
  FROM run r JOIN run_tag_name n
         ON NOT EXISTS (SELECT 1 FROM run_tag t WHERE t.rid = r.rid AND t.name = n.name)
 WHERE r.rid = :rid
    ON CONFLICT (name, day, backend, model) DO UPDATE
   SET runs = run_day_untagged.runs + excluded.runs,
       exec_ms = run_day_untagged.exec_ms + excluded.exec_ms,
       computed_nanos = run_day_untagged.computed_nanos + excluded.computed_nanos,
       input_tokens = run_day_untagged.input_tokens + excluded.input_tokens,
       output_tokens = run_day_untagged.output_tokens + excluded.output_tokens,
       exec_count = run_day_untagged.exec_count + excluded.exec_count,
       cpu_ms = run_day_untagged.cpu_ms + excluded.cpu_ms,
       bytes_read = run_day_untagged.bytes_read + excluded.bytes_read,
       bytes_written = run_day_untagged.bytes_written + excluded.bytes_written,
       billed_nanos = run_day_untagged.billed_nanos + excluded.billed_nanos,
       billed_runs = run_day_untagged.billed_runs + excluded.billed_runs,
       card_nanos = run_day_untagged.card_nanos + excluded.card_nanos,
       card_runs = run_day_untagged.card_runs + excluded.card_runs,
       memory_peak_mb = CASE WHEN run_day_untagged.memory_peak_mb < 0 OR -1 - excluded.memory_peak_mb >= run_day_untagged.memory_peak_mb THEN -1
                             ELSE run_day_untagged.memory_peak_mb END;
