-- Invoices: per customer and model, the runs started in [:from_ms,
-- :to_ms) and their tokens, with the model's prices (NULL when it has
-- none).  Model '' gathers the runs that name no model (with tokens: a
-- token cost nobody can price; without: nothing to charge).  By customer,
-- then model.  Whole UTC days from the day rollups, the rest from run, as
-- in invoice_compute.sql.
WITH tagged AS (
    SELECT value, model, runs, input_tokens, output_tokens
      FROM run_day_tag
     WHERE name = :tag AND day >= :from_day AND day < :to_day),
parts (customer, model, runs, input_tokens, output_tokens) AS (
    SELECT * FROM tagged
    UNION ALL
    SELECT '(untagged)', model, runs, input_tokens, output_tokens
      FROM run_day
     WHERE day >= :from_day AND day < :to_day
    UNION ALL
    SELECT '(untagged)', model, -runs, -input_tokens, -output_tokens FROM tagged
    UNION ALL
    SELECT COALESCE(t.value, '(untagged)'), COALESCE(r.model, ''), 1, r.input_tokens, r.output_tokens
      FROM run r
      LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = :tag
     WHERE (r.started_ms >= :from_ms AND r.started_ms < :head_end_ms)
        OR (r.started_ms >= :tail_start_ms AND r.started_ms < :to_ms))
SELECT g.customer, g.model, g.input_tokens, g.output_tokens,
       p.input_per_m_nanos, p.output_per_m_nanos, g.runs
  FROM (SELECT customer, model, SUM(runs) AS runs, SUM(input_tokens) AS input_tokens,
               SUM(output_tokens) AS output_tokens
          FROM parts
         GROUP BY customer, model
        HAVING SUM(runs) > 0) g
  LEFT JOIN model_price p ON p.model = g.model
 ORDER BY g.customer, g.model;
