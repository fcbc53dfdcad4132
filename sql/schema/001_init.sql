-- 001_init: the first ledger schema: import batches and their rejected
-- lines, runs with their executions and tags, rate cards, backends and
-- model prices; seeded with the rate card of docs/rules.md.
-- Money columns (*_nanos) are integer nanodollars (1 USD = 10^9); times
-- (*_ms) are integer milliseconds since the Unix epoch, UTC.

-- One import of one file, standard input or provider response.
CREATE TABLE batch (
    batch_id      INTEGER PRIMARY KEY,           -- the batch number users see
    kind          TEXT NOT NULL,                 -- 'runs' or 'billing'
    format        TEXT NOT NULL,                 -- 'runs', or the billing format ('focus', 'modal', ...)
    source        TEXT NOT NULL,                 -- file path as given, '-' for standard input, or URL without secrets
    sha256        TEXT,                          -- SHA-256 of the whole input, hex; NULL until known (standard input)
    status        TEXT NOT NULL,                 -- 'running', 'interrupted' (its process died; the same input resumes it), 'complete', 'failed' (nothing kept: --strict and a bad line, no records, ...)
    started_ms    INTEGER NOT NULL,              -- when the import began
    ended_ms      INTEGER,                       -- when it ended; NULL while running or after a kill
    resume_offset INTEGER NOT NULL DEFAULT 0,    -- byte offset of the first line not yet committed
    resume_line   INTEGER NOT NULL DEFAULT 1,    -- that line's number
    accepted      INTEGER NOT NULL DEFAULT 0,    -- records stored
    duplicates    INTEGER NOT NULL DEFAULT 0,    -- records already in the ledger, skipped
    rejected      INTEGER NOT NULL DEFAULT 0,    -- records rejected (rows in reject)
    replaced      INTEGER NOT NULL DEFAULT 0,    -- accepted records that replaced an older version (--replace)
    skipped       INTEGER NOT NULL DEFAULT 0,    -- records of no interest to the format, counted (event types)
    options       TEXT NOT NULL DEFAULT ''       -- options the import ran with, space separated ('strict replace')
);
CREATE INDEX batch_by_sha256 ON batch (sha256);

-- Every rejected line, verbatim, with its reason.
CREATE TABLE reject (
    batch_id      INTEGER NOT NULL REFERENCES batch (batch_id), -- the batch that read it
    line_no       INTEGER NOT NULL,              -- 1-based line (CSV: first line of the record)
    reason        TEXT NOT NULL,                 -- what is wrong, naming the field
    content       BLOB NOT NULL,                 -- the line as it was (its first 64 KiB when longer)
    full_length   INTEGER NOT NULL,              -- the line's whole length in bytes
    PRIMARY KEY (batch_id, line_no)
);

-- One agent run: the SDK's RunResult around a SandboxUsage.
CREATE TABLE run (
    rid               INTEGER PRIMARY KEY,       -- internal row id
    run_id            TEXT NOT NULL UNIQUE,      -- the SDK's run id (at most 256 bytes)
    batch_id          INTEGER NOT NULL REFERENCES batch (batch_id), -- the batch that brought this version
    line_no           INTEGER NOT NULL,          -- its line in that batch's input
    backend           TEXT NOT NULL,             -- backend id ([a-z0-9_-]{1,64}), SDK class names mapped
    session_id        TEXT,                      -- the sandbox session, NULL when the SDK gave none
    plan              TEXT,                      -- the rate-card plan, NULL for the backend's default card
    started_ms        INTEGER NOT NULL,          -- started_at
    started_day       TEXT NOT NULL,             -- the UTC date of started_at, 'YYYY-MM-DD' (grouping by day)
    ended_ms          INTEGER,                   -- ended_at, NULL when unknown
    model             TEXT,                      -- token_usage.model, NULL without token usage
    input_tokens      INTEGER NOT NULL,          -- token_usage.input_tokens (0 when absent)
    output_tokens     INTEGER NOT NULL,          -- token_usage.output_tokens (0 when absent)
    budget_nanos      INTEGER,                   -- budget_usd, NULL when absent
    exec_count        INTEGER NOT NULL,          -- sandbox_usage.exec_count
    total_duration_ms INTEGER NOT NULL,          -- sandbox_usage.total_duration_ms
    cpu_ms            INTEGER NOT NULL,          -- sandbox_usage.cpu_ms
    memory_peak_mb    INTEGER NOT NULL,          -- sandbox_usage.memory_peak_mb
    bytes_read        INTEGER NOT NULL,          -- sandbox_usage.bytes_read
    bytes_written     INTEGER NOT NULL,          -- sandbox_usage.bytes_written
    computed_nanos    INTEGER NOT NULL,          -- sandbox_usage.computed_cost_usd, the SDK's estimate
    billed_nanos      INTEGER,                   -- sandbox_usage.billed_cost_usd, NULL when the SDK had none
    card_nanos        INTEGER,                   -- card cost: the card in force at started_at over the executions; NULL with no card
    lifetime_nanos    INTEGER,                   -- the session life (ended_at - started_at) at that card's rate; NULL with no card or no ended_at
    has_executions    INTEGER NOT NULL,          -- 1 when the record listed its executions, 0 for a summary-only record
    fingerprint       TEXT NOT NULL,             -- SHA-256 of the normalized record: equal means a duplicate
    tags              TEXT,                      -- the tags object as JSON text, NULL when absent
    extra             TEXT                       -- unknown fields as a JSON object, NULL when none
);
CREATE INDEX run_by_started ON run (started_ms);
CREATE INDEX run_by_session ON run (backend, session_id);

