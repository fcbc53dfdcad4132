# docs/formats-runs.md: backend is [a-z0-9_-]{1,64} or an SDK client class name.
cp "$FIX/rules/bad_backend_id.jsonl" .
sb init >/dev/null
sb import runs bad_backend_id.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id, backend FROM run'
