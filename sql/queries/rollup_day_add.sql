-- Add runs to the rollup of a day, backend and model (sql/schema/005_rollup.sql,
-- 010_scale.sql): every sum added, memory_peak_mb the larger (a group whose
-- maximum is to be found again, -1, stays so: rollup_fix_max.sql finds it).
INSERT INTO run_day (day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs, memory_peak_mb)
VALUES (:day, :backend, :model, :runs, :exec_ms, :computed_nanos, :input_tokens, :output_tokens, :exec_count, :cpu_ms,
        :bytes_read, :bytes_written, :billed_nanos, :billed_runs, :card_nanos, :card_runs, :memory_peak_mb)
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
       memory_peak_mb = CASE WHEN run_day.memory_peak_mb < 0 THEN run_day.memory_peak_mb
                             WHEN excluded.memory_peak_mb > run_day.memory_peak_mb THEN excluded.memory_peak_mb
                             ELSE run_day.memory_peak_mb END;
