-- Merge the recent part of the session index into the settled part
-- (sql/schema/010_scale.sql): every recent run settled, found through the
-- recent part, so in (backend, session_id) order, the order the settled
-- part takes them in.
-- PostgreSQL (sql/queries/run_session_merge.sql is SQLite's): recent is a BIGINT,
-- not a truth, so the two parts of the session index are recent = 0 and
-- recent <> 0, the predicates of its partial indexes here (SQLite finds
-- its own only through NOT recent and recent, which PostgreSQL refuses on
-- an integer).
UPDATE run SET recent = 0 WHERE recent <> 0;
