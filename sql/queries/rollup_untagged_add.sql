-- Add runs without the tracked tag :name to its untagged rollup of a day,
-- backend and model (sql/schema/010_scale.sql; as rollup_day_add.sql).
INSERT INTO run_day_untagged (name, day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs, memory_peak_mb)
VALUES (:name, :day, :backend, :model, :runs, :exec_ms, :computed_nanos, :input_tokens, :output_tokens, :exec_count, :cpu_ms,
        :bytes_read, :bytes_written, :billed_nanos, :billed_runs, :card_nanos, :card_runs, :memory_peak_mb)
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
       memory_peak_mb = CASE WHEN run_day_untagged.memory_peak_mb < 0 THEN run_day_untagged.memory_peak_mb
                             WHEN excluded.memory_peak_mb > run_day_untagged.memory_peak_mb THEN excluded.memory_peak_mb
                             ELSE run_day_untagged.memory_peak_mb END;
