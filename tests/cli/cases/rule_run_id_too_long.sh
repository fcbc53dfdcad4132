# docs/formats-runs.md: run_id is a non-empty string of at most 256 bytes.
cp "$FIX/rules/run_id_too_long.jsonl" .
sb init >/dev/null
sb import runs run_id_too_long.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT length(run_id) FROM run'
