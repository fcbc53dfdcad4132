-- No two live billing lines share a format and line key.
-- The query lists what breaks it.
SELECT 'billing lines of ' || format || ' share the live line key ' || line_key || ' ('
       || COUNT(*) || ' of them)'
  FROM billing_line
 WHERE superseded_by IS NULL
 GROUP BY format, line_key
HAVING COUNT(*) > 1;
