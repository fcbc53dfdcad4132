# --strict: one bad line keeps nothing of the file (exit 65); the rejects
# are still listed; a failed batch does not count as imported.
cp "$SAMPLES/runs-with-bad-lines.jsonl" bad.jsonl
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
sb import runs --strict bad.jsonl
sqlite3 sbledger.db 'SELECT COUNT(*) FROM run; SELECT COUNT(*) FROM execution'
sb rejects --format csv
sb batches --format csv
sb import runs --strict bad.jsonl 2>&1 | tail -2
sb import runs --strict runs.jsonl
sqlite3 sbledger.db 'SELECT COUNT(*) FROM run'
sb check | grep -v '^ok '
