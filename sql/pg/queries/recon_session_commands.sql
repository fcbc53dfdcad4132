-- The costliest commands of one session of a backend, over its runs
-- started in [:from_ms, :to_ms) (:session_id NULL: the runs that named no
-- session): one row per command text, the costliest first (by the sum of
-- the executions' cost_usd; commands with no cost at all last, then by
-- time), at most :limit rows.  The text is cut to :chars characters.  The
-- runs are found in both parts of the session index (settled, recent:
-- sql/schema/010_scale.sql).
-- PostgreSQL (sql/queries/recon_session_commands.sql is SQLite's): the session is matched with = or IS
-- NULL, which the index serves (IS NOT DISTINCT FROM would read every run
-- of the backend); substr takes an INTEGER length.
SELECT substr(x.command, 1, CAST(:chars AS INTEGER)) AS command, -- the command line, cut (NULL when the SDK gave none)
       CASE WHEN length(x.command) > :chars THEN 1
            WHEN x.command IS NOT NULL THEN 0 END AS cut,       -- 1 when the text was longer (NULL: no text)
       COUNT(*) AS execs,                                       -- how many times it ran
       SUM(x.duration_ms) AS duration_ms,                       -- its wall time in all
       SUM(x.cost_nanos) AS cost_nanos,                         -- its cost_usd in all (NULL when none had one)
       COUNT(x.cost_nanos) AS priced                            -- executions of it that had a cost
  FROM (SELECT rid FROM run
         WHERE backend = :backend
           AND (session_id = :session_id OR (session_id IS NULL AND CAST(:session_id AS TEXT) IS NULL))
           AND recent = 0 AND started_ms >= :from_ms AND started_ms < :to_ms
        UNION ALL
        SELECT rid FROM run
         WHERE backend = :backend
           AND (session_id = :session_id OR (session_id IS NULL AND CAST(:session_id AS TEXT) IS NULL))
           AND recent <> 0 AND started_ms >= :from_ms AND started_ms < :to_ms) r
  JOIN execution x ON x.rid = r.rid
 GROUP BY x.command
 ORDER BY SUM(x.cost_nanos) IS NULL, SUM(x.cost_nanos) DESC, SUM(x.duration_ms) DESC, x.command NULLS FIRST
 LIMIT :limit;
