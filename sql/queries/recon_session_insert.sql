-- Store the result of one session of a reconciliation.
INSERT INTO reconciliation_session (recon_id, backend, session_id, status, computed_nanos,
                                    billed_nanos, drift_nanos, flagged)
VALUES (:recon_id, :backend, :session_id, :status, :computed_nanos, :billed_nanos, :drift_nanos,
        :flagged);
