# docs/formats-runs.md: timestamps are RFC 3339 with an offset.
cp "$FIX/rules/timestamp_without_offset.jsonl" .
sb init >/dev/null
sb import runs timestamp_without_offset.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id, started_ms, started_day FROM run'
