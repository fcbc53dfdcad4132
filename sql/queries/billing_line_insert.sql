-- Store a billing line, which the writer has found no live line of its format holding the key
-- of (billing_line_key_live.sql, under the writers' lock): a line that did is refused by the
-- index billing_line_live_key, an error, not a line dropped.
-- lid: the writer's, the largest plus one (billing_line_lid_next.sql) and one more for each line
-- it stores in the transaction, on both engines (SQLite's rowid rule; a PostgreSQL identity would
-- skip the numbers of rolled-back inserts).
INSERT INTO billing_line (lid, format, line_key, batch_id, line_no, backend, session_id, start_ms, end_ms,
                          kind, amount_nanos, currency, category, correction, quantity, unit,
                          vcpu_ms, memory_mb_ms, list_cost_nanos, effective_cost_nanos, invoice_id,
                          tags, extra, source_row, charge_identity)
VALUES (:lid, :format, :line_key, :batch_id, :line_no, :backend, :session_id, :start_ms, :end_ms,
        :kind, :amount_nanos, :currency, :category, :correction, :quantity, :unit,
        :vcpu_ms, :memory_mb_ms, :list_cost_nanos, :effective_cost_nanos, :invoice_id,
        :tags, :extra, :source_row, :charge_identity);
