-- The runs of one backend started in [:from_ms, :to_ms), for explain
-- (reconcile/explain.c): by session (the runs that named none first),
-- then start and row, the order explain_execs gives their executions in.
SELECT r.rid,                      -- internal row id (explain_execs names it)
       r.run_id,                   -- the SDK's run id
       r.session_id,               -- the session, NULL when none was named
       r.plan,                     -- the rate-card plan, NULL for the default card
       r.started_ms,               -- started_at
       r.ended_ms,                 -- ended_at, NULL when unknown
       r.total_duration_ms,        -- command time
       r.exec_count,               -- executions
       r.computed_nanos,           -- the SDK's estimate
       r.card_nanos,               -- the card cost of the commands (NULL: no card)
       r.lifetime_nanos            -- the life at the card (NULL: no card or no end)
  FROM run r
 WHERE r.backend = :backend AND r.started_ms >= :from_ms AND r.started_ms < :to_ms
 ORDER BY r.session_id NULLS FIRST, r.started_ms, r.rid;
