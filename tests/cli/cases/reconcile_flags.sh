# reconcile's options and output: --billing-lag (a bad value refused),
# the flagged column and counts, the words under the table, a period whose
# window has not ended; nightly judging again a month it stored pending,
# with the command listing its flagged sessions (the ledger's path
# quoted); results stored before windows and flags were kept are not
# judged again.
cp "$SAMPLES/runs.jsonl" runs.jsonl
db="my ledger.db"
sb --db "$db" init >/dev/null
sb --db "$db" import runs runs.jsonl >/dev/null
for f in record:billing-record.jsonl focus:billing-focus.csv modal:billing-modal.json deepinfra-usage:deepinfra-usage.json; do
	cp "$SAMPLES/${f#*:}" .
	sb --db "$db" import billing --format "${f%%:*}" "${f#*:}" >/dev/null
done
echo "== bad --billing-lag values"
for v in -1 abc 5x 72hh "" 3651d; do
	sb --db "$db" reconcile --period 2026-11 --billing-lag "$v" --dry-run
done
sb --db "$db" nightly --inbox . --billing-lag 1w
echo "== inside the month (2026-11-30T12:00Z): everything pending, nothing flagged, exit 0"
sb --db "$db" reconcile --period 2026-11 --fail-on-drift | tail -3
echo "== after the month, before the lag: blaxel unbilled, not flagged"
SBLEDGER_NOW=2026-12-02T00:00:00Z sb --db "$db" reconcile --period 2026-11 --dry-run --fail-on-drift
# lag_check NOW: --billing-lag 1d, judged at NOW, as JSON
lag_check() {
	SBLEDGER_NOW=$1 "$SB" --db "$db" reconcile --period 2026-11 --dry-run --billing-lag 1d --format json |
		python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["billing_lag"], d["judged_at"], d["flagged"], d["flagged_backends"], d["flagged_sessions"], d["pending"])
for b in d["backends"]:
    if b["status"] == "unbilled":
        print(" ", b["backend"], b["status"], b["flagged"], b["window"]["from"], b["window"]["to"])'
}
echo "== --billing-lag 1d, exactly a day after the month: not flagged yet"
lag_check 2026-12-02T00:00:00Z
echo "== a second later: blaxel, daytona, e2b flagged"
lag_check 2026-12-02T00:00:01Z
echo "== nightly the next week: November judged again (it was stored pending)"
mkdir -p inbox
SBLEDGER_NOW=2026-12-05T02:15:00Z sb --db "$db" nightly --inbox inbox --out reports --fail-on-drift | sed "s|$(pwd)/|./|g"
echo "== and not again the night after (its stored result is final)"
SBLEDGER_NOW=2026-12-06T02:15:00Z sb --db "$db" nightly --inbox inbox --out reports --fail-on-drift | sed "s|$(pwd)/|./|g"
sqlite3 "$db" "SELECT recon_id, date(from_ms / 1000, 'unixepoch'), date(to_ms / 1000, 'unixepoch'), flagged, flagged_backends, flagged_sessions FROM reconciliation"
echo "== a result stored before flags were kept (flagged NULL) is left alone"
sqlite3 "$db" "UPDATE reconciliation_backend SET flagged = NULL, window_from_ms = NULL, window_to_ms = NULL, status = 'unbilled' WHERE recon_id = 1;
	UPDATE reconciliation_session SET flagged = NULL WHERE recon_id = 1;
	DELETE FROM reconciliation WHERE recon_id > 1; DELETE FROM reconciliation_backend WHERE recon_id > 1;
	DELETE FROM reconciliation_session WHERE recon_id > 1"
SBLEDGER_NOW=2026-12-07T02:15:00Z sb --db "$db" --quiet nightly --inbox inbox --out reports --period 2026-12-06 | sed "s|$(pwd)/|./|g"
sqlite3 "$db" "SELECT COUNT(*) FROM reconciliation"
echo "== an --out that cannot be written: the totals say so, exit 74"
touch not-a-dir
SBLEDGER_NOW=2026-12-08T02:15:00Z sb --db "$db" nightly --inbox inbox --out not-a-dir/reports | sed "s|$(pwd)/|./|g"
echo "== no_rate: the command printed runs as printed"
export SBLEDGER_NOW=2026-12-05T00:00:00Z
cp "$SAMPLES/billing-e2b-events.json" .
sb --db e2b.db init >/dev/null
sb --db e2b.db import runs runs.jsonl >/dev/null
sb --db e2b.db import billing --format e2b-events billing-e2b-events.json >/dev/null
# E2B's per-second prices are on a card from December only: November's
# lines find none; the words fill the command with December's rates
sb --db e2b.db rates set e2b --usd-per-minute 0.06 --usd-per-cpu-second 0.000014 --usd-per-gb-second 0.0000045 --from 2026-12-01
"$SB" --db e2b.db reconcile --period 2026-11 --dry-run | grep '^  e2b' | tee words.txt
# the command names the ledger it was printed for (--db e2b.db) and runs
# as printed
cmd=$(sed -n 's/.*: \(sbledger --db e2b.db rates set [^(]*\) (the per-second.*/\1/p' words.txt)
echo "running: $cmd"
sh -c "$cmd" 2>&1; echo "[exit $?]"
"$SB" --db e2b.db reconcile --period 2026-11 --dry-run | grep -E '^e2b|^  e2b'
