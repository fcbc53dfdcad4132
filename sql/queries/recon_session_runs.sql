-- The runs of one session of a backend started in [:from_ms, :to_ms), for
-- the reconciliation page (a session is judged over the period itself);
-- :session_id NULL stands for the backend's runs that named no session.
SELECT COUNT(*) AS runs,                                       -- the session's runs in the period
       COALESCE(SUM(r.total_duration_ms), 0) AS exec_ms,        -- their command time (total_duration_ms)
       COUNT(r.ended_ms) AS ended,                              -- how many of them have ended_at
       COALESCE(SUM(r.ended_ms - r.started_ms), 0) AS lifetime_ms -- the life of those (ended_at - started_at)
  FROM run r
 WHERE r.backend = :backend AND r.session_id IS :session_id
   AND r.started_ms >= :from_ms AND r.started_ms < :to_ms;
