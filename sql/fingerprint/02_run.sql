-- run: every stored run, by its run_id, with the batch that brought it
-- Left out: rid (the row id, in the order stored), the batch's number
-- (its natural key instead), and recent: whether its session index entry
-- is in the part stored since the last merge, which depends on when the
-- merges ran (an eighth of the runs), so on the order the files came in.
SELECT r.run_id,            -- the SDK's run id
       b.sha256,            -- the batch that brought this version: its input's SHA-256,
       b.format,            -- format
       b.options,           -- and options
       r.line_no,           -- its line in that input
       r.backend,           -- backend id
       r.session_id,        -- the session
       r.plan,              -- rate-card plan
       r.started_ms,        -- started_at
       r.started_day,       -- its UTC date
       r.ended_ms,          -- ended_at
       r.model,             -- token_usage.model
       r.input_tokens,      -- input tokens
       r.output_tokens,     -- output tokens
       r.budget_nanos,      -- budget_usd
       r.exec_count,        -- sandbox_usage.exec_count
       r.total_duration_ms, -- sandbox_usage.total_duration_ms
       r.cpu_ms,            -- sandbox_usage.cpu_ms
       r.memory_peak_mb,    -- sandbox_usage.memory_peak_mb
       r.bytes_read,        -- sandbox_usage.bytes_read
       r.bytes_written,     -- sandbox_usage.bytes_written
       r.computed_nanos,    -- the SDK's computed cost
       r.billed_nanos,      -- the SDK's billed cost
       r.card_nanos,        -- the card cost
       r.lifetime_nanos,    -- the session life at the card's rate
       r.has_executions,    -- 1 when the record listed its executions
       r.fingerprint,       -- SHA-256 of the normalized record
       r.tags,              -- the tags object as JSON text
       r.extra              -- unknown fields as JSON text
  FROM run r
  LEFT JOIN batch b ON b.batch_id = r.batch_id;
