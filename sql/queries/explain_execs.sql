-- The executions of the runs of explain_runs (one backend, started in
-- [:from_ms, :to_ms)), in the same order of runs, then as recorded.
SELECT x.rid,                      -- the run
       x.command,                  -- the command line, NULL when absent
       x.duration_ms,              -- wall time
       x.cost_nanos,               -- cost_usd, NULL when the SDK had none
       x.extra                     -- unknown fields as JSON (an optional started_at)
  FROM run r
  JOIN execution x ON x.rid = r.rid
 WHERE r.backend = :backend AND r.started_ms >= :from_ms AND r.started_ms < :to_ms
 ORDER BY r.session_id NULLS FIRST, r.started_ms, r.rid, x.seq;
