# A missing or unreadable input exits 66; the other files are imported.
cp "$SAMPLES/runs.jsonl" runs.jsonl
mkdir adir
sb init >/dev/null
sb import runs nope.jsonl
sb import runs adir
sb import runs nope.jsonl runs.jsonl
sqlite3 sbledger.db 'SELECT COUNT(*) FROM run; SELECT COUNT(*) FROM batch'
