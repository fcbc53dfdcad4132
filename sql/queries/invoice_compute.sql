-- Invoices: per customer (the value of tag :tag, '(untagged)' without it)
-- and backend, the runs started in [:from_ms, :to_ms): how many, their
-- exec time and their computed_cost_usd.  By customer, then backend.
SELECT COALESCE(t.value, '(untagged)') AS customer,
       r.backend,
       COUNT(*) AS runs,
       SUM(r.total_duration_ms) AS exec_ms,
       SUM(r.computed_nanos) AS computed_nanos
  FROM run r
  LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms
 GROUP BY COALESCE(t.value, '(untagged)'), r.backend
 ORDER BY customer, r.backend;
