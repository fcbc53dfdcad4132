-- Log what batch :batch_id changed among the runs, one row per backend and
-- UTC day of their starts: the runs it stored, and the versions it
-- replaced (--replace).  Run when the batch ends and before it is taken
-- out, inside that transaction.
INSERT INTO ledger_change (change_id, made_ms, what, backend, from_ms, to_ms, batch_id)
SELECT (SELECT COALESCE(MAX(change_id), 0) FROM ledger_change) + ROW_NUMBER() OVER (ORDER BY g.backend, g.from_ms),
       :made_ms, 'runs', g.backend, g.from_ms, g.to_ms, :batch_id
  FROM (SELECT x.backend, MIN(x.started_ms) AS from_ms, MAX(x.started_ms) + 1 AS to_ms
          FROM (SELECT backend, started_ms, started_day FROM run WHERE batch_id = :batch_id
                UNION ALL
                SELECT backend, started_ms, started_day FROM run_history WHERE replaced_by_batch = :batch_id) x
         GROUP BY x.backend, x.started_day) g;
