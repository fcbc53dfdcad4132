# invoice --finalize: a number, a refused second and third finalize, a
# reprint from storage, late runs as adjustments, numbers never reused.
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb prices set gpt-5.6-terra --input-per-m 2.5 --output-per-m 10 >/dev/null
sb prices set claude-x-mini --input-per-m 1 --output-per-m 4 >/dev/null
sb invoice --period 2026-11 --by tag:customer --customer acme --finalize
sb invoice --period 2026-11 --by tag:customer --customer acme --finalize
sb invoice --period 2026-11 --by tag:customer --customer acme --finalize --format json
sb invoice --period 2026-11 --by tag:customer --finalize --format csv
sb invoice --period 2026-11-05 --by tag:customer --customer acme --finalize
# prices change: the finalized invoice is reprinted as stored
sb prices set claude-x-mini --input-per-m 2 --output-per-m 8 >/dev/null
sb invoice --period 2026-11 --by tag:customer --customer acme
sb prices set claude-x-mini --input-per-m 1 --output-per-m 4 >/dev/null
# a run of acme arrives late
printf '%s\n' '{"run_id":"late-1","backend":"e2b","session_id":"e2b-late","started_at":"2026-11-20T10:00:00Z","tags":{"customer":"acme"},"sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":0.06}}' >late.jsonl
sb import runs late.jsonl >/dev/null
sb invoice --period 2026-11 --by tag:customer --customer acme
sb invoice --period 2026-11 --by tag:customer --customer acme --format json
sb invoice --period 2026-11 --by tag:customer --customer globex --finalize --format csv
sqlite3 sbledger.db "SELECT number, customer, basis, total_nanos, runs FROM invoice ORDER BY invoice_id"
sqlite3 sbledger.db "DELETE FROM invoice" 2>&1
