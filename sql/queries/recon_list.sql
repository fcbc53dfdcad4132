-- Stored reconciliations, oldest first.  flagged_backends and
-- flagged_sessions are NULL for results stored before they were kept.
SELECT recon_id,                   -- reconciliation number
       created_ms,                 -- when it ran
       from_ms, to_ms,             -- the period
       abs_nanos, rel_ppb,         -- its default tolerances
       backends,                   -- backends judged
       flagged,                    -- backends and sessions flagged
       flagged_backends,           -- of which backends
       flagged_sessions            -- and sessions
  FROM reconciliation ORDER BY recon_id;
