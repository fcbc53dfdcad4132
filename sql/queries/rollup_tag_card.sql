-- The card cost of the tag rollups of backend :backend from the UTC day
-- starting at :from_ms on, summed again (as rollup_day_card.sql).
UPDATE run_day_tag SET card_nanos = f.card_nanos, card_runs = f.card_runs
  FROM (SELECT t.name, r.started_day AS day, t.value, COALESCE(r.model, '') AS model,
               COALESCE(SUM(r.card_nanos), 0) AS card_nanos, COUNT(r.card_nanos) AS card_runs
          FROM run r CROSS JOIN run_tag t   -- the runs first, through the index on started_ms
         WHERE t.rid = r.rid AND r.backend = :backend AND r.started_ms >= :from_ms
         GROUP BY t.name, r.started_day, t.value, COALESCE(r.model, '')) f
 WHERE run_day_tag.backend = :backend AND run_day_tag.name = f.name AND run_day_tag.day = f.day
   AND run_day_tag.value = f.value AND run_day_tag.model = f.model;
