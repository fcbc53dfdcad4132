-- ledger_change: the log of changes that move stored figures
SELECT c.change_id, -- the order they were committed in
       c.made_ms,   -- when
       c.what,      -- what changed
       c.backend,   -- whose figures, NULL every backend
       c.from_ms,   -- the span it moves
       c.to_ms,
       c.batch_id   -- the batch that made it
  FROM ledger_change c;
