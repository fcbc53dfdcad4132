-- billing_row_seen: per resumable batch, how many rows of its file had each content
-- Left out: the batch's number (its natural key instead).  seen is kept:
-- it counts the rows of the batch's own file, read in the file's order,
-- not rows of other files, so the order the files were imported in does
-- not change it.
SELECT b.sha256,   -- the batch reading the file: its input's SHA-256,
       b.format,   -- format
       b.options,  -- and options
       s.row_hash, -- SHA-256 of the normalized row
       s.seen      -- rows with that content read so far
  FROM billing_row_seen s
  LEFT JOIN batch b ON b.batch_id = s.batch_id;
