# '-' reads standard input; its SHA-256 is learnt while reading.
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
sb import runs - < runs.jsonl
cat runs.jsonl | sb import runs -
sha256sum runs.jsonl | cut -c1-64
sqlite3 sbledger.db 'SELECT batch_id, source, sha256, accepted, duplicates FROM batch'
sb import runs - < /dev/null
printf '{"run_id": 5}\n' | sb import runs -
sb rejects --format csv
