-- Set the tolerance of a backend.
INSERT INTO tolerance (backend, abs_nanos, rel_ppb, updated_ms)
VALUES (:backend, :abs_nanos, :rel_ppb, :updated_ms)
ON CONFLICT (backend) DO UPDATE SET abs_nanos = excluded.abs_nanos,
                                    rel_ppb = excluded.rel_ppb,
                                    updated_ms = excluded.updated_ms;
