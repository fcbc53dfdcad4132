# Every command but init refuses a missing ledger, names 'sbledger init'
# (exit 66), and creates nothing.
cp "$SAMPLES/runs.jsonl" runs.jsonl
printf '[]\n' > cards.json
sb check
sb batches
sb rejects
sb import runs runs.jsonl
sb rates
sb rates set e2b --usd-per-minute 0.1
sb rates import cards.json
sb backends
sb prices
sb prices set m --input-per-m 1 --output-per-m 2
sb report summary --period 2026-11
sb --db elsewhere.db batches
SBLEDGER_DB=env.db sb batches
ls
