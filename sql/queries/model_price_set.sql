-- Set the token prices of a model.
INSERT INTO model_price (model, input_per_m_nanos, output_per_m_nanos, updated_ms)
VALUES (:model, :input_per_m_nanos, :output_per_m_nanos, :updated_ms)
ON CONFLICT (model) DO UPDATE SET input_per_m_nanos = excluded.input_per_m_nanos,
                                  output_per_m_nanos = excluded.output_per_m_nanos,
                                  updated_ms = excluded.updated_ms;
