-- The ledger's storage passes its own integrity check.
-- On PostgreSQL: the ledger's tables' indexes valid (and read against
-- their tables by amcheck where the role may run it), constraints
-- validated, triggers enabled, no checksum failure.
-- The query lists what breaks it.
-- SQLite's check (PRAGMA integrity_check) reads every page of the file.
-- PostgreSQL has no such statement: reading every page and index entry
-- is amcheck's (an extension, created by a superuser, and long on a big
-- ledger), left to the engine or the administrator, not run here.  What
-- plain SQL can see, and a ledger needs, is listed instead, for the
-- tables of the current schema: an index that is not valid or not ready
-- (a CREATE INDEX CONCURRENTLY or REINDEX that failed: queries skip it,
-- and a unique one no longer guards its rule); a constraint NOT VALID
-- (rows before it were never checked); a trigger disabled (the refusals
-- of a finalized invoice, or a foreign key's own triggers: it is no
-- longer enforced); and the data checksum failures the server counted in
-- this database (none counted when checksums are off).
SELECT 'integrity: ' || problem
  FROM (SELECT 'index ' || ic.relname || ' on ' || t.relname || ' is '
               || CASE WHEN NOT i.indisvalid THEN 'not valid' ELSE 'not ready' END AS problem
          FROM pg_index i
          JOIN pg_class ic ON ic.oid = i.indexrelid
          JOIN pg_class t ON t.oid = i.indrelid
          JOIN pg_namespace n ON n.oid = t.relnamespace
         WHERE n.nspname = current_schema() AND NOT (i.indisvalid AND i.indisready AND i.indislive)
        UNION ALL
        SELECT 'constraint ' || c.conname || ' on ' || t.relname || ' is not validated'
          FROM pg_constraint c
          JOIN pg_class t ON t.oid = c.conrelid
          JOIN pg_namespace n ON n.oid = t.relnamespace
         WHERE n.nspname = current_schema() AND NOT c.convalidated
        UNION ALL
        SELECT 'trigger ' || g.tgname || ' on ' || t.relname || ' is disabled'
               || CASE WHEN g.tgconstraint <> 0 THEN ' (constraint '
                            || (SELECT c.conname FROM pg_constraint c WHERE c.oid = g.tgconstraint) || ')'
                       ELSE '' END
          FROM pg_trigger g
          JOIN pg_class t ON t.oid = g.tgrelid
          JOIN pg_namespace n ON n.oid = t.relnamespace
         WHERE n.nspname = current_schema() AND g.tgenabled = 'D'
        UNION ALL
        SELECT 'the server counted ' || d.checksum_failures || ' data checksum failures in this database'
          FROM pg_stat_database d
         WHERE d.datname = current_database() AND d.checksum_failures > 0
        UNION ALL
        -- every B-tree index read against its table, where amcheck may run
        SELECT a.problem FROM sbledger_amcheck() AS a (problem)) AS p
 ORDER BY 1;
