-- 002_billing: billing lines normalized from every provider export
-- (docs/formats-billing.md), and exchange rates for non-USD lines.

-- One charge as a provider reports it.
CREATE TABLE billing_line (
    lid                  INTEGER PRIMARY KEY,    -- internal row id
    format               TEXT NOT NULL,          -- the import format: 'record', 'focus', 'modal', 'daytona', 'e2b-events', 'deepinfra-usage'
    line_key             TEXT NOT NULL,          -- the format's own id where it has one, else the SHA-256 of the normalized row
    batch_id             INTEGER NOT NULL REFERENCES batch (batch_id), -- the batch that brought it
    line_no              INTEGER NOT NULL,       -- its line (or record) in that batch's input
    backend              TEXT NOT NULL,          -- backend id
    session_id           TEXT,                   -- the session charged, NULL for an account-level line
    start_ms             INTEGER NOT NULL,       -- charge period start (the period it belongs to)
    end_ms               INTEGER NOT NULL,       -- charge period end
    kind                 TEXT NOT NULL,          -- 'billed' (dollars reported) or 'metered' (usage reported, priced at reconciliation)
    amount_nanos         INTEGER,                -- signed amount in currency units x 10^9 (credits negative); NULL on metered lines
    currency             TEXT NOT NULL,          -- ISO 4217 code of amount
    category             TEXT,                   -- FOCUS ChargeCategory (Usage, Purchase, Tax, Credit, Adjustment), NULL when the format has none
    correction           INTEGER NOT NULL,       -- 1 when FOCUS ChargeClass is Correction
    quantity             TEXT,                   -- consumed quantity as the source gives it (decimal text)
    unit                 TEXT,                   -- its unit
    vcpu_ms              INTEGER,                -- metered: vCPU-milliseconds (vcpu_count x ms)
    memory_mb_ms         INTEGER,                -- metered: MB-milliseconds (memory_mb x ms)
    list_cost_nanos      INTEGER,                -- FOCUS ListCost
    effective_cost_nanos INTEGER,                -- FOCUS EffectiveCost
    invoice_id           TEXT,                   -- FOCUS InvoiceId
    tags                 TEXT,                   -- tags as JSON text
    extra                TEXT,                   -- other kept fields as a JSON object
    source_row           BLOB NOT NULL,          -- the row as it was in the input
    superseded_by        INTEGER REFERENCES batch (batch_id) -- NULL while live; the batch whose reissued export replaced it
);
-- A line key names one live line of a format; superseded copies are kept for audit.
CREATE UNIQUE INDEX billing_line_live_key ON billing_line (format, line_key) WHERE superseded_by IS NULL;
CREATE INDEX billing_line_by_start ON billing_line (start_ms);
CREATE INDEX billing_line_by_session ON billing_line (backend, session_id);
CREATE INDEX billing_line_by_batch ON billing_line (batch_id);

-- Exchange rates: USD per unit of a currency, from an effective instant.
CREATE TABLE fx_rate (
    currency      TEXT NOT NULL,                 -- ISO 4217 code
    effective_ms  INTEGER NOT NULL,              -- in force from this instant until a newer rate
    usd_nanos     INTEGER NOT NULL,              -- USD per unit x 10^9 (EUR at 1.08 USD: 1080000000)
    PRIMARY KEY (currency, effective_ms)
);
