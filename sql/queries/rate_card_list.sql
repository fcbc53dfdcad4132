-- Rate cards: those in force at :at_ms (one per backend and plan), or
-- every card when :all is 1; by backend, plan, effective instant.
SELECT c.backend, c.plan, c.effective_ms, c.usd_per_minute_nanos,
       c.usd_per_cpu_second_nanos, c.usd_per_gb_second_nanos, c.free, c.source
  FROM rate_card c
 WHERE :all = 1
    OR (c.effective_ms <= :at_ms
        AND NOT EXISTS (SELECT 1 FROM rate_card n
                         WHERE n.backend = c.backend
                           AND COALESCE(n.plan, '') = COALESCE(c.plan, '')
                           AND n.effective_ms <= :at_ms
                           AND n.effective_ms > c.effective_ms))
 ORDER BY c.backend, COALESCE(c.plan, ''), c.effective_ms;
