# docs/formats-runs.md: backend is required.
cp "$FIX/rules/missing_backend.jsonl" .
sb init >/dev/null
sb import runs missing_backend.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
