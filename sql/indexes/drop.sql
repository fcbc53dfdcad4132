-- The secondary indexes of the run tables dropped, by an import into a
-- ledger much smaller than its input (indexes/create.sql builds them again
-- at its end).  The recent part of the session index stays: such an
-- import stores its runs settled, so it gets no entry, and building it
-- again would read every run for none.
DROP INDEX IF EXISTS run_by_started;
DROP INDEX IF EXISTS run_by_session;
DROP INDEX IF EXISTS run_tag_by_value;
