-- Billing lines whose charge starts in [:from_ms, :to_ms), superseded ones included,
-- narrowed to one backend, session or batch when those are given (not NULL).
SELECT batch_id, line_no, format, line_key, backend, session_id, start_ms, end_ms, kind,
       amount_nanos, currency, category, correction, quantity, unit, vcpu_ms, memory_mb_ms,
       list_cost_nanos, effective_cost_nanos, invoice_id, tags, extra, superseded_by
  FROM billing_line
 WHERE start_ms >= :from_ms AND start_ms < :to_ms
   AND (CAST(:backend AS TEXT) IS NULL OR backend = :backend)
   AND (CAST(:session_id AS TEXT) IS NULL OR session_id = :session_id)
   AND (CAST(:batch_id AS BIGINT) IS NULL OR batch_id = :batch_id)
 ORDER BY start_ms, backend, session_id NULLS FIRST, lid;
