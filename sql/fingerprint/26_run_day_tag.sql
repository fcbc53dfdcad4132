-- run_day_tag: the rollup of the tagged runs per tag name, day, value, backend, model
SELECT d.name,           -- run_tag.name
       d.day,            -- run.started_day
       d.value,          -- run_tag.value
       d.backend,        -- run.backend
       d.model,          -- run.model, '' when NULL
       d.runs,           -- the figures of run_day, over these runs
       d.exec_ms,
       d.computed_nanos,
       d.input_tokens,
       d.output_tokens,
       d.exec_count,
       d.cpu_ms,
       d.memory_peak_mb,
       d.bytes_read,
       d.bytes_written,
       d.billed_nanos,
       d.billed_runs,
       d.card_nanos,
       d.card_runs
  FROM run_day_tag d;
