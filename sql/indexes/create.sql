-- The secondary indexes of the run tables, as the schema makes them
-- (sql/schema/001_init.sql, 010_scale.sql, 012_session_index.sql; on
-- PostgreSQL sql/pg/schema/010_init.sql): created where missing, the same
-- text on both engines.  An import into a ledger much smaller than its
-- input drops them first (indexes/drop.sql) and runs this at its end, so
-- that each is built once, its keys sorted, rather than kept up to date
-- row by row; sbledger runs it too when it opens a ledger left without
-- them (that import killed), before anything reads it.  The names are
-- those of queries/indexes_present.sql.  The two parts of the session
-- index are recent = 0 and recent <> 0 (recent is an integer, and
-- PostgreSQL's WHERE wants a truth); the queries that read a part say
-- the same, as a partial index serves a query through its own predicate.
CREATE INDEX IF NOT EXISTS run_by_started ON run (started_ms);
CREATE INDEX IF NOT EXISTS run_by_session ON run (backend, session_id) WHERE recent = 0;
CREATE INDEX IF NOT EXISTS run_by_session_recent ON run (backend, session_id) WHERE recent <> 0;
CREATE INDEX IF NOT EXISTS run_tag_by_value ON run_tag (name, value);
