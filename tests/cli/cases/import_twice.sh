# The same file twice changes nothing ('already imported'), whatever its
# name; --force reads it again, every record a duplicate.
# cli-tests: sqlite (sqlite3 .dump of the ledger file)
cp "$SAMPLES/runs.jsonl" runs.jsonl
cp runs.jsonl copy.jsonl
sb init >/dev/null
sb import runs runs.jsonl
sqlite3 sbledger.db .dump > first.sql
sb import runs runs.jsonl
sb import runs copy.jsonl
sqlite3 sbledger.db .dump | cmp - first.sql && echo "ledger unchanged"
sb import runs --force runs.jsonl
sb batches --format csv
sqlite3 sbledger.db 'SELECT COUNT(*), COUNT(DISTINCT batch_id) FROM run'
sb --quiet import runs runs.jsonl
