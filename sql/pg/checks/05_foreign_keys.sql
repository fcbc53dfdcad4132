-- No row points at a missing row (foreign keys).
-- The query lists what breaks it.
-- PostgreSQL enforces every foreign key, so rows are found only when the
-- enforcement was stepped around (triggers disabled, a load with
-- session_replication_role = replica or a restore with
-- --disable-triggers).  sbledger_foreign_key_check (in
-- sql/pg/schema/010_init.sql) reads every foreign key of the schema, as
-- SQLite's PRAGMA foreign_key_check; the row is the table's identity
-- column (SQLite's rowid), 0 in a table without one.  Listed by table
-- name and row (SQLite lists them in its schema's order of tables).
SELECT 'table ' || tbl || ': row ' || COALESCE(row_no, 0) || ' points at a missing ' || parent_tbl
  FROM sbledger_foreign_key_check()
 ORDER BY tbl, row_no, parent_tbl;
