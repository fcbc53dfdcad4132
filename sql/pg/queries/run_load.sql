-- PostgreSQL's run_load.sql: the same columns as rows of one COPY (the
-- engine sends the rows of a chunk at once; a parameter :col is the
-- column col).  Store a run the writer knows is new, under the row id it
-- gave it (sql/queries/run_load.sql).
COPY run (rid, run_id, batch_id, line_no, backend, session_id, plan, started_ms, started_day,
          ended_ms, model, input_tokens, output_tokens, budget_nanos, exec_count,
          total_duration_ms, cpu_ms, memory_peak_mb, bytes_read, bytes_written,
          computed_nanos, billed_nanos, card_nanos, lifetime_nanos, has_executions, fingerprint,
          tags, extra, recent) FROM STDIN;
