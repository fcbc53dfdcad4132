-- The live billing lines of one backend whose charge starts in
-- [:from_ms, :to_ms), for explain: the lines naming sessions first, by
-- session, then the account-level ones; each by start.
SELECT l.lid,                      -- internal row id
       l.format,                   -- import format
       l.line_key,                 -- the format's own id, or the row's SHA-256
       l.session_id,               -- the session charged, NULL: account-level
       l.kind,                     -- billed or metered
       l.amount_nanos,             -- amount x 10^9 in its currency (NULL when metered)
       l.currency,                 -- ISO 4217
       l.category,                 -- FOCUS ChargeCategory (Tax apart)
       l.start_ms,                 -- charge period start
       l.end_ms,                   -- charge period end
       l.quantity,                 -- consumed quantity as given (decimal text)
       l.unit                      -- its unit
  FROM billing_line l
 WHERE l.backend = :backend AND l.superseded_by IS NULL
   AND l.start_ms >= :from_ms AND l.start_ms < :to_ms
 ORDER BY l.session_id IS NULL, l.session_id, l.start_ms, l.lid;
