-- billing_line: every billing line, live or superseded, with its batches
-- Left out: lid (the row id, in the order stored) and the batches'
-- numbers (their natural keys instead).
SELECT l.format,               -- the import format
       l.line_key,             -- the format's id, else the SHA-256 of the normalized row
       b.sha256,               -- the batch that brought it: its input's SHA-256,
       b.format,               -- format
       b.options,              -- and options
       l.line_no,              -- its line (or record) in that input
       l.backend,              -- backend id
       l.session_id,           -- the session charged
       l.start_ms,             -- charge period start
       l.end_ms,               -- charge period end
       l.kind,                 -- 'billed' or 'metered'
       l.amount_nanos,         -- signed amount x 10^9
       l.currency,             -- ISO 4217 code
       l.category,             -- FOCUS ChargeCategory
       l.correction,           -- 1 for a FOCUS Correction
       l.quantity,             -- consumed quantity as text
       l.unit,                 -- its unit
       l.vcpu_ms,              -- metered: vCPU-milliseconds
       l.memory_mb_ms,         -- metered: MB-milliseconds
       l.list_cost_nanos,      -- FOCUS ListCost
       l.effective_cost_nanos, -- FOCUS EffectiveCost
       l.invoice_id,           -- FOCUS InvoiceId (the provider's)
       l.tags,                 -- tags as JSON text
       l.extra,                -- other kept fields as JSON text
       l.source_row,           -- the row as it was (BLOB: its bytes)
       s.sha256,               -- the batch that superseded it (NULL while live): its input's SHA-256,
       s.format,               -- format
       s.options,              -- and options
       l.charge_identity       -- what names the charge
  FROM billing_line l
  LEFT JOIN batch b ON b.batch_id = l.batch_id
  LEFT JOIN batch s ON s.batch_id = l.superseded_by;
