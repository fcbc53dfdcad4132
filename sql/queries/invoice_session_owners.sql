-- Invoices on a billed basis: the customers of a session's runs in any
-- period (for a session billed in the period whose runs started before
-- it), with their computed cost and exec time.  By customer.  The
-- session's runs are found in both parts of the session index (settled,
-- recent: sql/schema/010_scale.sql).
SELECT COALESCE(t.value, '(untagged)') AS customer,
       COUNT(*) AS runs,
       SUM(r.total_duration_ms) AS exec_ms,
       SUM(r.computed_nanos) AS computed_nanos
  FROM (SELECT rid, total_duration_ms, computed_nanos FROM run
         WHERE backend = :backend AND session_id = :session_id AND recent = 0
        UNION ALL
        SELECT rid, total_duration_ms, computed_nanos FROM run
         WHERE backend = :backend AND session_id = :session_id AND recent <> 0) r
  LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
 GROUP BY COALESCE(t.value, '(untagged)')
 ORDER BY customer;
