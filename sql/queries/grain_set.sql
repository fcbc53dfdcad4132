-- Set the grain of :backend ('day', 'month' or 'auto'), replacing the one
-- it had; set_ms: when.
INSERT INTO backend_grain (backend, grain, set_ms) VALUES (:backend, :grain, :set_ms)
    ON CONFLICT (backend) DO UPDATE SET grain = excluded.grain, set_ms = excluded.set_ms;
