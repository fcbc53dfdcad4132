-- The token prices of a model.
SELECT input_per_m_nanos, output_per_m_nanos FROM model_price WHERE model = :model;
