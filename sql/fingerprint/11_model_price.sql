-- model_price: token prices per model
SELECT m.model,              -- model name
       m.input_per_m_nanos,  -- price of a million input tokens
       m.output_per_m_nanos, -- price of a million output tokens
       m.updated_ms          -- when it was last set
  FROM model_price m;
