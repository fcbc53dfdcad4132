-- Each finalized invoice's lines are the runs it claims: a backend's exec minutes, a model's tokens.
-- The query lists what breaks it.
-- The runs as the invoice charged them: the version of each claimed run
-- whose fingerprint the claim keeps (the run, or its old version in
-- run_history when an import --replace came since), so that a later
-- replace is an adjustment, not damage.  Only invoices whose every
-- claimed version is still in the ledger are recomputed (a run taken out
-- since leaves nothing to recompute from).  A compute line's quantity is
-- its backend's exec time in thousandths of a minute, rounded half to
-- even; each backend of the runs has one under either basis.  A token
-- line's tokens are its model's (no model: the runs that name none); a
-- model without a price when the invoice was made has no line (its
-- notes say so), so a model's runs without a line are not a problem.  The amounts are not
-- recomputed here: they depend on the prices and bills of the day.
-- (Sums cast to BIGINT: PostgreSQL's SUM of bigints is numeric, whose
-- division keeps the fraction; one past 64 bits stops the check.)
WITH versions (run_id, fingerprint, backend, model, exec_ms, input_tokens, output_tokens) AS (
    SELECT run_id, fingerprint, backend, COALESCE(model, ''), total_duration_ms, input_tokens, output_tokens
      FROM run
    UNION
    SELECT run_id, fingerprint, backend, COALESCE(model, ''), total_duration_ms, input_tokens, output_tokens
      FROM run_history),
charged AS (
    SELECT ir.invoice_id, v.backend, v.model, v.exec_ms, v.input_tokens, v.output_tokens
      FROM invoice_run ir
      JOIN versions v ON v.run_id = ir.run_id AND v.fingerprint = ir.fingerprint),
whole AS (
    SELECT i.invoice_id, i.number
      FROM invoice i
     WHERE (SELECT COUNT(*) FROM charged c WHERE c.invoice_id = i.invoice_id)
         = (SELECT COUNT(*) FROM invoice_run ir WHERE ir.invoice_id = i.invoice_id)),
compute_due AS (
    SELECT invoice_id, backend, CAST(SUM(exec_ms) AS BIGINT) / 60 AS q, CAST(SUM(exec_ms) AS BIGINT) % 60 AS r
      FROM charged GROUP BY invoice_id, backend),
compute_due_milli AS (
    SELECT invoice_id, backend,
           q + CASE WHEN r > 30 OR (r = 30 AND q % 2 = 1) THEN 1 ELSE 0 END AS milli
      FROM compute_due),
compute_lines AS (
    SELECT invoice_id, seq, backend, quantity_milli FROM invoice_line WHERE kind = 'compute'),
token_due AS (
    SELECT invoice_id, model, CAST(SUM(input_tokens) AS BIGINT) AS input_tokens,
           CAST(SUM(output_tokens) AS BIGINT) AS output_tokens
      FROM charged GROUP BY invoice_id, model),
token_lines AS (
    SELECT invoice_id, seq, COALESCE(model, '') AS model, input_tokens, output_tokens
      FROM invoice_line WHERE kind = 'tokens')
SELECT what FROM (
SELECT 'invoice ' || w.number || ': line ' || l.seq || ' charges ' || COALESCE(l.quantity_milli, 0) ||
       ' thousandths of a minute on ' || l.backend || ', its runs there ran ' || COALESCE(d.milli, 0) AS what,
       w.invoice_id AS k1, l.seq AS k2
  FROM whole w
  JOIN compute_lines l ON l.invoice_id = w.invoice_id
  LEFT JOIN compute_due_milli d ON d.invoice_id = l.invoice_id AND d.backend = l.backend
 WHERE COALESCE(l.quantity_milli, 0) <> COALESCE(d.milli, 0)
UNION ALL
SELECT 'invoice ' || w.number || ': no line charges the runs it claims on ' || d.backend, w.invoice_id, 0
  FROM whole w
  JOIN compute_due_milli d ON d.invoice_id = w.invoice_id
 WHERE NOT EXISTS (SELECT 1 FROM compute_lines l WHERE l.invoice_id = d.invoice_id AND l.backend = d.backend)
UNION ALL
SELECT 'invoice ' || w.number || ': line ' || l.seq || ' charges ' || COALESCE(l.input_tokens, 0) || ' input and ' ||
       COALESCE(l.output_tokens, 0) || ' output tokens, its runs used ' || COALESCE(d.input_tokens, 0) ||
       ' and ' || COALESCE(d.output_tokens, 0), w.invoice_id, l.seq
  FROM whole w
  JOIN token_lines l ON l.invoice_id = w.invoice_id
  LEFT JOIN token_due d ON d.invoice_id = l.invoice_id AND d.model = l.model
 WHERE COALESCE(l.input_tokens, 0) <> COALESCE(d.input_tokens, 0)
    OR COALESCE(l.output_tokens, 0) <> COALESCE(d.output_tokens, 0)
) problems
 ORDER BY k1, k2, what;
