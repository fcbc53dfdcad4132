-- Invoices on a billed basis: the customers of a session's runs in any
-- period (for a session billed in the period whose runs started before
-- it), with their computed cost and exec time.  By customer.
SELECT COALESCE(t.value, '(untagged)') AS customer,
       COUNT(*) AS runs,
       SUM(r.total_duration_ms) AS exec_ms,
       SUM(r.computed_nanos) AS computed_nanos
  FROM run r
  LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
 WHERE r.backend = :backend AND r.session_id = :session_id
 GROUP BY COALESCE(t.value, '(untagged)')
 ORDER BY customer;
