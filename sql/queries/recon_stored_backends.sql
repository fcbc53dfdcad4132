-- The backends of stored result :recon_id as judged: status, figures and
-- the grain (NULL before grains were kept), by name.
SELECT backend, status, computed_nanos, billed_nanos, grain, flagged
  FROM reconciliation_backend
 WHERE recon_id = :recon_id
 ORDER BY backend;
