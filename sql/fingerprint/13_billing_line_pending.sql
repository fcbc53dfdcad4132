-- billing_line_pending: the lines of a superseding batch not yet moved
-- Left out: pid (the row id, in the order stored) and the batch's number
-- (its natural key instead).
SELECT l.format,               -- the import format
       l.line_key,             -- the line key
       b.sha256,               -- the superseding batch: its input's SHA-256,
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
       l.invoice_id,           -- FOCUS InvoiceId
       l.tags,                 -- tags as JSON text
       l.extra,                -- other kept fields as JSON text
       l.source_row,           -- the row as it was (BLOB: its bytes)
       l.charge_identity       -- what names the charge
  FROM billing_line_pending l
  LEFT JOIN batch b ON b.batch_id = l.batch_id;
