-- Every rate card, ordered for lookup: by backend, plan, newest first.
SELECT backend, COALESCE(plan, ''), effective_ms, usd_per_minute_nanos,
       usd_per_cpu_second_nanos, usd_per_gb_second_nanos, free
  FROM rate_card
 ORDER BY backend, COALESCE(plan, ''), effective_ms DESC;
