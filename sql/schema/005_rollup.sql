-- 005_rollup: per UTC day rollups of the runs, kept by the run writer in
-- the transaction that stores the runs, so that an invoice for a month
-- sums a few thousand rows instead of joining every run to its tag.
-- Every figure is the sum over the runs of the group; a run replaced by
-- import runs --replace is taken out again.  `sbledger check` compares
-- both tables with run and run_tag (sql/checks/06_run_rollups.sql).
-- A sum that passes 64 bits becomes a REAL (SQLite's + does that): the
-- invoice refuses it as it refuses any sum past 64 bits.

-- All runs, per started_day, backend and model.
CREATE TABLE run_day (
    day            TEXT NOT NULL,                -- run.started_day
    backend        TEXT NOT NULL,                -- run.backend
    model          TEXT NOT NULL,                -- run.model, '' when NULL (a model is never empty)
    runs           INTEGER NOT NULL,
    exec_ms        INTEGER NOT NULL,             -- SUM(total_duration_ms)
    computed_nanos INTEGER NOT NULL,
    input_tokens   INTEGER NOT NULL,
    output_tokens  INTEGER NOT NULL,
    PRIMARY KEY (day, backend, model)
) WITHOUT ROWID;

-- The runs with a tag, per tag name, started_day, tag value, backend and
-- model (an invoice by tag:NAME reads one name's days in order).
CREATE TABLE run_day_tag (
    name           TEXT NOT NULL,                -- run_tag.name
    day            TEXT NOT NULL,                -- run.started_day
    value          TEXT NOT NULL,                -- run_tag.value
    backend        TEXT NOT NULL,
    model          TEXT NOT NULL,                -- '' when NULL
    runs           INTEGER NOT NULL,
    exec_ms        INTEGER NOT NULL,
    computed_nanos INTEGER NOT NULL,
    input_tokens   INTEGER NOT NULL,
    output_tokens  INTEGER NOT NULL,
    PRIMARY KEY (name, day, value, backend, model)
) WITHOUT ROWID;

-- The runs already in a ledger made before this version.
INSERT INTO run_day (day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens)
SELECT started_day, backend, COALESCE(model, ''), COUNT(*), SUM(total_duration_ms),
       SUM(computed_nanos), SUM(input_tokens), SUM(output_tokens)
  FROM run
 GROUP BY started_day, backend, COALESCE(model, '');

INSERT INTO run_day_tag (name, day, value, backend, model, runs, exec_ms, computed_nanos,
                         input_tokens, output_tokens)
SELECT t.name, r.started_day, t.value, r.backend, COALESCE(r.model, ''), COUNT(*),
       SUM(r.total_duration_ms), SUM(r.computed_nanos), SUM(r.input_tokens), SUM(r.output_tokens)
  FROM run r JOIN run_tag t ON t.rid = r.rid
 GROUP BY t.name, r.started_day, t.value, r.backend, COALESCE(r.model, '');
