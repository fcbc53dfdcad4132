# check reads the finalized invoices (docs/rules.md, "The ledger"): each
# total is the sum of its lines, each line the runs the invoice claims
# (exec minutes per backend, tokens per model) as they were charged, no
# run claimed twice, and the triggers that keep invoices from changing
# are there.  Hand edits with the ledger's own engine (sqlite3; on
# PostgreSQL the runner's sqlite3 sends them to psql, and a trigger is
# dropped ON its table) are each found, exit 65, naming the invoice, its
# line, the run or the trigger; an untouched ledger, and one where a
# charged run was replaced since, pass.
cp "$SAMPLES/runs.jsonl" runs.jsonl
head -1 runs.jsonl | sed 's/"input_tokens":2667/"input_tokens":9999/' >replaced.jsonl
fresh() {
	rm -f sbledger.db
	"$SB" init >/dev/null
	"$SB" import runs runs.jsonl >/dev/null
	"$SB" prices set gpt-5.6-terra --input-per-m 2.5 --output-per-m 10 >/dev/null
	"$SB" prices set claude-x-mini --input-per-m 1 --output-per-m 4 >/dev/null
	"$SB" invoice --period 2026-11 --by tag:customer --finalize >/dev/null 2>&1
}
drop_trigger() {
	case ${SBLEDGER_DB:-} in
	postgres*) sqlite3 sbledger.db "DROP TRIGGER $1 ON $2" ;;
	*) sqlite3 sbledger.db "DROP TRIGGER $1" ;;
	esac
}
echo "== untouched"
fresh
sqlite3 sbledger.db "SELECT number, total_nanos, runs FROM invoice ORDER BY number"
sb check | grep -v '^ok '
echo "== a charged run replaced since: the invoice keeps the version it charged"
sb import runs --replace replaced.jsonl
sb check | grep -v '^ok '
echo "== the issue's edit: the trigger dropped, 100 USD added to a total"
fresh
drop_trigger invoice_no_update invoice
sqlite3 sbledger.db "UPDATE invoice SET total_nanos = total_nanos + 100000000000 WHERE number = 'INV-2026-11-acme-001'"
sb check | grep -v '^ok '
sb invoice --period 2026-11 --by tag:customer --customer acme --format csv | grep -i total
echo "== a dropped trigger alone"
fresh
drop_trigger invoice_run_no_delete invoice_run
sb check | grep -v '^ok '
echo "== a line's minutes and a line's tokens"
fresh
drop_trigger invoice_line_no_update invoice_line
sqlite3 sbledger.db "UPDATE invoice_line SET quantity_milli = quantity_milli + 1 WHERE seq = 2 AND invoice_id = (SELECT invoice_id FROM invoice WHERE number = 'INV-2026-11-globex-001')"
sqlite3 sbledger.db "UPDATE invoice_line SET output_tokens = 0 WHERE kind = 'tokens' AND model = 'gpt-5.6-terra' AND invoice_id = (SELECT invoice_id FROM invoice WHERE number = 'INV-2026-11-initech-001')"
sb check | grep -v '^ok '
echo "== a run claimed by a second invoice of the same tag"
fresh
sqlite3 sbledger.db "DROP INDEX invoice_run_once"
sqlite3 sbledger.db "INSERT INTO invoice_run (invoice_id, run_id, fingerprint, duplicate) SELECT (SELECT invoice_id FROM invoice WHERE number = 'INV-2026-11-globex-001'), run_id, fingerprint, 0 FROM invoice_run WHERE run_id = 'run-1-000000'"
sb check | grep -v '^ok '
