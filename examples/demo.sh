#!/bin/sh
# demo.sh SBLEDGER: build a ledger from the sample runs in demo/ and print
# what sbledger makes of them.  Run by 'make demo'.
set -eu
sb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
repo=$(cd "$(dirname "$0")/.." && pwd)
samples=$repo/examples/samples
dir=$repo/demo
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
export SBLEDGER_DB="$dir/demo.db"

step() { printf '\n$ sbledger %s\n' "$*"; "$sb" "$@"; }

step init
cp "$samples"/runs*.jsonl .
step import runs runs.jsonl
step import runs runs.jsonl
step import runs runs-with-bad-lines.jsonl || echo "(exit $?: the bad lines are kept, the good one imported)"
step rejects
step prices set gpt-5.6-terra --input-per-m 1.25 --output-per-m 10
step prices set claude-x-mini --input-per-m 0.80 --output-per-m 4
step report summary --period 2026-11 --by backend
step report summary --period 2026-11 --by tag:customer --format csv
cp "$samples"/billing-* "$samples"/deepinfra-usage.json .
step import billing --format record billing-record.jsonl
step import billing --format focus billing-focus.csv
step import billing --format modal billing-modal.json
step import billing --format daytona billing-daytona.json
step import billing --format e2b-events billing-e2b-events.json
step import billing --format deepinfra-usage deepinfra-usage.json
step reconcile --period 2026-11
step invoice --period 2026-11 --by tag:customer --customer acme
step check
printf '\nThe demo ledger is %s; try: SBLEDGER_DB=%s ./sbledger batches\n' "$SBLEDGER_DB" "$SBLEDGER_DB"
