# docs/formats-runs.md: sandbox_usage is required.
cp "$FIX/rules/missing_sandbox_usage.jsonl" .
sb init >/dev/null
sb import runs missing_sandbox_usage.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
