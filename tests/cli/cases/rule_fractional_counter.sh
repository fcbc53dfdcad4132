# docs/formats-runs.md: a counter is an integer literal (1.0 is refused, as 2.5 is).
cp "$FIX/rules/fractional_counter.jsonl" .
sb init >/dev/null
sb import runs fractional_counter.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id, exec_count, total_duration_ms FROM run'
