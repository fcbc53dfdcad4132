# docs/formats-runs.md: exec_count is the number of executions.
cp "$FIX/rules/exec_count_disagrees.jsonl" .
sb init >/dev/null
sb import runs exec_count_disagrees.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
