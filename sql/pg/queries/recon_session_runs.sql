-- The runs of one session of a backend started in [:from_ms, :to_ms), for
-- the reconciliation page (a session is judged over the period itself);
-- :session_id NULL stands for the backend's runs that named no session.
-- The runs are found in both parts of the session index (settled, recent:
-- sql/schema/010_scale.sql).
-- PostgreSQL (sql/queries/recon_session_runs.sql is SQLite's): the session is matched with = or IS
-- NULL, which the index serves (IS NOT DISTINCT FROM would read every run
-- of the backend).
SELECT COUNT(*) AS runs,                                       -- the session's runs in the period
       COALESCE(SUM(r.total_duration_ms), 0) AS exec_ms,        -- their command time (total_duration_ms)
       COUNT(r.ended_ms) AS ended,                              -- how many of them have ended_at
       COALESCE(SUM(r.ended_ms - r.started_ms), 0) AS lifetime_ms -- the life of those (ended_at - started_at)
  FROM (SELECT total_duration_ms, started_ms, ended_ms FROM run
         WHERE backend = :backend
           AND (session_id = :session_id OR (session_id IS NULL AND CAST(:session_id AS TEXT) IS NULL))
           AND recent = 0 AND started_ms >= :from_ms AND started_ms < :to_ms
        UNION ALL
        SELECT total_duration_ms, started_ms, ended_ms FROM run
         WHERE backend = :backend
           AND (session_id = :session_id OR (session_id IS NULL AND CAST(:session_id AS TEXT) IS NULL))
           AND recent <> 0 AND started_ms >= :from_ms AND started_ms < :to_ms) r;
