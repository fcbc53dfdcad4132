-- reconciliation: every stored reconciliation, by when it ran and the period it judged
-- Left out: recon_id (the reconciliation number, in the order stored).
SELECT c.created_ms,       -- when it ran
       c.from_ms,          -- the period, [from, to)
       c.to_ms,
       c.abs_nanos,        -- default absolute tolerance
       c.rel_ppb,          -- default relative tolerance
       c.backends,         -- backends judged
       c.flagged,          -- backends and sessions flagged
       c.result,           -- the whole result as 'reconcile --format json' printed it
       c.judged_ms,        -- the time windows were compared with
       c.billing_lag_ms,   -- --billing-lag, in ms
       c.flagged_backends, -- backends flagged
       c.flagged_sessions  -- sessions flagged
  FROM reconciliation c;
