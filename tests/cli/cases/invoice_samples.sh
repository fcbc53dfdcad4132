# invoice on the samples, prices set here: every format, both bases.  The
# figures are worked out by hand in tests/test_invoice.c (acme: 1.59 on a
# computed basis, 1.19 billed).
cp "$SAMPLES/runs.jsonl" runs.jsonl
cp "$SAMPLES/billing-record.jsonl" record.jsonl
cp "$SAMPLES/billing-focus.csv" focus.csv
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb prices set gpt-5.6-terra --input-per-m 2.5 --output-per-m 10 >/dev/null
sb prices set claude-x-mini --input-per-m 1 --output-per-m 4 >/dev/null
sb invoice --period 2026-11 --by tag:customer --customer acme
sb invoice --period 2026-11 --by tag:customer --customer acme --format json
sb invoice --period 2026-11 --by tag:customer --format csv
sb import billing --format record record.jsonl >/dev/null
sb import billing --format focus focus.csv >/dev/null
sb invoice --period 2026-11 --by tag:customer --basis billed
sb invoice --period 2026-11 --by tag:customer --basis billed --customer acme --format json
