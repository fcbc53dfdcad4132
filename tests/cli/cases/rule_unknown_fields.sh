# docs/formats-runs.md: unknown fields are kept in the extra column.
cp "$FIX/rules/unknown_fields.jsonl" .
sb init >/dev/null
sb import runs unknown_fields.jsonl
sqlite3 sbledger.db 'SELECT run_id, extra FROM run ORDER BY run_id'
sqlite3 sbledger.db 'SELECT seq, command, extra FROM execution'
