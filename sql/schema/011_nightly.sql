-- 011_nightly: what the nightly job needs to leave alone safely
-- (docs/reconcile.md, "Judged again" and "Flags"; docs/providers.md, "The
-- nightly job"): a log of every committed change that can move a stored
-- figure, so that a stored result is known to be stale; which result
-- replaced which; the grain each backend was judged at; and the flags
-- people handle.

-- Every committed change that can move a figure of a stored
-- reconciliation: runs or billing lines added, replaced, superseded or
-- taken out, a rate card, a token price, an exchange rate, a tolerance or
-- a grain set.  Written in the transaction that makes the change.  A
-- stored result is stale when a change newer than the result's change_id
-- meets its period or one of its backends' windows.
CREATE TABLE ledger_change (
    change_id     INTEGER PRIMARY KEY,           -- the order changes were committed in (the largest plus one)
    made_ms       INTEGER NOT NULL,              -- when
    what          TEXT NOT NULL,                 -- 'runs', 'lines', 'rate', 'price', 'fx', 'tolerance', 'grain'
    backend       TEXT,                          -- the backend whose figures it moves, NULL for every backend
    from_ms       INTEGER NOT NULL,              -- the span of time it moves, [from, to): run starts, charge starts, or when a card is in force
    to_ms         INTEGER NOT NULL,
    batch_id      INTEGER                        -- the batch that made it, NULL for a setting
);
CREATE INDEX ledger_change_by_id ON ledger_change (change_id, backend);

-- What a stored result saw and what replaced it.
ALTER TABLE reconciliation ADD COLUMN change_id INTEGER;       -- the newest ledger_change it saw (0: none); NULL before 011
ALTER TABLE reconciliation ADD COLUMN replaces INTEGER;        -- the result of the same period it replaced (judged again), NULL when none
ALTER TABLE reconciliation_backend ADD COLUMN grain TEXT;      -- 'day' or 'month': the backend's grain when judged; NULL before 011
ALTER TABLE reconciliation_backend ADD COLUMN abs_nanos INTEGER; -- the tolerance it was judged with; NULL before 011
ALTER TABLE reconciliation_backend ADD COLUMN rel_ppb INTEGER;

-- The grain a backend is billed at, where set (docs/reconcile.md,
-- "Grain"); a backend without a row is 'auto'.
CREATE TABLE backend_grain (
    backend       TEXT PRIMARY KEY,              -- backend id
    grain         TEXT NOT NULL,                 -- 'day', 'month' or 'auto'
    set_ms        INTEGER NOT NULL               -- when it was set (0: seeded)
);
INSERT INTO backend_grain (backend, grain, set_ms) VALUES ('deepinfra', 'month', 0);

-- A flag: a flagged backend or session of a stored result at its
-- backend's grain, one id across the re-judgments of the same period,
-- backend and session.
CREATE TABLE flag (
    flag_id       INTEGER PRIMARY KEY,           -- the flag's number
    from_ms       INTEGER NOT NULL,              -- the period, [from, to): a UTC day or a calendar month
    to_ms         INTEGER NOT NULL,
    backend       TEXT NOT NULL,                 -- backend id
    is_session    INTEGER NOT NULL,              -- 1 a session of the backend, 0 the backend itself
    session_id    TEXT,                          -- the session (NULL: the backend, or runs that named none)
    state         TEXT NOT NULL,                 -- 'open' (new or reopened), 'handled', 'resolved'
    handling      TEXT,                          -- 'ack', 'waive', 'dispute' while handled; 'resolved' after a dispute was closed; NULL otherwise
    status        TEXT NOT NULL,                 -- the status last judged (over_billed, unbilled, ...)
    computed_nanos INTEGER NOT NULL,             -- the figures last judged
    billed_nanos  INTEGER,
    drift_nanos   INTEGER,
    recon_id      INTEGER NOT NULL,              -- the latest result that judged it
    opened_ms     INTEGER NOT NULL,              -- when it was first raised
    updated_ms    INTEGER NOT NULL,              -- when it last changed
    reopened      INTEGER NOT NULL,              -- 1 when its figures changed while it was handled (cleared when handled again)
    resolved_by_batch INTEGER,                   -- the batch whose change made the re-judgment no longer flagged
    reason        TEXT,                          -- the last handling's reason
    who           TEXT                           -- who handled it last
);
CREATE INDEX flag_by_period ON flag (from_ms, to_ms, backend);  -- one row per period, backend and session: kept so by the writer (reconcile/flags.c)

-- Every event of a flag, in order: raised, handled, reopened, resolved.
CREATE TABLE flag_event (
    flag_id       INTEGER NOT NULL REFERENCES flag (flag_id), -- the flag
    seq           INTEGER NOT NULL,              -- its events in order, from 1
    at_ms         INTEGER NOT NULL,              -- when
    action        TEXT NOT NULL,                 -- 'raised', 'ack', 'waive', 'dispute', 'resolve', 'reopen', 'reopened' (figures changed), 'resolved' (no longer flagged)
    reason        TEXT,                          -- the reason given, or what changed
    who           TEXT,                          -- who did it (NULL: the ledger itself)
    recon_id      INTEGER,                       -- the result that moved it, when one did
    batch_id      INTEGER,                       -- the batch that did, when one did
    PRIMARY KEY (flag_id, seq)
);
