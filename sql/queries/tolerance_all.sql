-- Every per-backend tolerance.
SELECT backend, abs_nanos, rel_ppb, updated_ms FROM tolerance ORDER BY backend;
