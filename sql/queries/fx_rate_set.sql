-- Store an exchange rate (USD per unit x 10^9), replacing one of the same currency and instant.
INSERT INTO fx_rate (currency, effective_ms, usd_nanos)
VALUES (:currency, :effective_ms, :usd_nanos)
ON CONFLICT (currency, effective_ms) DO UPDATE SET usd_nanos = excluded.usd_nanos;
