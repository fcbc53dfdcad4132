# docs/formats-runs.md: started_at is required.
cp "$FIX/rules/missing_started_at.jsonl" .
sb init >/dev/null
sb import runs missing_started_at.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
