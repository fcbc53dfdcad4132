# docs/formats-runs.md: ended_at may not precede started_at (offsets taken into account).
cp "$FIX/rules/ended_before_started.jsonl" .
sb init >/dev/null
sb import runs ended_before_started.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
