# The dispatcher opens the ledger (--db) after the command has parsed its
# arguments, as its command table row says (reads, writes, creates), and
# closes it after: so a usage error (64) or --help (0) of any command
# touches nothing, creates no ledger and no lock file, and a writer's usage
# error does not wait for the write lock another process holds.
# cli-tests: sqlite (no -lock file made; another process holds the -lock file)
for cmd in check batches rejects "import runs" "import billing" lines fx "fx set" rates \
           "rates set" "rates import" backends prices "prices set" reconcile reconciliations \
           "report drift" tolerance "tolerance set" "report summary" "report budget" invoice \
           "export focus" "fetch billing" "fetch catalog" "fetch usage" nightly init; do
	"$SB" $cmd --frobnicate >/dev/null 2>&1
	usage=$?
	"$SB" $cmd --help >/dev/null 2>&1
	echo "$cmd: unknown option $usage, --help $?"
done
sb init extra
echo "nothing made: [$(ls -A)]"
# the same while another process holds the write lock: usage errors and
# --help answer at once; readers read; writers wait, then give up (75);
# reconcile --dry-run and invoice without --finalize only read
sb init >/dev/null
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb import runs runs.jsonl >/dev/null
flock sbledger.db-lock sleep 5 &
holder=$!
i=0
while flock -n sbledger.db-lock true && [ $i -lt 100 ]; do sleep 0.02; i=$((i + 1)); done
sb --busy-timeout 200 import runs
sb --busy-timeout 200 nightly --inbox missing-inbox
sb --busy-timeout 200 rates set e2b --usd-per-minute lots
sb --busy-timeout 200 tolerance set modal --abs-tol 1 --help | sed -n '1p;$p'
sb --busy-timeout 200 batches --format csv | sed -n '1p;$p'
sb --busy-timeout 200 reconcile --period 2026-11 --dry-run --format json | sed -n '/"flagged":/p;$p' | sed -n '1p;$p'
sb --busy-timeout 200 reconcile --period 2026-11
sb --busy-timeout 200 invoice --period 2026-12 --by tag:customer
sb --busy-timeout 200 invoice --period 2026-12 --by tag:customer --finalize
kill $holder 2>/dev/null
wait $holder 2>/dev/null
sqlite3 sbledger.db 'SELECT COUNT(*) FROM reconciliation; SELECT COUNT(*) FROM invoice'
