-- 003_reconcile: drift tolerances per backend, and every stored
-- reconciliation with its parameters and results (docs/reconcile.md).

-- Tolerances that override the command line's for one backend.
CREATE TABLE tolerance (
    backend       TEXT PRIMARY KEY,              -- backend id
    abs_nanos     INTEGER NOT NULL,              -- drift up to this many nanodollars is never flagged
    rel_ppb       INTEGER NOT NULL,              -- nor drift up to this share of computed, in parts per 10^9 (0.05 = 50000000)
    updated_ms    INTEGER NOT NULL               -- when it was set
);

-- One reconciliation run (not stored with --dry-run).
CREATE TABLE reconciliation (
    recon_id      INTEGER PRIMARY KEY,           -- reconciliation number
    created_ms    INTEGER NOT NULL,              -- when it ran
    from_ms       INTEGER NOT NULL,              -- the period reconciled, [from, to)
    to_ms         INTEGER NOT NULL,
    abs_nanos     INTEGER NOT NULL,              -- default absolute tolerance it ran with
    rel_ppb       INTEGER NOT NULL,              -- default relative tolerance it ran with
    backends      INTEGER NOT NULL,              -- how many backends it judged
    flagged       INTEGER NOT NULL,              -- backends and sessions flagged (docs/reconcile.md: every status but ok and pending, unbilled once past the billing lag)
    result        TEXT NOT NULL                  -- the whole result, as 'reconcile --format json' printed it
);

-- The result per backend of a stored reconciliation.
CREATE TABLE reconciliation_backend (
    recon_id       INTEGER NOT NULL REFERENCES reconciliation (recon_id), -- the reconciliation
    backend        TEXT NOT NULL,                -- backend id
    status         TEXT NOT NULL,                -- ok, over_billed, under_billed, unbilled, unexpected, partial, currency, no_rate, pending
    basis          TEXT,                         -- billed, metered, run, or NULL when nothing was billed
    runs           INTEGER NOT NULL,             -- runs in its window (the period, or its billing grid's)
    computed_nanos INTEGER NOT NULL,             -- sum of the runs' computed_cost_usd
    billed_nanos   INTEGER,                      -- billed in USD, NULL when nothing was billed
    drift_nanos    INTEGER,                      -- billed - computed, NULL when billed is
    tax_nanos      INTEGER,                      -- FOCUS Tax lines, reported apart; NULL when none
    verdict        TEXT,                         -- lifetime, rate, unexplained; NULL unless drift was flagged
    PRIMARY KEY (recon_id, backend)
);

-- The sessions a stored reconciliation listed (not ok, or all with --all-sessions).
CREATE TABLE reconciliation_session (
    recon_id       INTEGER NOT NULL REFERENCES reconciliation (recon_id), -- the reconciliation
    backend        TEXT NOT NULL,                -- backend id
    session_id     TEXT,                         -- the session, NULL for runs that named none
    status         TEXT NOT NULL,                -- as for backends
    computed_nanos INTEGER NOT NULL,             -- its runs' computed_cost_usd
    billed_nanos   INTEGER,                      -- its lines' (else its runs' own billed_cost_usd)
    drift_nanos    INTEGER                       -- billed - computed
);
CREATE INDEX reconciliation_session_by_recon ON reconciliation_session (recon_id, backend);
CREATE INDEX reconciliation_by_period ON reconciliation (from_ms, to_ms);
