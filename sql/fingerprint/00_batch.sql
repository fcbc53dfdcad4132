-- batch: every import batch, known by its input (SHA-256, format, options)
-- Left out: batch_id, the number given in the order the batches began.
-- The rest is the same whatever order independent files were imported in
-- (the clock is fixed where ledgers are compared: started_ms, ended_ms);
-- resume_* and prefix_* are where a batch stopped reading, for an ended
-- batch the end of its own input.  The counts hold while the files share
-- no run and no billing line: a run in two files is stored by whichever
-- came first and counted a duplicate by the other.
SELECT b.sha256,        -- SHA-256 of the whole input, hex
       b.kind,          -- 'runs' or 'billing'
       b.format,        -- 'runs', or the billing format
       b.source,        -- the input as given (path, '-', URL)
       b.path,          -- the file read, absolute; NULL for standard input or a provider
       b.status,        -- running, interrupted, complete, failed
       b.started_ms,    -- when the import began
       b.ended_ms,      -- when it ended
       b.resume_offset, -- byte offset of the first line not committed
       b.resume_line,   -- that line's number
       b.prefix_length, -- bytes read at the last commit
       b.prefix_sha256, -- their SHA-256
       b.accepted,      -- records stored
       b.rejected,      -- records rejected
       b.duplicates,    -- records already in the ledger
       b.replaced,      -- accepted records that replaced an older version
       b.skipped,       -- records of no interest to the format
       b.options,       -- the import's options ('strict replace')
       b.reason         -- why a failed batch failed, when its rejects do not say
  FROM batch b;
