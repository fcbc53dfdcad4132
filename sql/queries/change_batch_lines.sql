-- Log what batch :batch_id changed among the billing lines, one row per
-- backend and UTC day of their charge starts: the lines it stored and the
-- lines it superseded, leaving out those of a supersede by identical lines
-- (the same backend, session, charge period, kind, currency, category and
-- correction flag, as many of them, with the same sums: no figure moves).
-- Run when the batch ends and before it is taken out, inside that
-- transaction.
WITH added AS (
    SELECT backend, COALESCE(session_id, '') AS sid, start_ms, end_ms, kind, currency,
           COALESCE(category, '') AS cat, correction, COUNT(*) AS n,
           COALESCE(SUM(amount_nanos), 0) AS a, COALESCE(SUM(vcpu_ms), 0) AS v,
           COALESCE(SUM(memory_mb_ms), 0) AS m
      FROM billing_line WHERE batch_id = :batch_id
     GROUP BY backend, COALESCE(session_id, ''), start_ms, end_ms, kind, currency, COALESCE(category, ''), correction
), removed AS (
    SELECT backend, COALESCE(session_id, '') AS sid, start_ms, end_ms, kind, currency,
           COALESCE(category, '') AS cat, correction, COUNT(*) AS n,
           COALESCE(SUM(amount_nanos), 0) AS a, COALESCE(SUM(vcpu_ms), 0) AS v,
           COALESCE(SUM(memory_mb_ms), 0) AS m
      FROM billing_line WHERE superseded_by = :batch_id
     GROUP BY backend, COALESCE(session_id, ''), start_ms, end_ms, kind, currency, COALESCE(category, ''), correction
), moved AS (
    SELECT x.backend, x.start_ms FROM added x
     WHERE NOT EXISTS (SELECT 1 FROM removed y
                        WHERE y.backend = x.backend AND y.sid = x.sid AND y.start_ms = x.start_ms
                          AND y.end_ms = x.end_ms AND y.kind = x.kind AND y.currency = x.currency
                          AND y.cat = x.cat AND y.correction = x.correction AND y.n = x.n
                          AND y.a = x.a AND y.v = x.v AND y.m = x.m)
    UNION ALL
    SELECT y.backend, y.start_ms FROM removed y
     WHERE NOT EXISTS (SELECT 1 FROM added x
                        WHERE y.backend = x.backend AND y.sid = x.sid AND y.start_ms = x.start_ms
                          AND y.end_ms = x.end_ms AND y.kind = x.kind AND y.currency = x.currency
                          AND y.cat = x.cat AND y.correction = x.correction AND y.n = x.n
                          AND y.a = x.a AND y.v = x.v AND y.m = x.m)
)
INSERT INTO ledger_change (change_id, made_ms, what, backend, from_ms, to_ms, batch_id)
SELECT (SELECT COALESCE(MAX(change_id), 0) FROM ledger_change) + ROW_NUMBER() OVER (ORDER BY g.backend, g.from_ms),
       :made_ms, 'lines', g.backend, g.from_ms, g.to_ms, :batch_id
  FROM (SELECT backend, MIN(start_ms) AS from_ms, MAX(start_ms) + 1 AS to_ms
          FROM moved GROUP BY backend, start_ms / 86400000) g;
