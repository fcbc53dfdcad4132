-- How many of the secondary indexes of the run tables (sql/indexes/create.sql)
-- the ledger has, and how many there are.
-- PostgreSQL (sql/queries/indexes_present.sql is SQLite's): the indexes
-- of the ledger's schema are listed in pg_indexes, not sqlite_schema.
SELECT COUNT(*) AS present,      -- of them in the schema
       4 AS expected             -- the indexes of indexes/create.sql
  FROM pg_indexes
 WHERE schemaname = current_schema()
   AND indexname IN ('run_by_started', 'run_by_session', 'run_by_session_recent', 'run_tag_by_value');
