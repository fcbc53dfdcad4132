-- Every exchange rate, by currency and effective instant.
SELECT currency, effective_ms, usd_nanos FROM fx_rate ORDER BY currency, effective_ms;
