-- Store a billing line unless a live line of its format already has its key (the writer has
-- looked the key up first, so nothing is skipped here in practice).
INSERT INTO billing_line (format, line_key, batch_id, line_no, backend, session_id, start_ms, end_ms,
                          kind, amount_nanos, currency, category, correction, quantity, unit,
                          vcpu_ms, memory_mb_ms, list_cost_nanos, effective_cost_nanos, invoice_id,
                          tags, extra, source_row, charge_identity)
VALUES (:format, :line_key, :batch_id, :line_no, :backend, :session_id, :start_ms, :end_ms,
        :kind, :amount_nanos, :currency, :category, :correction, :quantity, :unit,
        :vcpu_ms, :memory_mb_ms, :list_cost_nanos, :effective_cost_nanos, :invoice_id,
        :tags, :extra, :source_row, :charge_identity)
ON CONFLICT (format, line_key) WHERE superseded_by IS NULL DO NOTHING;
