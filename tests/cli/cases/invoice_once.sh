# One finalized invoice per run, under any tag (docs/reports.md, "One
# finalized invoice per run"): the samples with a team tag beside the
# customer one.  Finalizing by customer, then by team, used to put every
# run on two invoices; now the second finalize is refused (nothing new:
# all 40 runs are charged), and the table holds each run once.  A
# mistyped tag is refused with the tags there are.  A late run is the only
# one a later finalize by team takes.  No path can charge a run twice: the
# ledger refuses the row itself.  A ledger from before the rule, with runs
# already on two invoices, keeps them and marks the later rows.
python3 - "$SAMPLES/runs.jsonl" >runs.jsonl <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    r.setdefault("tags", {})["team"] = "t%d" % (int(r["run_id"][-1]) % 2)
    print(json.dumps(r))
PY
once() { sqlite3 sbledger.db "SELECT CAST(COUNT(*) AS TEXT) || ' rows, ' || CAST(COUNT(DISTINCT run_id) AS TEXT) || ' runs, ' || CAST((SELECT COUNT(*) FROM (SELECT run_id FROM invoice_run WHERE duplicate = 0 GROUP BY run_id HAVING COUNT(*) > 1) AS twice) AS TEXT) || ' runs on two invoices' FROM invoice_run"; }
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb prices set gpt-5.6-terra --input-per-m 2.5 --output-per-m 10 >/dev/null
sb prices set claude-x-mini --input-per-m 1 --output-per-m 4 >/dev/null
sb invoice --period 2026-11 --by tag:customer --finalize --format csv | cut -d, -f1,7,16 | grep ',total,'
once
# by team: every run is charged already
sb invoice --period 2026-11 --by tag:team --finalize
sb invoice --period 2026-11 --by tag:team --customer t0 --finalize
sb invoice --period 2026-11 --by tag:team
sb invoice --period 2026-11-02 --by tag:team --customer t0
once
# a mistyped tag: refused, nothing stored (one and two edits away: a
# suggestion; three: none)
sb invoice --period 2026-11 --by tag:cutsomer --finalize
sb invoice --period 2026-11 --by tag:tem
sb invoice --period 2026-11 --by tag:kustomar
sb invoice --period 2026-11 --by tag:kustamar
sb invoice --period 2026-11-02 --by tag:teams --customer t0
sqlite3 sbledger.db "SELECT COUNT(*) FROM invoice"
# a late run: team finalizes it alone; the customer invoice no longer
# counts it as late once it is charged
printf '%s\n' '{"run_id":"late-1","backend":"e2b","session_id":"e2b-late","started_at":"2026-11-20T10:00:00Z","tags":{"customer":"acme","team":"t1"},"sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":0.06}}' >late.jsonl
sb import runs late.jsonl >/dev/null
sb invoice --period 2026-11 --by tag:customer --customer acme --format json | grep -A2 late_runs
sb invoice --period 2026-11 --by tag:team --finalize
sb invoice --period 2026-11 --by tag:customer --customer acme --format json | grep adjustments
once
sqlite3 sbledger.db "SELECT i.number, r.run_id FROM invoice_run r JOIN invoice i USING (invoice_id) WHERE r.run_id = 'late-1'"
# no path around it: the ledger itself refuses a second row for a run
sqlite3 sbledger.db "INSERT INTO invoice_run (invoice_id, run_id, fingerprint) VALUES (1, 'late-1', 'x')" 2>&1
sqlite3 sbledger.db "INSERT INTO invoice_run (invoice_id, run_id, fingerprint, duplicate) VALUES (1, 'late-1', 'x', 1)" 2>&1
once
sb check | grep -v '^ok '
# a ledger from before the rule: back to schema 6 (what 007 and the later
# migrations added dropped again, 010 by tests/cli/fixtures/undo_010.sql:
# they run again), and a team invoice
# (blue) that charged two of initech's runs again, both on modal: 332763 +
# 147461 = 480224 ms = 8.004 minutes, 0.554605 + 0.245768333 = 0.800373333
# -> 0.80.  Opening it migrates: the blue rows are marked duplicate (the
# runs were on initech's invoice first), and blue's adjustment credits
# them: -8.004 minutes, -0.80.
cp "$SAMPLES/runs.jsonl" old.jsonl
sb --db old.db init >/dev/null
sb --db old.db import runs old.jsonl >/dev/null
sb --db old.db prices set gpt-5.6-terra --input-per-m 2.5 --output-per-m 10 >/dev/null
sb --db old.db prices set claude-x-mini --input-per-m 1 --output-per-m 4 >/dev/null
sb --db old.db invoice --period 2026-11 --by tag:customer --customer initech --finalize | grep modal
sqlite3 old.db <"$FIX/undo_010.sql"
sqlite3 old.db "DROP INDEX billing_line_charge; ALTER TABLE billing_line DROP COLUMN charge_identity;
  DROP TABLE billing_line_pending; DROP TABLE billing_supersede; DROP TABLE billing_row_seen;
  DROP INDEX billing_line_account_by_start; ALTER TABLE reconciliation DROP COLUMN judged_ms;
  ALTER TABLE reconciliation DROP COLUMN billing_lag_ms; ALTER TABLE reconciliation DROP COLUMN flagged_backends;
  ALTER TABLE reconciliation DROP COLUMN flagged_sessions; ALTER TABLE reconciliation_backend DROP COLUMN window_from_ms;
  ALTER TABLE reconciliation_backend DROP COLUMN window_to_ms; ALTER TABLE reconciliation_backend DROP COLUMN flagged;
  ALTER TABLE reconciliation_backend DROP COLUMN sessions_flagged; ALTER TABLE reconciliation_session DROP COLUMN flagged;
  DROP INDEX invoice_run_once; DROP TRIGGER invoice_run_no_duplicate; DROP TRIGGER invoice_run_replaced_add;
  ALTER TABLE invoice_run DROP COLUMN duplicate; ALTER TABLE invoice_run DROP COLUMN fingerprint;
  DROP TABLE invoice_run_replaced;
  PRAGMA user_version = 6;
  INSERT INTO run_tag SELECT rid, 'team', 'blue' FROM run WHERE run_id IN ('run-1-000007', 'run-1-000029');
  INSERT INTO run_day_tag SELECT 'team', r.started_day, 'blue', r.backend, COALESCE(r.model, ''), 1, r.total_duration_ms, r.computed_nanos, r.input_tokens, r.output_tokens FROM run r WHERE run_id IN ('run-1-000007', 'run-1-000029');
  INSERT INTO invoice (number, number_prefix, number_seq, tag, customer, from_ms, to_ms, basis, currency, total_nanos, runs, created_ms)
  SELECT 'INV-2026-11-blue-001', 'INV-2026-11-blue', 1, 'team', 'blue', from_ms, to_ms, 'computed', 'USD', 800000000, 2, created_ms FROM invoice;
  INSERT INTO invoice_line (invoice_id, seq, kind, description, backend, quantity_milli, unit, rate_nanos, amount_nanos)
  VALUES (2, 1, 'compute', 'Sandbox compute: modal', 'modal', 8004, 'minutes', 100000000, 800000000);
  INSERT INTO invoice_run (invoice_id, run_id) SELECT 2, run_id FROM run WHERE run_id IN ('run-1-000007', 'run-1-000029');"
sb --db old.db invoice --period 2026-11 --by tag:team
sqlite3 old.db "SELECT invoice_id, run_id, duplicate, fingerprint IS NOT NULL FROM invoice_run WHERE run_id IN ('run-1-000007', 'run-1-000029') ORDER BY invoice_id, run_id"
sb --db old.db check | grep -v '^ok '
