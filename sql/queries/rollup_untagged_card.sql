-- The card cost of the untagged rollups of backend :backend from the UTC
-- day starting at :from_ms on, summed again (as rollup_day_card.sql).
UPDATE run_day_untagged SET card_nanos = f.card_nanos, card_runs = f.card_runs
  FROM (SELECT n.name, r.started_day AS day, COALESCE(r.model, '') AS model,
               COALESCE(SUM(r.card_nanos), 0) AS card_nanos, COUNT(r.card_nanos) AS card_runs
          FROM run r CROSS JOIN run_tag_name n   -- the runs first, through the index on started_ms
         WHERE r.backend = :backend AND r.started_ms >= :from_ms
           AND NOT EXISTS (SELECT 1 FROM run_tag t WHERE t.rid = r.rid AND t.name = n.name)
         GROUP BY n.name, r.started_day, COALESCE(r.model, '')) f
 WHERE run_day_untagged.backend = :backend AND run_day_untagged.name = f.name
   AND run_day_untagged.day = f.day AND run_day_untagged.model = f.model;
