# docs/formats-runs.md: total_duration_ms is the sum of the executions' duration_ms.
cp "$FIX/rules/total_duration_disagrees.jsonl" .
sb init >/dev/null
sb import runs total_duration_disagrees.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
