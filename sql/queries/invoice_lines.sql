-- The stored lines of a finalized invoice, in order.
SELECT kind, description, backend, model, quantity_milli, unit, rate_nanos, input_tokens,
       output_tokens, input_per_m_nanos, output_per_m_nanos, amount_nanos
  FROM invoice_line
 WHERE invoice_id = :invoice_id
 ORDER BY seq;
