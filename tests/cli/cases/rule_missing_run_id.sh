# docs/formats-runs.md: run_id is required.
cp "$FIX/rules/missing_run_id.jsonl" .
sb init >/dev/null
sb import runs missing_run_id.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
