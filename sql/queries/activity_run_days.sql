-- The UTC days in [:from_day, :to_day) ('YYYY-MM-DD') and backends that
-- hold runs: the day rollups, whose rows a take-out leaves at 0 runs.
SELECT day, backend
  FROM run_day
 WHERE day >= :from_day AND day < :to_day AND runs > 0
 GROUP BY day, backend
 ORDER BY day, backend;
