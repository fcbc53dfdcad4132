-- invoice_line: the lines of each finalized invoice
-- Left out: invoice_id: the invoice by its number instead.
SELECT i.number,             -- the invoice
       n.seq,                -- position on it, from 1
       n.kind,               -- 'compute' or 'tokens'
       n.description,        -- as printed
       n.backend,            -- compute: the backend
       n.model,              -- tokens: the model
       n.quantity_milli,     -- compute: exec minutes x 1000
       n.unit,               -- compute: 'minutes'
       n.rate_nanos,         -- compute: amount per exec minute
       n.input_tokens,       -- tokens: input tokens
       n.output_tokens,      -- tokens: output tokens
       n.input_per_m_nanos,  -- tokens: input price used
       n.output_per_m_nanos, -- tokens: output price used
       n.amount_nanos        -- the line's amount
  FROM invoice_line n
  LEFT JOIN invoice i ON i.invoice_id = n.invoice_id;
