-- A superseding batch completes: its pending lines become live billing lines, in their order.
INSERT INTO billing_line (format, line_key, batch_id, line_no, backend, session_id, start_ms, end_ms,
                          kind, amount_nanos, currency, category, correction, quantity, unit,
                          vcpu_ms, memory_mb_ms, list_cost_nanos, effective_cost_nanos, invoice_id,
                          tags, extra, source_row, charge_identity)
SELECT format, line_key, batch_id, line_no, backend, session_id, start_ms, end_ms,
       kind, amount_nanos, currency, category, correction, quantity, unit,
       vcpu_ms, memory_mb_ms, list_cost_nanos, effective_cost_nanos, invoice_id,
       tags, extra, source_row, charge_identity
  FROM billing_line_pending
 WHERE batch_id = :batch_id
 ORDER BY pid;
