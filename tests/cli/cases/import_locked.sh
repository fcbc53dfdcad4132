# A ledger whose write lock another process holds past the busy timeout:
# exit 75, nothing written; readers are not blocked; later it works.
# cli-tests: alone (it kills or waits on another process: no other case beside it)
# cli-tests: sqlite (another process holds the ledger's -lock file)
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
flock sbledger.db-lock sleep 3 &
holder=$!
# wait until the lock is taken
i=0
while flock -n sbledger.db-lock true && [ $i -lt 100 ]; do sleep 0.02; i=$((i + 1)); done
sb --busy-timeout 200 import runs runs.jsonl
sb import runs runs.jsonl --busy-timeout 300
sb --busy-timeout 200 rates set e2b --usd-per-minute 0.1
sb batches
sqlite3 sbledger.db 'SELECT COUNT(*) FROM run; SELECT COUNT(*) FROM batch'
wait $holder
sb --busy-timeout 200 import runs runs.jsonl
