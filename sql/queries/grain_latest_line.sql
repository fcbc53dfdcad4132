-- The charge start of :backend's latest live account-level line (NULL
-- when it has none): the month that decides an automatic grain.
SELECT MAX(start_ms) AS start_ms
  FROM billing_line
 WHERE backend = :backend AND session_id IS NULL AND superseded_by IS NULL;
