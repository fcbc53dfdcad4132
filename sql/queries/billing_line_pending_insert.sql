-- Store a line of a superseding batch as pending (no reader sees it until its batch completes),
-- which the writer has found no pending line of the batch holding the key of
-- (billing_line_key_pending.sql): one that did is refused by billing_line_pending_key, an error.
-- pid: the largest plus one, on both engines (SQLite's rowid rule; a
-- PostgreSQL identity would skip the numbers of rolled-back inserts).
INSERT INTO billing_line_pending (pid, format, line_key, batch_id, line_no, backend, session_id, start_ms,
                                  end_ms, kind, amount_nanos, currency, category, correction, quantity,
                                  unit, vcpu_ms, memory_mb_ms, list_cost_nanos, effective_cost_nanos,
                                  invoice_id, tags, extra, source_row, charge_identity)
VALUES ((SELECT COALESCE(MAX(pid), 0) + 1 FROM billing_line_pending), :format, :line_key, :batch_id, :line_no, :backend, :session_id, :start_ms, :end_ms,
        :kind, :amount_nanos, :currency, :category, :correction, :quantity, :unit,
        :vcpu_ms, :memory_mb_ms, :list_cost_nanos, :effective_cost_nanos, :invoice_id,
        :tags, :extra, :source_row, :charge_identity);
