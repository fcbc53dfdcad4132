# Tables people can read (cli/out.c): numbers right-aligned under a
# right-aligned heading, text to the left; money with 6 decimals and rates
# with 9; token and byte counts with thousands separators in tables, plain
# digits in csv and json; a long source path cut from the left so that its
# file name stays ('.../samples/runs.jsonl'), and whole in csv and json.
deep=a-rather-long-directory-name/another-long-directory/examples/samples
mkdir -p "$deep"
cp "$SAMPLES/runs.jsonl" "$deep/runs.jsonl"
cp "$SAMPLES/billing-e2b-events.json" events.json
# a file name longer than the column: its end, cut at a character
cp "$SAMPLES/billing-record.jsonl" "$deep/billing-record-of-the-whole-month-of-november.jsonl"
sb init >/dev/null
sb import runs "$deep/runs.jsonl" >/dev/null
sb import billing --format e2b-events events.json >/dev/null
sb import billing --format record "$deep/billing-record-of-the-whole-month-of-november.jsonl" >/dev/null
# a rejected line of 1,234,567 bytes
awk 'BEGIN { printf "{\"run_id\": \""; for (i = 0; i < 1234553; i++) printf "x"; printf "\"}\n" }' >long.jsonl
sb import runs long.jsonl 2>&1 | sed 's/x\{20,\}/x.../'
sb batches | cut -c 1-98 | sed 's/ *$//'
sb batches --format csv | cut -d, -f4
sb batches --format json | grep -o '"source": "[^"]*"'
sb rejects --batch 4
sb rejects --batch 4 --format csv | grep -o ',[0-9]*$'
sb rejects --batch 4 --format json | grep -o '"length": [0-9]*'
# vCPU and memory seconds right-aligned; amounts (6 decimals) too
sb lines --period 2026-11 --backend e2b
# byte counts: 1,234 in the table, 1234 in csv and json
"$SB" report summary --period 2026-11-02 --by backend 2>/dev/null | cut -c 1-12,70-110 | sed 's/ *$//'
sb report summary --period 2026-11-02 --by backend --format csv | cut -d, -f1,7,8 | head -3
sb report summary --period 2026-11-02 --by backend --format json | grep -m 2 bytes_read
# rates with 9 decimals, in the table too
sb rates | head -3
# reconcile's table: amounts with 6 decimals, the relative drift
# right-aligned; the verdicts' rates (USD per minute) with 9.  Judged a
# week after the month, once every window has ended and the billing lag
# has passed (judged at SBLEDGER_NOW, inside the month, all is pending).
cp "$SAMPLES/billing-modal.json" modal.json
cp "$SAMPLES/billing-focus.csv" focus.csv
sb import billing --format modal modal.json >/dev/null
sb import billing --format focus focus.csv >/dev/null
SBLEDGER_NOW=2026-12-08T00:00:00Z sb reconcile --period 2026-11 --dry-run
# the invoice page's rates with 9 decimals too (the table's are in invoice_samples)
sb prices set gpt-5.6-terra --input-per-m 2.5 --output-per-m 10 >/dev/null
sb prices set claude-x-mini --input-per-m 1 --output-per-m 4 >/dev/null
"$SB" invoice --period 2026-11 --by tag:customer --customer acme --format html |
	grep -o '[0-9.]*/min\|[0-9.]* in / [0-9.]* out per M' | sort -u
