-- A new rate card.
INSERT INTO rate_card (backend, plan, effective_ms, usd_per_minute_nanos,
                       usd_per_cpu_second_nanos, usd_per_gb_second_nanos, free, source)
VALUES (:backend, NULLIF(:plan, ''), :effective_ms, :usd_per_minute_nanos,
        :usd_per_cpu_second_nanos, :usd_per_gb_second_nanos, :free, :source);
