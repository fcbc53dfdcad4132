-- rate_card: the rate cards, by backend, plan and effective time
-- Left out: card_id (the row id, in the order stored).
SELECT c.backend,                  -- backend id
       c.plan,                     -- plan, NULL for the default card
       c.effective_ms,             -- in force from
       c.usd_per_minute_nanos,     -- per minute of session life
       c.usd_per_cpu_second_nanos, -- per vCPU-second
       c.usd_per_gb_second_nanos,  -- per GiB-second
       c.free,                     -- 1 when the backend costs nothing
       c.source                    -- where it came from
  FROM rate_card c;
