-- Add tagged runs to the rollup of a tag, day, value, backend and model.
INSERT INTO run_day_tag (name, day, value, backend, model, runs, exec_ms, computed_nanos,
                         input_tokens, output_tokens)
VALUES (:name, :day, :value, :backend, :model, :runs, :exec_ms, :computed_nanos,
        :input_tokens, :output_tokens)
    ON CONFLICT (name, day, value, backend, model) DO UPDATE
   SET runs = runs + excluded.runs,
       exec_ms = exec_ms + excluded.exec_ms,
       computed_nanos = computed_nanos + excluded.computed_nanos,
       input_tokens = input_tokens + excluded.input_tokens,
       output_tokens = output_tokens + excluded.output_tokens;
