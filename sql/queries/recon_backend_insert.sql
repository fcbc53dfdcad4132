-- Store the result of one backend of a reconciliation.
INSERT INTO reconciliation_backend (recon_id, backend, status, basis, runs, computed_nanos,
                                    billed_nanos, drift_nanos, tax_nanos, verdict,
                                    window_from_ms, window_to_ms, flagged, sessions_flagged,
                                    grain, abs_nanos, rel_ppb)
VALUES (:recon_id, :backend, :status, :basis, :runs, :computed_nanos,
        :billed_nanos, :drift_nanos, :tax_nanos, :verdict,
        :window_from_ms, :window_to_ms, :flagged, :sessions_flagged,
        :grain, :abs_nanos, :rel_ppb);
