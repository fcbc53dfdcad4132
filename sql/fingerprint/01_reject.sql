-- reject: every rejected record, verbatim, with its reason and the batch that read it
-- Left out: the batch's number (its natural key instead); on PostgreSQL
-- the rowid column (the order stored, across batches).  Records sharing a
-- line are told apart by their content, not by the order they were read.
SELECT b.sha256,        -- the batch that read it: its input's SHA-256,
       b.format,        -- format
       b.options,       -- and options
       j.line_no,       -- 1-based line (CSV: the record's first line)
       j.reason,        -- what is wrong
       j.content,       -- the record as it was (BLOB: its bytes)
       j.full_length    -- its whole length in bytes
  FROM reject j
  LEFT JOIN batch b ON b.batch_id = j.batch_id;
