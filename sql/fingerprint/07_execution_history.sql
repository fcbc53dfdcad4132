-- execution_history: the executions of replaced versions of runs
-- Left out: hid (the history row id): the version by its run_id,
-- fingerprint and the time and batch that replaced it instead.
SELECT h.run_id,         -- the replaced version: its run,
       h.fingerprint,    -- the SHA-256 of its normalized record,
       h.replaced_ms,    -- when it was replaced,
       n.sha256,         -- and by which batch (its input's SHA-256
       n.format,         -- and format)
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
  FROM execution_history x
  LEFT JOIN run_history h ON h.hid = x.hid
  LEFT JOIN batch n ON n.batch_id = h.replaced_by_batch;
