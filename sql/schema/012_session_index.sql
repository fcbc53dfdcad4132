-- 012_session_index: the two parts of the session index (010_scale.sql)
-- take the predicates PostgreSQL's take, recent = 0 and recent <> 0,
-- instead of NOT recent and recent.  A partial index serves a query only
-- through its own predicate, written the same way, and PostgreSQL refuses
-- NOT on an integer: with one spelling on both engines, the queries that
-- search both parts (budget_runs.sql, invoice_session_owners.sql,
-- recon_session_runs.sql, recon_session_commands.sql, run_session_merge.sql,
-- run_session_recent.sql) are written once.  The entries are the same;
-- the indexes are rebuilt.
DROP INDEX IF EXISTS run_by_session;
DROP INDEX IF EXISTS run_by_session_recent;
CREATE INDEX run_by_session ON run (backend, session_id) WHERE recent = 0;
CREATE INDEX run_by_session_recent ON run (backend, session_id) WHERE recent <> 0;
