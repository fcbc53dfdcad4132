# docs/formats-runs.md: cpu_ms is the sum of the executions' cpu_ms.
cp "$FIX/rules/cpu_ms_disagrees.jsonl" .
sb init >/dev/null
sb import runs cpu_ms_disagrees.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
