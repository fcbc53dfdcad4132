# docs/formats-billing.md: JSON amounts of Modal and DeepInfra are read
# from their digits (never through a double), half to even past the ninth
# decimal; a duplicate key or invalid UTF-8 refuses its record with its
# line, and nothing else is lost.
cp "$FIX/json_exact/modal.json" "$FIX/json_exact/deepinfra-usage.json" .
sb init >/dev/null
sb import billing --format modal modal.json
sb import billing --format deepinfra-usage deepinfra-usage.json
sqlite3 sbledger.db "SELECT backend, session_id, start_ms, amount_nanos FROM billing_line ORDER BY backend, start_ms"
sb lines --period 2026 --format csv | cut -d, -f1,7,10