-- The executions of a run, in the order the record lists them.
CREATE TABLE execution (
    rid               INTEGER NOT NULL REFERENCES run (rid) ON DELETE CASCADE, -- the run
    seq               INTEGER NOT NULL,          -- position in the record's executions, from 0
    command           TEXT,                      -- the command line, NULL when absent
    exit_code         INTEGER,                   -- its exit status, NULL when absent
    duration_ms       INTEGER NOT NULL,          -- wall time
    cpu_ms            INTEGER NOT NULL,          -- CPU time
    memory_peak_mb    INTEGER NOT NULL,          -- peak memory
    bytes_read        INTEGER NOT NULL,          -- bytes read
    bytes_written     INTEGER NOT NULL,          -- bytes written
    cost_nanos        INTEGER,                   -- cost_usd, NULL when the SDK had no rate card
    extra             TEXT,                      -- unknown fields as a JSON object, NULL when none
    PRIMARY KEY (rid, seq)
) WITHOUT ROWID;

-- The tags of a run, one row per tag, for grouping by tag:NAME.
CREATE TABLE run_tag (
    rid               INTEGER NOT NULL REFERENCES run (rid) ON DELETE CASCADE, -- the run
    name              TEXT NOT NULL,             -- tag name
    value             TEXT NOT NULL,             -- tag value (numbers and booleans as their JSON text)
    PRIMARY KEY (rid, name)
) WITHOUT ROWID;
-- The runs with a tag value (invoices: does a customer exist, which do).
CREATE INDEX run_tag_by_value ON run_tag (name, value);

-- Versions of runs replaced by import runs --replace, kept for audit.
CREATE TABLE run_history (
    hid               INTEGER PRIMARY KEY,       -- history row id
    replaced_ms       INTEGER NOT NULL,          -- when it was replaced
    replaced_by_batch INTEGER NOT NULL REFERENCES batch (batch_id), -- the batch that brought the new version
    rid               INTEGER NOT NULL,          -- the run's row id at the time (execution_history.rid)
    run_id            TEXT NOT NULL,             -- the columns of run, as they were
    batch_id          INTEGER NOT NULL,
    line_no           INTEGER NOT NULL,
    backend           TEXT NOT NULL,
    session_id        TEXT,
    plan              TEXT,
    started_ms        INTEGER NOT NULL,
    started_day       TEXT NOT NULL,
    ended_ms          INTEGER,
    model             TEXT,
    input_tokens      INTEGER NOT NULL,
    output_tokens     INTEGER NOT NULL,
    budget_nanos      INTEGER,
    exec_count        INTEGER NOT NULL,
    total_duration_ms INTEGER NOT NULL,
    cpu_ms            INTEGER NOT NULL,
    memory_peak_mb    INTEGER NOT NULL,
    bytes_read        INTEGER NOT NULL,
    bytes_written     INTEGER NOT NULL,
    computed_nanos    INTEGER NOT NULL,
    billed_nanos      INTEGER,
    card_nanos        INTEGER,
    lifetime_nanos    INTEGER,
    has_executions    INTEGER NOT NULL,
    fingerprint       TEXT NOT NULL,
    tags              TEXT,
    extra             TEXT
);
CREATE INDEX run_history_by_run ON run_history (run_id);

