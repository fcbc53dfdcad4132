-- The longest charge period (ms) among the live lines of a format and backend; 0 when none.
SELECT COALESCE(MAX(end_ms - start_ms), 0)
  FROM billing_line
 WHERE format = :format AND backend = :backend AND superseded_by IS NULL;
