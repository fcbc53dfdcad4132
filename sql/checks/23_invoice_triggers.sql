-- The triggers that keep finalized invoices from changing exist and refuse the change.
-- The query lists what breaks it.
-- Dropped (or made again without the refusal), a finalized invoice could
-- be edited and nothing would say so.  The triggers of
-- sql/schema/004_invoice.sql and 007_invoice_once.sql; SQLite's cannot be
-- disabled, only dropped.  (PostgreSQL: sql/pg/checks, the same names.)
WITH expected (name, tbl) AS (
    VALUES ('invoice_line_no_delete', 'invoice_line'), ('invoice_line_no_update', 'invoice_line'),
           ('invoice_no_delete', 'invoice'), ('invoice_no_update', 'invoice'),
           ('invoice_run_no_delete', 'invoice_run'), ('invoice_run_no_duplicate', 'invoice_run'),
           ('invoice_run_no_update', 'invoice_run'))
SELECT 'trigger ' || e.name || ' on ' || e.tbl || ': ' ||
       CASE WHEN m.name IS NULL THEN 'missing, so a finalized invoice can be changed unseen'
            ELSE 'does not refuse the change' END
  FROM expected e
  LEFT JOIN sqlite_master m ON m.type = 'trigger' AND m.name = e.name AND m.tbl_name = e.tbl
 WHERE m.name IS NULL OR m.sql NOT LIKE '%RAISE(ABORT,%'
 ORDER BY e.name;
