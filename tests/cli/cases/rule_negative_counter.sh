# docs/formats-runs.md: a negative counter is rejected.
cp "$FIX/rules/negative_counter.jsonl" .
sb init >/dev/null
sb import runs negative_counter.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
