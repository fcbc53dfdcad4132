-- The secondary indexes of the run tables (PostgreSQL), as
-- sql/pg/schema/010_init.sql makes them: created where missing.  As
-- sql/indexes/create.sql, but for the two parts of the session index:
-- recent is an integer, and PostgreSQL's NOT and WHERE want a boolean,
-- so SQLite's NOT recent is recent = 0 and its recent is recent <> 0.
-- The queries that read a part say the same (a partial index serves a
-- query whose WHERE implies its predicate).
CREATE INDEX IF NOT EXISTS run_by_started ON run (started_ms);
CREATE INDEX IF NOT EXISTS run_by_session ON run (backend, session_id) WHERE recent = 0;
CREATE INDEX IF NOT EXISTS run_by_session_recent ON run (backend, session_id) WHERE recent <> 0;
CREATE INDEX IF NOT EXISTS run_tag_by_value ON run_tag (name, value);
