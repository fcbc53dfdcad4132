# report summary on the fixture of tests/test_summary.c, whose every figure
# is worked out by hand there, in every format and by every key.
cp "$FIX/summary.jsonl" runs.jsonl
sb init >/dev/null
sb import runs runs.jsonl
sb prices set gpt-a --input-per-m 1.25 --output-per-m 10 >/dev/null
sb prices set mini --input-per-m 0.000001 --output-per-m 0.000003 >/dev/null
sb report summary --period 2026-11
sb report summary --period 2026-11 --by backend --format csv
sb report summary --period 2026-11 --by backend --format json
sb report summary --period 2026-11 --by day --format csv
sb report summary --period 2026-11 --by model --format csv
sb report summary --period 2026-11 --by session --format csv
sb report summary --period 2026-11 --by tag:customer
sb report summary --period 2026-11 --by tag:customer --format json
sb report summary --period 2026-11-02..2026-12-01 --format json
sb report summary --period 2027 --format json
sb report summary --period 2027 --format csv