-- The executions of replaced runs (columns as in execution).
CREATE TABLE execution_history (
    hid               INTEGER NOT NULL REFERENCES run_history (hid), -- the replaced version
    seq               INTEGER NOT NULL,
    command           TEXT,
    exit_code         INTEGER,
    duration_ms       INTEGER NOT NULL,
    cpu_ms            INTEGER NOT NULL,
    memory_peak_mb    INTEGER NOT NULL,
    bytes_read        INTEGER NOT NULL,
    bytes_written     INTEGER NOT NULL,
    cost_nanos        INTEGER,
    extra             TEXT,
    PRIMARY KEY (hid, seq)
);

-- Rate cards: what a backend costs, from an effective date, per plan.
CREATE TABLE rate_card (
    card_id                  INTEGER PRIMARY KEY, -- internal row id
    backend                  TEXT NOT NULL,      -- backend id
    plan                     TEXT,               -- plan name, NULL for the backend's default card
    effective_ms             INTEGER NOT NULL,   -- in force from this instant until a newer card of the same backend and plan
    usd_per_minute_nanos     INTEGER NOT NULL,   -- nanodollars per minute of session life (0 when free)
    usd_per_cpu_second_nanos INTEGER,            -- nanodollars per vCPU-second (metered billing), NULL when unknown
    usd_per_gb_second_nanos  INTEGER,            -- nanodollars per GiB-second (metered billing), NULL when unknown
    free                     INTEGER NOT NULL,   -- 1 when the backend costs nothing
    source                   TEXT NOT NULL       -- where it came from: 'seed', 'set', 'import FILE', 'fetch deepinfra'
);
CREATE UNIQUE INDEX rate_card_by_key ON rate_card (backend, COALESCE(plan, ''), effective_ms);

-- What each backend can do (the SDK's capabilities), for 'backends'.
CREATE TABLE backend (
    backend       TEXT PRIMARY KEY,              -- backend id
    network       INTEGER,                       -- 1 network access, 0 none, NULL unknown
    persistent    INTEGER,                       -- 1 persistent sessions, 0 not, NULL unknown
    max_cpu       INTEGER,                       -- most vCPUs a session can have, NULL unknown
    max_memory_mb INTEGER                        -- most memory a session can have, NULL unknown
);

-- Regions a backend runs in; a backend with no rows has unknown regions.
CREATE TABLE backend_region (
    backend       TEXT NOT NULL REFERENCES backend (backend), -- backend id
    region        TEXT NOT NULL,                 -- region id
    PRIMARY KEY (backend, region)
);

-- Token prices per model, in nanodollars per million tokens.
CREATE TABLE model_price (
    model              TEXT PRIMARY KEY,         -- model name as in token_usage.model
    input_per_m_nanos  INTEGER NOT NULL,         -- price of a million input tokens
    output_per_m_nanos INTEGER NOT NULL,         -- price of a million output tokens
    updated_ms         INTEGER NOT NULL          -- when it was last set
);

-- The seeded rate card (docs/rules.md), in force from the epoch.
INSERT INTO rate_card (backend, plan, effective_ms, usd_per_minute_nanos, free, source) VALUES
    ('local', NULL, 0, 0, 1, 'seed'),
    ('docker', NULL, 0, 0, 1, 'seed'),
    ('k8s', NULL, 0, 0, 1, 'seed'),
    ('e2b', NULL, 0, 60000000, 0, 'seed'),
    ('cloudflare', NULL, 0, 50000000, 0, 'seed'),
    ('daytona', NULL, 0, 80000000, 0, 'seed'),
    ('blaxel', NULL, 0, 90000000, 0, 'seed'),
    ('modal', NULL, 0, 100000000, 0, 'seed'),
    ('runloop', NULL, 0, 100000000, 0, 'seed'),
    ('vercel', NULL, 0, 120000000, 0, 'seed');

INSERT INTO backend (backend, network, persistent) VALUES
    ('local', 1, 0),
    ('docker', 1, 1),
    ('k8s', 1, 1),
    ('e2b', 1, 1),
    ('cloudflare', 1, 0),
    ('daytona', 1, 1),
    ('blaxel', 1, 1),
    ('modal', 1, 1),
    ('runloop', 1, 1),
    ('vercel', 1, 0);
