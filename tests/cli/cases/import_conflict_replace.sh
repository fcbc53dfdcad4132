# A record under a known run_id with other content is a conflict, rejected;
# --replace keeps the new version and moves the old one to run_history.
cat > first.jsonl <<'RUNS'
{"run_id": "r1", "backend": "e2b", "started_at": "2026-11-02T10:00:00Z", "tags": {"customer": "acme"}, "sandbox_usage": {"exec_count": 1, "total_duration_ms": 1000, "computed_cost_usd": 0.001, "executions": [{"command": "make", "duration_ms": 1000, "cost_usd": 0.001}]}}
{"run_id": "r2", "backend": "e2b", "started_at": "2026-11-02T11:00:00Z", "sandbox_usage": {}}
RUNS
cat > second.jsonl <<'RUNS'
{"run_id": "r1", "backend": "e2b", "started_at": "2026-11-02T10:00:00Z", "tags": {"customer": "globex"}, "sandbox_usage": {"exec_count": 1, "total_duration_ms": 3000, "computed_cost_usd": 0.003, "executions": [{"command": "make test", "duration_ms": 3000, "cost_usd": 0.003}]}}
{"run_id": "r2", "backend": "e2b", "started_at": "2026-11-02T11:00:00Z", "sandbox_usage": {}}
RUNS
sb init >/dev/null
sb import runs first.jsonl
sb import runs second.jsonl
sb rejects
sqlite3 sbledger.db 'SELECT run_id, total_duration_ms, card_nanos, tags FROM run ORDER BY run_id'
# as the reason says: --replace reads the file again (another request than
# batch 2's), the new version in
sb import runs --replace second.jsonl
# --force reads it once more: nothing new (duplicates)
sb import runs --replace --force second.jsonl
sqlite3 sbledger.db 'SELECT run_id, batch_id, total_duration_ms, card_nanos, tags FROM run ORDER BY run_id'
sqlite3 sbledger.db 'SELECT run_id, batch_id, replaced_by_batch, total_duration_ms, tags FROM run_history'
sqlite3 sbledger.db 'SELECT h.run_id, x.seq, x.command, x.duration_ms, x.cost_nanos FROM execution_history x JOIN run_history h USING (hid)'
sqlite3 sbledger.db 'SELECT r.run_id, x.command FROM execution x JOIN run r USING (rid); SELECT r.run_id, t.value FROM run_tag t JOIN run r USING (rid)'
sb batches --format csv
sb check | grep -v '^ok '
