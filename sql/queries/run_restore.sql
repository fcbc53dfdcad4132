-- Put the replaced version :hid of a run back into run (a new rid).
INSERT INTO run (run_id, batch_id, line_no, backend, session_id, plan, started_ms, started_day,
                 ended_ms, model, input_tokens, output_tokens, budget_nanos, exec_count,
                 total_duration_ms, cpu_ms, memory_peak_mb, bytes_read, bytes_written,
                 computed_nanos, billed_nanos, card_nanos, lifetime_nanos, has_executions,
                 fingerprint, tags, extra)
SELECT run_id, batch_id, line_no, backend, session_id, plan, started_ms, started_day,
       ended_ms, model, input_tokens, output_tokens, budget_nanos, exec_count,
       total_duration_ms, cpu_ms, memory_peak_mb, bytes_read, bytes_written,
       computed_nanos, billed_nanos, card_nanos, lifetime_nanos, has_executions,
       fingerprint, tags, extra
  FROM run_history WHERE hid = :hid;
