# check: exit 0 on a sound ledger; a broken invariant is listed, exit 65.
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb check | grep -v '^ok '
sqlite3 sbledger.db "UPDATE run SET total_duration_ms = total_duration_ms + 1 WHERE run_id = 'run-1-000000'"
sb check | grep -v '^ok '
