-- Add runs without the tracked tag :name to its untagged rollup of a day,
-- backend and model (sql/schema/010_scale.sql; as rollup_day_add.sql).
INSERT INTO run_day_untagged (name, day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens, exec_count, cpu_ms, bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs, memory_peak_mb)
VALUES (:name, :day, :backend, :model, :runs, :exec_ms, :computed_nanos, :input_tokens, :output_tokens, :exec_count, :cpu_ms,
        :bytes_read, :bytes_written, :billed_nanos, :billed_runs, :card_nanos, :card_runs, :memory_peak_mb)
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
