-- The size of the ledger file in bytes (its pages, free ones included).
-- PostgreSQL (sql/queries/ledger_bytes.sql is SQLite's): the ledger is
-- the tables of its schema, so its size is theirs on disk, each with its
-- indexes and TOAST data (pg_total_relation_size), free space included;
-- the SQLite pragmas do not exist there.
SELECT CAST(COALESCE(SUM(pg_total_relation_size(c.oid)), 0) AS BIGINT) AS bytes -- the tables' pages
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = current_schema() AND c.relkind = 'r';
