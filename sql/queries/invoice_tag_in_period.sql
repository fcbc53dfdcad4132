-- Whether some run started in [:from_ms, :to_ms) has tag :tag: a whole UTC
-- day [:from_day, :to_day) from the day rollups, the rest of the period
-- ([:from_ms, :head_end_ms) and [:tail_start_ms, :to_ms)) from run, as in
-- invoice_compute.sql.
SELECT CASE WHEN EXISTS (SELECT 1 FROM run_day_tag
                          WHERE name = :tag AND day >= :from_day AND day < :to_day)
                 OR EXISTS (SELECT 1 FROM run r CROSS JOIN run_tag t   -- the runs of the period first
                             WHERE t.rid = r.rid AND t.name = :tag
                               AND ((r.started_ms >= :from_ms AND r.started_ms < :head_end_ms)
                                    OR (r.started_ms >= :tail_start_ms AND r.started_ms < :to_ms)))
            THEN 1 ELSE 0 END;
