-- 009_billing_charge: counting each charge once (docs/formats-billing.md).
-- A billing line now carries its charge identity, so that a line that is
-- the same charge as a live line of another batch is told apart; a
-- superseding import keeps its lines pending until its last chunk commits;
-- identical rows of one file are counted apart by their ordinal.

-- What names the charge within its backend, session and category: FOCUS a
-- JSON array of ServiceName, SkuId, ChargeDescription, PricingCategory,
-- CommitmentDiscountId, RegionId and InvoiceId; Modal the resource (NULL
-- on a total, which is the same charge as every resource of its object and
-- interval); record the unit; NULL where the format has none.
ALTER TABLE billing_line ADD COLUMN charge_identity TEXT;

-- The live lines of one backend, session and charge identity by start, for
-- the same-charge lookup of every line imported.
CREATE INDEX billing_line_charge ON billing_line (format, backend, session_id, charge_identity, start_ms)
    WHERE superseded_by IS NULL;

-- The lines of a superseding batch (import billing --supersede, every
-- fetch) until the transaction of its last chunk: then they move to
-- billing_line and the lines they replace are superseded, in one step.
-- No reader sees them here.  Columns as in billing_line.
CREATE TABLE billing_line_pending (
    pid                  INTEGER PRIMARY KEY,    -- internal row id, in the order stored
    format               TEXT NOT NULL,          -- the import format
    line_key             TEXT NOT NULL,          -- the line key (as billing_line.line_key)
    batch_id             INTEGER NOT NULL REFERENCES batch (batch_id), -- the superseding batch
    line_no              INTEGER NOT NULL,       -- its line (or record) in that batch's input
    backend              TEXT NOT NULL,          -- backend id
    session_id           TEXT,                   -- the session charged, NULL for an account-level line
    start_ms             INTEGER NOT NULL,       -- charge period start
    end_ms               INTEGER NOT NULL,       -- charge period end
    kind                 TEXT NOT NULL,          -- 'billed' or 'metered'
    amount_nanos         INTEGER,                -- signed amount x 10^9, NULL on metered lines
    currency             TEXT NOT NULL,          -- ISO 4217 code of amount
    category             TEXT,                   -- FOCUS ChargeCategory
    correction           INTEGER NOT NULL,       -- 1 when FOCUS ChargeClass is Correction
    quantity             TEXT,                   -- consumed quantity as text
    unit                 TEXT,                   -- its unit
    vcpu_ms              INTEGER,                -- metered: vCPU-milliseconds
    memory_mb_ms         INTEGER,                -- metered: MB-milliseconds
    list_cost_nanos      INTEGER,                -- FOCUS ListCost
    effective_cost_nanos INTEGER,                -- FOCUS EffectiveCost
    invoice_id           TEXT,                   -- FOCUS InvoiceId
    tags                 TEXT,                   -- tags as JSON text
    extra                TEXT,                   -- other kept fields as a JSON object
    source_row           BLOB NOT NULL,          -- the row as it was in the input
    charge_identity      TEXT                    -- as billing_line.charge_identity
);
-- The keys of one superseding batch are compared among themselves.
CREATE UNIQUE INDEX billing_line_pending_key ON billing_line_pending (batch_id, format, line_key);
CREATE INDEX billing_line_pending_charge ON billing_line_pending (batch_id, backend, session_id, charge_identity, start_ms);

-- A superseding batch, and the period it covers when one was given.
CREATE TABLE billing_supersede (
    batch_id      INTEGER PRIMARY KEY REFERENCES batch (batch_id), -- the superseding batch
    from_ms       INTEGER,                       -- the period it covers (--period, a fetch's period): start
    to_ms         INTEGER                        -- and end (excluded); both NULL: the span of its lines
);

-- How many rows of a batch's file so far had the same normalized content
-- (its SHA-256): the ordinal that keeps identical rows of one file apart.
-- Kept while the batch can be resumed, dropped when it ends.
CREATE TABLE billing_row_seen (
    batch_id      INTEGER NOT NULL REFERENCES batch (batch_id), -- the batch reading the file
    row_hash      TEXT NOT NULL,                 -- SHA-256 of the normalized line, hex
    seen          INTEGER NOT NULL,              -- rows with that content read so far
    PRIMARY KEY (batch_id, row_hash)
) WITHOUT ROWID;

-- Rejected records: several may share a line (the elements of a JSON
-- array written on one line, as Daytona's usage API sends it), so a line
-- no longer keys one reject: each record read is kept, in the order read.
CREATE TABLE reject_006 (
    batch_id      INTEGER NOT NULL REFERENCES batch (batch_id), -- the batch that read it
    line_no       INTEGER NOT NULL,              -- 1-based line (CSV: first line of the record)
    reason        TEXT NOT NULL,                 -- what is wrong, naming the field
    content       BLOB NOT NULL,                 -- the record as it was (its first 64 KiB when longer)
    full_length   INTEGER NOT NULL               -- the record's whole length in bytes
);
INSERT INTO reject_006 (batch_id, line_no, reason, content, full_length)
SELECT batch_id, line_no, reason, content, full_length FROM reject ORDER BY batch_id, line_no;
DROP TABLE reject;
ALTER TABLE reject_006 RENAME TO reject;
CREATE INDEX reject_by_line ON reject (batch_id, line_no);
