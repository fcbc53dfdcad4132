-- Set the grain of :backend.
INSERT INTO backend_grain (backend, grain, set_ms) VALUES (:backend, :grain, :set_ms)
    ON CONFLICT (backend) DO UPDATE SET grain = excluded.grain, set_ms = excluded.set_ms;
