# docs/formats-runs.md: a line that is JSON but not an object is rejected.
cp "$FIX/rules/not_an_object.jsonl" .
sb init >/dev/null
sb import runs not_an_object.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
