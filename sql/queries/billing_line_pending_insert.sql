-- Store a line of a superseding batch as pending (no reader sees it until its batch completes),
-- which the writer has found no pending line of the batch holding the key of
-- (billing_line_key_pending.sql): one that did is refused by billing_line_pending_key, an error.
-- pid: the writer's, as billing_line_insert.sql's lid (billing_line_pending_pid_next.sql).
INSERT INTO billing_line_pending (pid, format, line_key, batch_id, line_no, backend, session_id, start_ms,
                                  end_ms, kind, amount_nanos, currency, category, correction, quantity,
                                  unit, vcpu_ms, memory_mb_ms, list_cost_nanos, effective_cost_nanos,
                                  invoice_id, tags, extra, source_row, charge_identity)
VALUES (:pid, :format, :line_key, :batch_id, :line_no, :backend, :session_id, :start_ms, :end_ms,
        :kind, :amount_nanos, :currency, :category, :correction, :quantity, :unit,
        :vcpu_ms, :memory_mb_ms, :list_cost_nanos, :effective_cost_nanos, :invoice_id,
        :tags, :extra, :source_row, :charge_identity);
