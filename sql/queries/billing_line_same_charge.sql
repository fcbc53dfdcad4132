-- The first batch other than :batch_id holding a live line that is the same charge as the line
-- given (NULL when none): same format, backend, session and category, neither a correction
-- (the caller asks only for lines that are not), the same charge identity (with :loose, a line
-- without one matches any: a Modal total and its per-resource rows), and overlapping charge
-- periods, a zero-length period counting as its first millisecond.  :reach is the longest
-- charge period among the live lines of the format and backend, so that the search reads only
-- the lines that start at most that long before the line.  The three branches are the same
-- identity, a line without one for a line with one, and any line for a line without one (the
-- last two only with :loose), each a search of billing_line_charge.  A line holding the line's
-- own key is its duplicate, not another charge: left out.
SELECT MIN(batch_id)
  FROM (SELECT batch_id, end_ms, start_ms, category, correction, line_key
          FROM billing_line
         WHERE format = :format AND backend = :backend AND session_id IS NOT DISTINCT FROM :session_id
           AND charge_identity IS NOT DISTINCT FROM :charge_identity AND superseded_by IS NULL
           AND start_ms >= :start_ms - :reach AND start_ms < CASE WHEN :end_ms > :start_ms THEN :end_ms ELSE :start_ms + 1 END
        UNION ALL
        SELECT batch_id, end_ms, start_ms, category, correction, line_key
          FROM billing_line
         WHERE :loose <> 0 AND CAST(:charge_identity AS TEXT) IS NOT NULL
           AND format = :format AND backend = :backend AND session_id IS NOT DISTINCT FROM :session_id
           AND charge_identity IS NULL AND superseded_by IS NULL
           AND start_ms >= :start_ms - :reach AND start_ms < CASE WHEN :end_ms > :start_ms THEN :end_ms ELSE :start_ms + 1 END
        UNION ALL
        SELECT batch_id, end_ms, start_ms, category, correction, line_key
          FROM billing_line
         WHERE :loose <> 0 AND CAST(:charge_identity AS TEXT) IS NULL
           AND format = :format AND backend = :backend AND session_id IS NOT DISTINCT FROM :session_id
           AND charge_identity IS NOT NULL AND superseded_by IS NULL
           AND start_ms >= :start_ms - :reach AND start_ms < CASE WHEN :end_ms > :start_ms THEN :end_ms ELSE :start_ms + 1 END) c
 WHERE CASE WHEN end_ms > start_ms THEN end_ms ELSE start_ms + 1 END > :start_ms
   AND batch_id <> :batch_id AND category IS NOT DISTINCT FROM :category AND correction = 0
   AND line_key <> :line_key;
