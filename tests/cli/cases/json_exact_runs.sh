# docs/formats-runs.md: amounts are read from their digits (never through a
# double), half to even past the ninth decimal; integers are integer
# literals; the JSON parser refuses duplicate keys, deep nesting, bad
# UTF-8, a NUL byte and a BOM, each with its line, and nothing else is lost.
cp "$FIX/json_exact/runs.jsonl" .
sb init >/dev/null
sb import runs runs.jsonl
sqlite3 sbledger.db 'SELECT run_id, computed_nanos, budget_nanos FROM run ORDER BY run_id'
sb report summary --period 2026-11 --by session --format json
sb report summary --period 2026-11 --by session --format csv
