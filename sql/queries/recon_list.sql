-- Stored reconciliations, oldest first.
SELECT recon_id, created_ms, from_ms, to_ms, abs_nanos, rel_ppb, backends, flagged
  FROM reconciliation ORDER BY recon_id;
