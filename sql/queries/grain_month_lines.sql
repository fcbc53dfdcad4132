-- :backend's live account-level lines starting in the month [:from_ms,
-- :to_ms): how many, and how many span that whole month.
SELECT COUNT(*) AS lines,
       COALESCE(SUM(CASE WHEN start_ms = :from_ms AND end_ms = :to_ms THEN 1 ELSE 0 END), 0) AS whole
  FROM billing_line
 WHERE backend = :backend AND session_id IS NULL AND superseded_by IS NULL
   AND start_ms >= :from_ms AND start_ms < :to_ms;
