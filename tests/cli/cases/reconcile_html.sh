# reconcile --format html and report drift --format html: the formats each
# command takes, the page's verdict, money at stake and counts on the
# samples (November, judged on 2026-12-05: every window ended more than
# the billing lag ago), what nightly's report.html adds (the night's
# imports), and a page that cannot be written (exit 74).
SBLEDGER_NOW=2026-12-05T00:00:00Z
export SBLEDGER_NOW
cp "$SAMPLES"/runs.jsonl "$SAMPLES"/billing-* "$SAMPLES"/deepinfra-usage.json .
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
for f in record focus modal daytona e2b-events; do
	sb import billing --format "$f" billing-"$f".* >/dev/null
done
sb import billing --format deepinfra-usage deepinfra-usage.json >/dev/null
echo "== the formats: reconcile takes html not csv; report drift html by day only; listings no html"
sb reconcile --period 2026-11 --format csv
sb report drift --period 2026-11 --by period --format html
sb reconciliations --format html
echo "== the page: verdict, money at stake (420.180223467: see test_recon_detail), counts"
sb reconcile --period 2026-11 --dry-run --format html >page.html
grep -o '<p class="headline">.*</p>' page.html | sed 's/<[^>]*>//g'
grep -o 'id="at-stake"[^>]*>[^<]*' page.html
grep -o 'data-flagged="[0-9]*" data-flagged-backends="[0-9]*" data-flagged-sessions="[0-9]*" data-pending="[0-9]*"' page.html
grep -o '<tr class="backend main" data-backend="[a-z0-9]*" data-status="[a-z_]*" data-flagged="[a-z]*"' page.html | sed 's/<tr class="backend main" //'
grep -o '<b id="recon-id">[^<]*</b>' page.html
grep -o '<span class="why">[^<]*</span>' page.html | sed 's/<[^>]*>//g'
grep -c '<tr class="session main"' page.html
grep -o '<p id="trend-none">[^<]*' page.html
grep -o '<code class="cmd">[^<]*</code>' page.html | sed 's/<[^>]*>//g'
grep -Ec '(src|href)=|url\(|@import' page.html
echo "== stored, it is in the trend of a later day's page only when it is a day: a month is not"
sb reconcile --period 2026-11 --format html | grep -o '<b id="recon-id">[^<]*</b>'
sb report drift --period 2026-11 --format html | grep -o '<p id="trend-none">[^<]*'
echo "== nightly's report.html: the reconciliation page with the night's imports"
mkdir -p inbox/runs
cp runs.jsonl inbox/runs/again.jsonl
printf '%s\n' '{"run_id":"late-1","backend":"modal","session_id":"mod-late","started_at":"2026-11-30T10:00:00Z","sandbox_usage":{"exec_count":0,"total_duration_ms":0,"computed_cost_usd":0}}' 'not json' >inbox/runs/late.jsonl
sb --quiet nightly --inbox inbox --period 2026-11 --out reports | sed "s|$PWD/||g" | tail -3
grep -o '<p id="imports"[^>]*>' reports/2026-11/report.html
grep -o '<tr class="batch" data-batch="[0-9]*"><td>[0-9]*</td><td class="l wrap">[^<]*' reports/2026-11/report.html | sed 's/<[^>]*>/ /g'
# (a ledger named by --db, as a PostgreSQL one is, is named in the command too)
grep -o '<code class="cmd">sbledger \(--db [^<]* \)\{0,1\}rejects[^<]*</code>' reports/2026-11/report.html | sed 's/<[^>]*>//g'
echo "== a night with a rejected file: the verdict leads with it and is not green (by hand: no night, no fault)"
grep -o '<section class="verdict [a-z]*" id="verdict"' page.html reports/2026-11/report.html
grep -o 'data-faults="[0-9]*"' page.html reports/2026-11/report.html
grep -o '<p class="lead" id="faults-head">[^<]*' reports/2026-11/report.html | sed 's/<[^>]*>//g'
grep -o '<li class="fault".*</li>' reports/2026-11/report.html | sed "s|$PWD/||g; s/<[^>]*>//g"
echo "== a page that cannot be written"
"$SB" reconcile --period 2026-11 --dry-run --format html >/dev/full 2>err; echo "[exit $?]"; cat err
"$SB" report drift --period 2026-11 --format html >/dev/full 2>err; echo "[exit $?]"; cat err
