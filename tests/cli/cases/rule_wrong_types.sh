# docs/formats-runs.md: a field of the wrong type is rejected, naming the field and both types.
cp "$FIX/rules/wrong_types.jsonl" .
sb init >/dev/null
sb import runs wrong_types.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
