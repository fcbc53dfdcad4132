# docs/formats-runs.md: a counter must be whole (an integral float such as 1.0 is whole).
cp "$FIX/rules/fractional_counter.jsonl" .
sb init >/dev/null
sb import runs fractional_counter.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id, exec_count, total_duration_ms FROM run'
