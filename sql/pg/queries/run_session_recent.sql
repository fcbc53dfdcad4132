-- How many runs the recent part of the session index holds, and the
-- highest row id (about how many runs there are: COUNT(*) would read
-- every run): an import merges the parts when the first passes an eighth
-- of the second.
-- PostgreSQL (sql/queries/run_session_recent.sql is SQLite's): recent is a BIGINT,
-- not a truth, so the two parts of the session index are recent = 0 and
-- recent <> 0, the predicates of its partial indexes here (SQLite finds
-- its own only through NOT recent and recent, which PostgreSQL refuses on
-- an integer).
SELECT (SELECT COUNT(*) FROM run WHERE recent <> 0) AS recent, -- through the recent part
       (SELECT COALESCE(MAX(rid), 0) FROM run) AS runs;          -- the last row id
