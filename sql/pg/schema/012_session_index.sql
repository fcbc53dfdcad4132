-- 012_session_index: SQLite's ledger takes the predicates of the session
-- index's two parts that PostgreSQL's had from the start, recent = 0 and
-- recent <> 0 (sql/schema/012_session_index.sql), so the queries that read
-- them are written once.  Nothing changes here; the migration keeps the
-- two engines' schema versions in step (copy and the tests compare them).
CREATE INDEX IF NOT EXISTS run_by_session ON run (backend, session_id) WHERE recent = 0;
CREATE INDEX IF NOT EXISTS run_by_session_recent ON run (backend, session_id) WHERE recent <> 0;
