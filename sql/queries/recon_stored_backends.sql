-- The backends of stored result :recon_id as judged: status, figures and
-- whether it was flagged, by name.
SELECT backend, status, computed_nanos, billed_nanos, flagged
  FROM reconciliation_backend
 WHERE recon_id = :recon_id
 ORDER BY backend;
