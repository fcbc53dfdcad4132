-- The rate of a currency in force at an instant: the newest not after it.
SELECT usd_nanos FROM fx_rate
 WHERE currency = :currency AND effective_ms <= :at_ms
 ORDER BY effective_ms DESC LIMIT 1;
