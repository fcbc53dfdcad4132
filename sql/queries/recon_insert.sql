-- Store a reconciliation.
-- recon_id: the largest plus one, on both engines (SQLite's rowid rule; a
-- PostgreSQL identity would skip the numbers of rolled-back inserts).
INSERT INTO reconciliation (recon_id, created_ms, from_ms, to_ms, abs_nanos, rel_ppb, backends, flagged, result,
                            judged_ms, billing_lag_ms, flagged_backends, flagged_sessions)
VALUES ((SELECT COALESCE(MAX(recon_id), 0) + 1 FROM reconciliation), :created_ms, :from_ms, :to_ms, :abs_nanos, :rel_ppb, :backends, :flagged, :result,
        :judged_ms, :billing_lag_ms, :flagged_backends, :flagged_sessions)
RETURNING recon_id;   -- the id made (sb_db_last_id on both engines)
