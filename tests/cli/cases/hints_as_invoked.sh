# A command that a message, the nightly mail or a page suggests runs as
# printed from where sbledger was run: it names the program as invoked
# (./sbledger, as cron runs it from its directory) and the ledger as
# given (--db 'my ledger.db', one shell word; none when the ledger came
# from $SBLEDGER_DB).  Each hint below is taken from the output and run
# with sh exactly as printed; no second ledger (./sbledger.db) appears.
mkdir -p cron/inbox/runs cron/inbox/billing/daytona
cd cron || exit 1
ln -s "$(command -v "$SB")" ./sbledger
cp "$SAMPLES/runs.jsonl" good.jsonl
{ cat good.jsonl; echo '{"run_id": 7}'; } >bad.jsonl
# run CMD: what sh makes of the command as printed, its exit status, with
# cron's PATH (no sbledger on it: only ./sbledger runs)
run() {
	echo "running: $1"
	PATH=/usr/bin:/bin sh -c "$1" >run.out 2>&1
	run_status=$?
	sed 's/^/  /' run.out
	echo "  [exit $run_status]"
}
# hint FILE: the command quoted after "see " or "with " on its last line
hint() {
	sed -n "s/.*\(see\|with\) '\(.*\)'\$/\2/p" "$1" | tail -1
}
ledgers() {
	echo "ledgers here: $(ls -- *.db 2>/dev/null | tr '\n' ' ')"
}

echo "== --db 'my ledger.db': a missing ledger names init with the program as run"
./sbledger --db 'my ledger.db' batches 2>err.txt; echo "[exit $?]"
cat err.txt
run "$(hint err.txt)"
ledgers

echo "== its rejected records"
./sbledger --db 'my ledger.db' import runs bad.jsonl >/dev/null 2>err.txt; echo "[exit $?]"
cat err.txt
run "$(hint err.txt)"
ledgers

echo "== a batch that does not exist names the listing of batches"
./sbledger --db 'my ledger.db' rejects --batch 9 2>err.txt; echo "[exit $?]"
cat err.txt
run "$(sed -n "s/.*; '\(.*\)' lists them)\$/\1/p" err.txt)"

echo "== the ledger from \$SBLEDGER_DB: no --db in the hint, the same ledger found"
SBLEDGER_DB='env ledger.db'
export SBLEDGER_DB
./sbledger init >/dev/null
./sbledger import runs bad.jsonl >/dev/null 2>err.txt; echo "[exit $?]"
cat err.txt
run "$(hint err.txt)"
ledgers
unset SBLEDGER_DB

echo "== the nightly mail: the flagged sessions' command, reports at an absolute path"
cp "$SAMPLES/runs.jsonl" inbox/runs/
cp "$SAMPLES/billing-daytona.json" inbox/billing/daytona/
SBLEDGER_NOW=2026-11-04T02:15:00Z ./sbledger --db 'my ledger.db' --quiet nightly --inbox inbox --out reports >mail.txt 2>&1
echo "[exit $?]"
sed "s|$(pwd)/|CRON/|g" mail.txt | grep -v '^[a-z0-9]* *\(ok\|unbilled\) '
dir=$(sed -n 's/.*; reports in \(.*\)\/$/\1/p' mail.txt)
case $dir in /*) [ -f "$dir/report.html" ] && echo "reports in an absolute path, report.html there" ;; *) echo "reports in a relative path: $dir" ;; esac
SBLEDGER_NOW=2026-11-04T02:15:00Z run "$(sed -n 's/^flagged sessions: //p' mail.txt)" | grep -v '^  [a-z0-9-]* *\(ok\|unbilled\) '

echo "== the page: its commands begin the same way and run as printed"
grep -o '<code class="cmd">[^<]*</code>' "$dir/report.html" | sed 's/<[^>]*>//g; s/&#39;/'"'"'/g; s/&amp;/\&/g' >cmds.txt
head -3 cmds.txt
run "$(grep ' lines ' cmds.txt | head -1)" | head -3
ledgers
