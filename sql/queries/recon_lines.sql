-- The live billing lines whose charge starts in [:from_ms, :to_ms), by
-- backend, with the lines naming sessions first (by session) and the
-- account-level lines (no session) last: reconcile then knows, before it
-- sums a backend's account-level lines, whether the backend bills per
-- session (such a backend is never judged over a window).
SELECT l.backend,                  -- backend id
       l.session_id,               -- the session, NULL for an account-level line
       l.kind,                     -- billed or metered
       l.amount_nanos,             -- amount in currency units x 10^9 (NULL when metered)
       l.currency,                 -- ISO 4217 code
       l.category,                 -- FOCUS ChargeCategory (Tax is reported apart)
       l.start_ms,                 -- charge period start
       l.end_ms,                   -- charge period end
       l.vcpu_ms,                  -- metered: vCPU-milliseconds
       l.memory_mb_ms              -- metered: MB-milliseconds
  FROM billing_line l
 WHERE l.superseded_by IS NULL AND l.start_ms >= :from_ms AND l.start_ms < :to_ms
 ORDER BY l.backend, l.session_id IS NULL, l.session_id, l.start_ms, l.lid;   -- a session's lines by start
