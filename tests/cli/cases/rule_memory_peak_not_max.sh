# docs/formats-runs.md: memory_peak_mb is the maximum of the executions', not their sum.
cp "$FIX/rules/memory_peak_not_max.jsonl" .
sb init >/dev/null
sb import runs memory_peak_not_max.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
