-- The secondary indexes of the run tables dropped, by an import into a
-- ledger much smaller than its input (indexes/create.sql builds them again
-- at its end).
DROP INDEX IF EXISTS run_by_started;
DROP INDEX IF EXISTS run_by_session;
DROP INDEX IF EXISTS run_by_session_recent;
DROP INDEX IF EXISTS run_tag_by_value;
