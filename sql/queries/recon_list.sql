-- Stored reconciliations, oldest first.  flagged_backends and
-- flagged_sessions are NULL for results stored before they were kept.
-- Whether each is stale is the library's to say (nightly/nightly.h,
-- sb_nightly_stale): the listing adds it after these columns.
SELECT r.recon_id,                 -- reconciliation number
       r.created_ms,               -- when it ran
       r.from_ms, r.to_ms,         -- the period
       r.abs_nanos, r.rel_ppb,     -- its default tolerances
       r.backends,                 -- backends judged
       r.flagged,                  -- backends and sessions flagged
       r.flagged_backends,         -- of which backends
       r.flagged_sessions,         -- and sessions
       (SELECT MIN(n.recon_id) FROM reconciliation n WHERE n.replaces = r.recon_id)
           AS replaced_by          -- the result that replaced it (judged again), NULL when none
  FROM reconciliation r ORDER BY r.recon_id;
