-- The aggregations of 'sbledger invoice --by tag:customer' written as bare
-- queries over the runs, the yardstick for the invoice (bench/run.sh runs
-- it with the sqlite3 shell, :from_ms and :to_ms set to the period): per
-- customer and backend the runs, exec time and computed cost; per customer
-- and model the tokens.  (sbledger reads whole days from its day rollups
-- instead, sql/schema/005_rollup.sql.)
SELECT COALESCE(t.value, '(untagged)') AS customer, r.backend, COUNT(*),
       SUM(r.total_duration_ms), SUM(r.computed_nanos)
  FROM run r
  LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = 'customer'
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
 GROUP BY 1, 2
 ORDER BY 1, 2;
SELECT COALESCE(t.value, '(untagged)') AS customer, r.model, SUM(r.input_tokens),
       SUM(r.output_tokens)
  FROM run r
  LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = 'customer'
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms AND r.model IS NOT NULL
 GROUP BY 1, 2
 ORDER BY 1, 2;
