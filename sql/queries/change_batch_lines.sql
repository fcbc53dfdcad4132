-- Log what batch :batch_id changed among the billing lines, one row per
-- backend and UTC day of their charge starts: the lines it stored (+1)
-- and the lines it superseded (-1), added up per charge (backend,
-- session, charge period, kind, currency, category, correction flag).  A
-- charge whose count and sums come to 0 was superseded by identical
-- lines: no figure moves, and it is left out.  Run when the batch ends
-- and before it is taken out, inside that transaction.
WITH signed AS (
    SELECT backend, COALESCE(session_id, '') AS sid, start_ms, end_ms, kind, currency,
           COALESCE(category, '') AS cat, correction,
           CASE WHEN batch_id = :batch_id THEN 1 ELSE -1 END AS side,
           COALESCE(amount_nanos, 0) AS a, COALESCE(vcpu_ms, 0) AS v, COALESCE(memory_mb_ms, 0) AS m
      FROM billing_line
     WHERE batch_id = :batch_id OR superseded_by = :batch_id
), moved AS (
    SELECT backend, start_ms
      FROM signed
     GROUP BY backend, sid, start_ms, end_ms, kind, currency, cat, correction
    HAVING SUM(side) <> 0 OR SUM(side * a) <> 0 OR SUM(side * v) <> 0 OR SUM(side * m) <> 0
)
INSERT INTO ledger_change (change_id, made_ms, what, backend, from_ms, to_ms, batch_id)
SELECT (SELECT COALESCE(MAX(change_id), 0) FROM ledger_change) + ROW_NUMBER() OVER (ORDER BY g.backend, g.from_ms),
       :made_ms, 'lines', g.backend, g.from_ms, g.to_ms, :batch_id
  FROM (SELECT backend, MIN(start_ms) AS from_ms, MAX(start_ms) + 1 AS to_ms
          FROM moved GROUP BY backend, start_ms / 86400000) g;
