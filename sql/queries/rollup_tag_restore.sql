-- Count the stored run :rid in the rollups of its tags again (as
-- rollup_day_restore, once its tags are stored).
INSERT INTO run_day_tag (name, day, value, backend, model, runs, exec_ms, computed_nanos,
                         input_tokens, output_tokens)
SELECT t.name, r.started_day, t.value, r.backend, COALESCE(r.model, ''), 1,
       r.total_duration_ms, r.computed_nanos, r.input_tokens, r.output_tokens
  FROM run r JOIN run_tag t ON t.rid = r.rid
 WHERE r.rid = :rid
    ON CONFLICT (name, day, value, backend, model) DO UPDATE
   SET runs = runs + excluded.runs,
       exec_ms = exec_ms + excluded.exec_ms,
       computed_nanos = computed_nanos + excluded.computed_nanos,
       input_tokens = input_tokens + excluded.input_tokens,
       output_tokens = output_tokens + excluded.output_tokens;
