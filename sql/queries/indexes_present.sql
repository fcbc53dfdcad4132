-- How many of the secondary indexes of the run tables (sql/indexes/create.sql)
-- the ledger has, and how many there are.
SELECT COUNT(*) AS present,      -- of them in the schema
       4 AS expected             -- the indexes of indexes/create.sql
  FROM sqlite_schema
 WHERE type = 'index' AND name IN ('run_by_started', 'run_by_session', 'run_by_session_recent',
                                       'run_tag_by_value');
