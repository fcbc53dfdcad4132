-- run_day_untagged: the rollup of the runs without a tracked tag, per name, day, backend, model
-- Which names have rows: those of run_tag_name (27_run_tag_name.sql says
-- when that depends on the order of imports).
SELECT d.name,           -- run_tag_name.name
       d.day,            -- run.started_day
       d.backend,        -- run.backend
       d.model,          -- run.model, '' when NULL
       d.runs,           -- the figures of run_day, over the runs without the tag
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
  FROM run_day_untagged d;
