# docs/formats-runs.md: a record with exec_count > 0 and no executions is accepted (summary-only).
cp "$FIX/rules/summary_only.jsonl" .
sb init >/dev/null
sb import runs summary_only.jsonl
sqlite3 sbledger.db 'SELECT run_id, exec_count, total_duration_ms, has_executions, card_nanos FROM run ORDER BY run_id'
sqlite3 sbledger.db 'SELECT COUNT(*) FROM execution'
sb check | grep -v '^ok '
