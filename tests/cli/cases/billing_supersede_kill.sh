# A superseding import killed (SIGKILL) after its first chunk: its lines
# were pending, so the old statement is still live whole, every reader
# sees only it, and 'check' passes; the same command run again completes
# the batch, and the ledger then equals a clean run of the same imports,
# table by table.  The kill lands at a known point: SBLEDGER_TEST_PAUSE
# makes the import create a file after its first commit and wait for it to
# go, and the case asserts the file was made.
# cli-tests: alone (it kills or waits on another process: no other case beside it)
H=BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId,ServiceName
{
	echo "$H"
	for d in 01 02 03 04 05; do
		echo "10.00,USD,2026-11-$d 00:00:00,2026-11-$(printf %02d $((${d#0} + 1))) 00:00:00,AWS,i-1,EC2"
		echo "1.00,USD,2026-11-$d 00:00:00,2026-11-$(printf %02d $((${d#0} + 1))) 00:00:00,AWS,i-2,EC2"
	done
} >v1.csv
# the reissue of Nov 2-4: new amounts, a row dropped, a bad row, a new one
{
	echo "$H"
	echo "12.00,USD,2026-11-02 00:00:00,2026-11-03 00:00:00,AWS,i-1,EC2"
	echo "2.00,USD,2026-11-02 00:00:00,2026-11-03 00:00:00,AWS,i-2,EC2"
	echo "13.00,USD,2026-11-03 00:00:00,2026-11-04 00:00:00,AWS,i-1,EC2"
	echo "oops,USD,2026-11-03 00:00:00,2026-11-04 00:00:00,AWS,i-2,EC2"
	echo "14.00,USD,2026-11-04 00:00:00,2026-11-05 00:00:00,AWS,i-1,EC2"
	echo "3.00,USD,2026-11-04 00:00:00,2026-11-05 00:00:00,AWS,i-3,EC2"
} >v2.csv

# every table's fingerprint (sbledger check --fingerprint: its rows and an
# order-independent SHA-256 of their content, the same on both engines) of
# the ledger --db $1, else of the default ledger (the case's own)
fingerprint() {
	"$SB" ${1:+--db "$1"} check --fingerprint
}
# the live lines of the ledger --db $1, else of the default ledger
live() {
	"$SB" ${1:+--db "$1"} lines --period 2026-11 --format csv | awk -F, 'NR > 1 && $23 == "live" { n++; s += $10 } END { printf "%d live lines, %.2f USD\n", n, s }'
}

echo "== a clean run"
sb --db clean.db init >/dev/null
sb --db clean.db import billing --format focus v1.csv
sb --db clean.db import billing --format focus --supersede --chunk 2 v2.csv
live clean.db

echo "== killed after the first chunk"
sb init >/dev/null
sb import billing --format focus v1.csv
SBLEDGER_TEST_PAUSE=$PWD/pause "$SB" import billing --format focus --supersede --chunk 2 v2.csv >killed.out 2>&1 &
pid=$!
i=0
while [ ! -e pause ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
if [ -e pause ]; then echo "paused after the first chunk"; else echo "NEVER PAUSED"; fi
echo "-- while it waits, readers see the old statement only"
live
kill -9 $pid
wait $pid 2>/dev/null
rm -f pause
echo "-- after the kill"
sqlite3 sbledger.db "SELECT 'pending', COUNT(*) FROM billing_line_pending; SELECT batch_id, status FROM batch ORDER BY batch_id"
live
sb check | grep -v '^ok'
echo "-- run again"
sb import billing --format focus --supersede --chunk 2 v2.csv
live
sb check | grep -v '^ok'
if [ "$(fingerprint)" = "$(fingerprint clean.db)" ]; then
	echo "every table equals the clean run's"
else
	echo "TABLES DIFFER FROM THE CLEAN RUN"
fi
