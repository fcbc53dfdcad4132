-- Store a reconciliation.
INSERT INTO reconciliation (created_ms, from_ms, to_ms, abs_nanos, rel_ppb, backends, flagged, result,
                            judged_ms, billing_lag_ms, flagged_backends, flagged_sessions)
VALUES (:created_ms, :from_ms, :to_ms, :abs_nanos, :rel_ppb, :backends, :flagged, :result,
        :judged_ms, :billing_lag_ms, :flagged_backends, :flagged_sessions);
