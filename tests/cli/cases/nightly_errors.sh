# nightly: usage errors, a missing inbox, a directory that is no billing
# format, a symlink out of the inbox (not followed), rejected lines (65),
# and a second nightly while the first holds the ledger's write lock (75):
# it judges nothing and leaves the reports, its heartbeat alone written
# (as a night on a missing ledger, 66, writes its own).
# cli-tests: sqlite (another process holds the ledger's -lock file)
sb init >/dev/null
sb nightly --period 2026-11
sb nightly --inbox nowhere --period 2026-11
sb nightly --inbox . --fetch deepinfra,nosuch
sb nightly --inbox . --period 2026-13
mkdir -p inbox/runs inbox/billing/csv
echo 'x' >inbox/billing/csv/a.csv
echo 'stray' >inbox/billing/stray.csv
echo '{"run_id": "secret", "backend": "e2b", "started_at": "2026-11-02T10:00:00Z", "sandbox_usage": {}}' >outside.jsonl
ln -s ../../outside.jsonl inbox/runs/link.jsonl
sb nightly --inbox inbox --period 2026-11 --out reports | sed "s|$PWD/||g"
sqlite3 sbledger.db "SELECT COUNT(*) FROM run"
rm inbox/runs/link.jsonl inbox/billing/stray.csv
rm -r inbox/billing/csv
cp "$SAMPLES/runs-with-bad-lines.jsonl" inbox/runs/
sb nightly --inbox inbox --period 2026-11 --out reports | sed "s|$PWD/||g"
flock sbledger.db-lock sleep 3 &
holder=$!
i=0
while flock -n sbledger.db-lock true && [ $i -lt 100 ]; do sleep 0.02; i=$((i + 1)); done
ls reports >before.txt
cp reports/heartbeat.json heartbeat.before
sb --busy-timeout 200 nightly --inbox inbox --period 2026-11 --out reports
wait $holder
ls reports | cmp -s - before.txt && echo "the reports as they were"
cmp -s reports/heartbeat.json heartbeat.before || sed 's/"ran_at":"[^"]*"/"ran_at":T/' reports/heartbeat.json
echo
sb --db nowhere.db nightly --inbox inbox --out elsewhere
sed 's/"ran_at":"[^"]*"/"ran_at":T/' elsewhere/heartbeat.json
echo
