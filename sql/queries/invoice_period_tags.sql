-- The tag names the runs started in [:from_ms, :to_ms) carry, for a
-- refused --by tag:NAME: the names of the day rollups, walked one
-- distinct name at a time through their primary key (name, day, ...),
-- that have a whole UTC day in [:from_day, :to_day), and the names of the
-- runs of the rest of the period ([:from_ms, :head_end_ms),
-- [:tail_start_ms, :to_ms)), as in invoice_compute.sql.  Alphabetical,
-- at most 50.
WITH RECURSIVE names (name) AS (
    SELECT (SELECT MIN(name) FROM run_day_tag)
    UNION ALL
    SELECT (SELECT MIN(d.name) FROM run_day_tag d WHERE d.name > names.name)
      FROM names WHERE names.name IS NOT NULL)
SELECT name FROM names
 WHERE names.name IS NOT NULL
   AND EXISTS (SELECT 1 FROM run_day_tag d
                WHERE d.name = names.name AND d.day >= :from_day AND d.day < :to_day)
UNION
SELECT t.name
  FROM run r CROSS JOIN run_tag t   -- CROSS: the runs of the period first
 WHERE t.rid = r.rid
   AND ((r.started_ms >= :from_ms AND r.started_ms < :head_end_ms)
        OR (r.started_ms >= :tail_start_ms AND r.started_ms < :to_ms))
 ORDER BY 1
 LIMIT 50;
