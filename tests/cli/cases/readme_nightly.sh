# The README's nightly example is what the samples give: one sample file in
# each folder of the inbox, 'nightly --quiet --fail-on-drift' at 02:15 UTC
# on 2026-11-04 (so yesterday is 2026-11-03), its output compared line by
# line with the block of README.md that follows "Subject: Cron".  As in
# the README's crontab, the program is ./sbledger in the directory cron
# changes to (/srv/sbledger there: this directory's path reads so).
mkdir -p inbox/runs
for f in focus modal record daytona e2b-events deepinfra-usage; do mkdir -p inbox/billing/$f; done
cp "$SAMPLES/runs.jsonl" inbox/runs/
cp "$SAMPLES/billing-focus.csv" inbox/billing/focus/
cp "$SAMPLES/billing-modal.json" inbox/billing/modal/
cp "$SAMPLES/billing-record.jsonl" inbox/billing/record/
cp "$SAMPLES/billing-daytona.json" inbox/billing/daytona/
cp "$SAMPLES/billing-e2b-events.json" inbox/billing/e2b-events/
cp "$SAMPLES/deepinfra-usage.json" inbox/billing/deepinfra-usage/
export SBLEDGER_NOW=2026-11-04T02:15:00Z
ln -s "$(command -v "$SB")" ./sbledger
./sbledger --db ledger.db init >/dev/null
./sbledger --db ledger.db --quiet nightly --inbox inbox --out reports --fail-on-drift >mail.txt 2>&1
echo "nightly exit $?"
sed "s|$(pwd)/|/srv/sbledger/|g" mail.txt >actual.txt
awk '/^Subject: Cron/ { on = 1; getline; next } on && /^```/ { exit } on' "$REPO/README.md" >readme.txt
if [ -s readme.txt ] && diff readme.txt actual.txt; then
	echo "the README's example matches ($(wc -l <actual.txt | tr -d ' ') lines)"
else
	echo "the README's nightly example differs from what the samples give (above)"
fi
