-- invoice: every finalized invoice, by its number
-- Left out: invoice_id (the row id, in the order stored).
SELECT i.number,        -- the invoice number ('INV-2026-11-acme-001')
       i.number_prefix, -- its prefix
       i.number_seq,    -- its sequence number
       i.tag,           -- the tag name invoiced by
       i.customer,      -- the tag value, or '(untagged)'
       i.from_ms,       -- the period, [from, to)
       i.to_ms,
       i.basis,         -- 'computed' or 'billed'
       i.currency,      -- ISO 4217 code
       i.total_nanos,   -- the lines' sum
       i.runs,          -- runs charged
       i.notes,         -- what it said besides its lines
       i.created_ms     -- when it was finalized
  FROM invoice i;
