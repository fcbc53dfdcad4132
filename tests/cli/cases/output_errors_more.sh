# Output that cannot be written exits 74, for the commands output_errors
# does not cover: imports, reconcile, invoices, exports, the other
# reports, nightly; a full device and a closed standard output alike.
# Whatever the command stored stays stored (an import's batch is
# complete: running it again finds the file already imported).
# cli-tests: sqlite (the bytes in the ledger's -lock file)
cp "$SAMPLES/runs.jsonl" runs.jsonl
cp "$SAMPLES/billing-focus.csv" focus.csv
mkdir -p inbox/runs
cp "$SAMPLES/runs-with-bad-lines.jsonl" inbox/runs/
sb init >/dev/null
"$SB" import runs runs.jsonl >/dev/full 2>err
echo "import runs > /dev/full: exit $?"
cat err
"$SB" import billing --format focus focus.csv >&- 2>err
echo "import billing, stdout closed: exit $?"
cat err
sb import runs runs.jsonl
sb prices set gpt-5.6-terra --input-per-m 1 --output-per-m 2 >/dev/null
sb prices set claude-x-mini --input-per-m 1 --output-per-m 2 >/dev/null
for cmd in "reconcile --period 2026-11" "reconcile --period 2026-11 --format json --dry-run" \
	"reconciliations --format json" "report drift --period 2026-11" \
	"report budget --period 2026-11" "report summary --period 2026-11 --format html" \
	"invoice --period 2026-11 --by tag:customer" "invoice --period 2026-11 --by tag:customer --format html" \
	"export focus --period 2026-11" "lines --period 2026-11 --format json" \
	"rejects --format json" "fx" "tolerance" "batches --format json" "--version" "help" \
	"nightly --inbox inbox --period 2026-11 --out reports"; do
	"$SB" $cmd >/dev/full 2>err
	echo "$cmd > /dev/full: exit $?"
	grep -v 'rejected\|runs-with-bad-lines' err
	"$SB" $cmd >&- 2>err
	echo "$cmd, stdout closed: exit $?"
	grep -v 'rejected\|runs-with-bad-lines' err
done
# messages that cannot be written do not change the exit status
"$SB" import runs missing.jsonl 2>/dev/full
echo "a missing file, stderr full: exit $?"
"$SB" import runs missing.jsonl 2>&-
echo "a missing file, stderr closed: exit $?"
sqlite3 sbledger.db "SELECT batch_id, status, accepted FROM batch; SELECT COUNT(*) FROM reconciliation"
# a closed stream's descriptor is not handed to the next file opened: the
# messages and output meant for it do not land in the ledger's lock file
{ cat "$SAMPLES/runs-with-bad-lines.jsonl"; echo '{"run_id": "late-1"}'; } > bad.jsonl
"$SB" import runs bad.jsonl 2>&- >/dev/null
echo "stderr closed: exit $?; the lock file holds $(wc -c < sbledger.db-lock) bytes"
"$SB" reconcile --period 2026-11 >&- 2>/dev/null
echo "stdout closed: exit $?; the lock file holds $(wc -c < sbledger.db-lock) bytes"
