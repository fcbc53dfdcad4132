-- PostgreSQL's billing_line_insert.sql: rows of one COPY (see
-- sql/pg/queries/run_load.sql), under the row id the writer gave the
-- line, which the line writer's look-ups step past (ledger/lines.c).  A
-- line key that a live line holds is refused by the index
-- billing_line_live_key, an error told when the rows are sent.
COPY billing_line (lid, format, line_key, batch_id, line_no, backend, session_id, start_ms, end_ms,
                   kind, amount_nanos, currency, category, correction, quantity, unit,
                   vcpu_ms, memory_mb_ms, list_cost_nanos, effective_cost_nanos, invoice_id,
                   tags, extra, source_row, charge_identity) FROM STDIN;
