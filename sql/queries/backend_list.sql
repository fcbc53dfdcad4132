-- Backends whose capabilities satisfy the requirements, cheapest first by
-- rate_key (0 for free, else usd_per_minute of the default card in force at
-- :at_ms; unknown last), ties by name.  A requirement on a capability the
-- ledger does not know (NULL) is not satisfied.
SELECT b.backend, k.free, k.usd_per_minute_nanos,
       CASE WHEN k.free = 1 THEN 0 ELSE k.usd_per_minute_nanos END AS rate_key,
       b.network, b.persistent, b.max_cpu, b.max_memory_mb,
       (SELECT COUNT(*) FROM backend_region g WHERE g.backend = b.backend) AS regions
  FROM backend b
  LEFT JOIN rate_card k
         ON k.backend = b.backend AND k.plan IS NULL
        AND k.effective_ms = (SELECT MAX(m.effective_ms) FROM rate_card m
                               WHERE m.backend = b.backend AND m.plan IS NULL
                                 AND m.effective_ms <= :at_ms)
 WHERE (:network = 0 OR b.network = 1)
   AND (:persistent = 0 OR b.persistent = 1)
   AND (CAST(:min_cpu AS BIGINT) IS NULL OR b.max_cpu >= :min_cpu)
   AND (CAST(:min_memory_mb AS BIGINT) IS NULL OR b.max_memory_mb >= :min_memory_mb)
   AND (CAST(:region AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM backend_region g
                                    WHERE g.backend = b.backend AND g.region = :region))
 ORDER BY CASE WHEN k.backend IS NULL THEN 1 ELSE 0 END, rate_key, b.backend;
