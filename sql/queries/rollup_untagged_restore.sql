-- Count the stored run :rid in the untagged rollups of the tracked tag
-- names it lacks again (as rollup_day_restore.sql, once its tags are
-- stored).
INSERT INTO run_day_untagged (name, day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs, memory_peak_mb)
SELECT n.name, r.started_day, r.backend, COALESCE(r.model, ''), 1,
       r.total_duration_ms, r.computed_nanos, r.input_tokens, r.output_tokens, r.exec_count,
       r.cpu_ms, r.bytes_read, r.bytes_written, COALESCE(r.billed_nanos, 0),
       r.billed_nanos IS NOT NULL, COALESCE(r.card_nanos, 0), r.card_nanos IS NOT NULL,
       r.memory_peak_mb
  FROM run r JOIN run_tag_name n
 WHERE r.rid = :rid AND NOT EXISTS (SELECT 1 FROM run_tag t WHERE t.rid = r.rid AND t.name = n.name)
    ON CONFLICT (name, day, backend, model) DO UPDATE
   SET runs = runs + excluded.runs,
       exec_ms = exec_ms + excluded.exec_ms,
       computed_nanos = computed_nanos + excluded.computed_nanos,
       input_tokens = input_tokens + excluded.input_tokens,
       output_tokens = output_tokens + excluded.output_tokens,
       exec_count = exec_count + excluded.exec_count,
       cpu_ms = cpu_ms + excluded.cpu_ms,
       bytes_read = bytes_read + excluded.bytes_read,
       bytes_written = bytes_written + excluded.bytes_written,
       billed_nanos = billed_nanos + excluded.billed_nanos,
       billed_runs = billed_runs + excluded.billed_runs,
       card_nanos = card_nanos + excluded.card_nanos,
       card_runs = card_runs + excluded.card_runs,
       memory_peak_mb = CASE WHEN memory_peak_mb < 0 THEN memory_peak_mb
                             ELSE MAX(memory_peak_mb, excluded.memory_peak_mb) END;
