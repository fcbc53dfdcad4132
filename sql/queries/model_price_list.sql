-- Every model price, by model.
SELECT model, input_per_m_nanos, output_per_m_nanos, updated_ms FROM model_price ORDER BY model;
