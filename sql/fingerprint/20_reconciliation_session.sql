-- reconciliation_session: the sessions each stored reconciliation listed
-- Left out: recon_id: the reconciliation by when it ran and its period
-- instead.
SELECT c.created_ms,     -- the reconciliation: when it ran,
       c.from_ms,        -- and its period, [from, to)
       c.to_ms,
       s.backend,        -- backend id
       s.session_id,     -- the session
       s.status,         -- as for backends
       s.computed_nanos, -- its runs' computed cost
       s.billed_nanos,   -- its billed cost
       s.drift_nanos,    -- billed - computed
       s.flagged         -- 1 flagged
  FROM reconciliation_session s
  LEFT JOIN reconciliation c ON c.recon_id = s.recon_id;
