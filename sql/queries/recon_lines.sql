-- The live billing lines whose charge starts in [:from_ms, :to_ms), by
-- backend and session.
SELECT l.backend, l.session_id, l.kind, l.amount_nanos, l.currency, l.category,
       l.start_ms, l.end_ms, l.vcpu_ms, l.memory_mb_ms
  FROM billing_line l
 WHERE l.superseded_by IS NULL AND l.start_ms >= :from_ms AND l.start_ms < :to_ms
 ORDER BY l.backend, l.session_id;
