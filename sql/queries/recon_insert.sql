-- Store a reconciliation.
INSERT INTO reconciliation (created_ms, from_ms, to_ms, abs_nanos, rel_ppb, backends, flagged, result)
VALUES (:created_ms, :from_ms, :to_ms, :abs_nanos, :rel_ppb, :backends, :flagged, :result);
