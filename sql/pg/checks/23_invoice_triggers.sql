-- The triggers that keep finalized invoices from changing exist and refuse the change.
-- The query lists what breaks it.
-- Dropped, set to fire only in replica sessions (ALTER TABLE ... ENABLE
-- REPLICA TRIGGER) or calling another function, a finalized invoice could
-- be edited and nothing would say so.  The triggers of
-- sql/pg/schema/010_init.sql on the tables of the ledger's schema, each
-- calling its function, whose body still raises.  A trigger disabled
-- outright (DISABLE TRIGGER) is named by the integrity check
-- (00_integrity.sql), which reads every trigger of the schema.
WITH expected (name, tbl, fn) AS (
    VALUES ('invoice_line_no_delete', 'invoice_line', 'sbledger_invoice_never_changes'),
           ('invoice_line_no_update', 'invoice_line', 'sbledger_invoice_never_changes'),
           ('invoice_no_delete', 'invoice', 'sbledger_invoice_never_changes'),
           ('invoice_no_update', 'invoice', 'sbledger_invoice_never_changes'),
           ('invoice_run_no_delete', 'invoice_run', 'sbledger_invoice_never_changes'),
           ('invoice_run_no_duplicate', 'invoice_run', 'sbledger_invoice_run_no_duplicate'),
           ('invoice_run_no_update', 'invoice_run', 'sbledger_invoice_never_changes')),
found AS (
    SELECT t.tgname::text AS name, c.relname::text AS tbl, t.tgenabled::text AS enabled,
           p.proname::text AS fn, p.prosrc AS body
      FROM pg_catalog.pg_trigger t
      JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
      JOIN pg_catalog.pg_proc p ON p.oid = t.tgfoid
     WHERE NOT t.tgisinternal)
SELECT 'trigger ' || e.name || ' on ' || e.tbl || ': ' ||
       CASE WHEN f.name IS NULL THEN 'missing, so a finalized invoice can be changed unseen'
            WHEN f.enabled = 'R' THEN 'fires only in replica sessions, so a finalized invoice can be changed unseen'
            ELSE 'does not refuse the change' END
  FROM expected e
  LEFT JOIN found f ON f.name = e.name AND f.tbl = e.tbl
 WHERE f.name IS NULL OR f.enabled = 'R' OR f.fn <> e.fn OR f.body NOT LIKE '%RAISE EXCEPTION%'
 ORDER BY e.name;
