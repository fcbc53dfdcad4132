# export focus: the sample runs as FOCUS 1.2 CSV, and the round trip: the
# export imported next to the same runs in a fresh ledger reconciles with
# zero drift everywhere (judged on 2026-12-05, after November's end: on
# the runner's 2026-11-30 the month would still be pending).
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
SBLEDGER_NOW=2026-12-05T00:00:00Z sb --db fresh.db reconcile --period 2026-11 --all-sessions --format json | grep -E '"(status|drift_usd)"' | sort | uniq -c
SBLEDGER_NOW=2026-12-05T00:00:00Z sb --db fresh.db reconcile --period 2026-11 --fail-on-drift >/dev/null
sb export focus --period 2026-11 --format json
