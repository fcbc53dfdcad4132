# report budget on the samples: the token and compute meters per run, the
# runs over budget and past the lifetime limit, what a cap saves.
cp "$SAMPLES/runs.jsonl" runs.jsonl
cp "$SAMPLES/billing-record.jsonl" record.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb import billing --format record record.jsonl >/dev/null
sb prices set gpt-5.6-terra --input-per-m 2.5 --output-per-m 10 >/dev/null
sb report budget --period 2026-11
sb prices set claude-x-mini --input-per-m 1 --output-per-m 4 >/dev/null
sb report budget --period 2026-11 --max-lifetime-min 8
sb report budget --period 2026-11-02 --max-lifetime-min 8 --format csv
sb report budget --period 2026-11-04 --max-lifetime-min 8 --format json
sb report budget --period 2026-11 --max-lifetime-min x
