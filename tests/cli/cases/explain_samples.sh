# explain on the bundled samples: each backend's drift split into parts
# that add up to billed minus computed (card, idle, paused, metering and
# price, or billed_beyond_lifetime where the line states no minutes), the
# lines with their match rule, and a flagged session's dispute pack.
cp "$SAMPLES/runs.jsonl" runs.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb import billing --format focus "$SAMPLES/billing-focus.csv" >/dev/null
sb import billing --format modal "$SAMPLES/billing-modal.json" >/dev/null
sb import billing --format record "$SAMPLES/billing-record.jsonl" >/dev/null
echo "== the table"
sb explain --period 2026-11
echo "== one backend, JSON"
sb explain --period 2026-11 --backend modal --format json
echo "== a backend with no runs or lines in the period"
sb explain --period 2026-11 --backend nosuch
echo "== a bad period"
sb explain --period 2026-13
