# docs/formats-runs.md: computed_cost_usd is the sum of the non-null cost_usd, within 1 nanodollar per execution.
cp "$FIX/rules/computed_cost_off.jsonl" .
sb init >/dev/null
sb import runs computed_cost_off.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id, computed_nanos FROM run ORDER BY run_id'
