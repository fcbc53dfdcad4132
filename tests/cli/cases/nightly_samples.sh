# nightly on an inbox of the samples: each file imported once (the second
# run finds them all in the ledger), the reconciliation stored, the three
# reports written, one line per backend, exit 1 with --fail-on-drift as
# the samples drift; summary.csv the bytes 'report summary --by backend
# --format csv' prints.  A dot file (still being written) is skipped.
# Judged on 2026-12-05, when November has ended more than the billing lag
# ago (on the runner's 2026-11-30 every backend would still be pending).
SBLEDGER_NOW=2026-12-05T00:00:00Z
export SBLEDGER_NOW
mkdir -p inbox/runs inbox/billing/focus inbox/billing/modal inbox/billing/record
cp "$SAMPLES/runs.jsonl" inbox/runs/
cp "$SAMPLES/billing-focus.csv" inbox/billing/focus/
cp "$SAMPLES/billing-modal.json" inbox/billing/modal/
cp "$SAMPLES/billing-record.jsonl" inbox/billing/record/
echo '{"run_id": "half' >inbox/runs/.incoming.jsonl
sb init >/dev/null
sb nightly --inbox inbox --period 2026-11 --out reports --fail-on-drift | sed "s|$PWD/||g"
ls -l reports/2026-11 | awk 'NR > 1 {print $1, $NF}'
head -c 15 reports/2026-11/report.html; echo
head -2 reports/2026-11/summary.csv
# summary.csv is the summary's own CSV, byte for byte (one writer)
"$SB" report summary --period 2026-11 --by backend --format csv 2>/dev/null | cmp - reports/2026-11/summary.csv &&
	echo "summary.csv: the same bytes as report summary --by backend --format csv"
sb nightly --inbox inbox --period 2026-11 --out reports --fail-on-drift | sed "s|$PWD/||g"
sb --quiet nightly --inbox inbox --period 2026-10 --out reports --fail-on-drift
sqlite3 sbledger.db "SELECT batch_id, kind, format, status, accepted FROM batch"
sqlite3 sbledger.db "SELECT recon_id, flagged FROM reconciliation"
sb check | grep -v '^ok '
