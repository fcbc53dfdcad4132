-- Store one line of a finalized invoice.
INSERT INTO invoice_line (invoice_id, seq, kind, description, backend, model, quantity_milli,
                          unit, rate_nanos, input_tokens, output_tokens, input_per_m_nanos,
                          output_per_m_nanos, amount_nanos)
VALUES (:invoice_id, :seq, :kind, :description, :backend, :model, :quantity_milli, :unit,
        :rate_nanos, :input_tokens, :output_tokens, :input_per_m_nanos, :output_per_m_nanos,
        :amount_nanos);
