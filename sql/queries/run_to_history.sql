-- Keep the stored version of a run that --replace is about to replace.
INSERT INTO run_history (replaced_ms, replaced_by_batch, rid, run_id, batch_id, line_no,
                         backend, session_id, plan, started_ms, started_day, ended_ms, model,
                         input_tokens, output_tokens, budget_nanos, exec_count,
                         total_duration_ms, cpu_ms, memory_peak_mb, bytes_read,
                         bytes_written, computed_nanos, billed_nanos, card_nanos, lifetime_nanos,
                         has_executions, fingerprint, tags, extra)
SELECT CAST(:replaced_ms AS BIGINT), CAST(:replaced_by_batch AS BIGINT), rid, run_id, batch_id, line_no,
       backend, session_id, plan, started_ms, started_day, ended_ms, model,
       input_tokens, output_tokens, budget_nanos, exec_count,
       total_duration_ms, cpu_ms, memory_peak_mb, bytes_read,
       bytes_written, computed_nanos, billed_nanos, card_nanos, lifetime_nanos,
       has_executions, fingerprint, tags, extra
  FROM run WHERE rid = :rid;
