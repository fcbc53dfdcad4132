# invoice: a period with no runs, a customer that does not exist, a model
# with no price, a customer on free backends only, a tag value with quotes
# and commas in CSV, usage errors.
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb invoice --period 2026-11 --by tag:customer --customer acme
sb prices set gpt-5.6-terra --input-per-m 2.5 --output-per-m 10 >/dev/null
sb prices set claude-x-mini --input-per-m 1 --output-per-m 4 >/dev/null
sb invoice --period 2026-12 --by tag:customer
sb invoice --period 2026-12 --by tag:customer --format json
sb invoice --period 2026-12 --by tag:customer --finalize
sb invoice --period 2026-12 --by tag:customer --customer acme
sb invoice --period 2026-11 --by tag:customer --customer acne
sb invoice --period 2026-11 --by tag:client --customer acme
printf '%s\n' \
  '{"run_id":"q1","backend":"local","session_id":"loc-q1","started_at":"2026-11-21T10:00:00Z","tags":{"customer":"Quote \"Co\", Ltd"},"sandbox_usage":{"exec_count":1,"total_duration_ms":90000,"computed_cost_usd":0}}' \
  '{"run_id":"q2","backend":"docker","session_id":"doc-q2","started_at":"2026-11-22T10:00:00Z","tags":{"customer":"Quote \"Co\", Ltd"},"sandbox_usage":{"exec_count":1,"total_duration_ms":30000,"computed_cost_usd":0}}' >quote.jsonl
sb import runs quote.jsonl >/dev/null
sb invoice --period 2026-11 --by tag:customer --customer 'Quote "Co", Ltd' --format csv
sb invoice --period 2026-11 --by tag:customer --customer 'Quote "Co", Ltd' --finalize
sb invoice --period 2026-11 --by tag:customer --customer 'Quote "Co", Ltd' --format html | grep -F 'class="customer"'
sb invoice --period 2026-11 --by customer
sb invoice --period 2026-11
sb invoice --by tag:customer
sb invoice --period 2026-11 --by tag:customer --basis list
sb invoice --period 2026-11 --by tag:customer --format xml
