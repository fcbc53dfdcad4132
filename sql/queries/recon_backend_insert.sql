-- Store the result of one backend of a reconciliation.
INSERT INTO reconciliation_backend (recon_id, backend, status, basis, runs, computed_nanos,
                                    billed_nanos, drift_nanos, tax_nanos, verdict)
VALUES (:recon_id, :backend, :status, :basis, :runs, :computed_nanos,
        :billed_nanos, :drift_nanos, :tax_nanos, :verdict);
