-- ledger_change: the log of changes that move stored figures
-- Left out: change_id (the number given in the order the changes were
-- committed, which independent imports on several connections take in
-- any order) and the batch's number (its natural key instead).
SELECT c.made_ms,   -- when
       c.what,      -- what changed
       c.backend,   -- whose figures, NULL every backend
       c.from_ms,   -- the span it moves
       c.to_ms,
       b.sha256,    -- the batch that made it (none for a setting): its input's SHA-256,
       b.format,    -- format
       b.options    -- and options
  FROM ledger_change c LEFT JOIN batch b ON b.batch_id = c.batch_id;
