-- 010_scale: what a ledger of millions of runs needs (docs/performance.md).
--
-- The executions of a run are stored as one row, a JSON array, instead
-- of one row each: the import writes one row per run, not four or five.
-- SQL readers still find one row per execution in execution, now a view
-- over that array (the columns and their values as before); sbledger
-- check compares each run's aggregates with it as before and checks the
-- shape of every array (sql/checks/07_run_executions_shape.sql).

-- The runs of a session are found through an index on (backend,
-- session_id) in two parts: the settled runs, and the runs stored since
-- the parts were last merged (recent).  Session ids come in no order, so
-- each new run's entry lands on a leaf of its own; in a small index those
-- leaves stay in the page cache, where in the index of millions of runs
-- each would be read back and written again.  An import merges the two
-- (sql/queries/run_session_merge.sql) when the recent part has passed an
-- eighth of the runs: the entries then go into the settled part in key
-- order.  Readers search both parts (budget_runs.sql,
-- invoice_session_owners.sql).  Runs already stored are settled.
ALTER TABLE run ADD COLUMN recent INTEGER NOT NULL DEFAULT 0;  -- 1: its session entry is in run_by_session_recent (stored since the last merge), 0: in run_by_session
DROP INDEX run_by_session;
CREATE INDEX run_by_session ON run (backend, session_id) WHERE NOT recent;
CREATE INDEX run_by_session_recent ON run (backend, session_id) WHERE recent;

-- The executions of each run that lists any: one row per run.
CREATE TABLE run_execs (
    rid           INTEGER PRIMARY KEY REFERENCES run (rid) ON DELETE CASCADE, -- the run (run.rid)
    execs         TEXT NOT NULL                  -- its executions in the record's order, a JSON array of
                                                 -- [command, exit_code, duration_ms, cpu_ms, memory_peak_mb,
                                                 --  bytes_read, bytes_written, cost_nanos, extra]: the
                                                 -- columns of execution, null where they are NULL (as
                                                 -- json_array makes it)
);

-- The executions already stored, in the order of seq (the window's
-- ORDER BY: an aggregate's order is otherwise not defined).
INSERT INTO run_execs (rid, execs)
SELECT rid, execs
  FROM (SELECT rid, ROW_NUMBER() OVER w AS n,
               json_group_array(json_array(command, exit_code, duration_ms, cpu_ms, memory_peak_mb,
                                           bytes_read, bytes_written, cost_nanos, extra))
                   OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS execs
          FROM execution
        WINDOW w AS (PARTITION BY rid ORDER BY seq))
 WHERE n = 1;

DROP TABLE execution;

-- One row per execution, as the table had them: seq is the position in
-- the array (from 0), each column the element of its position.
CREATE VIEW execution (rid, seq, command, exit_code, duration_ms, cpu_ms, memory_peak_mb,
                       bytes_read, bytes_written, cost_nanos, extra) AS
SELECT x.rid,            -- the run
       e.key,            -- position in the record's executions, from 0
       e.value ->> 0,    -- the command line, NULL when absent
       e.value ->> 1,    -- its exit status, NULL when absent
       e.value ->> 2,    -- wall time
       e.value ->> 3,    -- CPU time
       e.value ->> 4,    -- peak memory
       e.value ->> 5,    -- bytes read
       e.value ->> 6,    -- bytes written
       e.value ->> 7,    -- cost_usd in nanodollars, NULL when the SDK had no rate card
       e.value ->> 8     -- unknown fields as a JSON object, NULL when none
  FROM run_execs x, json_each(x.execs) e;

-- The day rollups (005_rollup.sql) carry every figure of report summary,
-- so that a summary by backend, day, model or tag over months reads a few
-- thousand rollup rows instead of every run (docs/reports.md).  Each new
-- column is the sum over the runs of the group, memory_peak_mb their
-- maximum; billed_nanos and card_nanos sum the runs that have one (NULL
-- counts 0) and billed_runs and card_runs count them, so that a group's
-- billed_cost_usd is null when billed_runs is 0 and its card cost is
-- known when card_runs equals runs.  A run replaced or taken out leaves
-- its groups' memory_peak_mb to be found again among the runs left (by
-- the same transaction: sql/queries/rollup_fix_max.sql; -1 until then).
ALTER TABLE run_day ADD COLUMN exec_count INTEGER NOT NULL DEFAULT 0;      -- SUM(exec_count)
ALTER TABLE run_day ADD COLUMN cpu_ms INTEGER NOT NULL DEFAULT 0;          -- SUM(cpu_ms)
ALTER TABLE run_day ADD COLUMN memory_peak_mb INTEGER NOT NULL DEFAULT 0;  -- MAX(memory_peak_mb)
ALTER TABLE run_day ADD COLUMN bytes_read INTEGER NOT NULL DEFAULT 0;      -- SUM(bytes_read)
ALTER TABLE run_day ADD COLUMN bytes_written INTEGER NOT NULL DEFAULT 0;   -- SUM(bytes_written)
ALTER TABLE run_day ADD COLUMN billed_nanos INTEGER NOT NULL DEFAULT 0;    -- SUM(billed_nanos) of the runs that have one
ALTER TABLE run_day ADD COLUMN billed_runs INTEGER NOT NULL DEFAULT 0;     -- COUNT(billed_nanos)
ALTER TABLE run_day ADD COLUMN card_nanos INTEGER NOT NULL DEFAULT 0;      -- SUM(card_nanos) of the runs that have one
ALTER TABLE run_day ADD COLUMN card_runs INTEGER NOT NULL DEFAULT 0;       -- COUNT(card_nanos)
ALTER TABLE run_day_tag ADD COLUMN exec_count INTEGER NOT NULL DEFAULT 0;      -- as in run_day
ALTER TABLE run_day_tag ADD COLUMN cpu_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_day_tag ADD COLUMN memory_peak_mb INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_day_tag ADD COLUMN bytes_read INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_day_tag ADD COLUMN bytes_written INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_day_tag ADD COLUMN billed_nanos INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_day_tag ADD COLUMN billed_runs INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_day_tag ADD COLUMN card_nanos INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_day_tag ADD COLUMN card_runs INTEGER NOT NULL DEFAULT 0;

