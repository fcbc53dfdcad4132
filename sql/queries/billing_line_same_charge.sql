-- The first batch other than :batch_id holding a live line that is the same charge as the line
-- given (NULL when none): same format, backend, session and category, neither a correction
-- (the caller asks only for lines that are not), the same charge identity (with :loose, a line
-- without one matches any: a Modal total and its per-resource rows), and overlapping charge
-- periods, a zero-length period counting as its first millisecond.  :reach is the longest
-- charge period among the live lines of the format and backend, so that the search reads only
-- the lines that start at most that long before the line.
SELECT MIN(batch_id)
  FROM billing_line
 WHERE format = :format AND backend = :backend AND session_id IS :session_id
   AND superseded_by IS NULL
   AND start_ms >= :start_ms - :reach AND start_ms < MAX(:end_ms, :start_ms + 1)
   AND MAX(end_ms, start_ms + 1) > :start_ms
   AND batch_id <> :batch_id AND category IS :category AND correction = 0
   AND (charge_identity IS :charge_identity
        OR (:loose AND (charge_identity IS NULL OR :charge_identity IS NULL)));
