-- Invoices: per customer (the value of tag :tag, '(untagged)' without it)
-- and backend, the runs started in [:from_ms, :to_ms): how many, their
-- exec time, their computed_cost_usd, and how many of them a rate card
-- priced (card_runs: the others had no card in force at their start, so
-- their cost is unknown, never 0).  By customer, then backend.
-- The whole UTC days of the period, [:from_day, :to_day), come from the
-- day rollups (sql/schema/005_rollup.sql): the runs without the tag are
-- all the runs less those with it.  The rest of the period,
-- [:from_ms, :head_end_ms) and [:tail_start_ms, :to_ms), comes from run.
WITH tagged AS (
    SELECT value, backend, runs, exec_ms, computed_nanos, card_runs
      FROM run_day_tag
     WHERE name = :tag AND day >= :from_day AND day < :to_day),
parts (customer, backend, runs, exec_ms, computed_nanos, card_runs) AS (
    SELECT * FROM tagged
    UNION ALL
    SELECT '(untagged)', backend, runs, exec_ms, computed_nanos, card_runs
      FROM run_day
     WHERE day >= :from_day AND day < :to_day
    UNION ALL
    SELECT '(untagged)', backend, -runs, -exec_ms, -computed_nanos, -card_runs FROM tagged
    UNION ALL
    SELECT COALESCE(t.value, '(untagged)'), r.backend, 1, r.total_duration_ms, r.computed_nanos,
           CASE WHEN r.card_nanos IS NULL THEN 0 ELSE 1 END
      FROM run r
      LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
     WHERE (r.started_ms >= :from_ms AND r.started_ms < :head_end_ms)
        OR (r.started_ms >= :tail_start_ms AND r.started_ms < :to_ms))
SELECT customer, backend, SUM(runs) AS runs, SUM(exec_ms) AS exec_ms,
       SUM(computed_nanos) AS computed_nanos, SUM(card_runs) AS card_runs
  FROM parts
 GROUP BY customer, backend
HAVING SUM(runs) > 0
 ORDER BY customer, backend;