-- The tag names whose runs without the tag are rolled up as well
-- (run_day_untagged): the first 32 names the ledger's runs have had, in
-- the order seen (a ledger made before this version: by name).  report
-- summary --by tag:NAME reads the rollups for a name of this table, or for
-- a name no run has (every run is untagged: run_day), and the runs for any
-- other name.
CREATE TABLE run_tag_name (
    name           TEXT PRIMARY KEY              -- a tag name some stored run has had
) WITHOUT ROWID;

-- The runs without a tag, per tracked tag name, started_day, backend and
-- model: what report summary --by tag:NAME shows as '(untagged)'.
CREATE TABLE run_day_untagged (
    name           TEXT NOT NULL,                -- run_tag_name.name
    day            TEXT NOT NULL,                -- run.started_day
    backend        TEXT NOT NULL,                -- run.backend
    model          TEXT NOT NULL,                -- run.model, '' when NULL
    runs           INTEGER NOT NULL,             -- the figures of run_day, over the runs without the tag
    exec_ms        INTEGER NOT NULL,
    computed_nanos INTEGER NOT NULL,
    input_tokens   INTEGER NOT NULL,
    output_tokens  INTEGER NOT NULL,
    exec_count     INTEGER NOT NULL,
    cpu_ms         INTEGER NOT NULL,
    memory_peak_mb INTEGER NOT NULL,
    bytes_read     INTEGER NOT NULL,
    bytes_written  INTEGER NOT NULL,
    billed_nanos   INTEGER NOT NULL,
    billed_runs    INTEGER NOT NULL,
    card_nanos     INTEGER NOT NULL,
    card_runs      INTEGER NOT NULL,
    PRIMARY KEY (name, day, backend, model)
) WITHOUT ROWID;

-- The rollups of the runs already stored, made again whole.
DELETE FROM run_day;
INSERT INTO run_day (day, backend, model, runs, exec_ms, computed_nanos, input_tokens, output_tokens,
                     exec_count, cpu_ms, memory_peak_mb, bytes_read, bytes_written, billed_nanos,
                     billed_runs, card_nanos, card_runs)
SELECT started_day, backend, COALESCE(model, ''), COUNT(*), SUM(total_duration_ms),
       SUM(computed_nanos), SUM(input_tokens), SUM(output_tokens), SUM(exec_count), SUM(cpu_ms),
       MAX(memory_peak_mb), SUM(bytes_read), SUM(bytes_written), COALESCE(SUM(billed_nanos), 0),
       COUNT(billed_nanos), COALESCE(SUM(card_nanos), 0), COUNT(card_nanos)
  FROM run
 GROUP BY started_day, backend, COALESCE(model, '');

DELETE FROM run_day_tag;
INSERT INTO run_day_tag (name, day, value, backend, model, runs, exec_ms, computed_nanos,
                         input_tokens, output_tokens, exec_count, cpu_ms, memory_peak_mb,
                         bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos, card_runs)
SELECT t.name, r.started_day, t.value, r.backend, COALESCE(r.model, ''), COUNT(*),
       SUM(r.total_duration_ms), SUM(r.computed_nanos), SUM(r.input_tokens), SUM(r.output_tokens),
       SUM(r.exec_count), SUM(r.cpu_ms), MAX(r.memory_peak_mb), SUM(r.bytes_read),
       SUM(r.bytes_written), COALESCE(SUM(r.billed_nanos), 0), COUNT(r.billed_nanos),
       COALESCE(SUM(r.card_nanos), 0), COUNT(r.card_nanos)
  FROM run r JOIN run_tag t ON t.rid = r.rid
 GROUP BY t.name, r.started_day, t.value, r.backend, COALESCE(r.model, '');

INSERT INTO run_tag_name (name)
SELECT DISTINCT name FROM run_tag ORDER BY name LIMIT 32;

INSERT INTO run_day_untagged (name, day, backend, model, runs, exec_ms, computed_nanos,
                              input_tokens, output_tokens, exec_count, cpu_ms, memory_peak_mb,
                              bytes_read, bytes_written, billed_nanos, billed_runs, card_nanos,
                              card_runs)
SELECT n.name, r.started_day, r.backend, COALESCE(r.model, ''), COUNT(*),
       SUM(r.total_duration_ms), SUM(r.computed_nanos), SUM(r.input_tokens), SUM(r.output_tokens),
       SUM(r.exec_count), SUM(r.cpu_ms), MAX(r.memory_peak_mb), SUM(r.bytes_read),
       SUM(r.bytes_written), COALESCE(SUM(r.billed_nanos), 0), COUNT(r.billed_nanos),
       COALESCE(SUM(r.card_nanos), 0), COUNT(r.card_nanos)
  FROM run_tag_name n JOIN run r
 WHERE NOT EXISTS (SELECT 1 FROM run_tag t WHERE t.rid = r.rid AND t.name = n.name)
 GROUP BY n.name, r.started_day, r.backend, COALESCE(r.model, '');
