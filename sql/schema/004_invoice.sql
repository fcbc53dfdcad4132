-- 004_invoice: finalized invoices (docs/reports.md, invoice
-- --finalize).  A finalized invoice is stored whole, lines and the runs
-- it charged, and is reprinted from here, never recomputed.  Money
-- columns (*_nanos) are integer nanodollars; times (*_ms) integer UTC
-- milliseconds.

-- One finalized invoice: one customer (a tag value) over one period.
CREATE TABLE invoice (
    invoice_id    INTEGER PRIMARY KEY,           -- internal row id
    number        TEXT NOT NULL UNIQUE,          -- the invoice number: PREFIX-NNN ('INV-2026-11-acme-001'); never reused
    number_prefix TEXT NOT NULL,                 -- 'INV-' period name '-' customer slug ('INV-2026-11-acme')
    number_seq    INTEGER NOT NULL,              -- NNN: 1 + the highest seq of the same prefix, ever
    tag           TEXT NOT NULL,                 -- the tag name invoiced by (--by tag:NAME)
    customer      TEXT NOT NULL,                 -- the tag value, or '(untagged)' for runs without the tag
    from_ms       INTEGER NOT NULL,              -- the period invoiced, [from, to)
    to_ms         INTEGER NOT NULL,
    basis         TEXT NOT NULL,                 -- 'computed' or 'billed' (--basis)
    currency      TEXT NOT NULL,                 -- ISO 4217 code of every amount ('USD')
    total_nanos   INTEGER NOT NULL,              -- the sum of the lines' amounts (whole cents)
    runs          INTEGER NOT NULL,              -- how many runs it charged (rows in invoice_run)
    notes         TEXT,                          -- what the invoice said besides its lines (allocations, unbilled backends), one per line; NULL when none
    created_ms    INTEGER NOT NULL,              -- when it was finalized
    UNIQUE (number_prefix, number_seq)
);
CREATE INDEX invoice_by_customer ON invoice (tag, customer, from_ms);

-- The lines of a finalized invoice, in the order printed.
CREATE TABLE invoice_line (
    invoice_id         INTEGER NOT NULL REFERENCES invoice (invoice_id), -- the invoice
    seq                INTEGER NOT NULL,         -- position on the invoice, from 1
    kind               TEXT NOT NULL,            -- 'compute' (sandbox minutes of a backend) or 'tokens' (a model's tokens)
    description        TEXT NOT NULL,            -- as printed: 'Sandbox compute: e2b', 'Tokens: gpt-5.6-terra'
    backend            TEXT,                     -- compute: the backend id; NULL on token lines
    model              TEXT,                     -- tokens: the model; NULL on compute lines
    quantity_milli     INTEGER,                  -- compute: exec minutes x 1000 (3 decimals, rounded half to even); NULL on token lines
    unit               TEXT,                     -- compute: 'minutes'; NULL on token lines
    rate_nanos         INTEGER,                  -- compute: amount per exec minute before the cent rounding, NULL when no minutes
    input_tokens       INTEGER,                  -- tokens: input tokens; NULL on compute lines
    output_tokens      INTEGER,                  -- tokens: output tokens; NULL on compute lines
    input_per_m_nanos  INTEGER,                  -- tokens: the price of a million input tokens used
    output_per_m_nanos INTEGER,                  -- tokens: the price of a million output tokens used
    amount_nanos       INTEGER NOT NULL,         -- the line's amount, rounded half to even to the cent
    PRIMARY KEY (invoice_id, seq)
);

-- The runs a finalized invoice charged: later runs of its period and
-- customer are not among them, and are reported as adjustments.
CREATE TABLE invoice_run (
    invoice_id     INTEGER NOT NULL REFERENCES invoice (invoice_id), -- the invoice
    run_id         TEXT NOT NULL,                -- the run (run.run_id)
    PRIMARY KEY (invoice_id, run_id)
);

-- A finalized invoice never changes: updates and deletes are refused.
-- (PostgreSQL would express the same with a trigger function or by
-- granting INSERT and SELECT only.)
CREATE TRIGGER invoice_no_update BEFORE UPDATE ON invoice
BEGIN SELECT RAISE(ABORT, 'a finalized invoice never changes'); END;
CREATE TRIGGER invoice_no_delete BEFORE DELETE ON invoice
BEGIN SELECT RAISE(ABORT, 'a finalized invoice never changes'); END;
CREATE TRIGGER invoice_line_no_update BEFORE UPDATE ON invoice_line
BEGIN SELECT RAISE(ABORT, 'a finalized invoice never changes'); END;
CREATE TRIGGER invoice_line_no_delete BEFORE DELETE ON invoice_line
BEGIN SELECT RAISE(ABORT, 'a finalized invoice never changes'); END;
CREATE TRIGGER invoice_run_no_update BEFORE UPDATE ON invoice_run
BEGIN SELECT RAISE(ABORT, 'a finalized invoice never changes'); END;
CREATE TRIGGER invoice_run_no_delete BEFORE DELETE ON invoice_run
BEGIN SELECT RAISE(ABORT, 'a finalized invoice never changes'); END;
