-- execution: the view of one row per execution, over run_execs
-- Left out: rid (the run's row id): the run by its run_id instead.
SELECT r.run_id,         -- the run
       x.seq,            -- position in the record's executions, from 0
       x.command,        -- the command line
       x.exit_code,      -- its exit status
       x.duration_ms,    -- wall time
       x.cpu_ms,         -- CPU time
       x.memory_peak_mb, -- peak memory
       x.bytes_read,     -- bytes read
       x.bytes_written,  -- bytes written
       x.cost_nanos,     -- cost_usd in nanodollars
       x.extra           -- unknown fields as JSON text
  FROM execution x
  LEFT JOIN run r ON r.rid = x.rid;
