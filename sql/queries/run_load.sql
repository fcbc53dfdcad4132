-- Store a run the writer knows is new (sb_run_writer_expect found its
-- run_id nowhere in the ledger), under the row id it gave it: the
-- highest one + 1, as an INSERT without one would (run_rid_next.sql).
-- Any conflict is an error: the writer holds the ledger's writers' lock.
-- :recent as in run_insert.sql.
INSERT INTO run (rid, run_id, batch_id, line_no, backend, session_id, plan, started_ms, started_day,
                 ended_ms, model, input_tokens, output_tokens, budget_nanos, exec_count,
                 total_duration_ms, cpu_ms, memory_peak_mb, bytes_read, bytes_written,
                 computed_nanos, billed_nanos, card_nanos, lifetime_nanos, has_executions, fingerprint,
                 tags, extra, recent)
VALUES (:rid, :run_id, :batch_id, :line_no, :backend, :session_id, :plan, :started_ms, :started_day,
        :ended_ms, :model, :input_tokens, :output_tokens, :budget_nanos, :exec_count,
        :total_duration_ms, :cpu_ms, :memory_peak_mb, :bytes_read, :bytes_written,
        :computed_nanos, :billed_nanos, :card_nanos, :lifetime_nanos, :has_executions, :fingerprint,
        :tags, :extra, :recent);
