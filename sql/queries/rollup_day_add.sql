-- Add runs to the rollup of a day, backend and model (sql/schema/005_rollup.sql).
INSERT INTO run_day (day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens)
VALUES (:day, :backend, :model, :runs, :exec_ms, :computed_nanos, :input_tokens, :output_tokens)
    ON CONFLICT (day, backend, model) DO UPDATE
   SET runs = runs + excluded.runs,
       exec_ms = exec_ms + excluded.exec_ms,
       computed_nanos = computed_nanos + excluded.computed_nanos,
       input_tokens = input_tokens + excluded.input_tokens,
       output_tokens = output_tokens + excluded.output_tokens;
