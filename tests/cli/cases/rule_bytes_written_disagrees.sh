# docs/formats-runs.md: bytes_written is the sum of the executions' bytes_written.
cp "$FIX/rules/bytes_written_disagrees.jsonl" .
sb init >/dev/null
sb import runs bytes_written_disagrees.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
