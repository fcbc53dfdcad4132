# nightly checks an inbox file on the descriptor it opened, and imports
# that descriptor: swapping the file for a link out of the inbox after the
# check (SBLEDGER_TEST_PAUSE_CHECKED stops nightly there) changes nothing.
# Nothing of the outside file is stored (not even as a rejected line), the
# real file's runs are all in the ledger under its own SHA-256, and the
# next nightly, with the real file back, finds it in the ledger rightly.
# The same for a billing file.
# cli-tests: sqlite (sqlite3 .dump of the ledger file)
. "$REPO/tests/cli/pause.sh"
mkdir -p inbox/runs inbox2/billing/focus outside
for i in 1 2 3; do
	printf '{"run_id": "real-%d", "backend": "e2b", "started_at": "2026-11-02T10:00:00Z", "sandbox_usage": {"exec_count": 1, "total_duration_ms": %d000}}\n' $i $i
done >inbox/runs/b.jsonl
printf 'SECRET-TOKEN-1 this is not for the ledger\nSECRET-TOKEN-2 nor this\n' >outside/secret.jsonl
sha256sum inbox/runs/b.jsonl | cut -d' ' -f1 >real.sha
sb init >/dev/null

echo "== a runs file swapped for a link out of the inbox after its check"
SBLEDGER_TEST_PAUSE_CHECKED="$(pwd)/pause" bg out nightly --inbox inbox --period 2026-11 --out reports --quiet
await pause
mv inbox/runs/b.jsonl inbox/.b.jsonl.real
ln -s ../../outside/secret.jsonl inbox/runs/b.jsonl
finish out >finished
sed "s|$(pwd)/|./|g" finished
echo "outside text stored: $(sqlite3 sbledger.db .dump | grep -c SECRET)"
sqlite3 sbledger.db "SELECT COUNT(*) || ' runs: ' || COALESCE(group_concat(run_id, ' '), '-') FROM run; SELECT COUNT(*) || ' rejects' FROM reject"
sqlite3 sbledger.db "SELECT sha256 FROM batch WHERE kind = 'runs'" | cmp -s - real.sha &&
	echo "the batch has the real file's SHA-256" || echo "the batch's SHA-256 is NOT the real file's"
echo "-- the real file back: in the ledger already, and rightly"
rm inbox/runs/b.jsonl
mv inbox/.b.jsonl.real inbox/runs/b.jsonl
sb nightly --inbox inbox --period 2026-11 --out reports 2>&1 | sed "s|$(pwd)/|./|g" | grep nightly
sqlite3 sbledger.db "SELECT COUNT(*) || ' runs' FROM run"
sb check | tail -1

echo "== a billing file swapped the same way (an inbox of its own: the hook stops at the first file)"
printf 'BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ServiceProviderName,ResourceId\n1.25,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,E2B,s1\n' >inbox2/billing/focus/f.csv
printf 'BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ServiceProviderName,ResourceId\n999,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,E2B,SECRET-ROW\n' >outside/other.csv
SBLEDGER_TEST_PAUSE_CHECKED="$(pwd)/pause" bg out nightly --inbox inbox2 --period 2026-11 --out reports --quiet
await pause
mv inbox2/billing/focus/f.csv inbox2/.f.csv.real
ln -s ../../../outside/other.csv inbox2/billing/focus/f.csv
finish out >finished
sed "s|$(pwd)/|./|g" finished
echo "outside text stored: $(sqlite3 sbledger.db .dump | grep -c SECRET)"
sqlite3 sbledger.db "SELECT group_concat(session_id || ' ' || amount_nanos, ', ') FROM billing_line"
sb check | tail -1
