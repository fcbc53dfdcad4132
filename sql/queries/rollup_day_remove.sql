-- Take the stored run :rid out of the rollup of its day (before --replace
-- deletes it).  An upsert: the writer may not have added it yet.  The
-- memory is carried as -1 - memory_peak_mb: a group whose maximum it was
-- (or a row made here) is marked -1, its maximum found again among the runs
-- left before the commit (rollup_fix_max.sql).
INSERT INTO run_day (day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs, memory_peak_mb)
SELECT r.started_day, r.backend, COALESCE(r.model, ''), -1,
       -r.total_duration_ms, -r.computed_nanos, -r.input_tokens, -r.output_tokens, -r.exec_count,
       -r.cpu_ms, -r.bytes_read, -r.bytes_written, -COALESCE(r.billed_nanos, 0),
       CASE WHEN r.billed_nanos IS NULL THEN 0 ELSE -1 END,
       -COALESCE(r.card_nanos, 0), CASE WHEN r.card_nanos IS NULL THEN 0 ELSE -1 END,
       -1 - r.memory_peak_mb
  FROM run r WHERE r.rid = :rid
    ON CONFLICT (day, backend, model) DO UPDATE
   SET runs = run_day.runs + excluded.runs,
       exec_ms = run_day.exec_ms + excluded.exec_ms,
       computed_nanos = run_day.computed_nanos + excluded.computed_nanos,
       input_tokens = run_day.input_tokens + excluded.input_tokens,
       output_tokens = run_day.output_tokens + excluded.output_tokens,
       exec_count = run_day.exec_count + excluded.exec_count,
       cpu_ms = run_day.cpu_ms + excluded.cpu_ms,
       bytes_read = run_day.bytes_read + excluded.bytes_read,
       bytes_written = run_day.bytes_written + excluded.bytes_written,
       billed_nanos = run_day.billed_nanos + excluded.billed_nanos,
       billed_runs = run_day.billed_runs + excluded.billed_runs,
       card_nanos = run_day.card_nanos + excluded.card_nanos,
       card_runs = run_day.card_runs + excluded.card_runs,
       memory_peak_mb = CASE WHEN run_day.memory_peak_mb < 0 OR -1 - excluded.memory_peak_mb >= run_day.memory_peak_mb THEN -1
                             ELSE run_day.memory_peak_mb END;
