# export focus: the sample runs as FOCUS 1.2 CSV, and the way back: the
# export imported as billing is not a bill of sbledger's own estimates.
# Its 39 rows of x_BilledBasis computed are skipped and counted; the one
# row billed (a run that carried its own billed cost, cloudflare session
# clo-42ca2e3611, 0.134201667) becomes the only billing line, in a fresh
# ledger as in the ledger that made the export.  Reconciled on 2026-12-05
# (after November's end: on the runner's 2026-11-30 the month would still
# be pending), the estimates bill nothing: eight backends with runs are
# unbilled, cloudflare is judged on its one session line (drift 0 there).
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
sb --db fresh.db lines --period 2026-11 --format csv | cut -d, -f3,5,6,10
sb import billing --format focus export.csv
sb lines --period 2026-11 --format csv | cut -d, -f3,5,6,10
sb export focus --period 2026-11 --format json
