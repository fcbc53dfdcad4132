-- The card cost of the day rollups of backend :backend from the UTC day
-- starting at :from_ms on, summed again from its runs (after rates set
-- repriced them): card_nanos and card_runs of each group.
UPDATE run_day SET card_nanos = f.card_nanos, card_runs = f.card_runs
  FROM (SELECT r.started_day AS day, COALESCE(r.model, '') AS model,
               COALESCE(SUM(r.card_nanos), 0) AS card_nanos, COUNT(r.card_nanos) AS card_runs
          FROM run r
         WHERE r.backend = :backend AND r.started_ms >= :from_ms
         GROUP BY r.started_day, COALESCE(r.model, '')) f
 WHERE run_day.backend = :backend AND run_day.day = f.day AND run_day.model = f.model;
