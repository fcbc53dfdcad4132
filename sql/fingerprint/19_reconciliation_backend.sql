-- reconciliation_backend: the result per backend of each stored reconciliation
-- Left out: recon_id: the reconciliation by when it ran and its period
-- instead.
SELECT c.created_ms,       -- the reconciliation: when it ran,
       c.from_ms,          -- and its period, [from, to)
       c.to_ms,
       k.backend,          -- backend id
       k.status,           -- ok, over_billed, ...
       k.basis,            -- billed, metered, run, or NULL
       k.runs,             -- runs in its window
       k.computed_nanos,   -- the runs' computed cost
       k.billed_nanos,     -- billed in USD
       k.drift_nanos,      -- billed - computed
       k.tax_nanos,        -- Tax lines, apart
       k.verdict,          -- lifetime, rate, unexplained
       k.window_from_ms,   -- the window judged, [from, to)
       k.window_to_ms,
       k.flagged,          -- 1 flagged
       k.sessions_flagged  -- its sessions flagged
  FROM reconciliation_backend k
  LEFT JOIN reconciliation c ON c.recon_id = k.recon_id;
