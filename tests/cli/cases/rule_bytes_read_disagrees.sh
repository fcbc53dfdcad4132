# docs/formats-runs.md: bytes_read is the sum of the executions' bytes_read.
cp "$FIX/rules/bytes_read_disagrees.jsonl" .
sb init >/dev/null
sb import runs bytes_read_disagrees.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
