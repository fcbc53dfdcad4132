# export focus: the sample runs as FOCUS 1.2 CSV, and the round trip: the
# export imported next to the same runs in a fresh ledger reconciles with
# zero drift everywhere.
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
"$SB" export focus --period 2026-11 >export.csv
head -4 export.csv
grep -c . export.csv
sb export focus --period 2026-11-03 | cut -d, -f1,7,9-11,18,21-
sb export focus --period 2030-01
sb --db fresh.db init >/dev/null
sb --db fresh.db import runs runs.jsonl >/dev/null
sb --db fresh.db import billing --format focus export.csv
sb --db fresh.db reconcile --period 2026-11 --all-sessions --format json | grep -E '"(status|drift_usd)"' | sort | uniq -c
sb --db fresh.db reconcile --period 2026-11 --fail-on-drift >/dev/null
sb export focus --period 2026-11 --format json
