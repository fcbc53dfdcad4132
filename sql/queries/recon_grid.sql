-- The live account-level lines (no session) whose charge period overlaps
-- [:lo_ms, :hi_ms), by backend, start and end: reconcile reads the lines
-- around a period to find each backend's billing grid (docs/reconcile.md,
-- "Windows"); a long line that started earlier (a month) counts too.
-- Live means what recon_lines reads: not superseded.
SELECT l.backend,                  -- backend id
       l.start_ms,                 -- charge period start
       l.end_ms                    -- charge period end
  FROM billing_line l
 WHERE l.session_id IS NULL AND l.superseded_by IS NULL
   AND l.start_ms < :hi_ms AND l.end_ms > :lo_ms
 ORDER BY l.backend, l.start_ms, l.end_ms, l.lid;
