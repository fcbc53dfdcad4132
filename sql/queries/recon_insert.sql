-- Store a reconciliation.
-- recon_id: the largest plus one, on both engines (SQLite's rowid rule; a
-- PostgreSQL identity would skip the numbers of rolled-back inserts).
-- change_id: the newest logged change the result saw (read before it was
-- judged); replaces: the latest result of the same period stored before
-- it, which this one replaces (NULL when there is none).
INSERT INTO reconciliation (recon_id, created_ms, from_ms, to_ms, abs_nanos, rel_ppb, backends, flagged, result,
                            judged_ms, billing_lag_ms, flagged_backends, flagged_sessions, change_id, replaces)
VALUES ((SELECT COALESCE(MAX(recon_id), 0) + 1 FROM reconciliation), :created_ms, :from_ms, :to_ms, :abs_nanos, :rel_ppb, :backends, :flagged, :result,
        :judged_ms, :billing_lag_ms, :flagged_backends, :flagged_sessions, :change_id,
        (SELECT MAX(p.recon_id) FROM reconciliation p WHERE p.from_ms = :from_ms AND p.to_ms = :to_ms))
RETURNING recon_id;   -- the id made (sb_db_last_id on both engines)
