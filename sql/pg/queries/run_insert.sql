-- PostgreSQL's run_insert.sql: the shared statement, returning the rid it
-- made (the engine keeps it for sb_db_last_id: no lastval() round trip
-- per run), which is the highest + 1 as SQLite makes it, not the identity
-- column's sequence: the rows of run_load.sql name theirs (the same rule),
-- and the sequence knows nothing of them.
-- Store a run unless its run_id is already in the ledger; :recent 1 puts
-- its session entry in the recent part of the session index (0: a bulk
-- import, whose indexes are built at its end; sql/schema/010_scale.sql).
INSERT INTO run (rid, run_id, batch_id, line_no, backend, session_id, plan, started_ms, started_day, ended_ms,
                 model, input_tokens, output_tokens, budget_nanos, exec_count,
                 total_duration_ms, cpu_ms, memory_peak_mb, bytes_read, bytes_written,
                 computed_nanos, billed_nanos, card_nanos, lifetime_nanos, has_executions, fingerprint,
                 tags, extra, recent)
VALUES ((SELECT COALESCE(MAX(rid), 0) + 1 FROM run), :run_id, :batch_id, :line_no, :backend, :session_id, :plan, :started_ms, :started_day, :ended_ms,
        :model, :input_tokens, :output_tokens, :budget_nanos, :exec_count,
        :total_duration_ms, :cpu_ms, :memory_peak_mb, :bytes_read, :bytes_written,
        :computed_nanos, :billed_nanos, :card_nanos, :lifetime_nanos, :has_executions, :fingerprint,
        :tags, :extra, :recent)
ON CONFLICT (run_id) DO NOTHING
RETURNING rid;   -- PostgreSQL: the rid made, in the same round trip (sb_db_last_id); no row when the run_id was there
