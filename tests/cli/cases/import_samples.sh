# The sample runs: 40 accepted, 2 duplicates; the ledger checks out.
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
sb import runs runs.jsonl
sb batches
sb batches --format json
sqlite3 sbledger.db 'SELECT COUNT(*), COUNT(DISTINCT run_id), SUM(exec_count) FROM run; SELECT COUNT(*) FROM execution'
sha256sum runs.jsonl | cut -c1-64
sqlite3 sbledger.db 'SELECT sha256 FROM batch'
sb check | grep -v '^ok '
