# docs/formats-runs.md: NaN and infinities are not JSON (jansson refuses them); 1e400 overflows; 1e300 USD does not fit.
cp "$FIX/rules/nan_infinity.jsonl" .
sb init >/dev/null
sb import runs nan_infinity.jsonl
sb rejects --format csv
sqlite3 sbledger.db 'SELECT run_id FROM run ORDER BY run_id'
