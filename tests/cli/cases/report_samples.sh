# report summary of the sample runs, with and without model prices.
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb report summary --period 2026-11
sb prices set gpt-5.6-terra --input-per-m 1.25 --output-per-m 10 >/dev/null
sb prices set claude-x-mini --input-per-m 0.80 --output-per-m 4 >/dev/null
sb report summary --period 2026-11 --by tag:customer --format csv
sb report summary --period this-month --by day --format csv
sb report summary --period last-month --format json
