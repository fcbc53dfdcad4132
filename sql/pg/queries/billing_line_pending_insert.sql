-- PostgreSQL's billing_line_pending_insert.sql: rows of one COPY, as
-- billing_line_insert.sql's.
COPY billing_line_pending (pid, format, line_key, batch_id, line_no, backend, session_id, start_ms,
                           end_ms, kind, amount_nanos, currency, category, correction, quantity,
                           unit, vcpu_ms, memory_mb_ms, list_cost_nanos, effective_cost_nanos,
                           invoice_id, tags, extra, source_row, charge_identity) FROM STDIN;
