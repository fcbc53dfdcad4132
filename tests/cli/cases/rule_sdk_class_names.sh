# docs/formats-runs.md: the ten SDK client class names are mapped to their backend ids.
cp "$FIX/rules/sdk_class_names.jsonl" .
sb init >/dev/null
sb import runs sdk_class_names.jsonl
sqlite3 sbledger.db 'SELECT run_id, backend FROM run ORDER BY run_id'
