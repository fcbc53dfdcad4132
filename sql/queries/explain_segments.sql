-- The execution segments of one backend's sessions as E2B's lifecycle
-- events bill them (format e2b-events: one line per killed or paused
-- event, [start, end) the time billed), starting in [:lo_ms, :hi_ms): the
-- gaps between a session's segments are paused time, not billed.
SELECT l.session_id,               -- the sandbox
       l.start_ms,                 -- segment start
       l.end_ms                    -- segment end
  FROM billing_line l
 WHERE l.backend = :backend AND l.format = 'e2b-events' AND l.superseded_by IS NULL
   AND l.session_id IS NOT NULL AND l.start_ms >= :lo_ms AND l.start_ms < :hi_ms
 ORDER BY l.session_id, l.start_ms, l.end_ms;
