-- Count the stored run :rid in the rollup of its day again (a replaced
-- run put back when the batch that replaced it is taken out).
INSERT INTO run_day (day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens)
SELECT started_day, backend, COALESCE(model, ''), 1, total_duration_ms, computed_nanos,
       input_tokens, output_tokens
  FROM run WHERE rid = :rid
    ON CONFLICT (day, backend, model) DO UPDATE
   SET runs = runs + excluded.runs,
       exec_ms = exec_ms + excluded.exec_ms,
       computed_nanos = computed_nanos + excluded.computed_nanos,
       input_tokens = input_tokens + excluded.input_tokens,
       output_tokens = output_tokens + excluded.output_tokens;
