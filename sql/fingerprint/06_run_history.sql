-- run_history: the versions of runs replaced by import runs --replace
-- Left out: hid (the history row id, in the order stored), rid (the run's
-- row id then), and the numbers of the two batches (their natural keys
-- instead).
SELECT h.replaced_ms,       -- when it was replaced
       n.sha256,            -- the batch that brought the new version: its input's SHA-256,
       n.format,            -- format
       n.options,           -- and options
       h.run_id,            -- the run
       b.sha256,            -- the batch that had brought this version: its input's SHA-256,
       b.format,            -- format
       b.options,           -- and options
       h.line_no,           -- its line in that input
       h.backend,           -- the columns of run, as they were
       h.session_id,
       h.plan,
       h.started_ms,
       h.started_day,
       h.ended_ms,
       h.model,
       h.input_tokens,
       h.output_tokens,
       h.budget_nanos,
       h.exec_count,
       h.total_duration_ms,
       h.cpu_ms,
       h.memory_peak_mb,
       h.bytes_read,
       h.bytes_written,
       h.computed_nanos,
       h.billed_nanos,
       h.card_nanos,
       h.lifetime_nanos,
       h.has_executions,
       h.fingerprint,       -- SHA-256 of the version's normalized record
       h.tags,
       h.extra
  FROM run_history h
  LEFT JOIN batch n ON n.batch_id = h.replaced_by_batch
  LEFT JOIN batch b ON b.batch_id = h.batch_id;
