-- A superseding batch completes: its pending lines become live billing lines, in their order.
-- lid: after the largest, in the order stored (SQLite's rowid rule, on both
-- engines).
INSERT INTO billing_line (lid, format, line_key, batch_id, line_no, backend, session_id, start_ms, end_ms,
                          kind, amount_nanos, currency, category, correction, quantity, unit,
                          vcpu_ms, memory_mb_ms, list_cost_nanos, effective_cost_nanos, invoice_id,
                          tags, extra, source_row, charge_identity)
SELECT (SELECT COALESCE(MAX(lid), 0) FROM billing_line) + ROW_NUMBER() OVER (ORDER BY pid), format, line_key, batch_id, line_no, backend, session_id, start_ms, end_ms,
       kind, amount_nanos, currency, category, correction, quantity, unit,
       vcpu_ms, memory_mb_ms, list_cost_nanos, effective_cost_nanos, invoice_id,
       tags, extra, source_row, charge_identity
  FROM billing_line_pending
 WHERE batch_id = :batch_id
 ORDER BY pid;
