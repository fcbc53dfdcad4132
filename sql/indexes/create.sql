-- The secondary indexes of the run tables, as sql/schema/001_init.sql and
-- 010_scale.sql made them: created where missing.  An import into a ledger much smaller than
-- its input drops them first (indexes/drop.sql) and runs this at its end,
-- so that each is built once, its keys sorted, rather than kept up to date
-- row by row; sbledger runs it too when it opens a ledger left without
-- them (that import killed), before anything reads it.  The names are
-- those of indexes/present.sql.
CREATE INDEX IF NOT EXISTS run_by_started ON run (started_ms);
CREATE INDEX IF NOT EXISTS run_by_session ON run (backend, session_id) WHERE NOT recent;
CREATE INDEX IF NOT EXISTS run_by_session_recent ON run (backend, session_id) WHERE recent;
CREATE INDEX IF NOT EXISTS run_tag_by_value ON run_tag (name, value);
