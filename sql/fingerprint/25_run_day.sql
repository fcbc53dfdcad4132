-- run_day: the rollup of all runs per day, backend and model
SELECT d.day,            -- run.started_day
       d.backend,        -- run.backend
       d.model,          -- run.model, '' when NULL
       d.runs,           -- runs
       d.exec_ms,        -- SUM(total_duration_ms)
       d.computed_nanos, -- SUM(computed_nanos)
       d.input_tokens,   -- SUM(input_tokens)
       d.output_tokens,  -- SUM(output_tokens)
       d.exec_count,     -- SUM(exec_count)
       d.cpu_ms,         -- SUM(cpu_ms)
       d.memory_peak_mb, -- MAX(memory_peak_mb)
       d.bytes_read,     -- SUM(bytes_read)
       d.bytes_written,  -- SUM(bytes_written)
       d.billed_nanos,   -- SUM(billed_nanos) of the runs that have one
       d.billed_runs,    -- COUNT(billed_nanos)
       d.card_nanos,     -- SUM(card_nanos) of the runs that have one
       d.card_runs       -- COUNT(card_nanos)
  FROM run_day d;
