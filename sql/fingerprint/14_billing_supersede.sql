-- billing_supersede: each superseding batch and the period it covers
-- Left out: the batch's number (its natural key instead).
SELECT b.sha256,  -- the superseding batch: its input's SHA-256,
       b.format,  -- format
       b.options, -- and options
       p.from_ms, -- the period covered: start
       p.to_ms    -- and end (excluded); both NULL: the span of its lines
  FROM billing_supersede p
  LEFT JOIN batch b ON b.batch_id = p.batch_id;
