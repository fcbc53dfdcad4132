-- Invoices: per customer and model, the tokens of the runs started in
-- [:from_ms, :to_ms) that name a model, with the model's prices (NULL
-- when it has none).  By customer, then model.
SELECT COALESCE(t.value, '(untagged)') AS customer,
       r.model,
       SUM(r.input_tokens) AS input_tokens,
       SUM(r.output_tokens) AS output_tokens,
       p.input_per_m_nanos,
       p.output_per_m_nanos
  FROM run r
  LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
  LEFT JOIN model_price p ON p.model = r.model
 WHERE r.started_ms >= :from_ms AND r.started_ms < :to_ms AND r.model IS NOT NULL
 GROUP BY COALESCE(t.value, '(untagged)'), r.model, p.input_per_m_nanos, p.output_per_m_nanos
 ORDER BY customer, r.model;
