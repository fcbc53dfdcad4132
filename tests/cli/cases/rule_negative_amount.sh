# docs/formats-runs.md: a negative amount is rejected (-0.0 is not negative).
cp "$FIX/rules/negative_amount.jsonl" .
sb init >/dev/null
sb import runs negative_amount.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id, computed_nanos, billed_nanos, budget_nanos FROM run'
