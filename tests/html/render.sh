#!/bin/sh
# render.sh: the HTML pages in a real browser.  Builds a ledger from the
# sample runs and bills, writes the summary page (by backend and by
# customer), the invoice page, the reconciliation page (reconcile
# --format html, and nightly's report.html over three nights of the
# samples), and the drift page, and has headless Chromium render each:
# the screenshot must be a non-empty PNG, and the DOM Chromium built must
# hold one bar pair per summary group, one section per invoice, a tag
# value, session and command full of quotes, commas and markup as plain
# text, no "not billed" on the summary, and on the reconciliation page
# every backend, figure, flagged session and trend point as 'reconcile
# --format json' and 'report drift --format json' have them, every flag
# as 'flags --format json' has it (one acked, one disputed), and on a
# night's page the faults of its mail leading a verdict that is not green
# (a night of rejected files, a skipped fetch and days not judged)
# (tests/html/check_recon_page.py); the commands the page prints run as
# printed.
#
#   sh tests/html/render.sh            (SBLEDGER: the binary, else ./sbledger)
#   SHOTS=DIR sh tests/html/render.sh  also keeps the screenshots in DIR,
#                                      and reconcile-page.png (1000 px wide)
#                                      for docs/reports.md (tools/png_palette.py
#                                      makes docs/reconcile-page.png of it)
#   KEEP=1 sh tests/html/render.sh     keeps its work directory (pages, DOMs)
#
# Chromium comes from tools/deps.sh (Debian package chromium), which
# 'make html-tests' and 'make check' run first.  When it is not installed
# the test fails (exit 1), saying what to install: a page nobody rendered
# is not a page that passed.  Prints "html: N passed, M failed" last;
# exits 1 when a check failed.
set -u
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
SB=${SBLEDGER:-$repo/sbledger}
samples=$repo/examples/samples

if ! command -v chromium >/dev/null 2>&1; then
	echo "html: FAIL: headless Chromium is not installed, so the HTML pages were not rendered;"
	echo "html: 'sh tools/deps.sh html' installs it (Debian, as root: apt-get install chromium)"
	echo "html: 0 passed, 1 failed"
	exit 1
fi
if [ ! -x "$SB" ] || [ ! -f "$samples/runs.jsonl" ]; then
	echo "html: no sbledger at $SB or no samples at $samples" >&2
	exit 70
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-html.XXXXXX") || exit 70
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
# sbledger is run by its name on PATH, as tests/cli/run.sh runs it: the
# commands a page suggests begin as the program was run ("sbledger"),
# and run as printed with sh in the page's directory
. "$repo/tests/support/on_path.sh"
sb_on_path "$SB" "$work" || exit 70
SB=sbledger
passed=0
failed=0

# ok NAME / bad NAME WHY: count a check.
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1: $2"; }

# chrome ARGS...: headless Chromium with no network, no profile, no GPU.
chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$work/profile" "$@" 2>>"$work/chromium.log"
}

# render NAME: screenshot NAME.html at desktop and phone width, and dump
# its DOM to NAME.dom.
render() {
	chrome --screenshot="$work/$1.png" --window-size=1200,1100 "file://$work/$1.html" >/dev/null
	chrome --screenshot="$work/$1-phone.png" --window-size=390,1200 "file://$work/$1.html" >/dev/null
	chrome --dump-dom "file://$work/$1.html" >"$work/$1.dom"
	for png in "$1" "$1-phone"; do
		if [ -s "$work/$png.png" ] && [ "$(head -c 8 "$work/$png.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		   [ "$(wc -c <"$work/$png.png")" -gt 5000 ]; then
			ok "$png.png rendered ($(wc -c <"$work/$png.png") bytes)"
		else
			bad "$png.png" "no PNG, or an empty one (see $work/chromium.log)"
		fi
		[ -n "${SHOTS:-}" ] && mkdir -p "$SHOTS" && cp "$work/$png.png" "$SHOTS/"
	done
}

# count PATTERN FILE: how many times PATTERN occurs in FILE.
count() {
	grep -o "$1" "$2" | wc -l | tr -d ' '
}

cd "$work" || exit 70
export SBLEDGER_DB="$work/ledger.db" SBLEDGER_NOW=2026-12-01T09:00:00Z
"$SB" init >/dev/null
"$SB" import runs "$samples/runs.jsonl" >/dev/null
"$SB" import billing --format focus "$samples/billing-focus.csv" >/dev/null
"$SB" import billing --format record "$samples/billing-record.jsonl" >/dev/null
"$SB" prices set gpt-5.6-terra --input-per-m 2.5 --output-per-m 10 >/dev/null
"$SB" prices set claude-x-mini --input-per-m 1 --output-per-m 4 >/dev/null
# a customer whose name needs escaping everywhere
printf '%s\n' '{"run_id":"esc-1","backend":"e2b","session_id":"e2b-esc","started_at":"2026-11-20T10:00:00Z","tags":{"customer":"Quote \"Co\", <b>&'"'"'Ltd'"'"'"},"sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":0.06}}' >esc.jsonl
"$SB" import runs esc.jsonl >/dev/null

for by in backend tag:customer; do
	name=summary-$(echo "$by" | tr ':' '-')
	"$SB" report summary --period 2026-11 --by "$by" --format html >"$name.html"
	groups=$("$SB" report summary --period 2026-11 --by "$by" --format csv | tail -n +2 | wc -l | tr -d ' ')
	render "$name"
	pairs=$(count 'class="pair"' "$name.dom")
	if [ "$pairs" -eq "$groups" ] && [ "$groups" -gt 0 ]; then
		ok "$name: $pairs bar pairs for $groups groups"
	else
		bad "$name" "$pairs bar pairs for $groups groups"
	fi
	computed=$(count 'class="bar computed"' "$name.dom")
	billed=$(count 'class="bar billed"' "$name.dom")
	if [ "$computed" -eq "$groups" ] && [ "$billed" -eq "$groups" ]; then
		ok "$name: one computed and one billed bar per group"
	else
		bad "$name" "$computed computed and $billed billed bars for $groups groups"
	fi
done
if grep -q '<td class="l">Quote "Co", &lt;b&gt;&amp;'"'"'Ltd'"'"'</td>' summary-tag-customer.dom; then
	ok "summary: the tag value is text, not markup"
else
	bad "summary" "the tag value with quotes, commas and markup did not come out as text"
fi

"$SB" invoice --period 2026-11 --by tag:customer --basis billed --format html >invoice.html
invoices=$("$SB" invoice --period 2026-11 --by tag:customer --basis billed --format json 2>/dev/null | grep -c '"customer":')
render invoice
sections=$(count 'class="invoice"' invoice.dom)
if [ "$sections" -eq "$invoices" ] && [ "$invoices" -eq 6 ]; then
	ok "invoice: $sections invoices on the page"
else
	bad "invoice" "$sections invoice sections for $invoices invoices"
fi
if grep -q '<b class="customer">Quote "Co", &lt;b&gt;&amp;'"'"'Ltd'"'"'</b>' invoice.dom &&
   ! grep -q '<b>&amp;' invoice.dom; then
	ok "invoice: the customer name is text, not markup"
else
	bad "invoice" "the customer name did not come out as text"
fi
if grep -q 'Total USD</td><td class="wide"></td><td class="amount-total">1.19</td>' invoice.dom; then
	ok "invoice: acme's total is on the page"
else
	bad "invoice" "acme's total 1.19 is not on the page"
fi
for name in summary-backend summary-tag-customer; do
	if grep -Eqi 'not billed|billed none' "$name.html" "$name.dom"; then
		bad "$name" "the summary page says 'not billed' or 'billed none'"
	elif ! grep -q "runs' own billed</span>" "$name.dom"; then
		bad "$name" "the summary's billed bar is not labelled \"runs' own billed\""
	else
		ok "$name: the bar is the runs' own billed, and no backend is 'not billed'"
	fi
done

# recon_check NAME RECON_JSON DRIFT_JSON [ARGS...]: hold NAME's DOM to
# the JSON (tests/html/check_recon_page.py), counting its lines.
recon_check() {
	rc_name=$1
	shift
	python3 "$here/check_recon_page.py" "$rc_name" "$work/$rc_name.dom" "$@" >"$work/$rc_name.check" 2>&1
	rc_status=$?
	cat "$work/$rc_name.check"
	passed=$((passed + $(grep -c '^ok ' "$work/$rc_name.check")))
	failed=$((failed + $(grep -c '^FAIL ' "$work/$rc_name.check")))
	if [ "$rc_status" -ne 0 ] && ! grep -q '^FAIL ' "$work/$rc_name.check"; then
		bad "$rc_name" "the checker failed (exit $rc_status)"
	fi
}

# no_markup NAME: nothing from the ledger became markup in NAME's DOM (no
# script element), and the page refers to nothing outside itself.
no_markup() {
	if grep -qi '<script' "$work/$1.dom"; then
		bad "$1" "a <script> element is in the DOM"
	else
		ok "$1: no markup from the ledger in the DOM"
	fi
	if grep -Eq '(src|href)=|url\(|@import' "$work/$1.html"; then
		bad "$1" "the page refers to something outside it"
	else
		ok "$1: self-contained (no src, href, url() or @import)"
	fi
}

# The reconciliation page of the summary ledger, with a session and a
# command full of markup, quotes and & (its own billed figure beside no
# line makes it over_billed, flagged), judged as a dry run: the page and
# the JSON are the same reconciliation.
printf '%s\n' '{"run_id":"esc-2","backend":"cloudflare","session_id":"<script>alert(\"s\")</script> & '"'"'q'"'"'","started_at":"2026-11-21T10:00:00Z","ended_at":"2026-11-21T10:02:00Z","sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":0.05,"billed_cost_usd":0.5,"executions":[{"command":"<script>cmd()</script> \"a\" & '"'"'b'"'"'","duration_ms":60000,"cost_usd":0.05}]}}' >esc2.jsonl
"$SB" import runs esc2.jsonl >/dev/null
"$SB" reconcile --period 2026-11 --dry-run --format html >recon-escape.html
"$SB" reconcile --period 2026-11 --dry-run --format json >recon-escape.json
"$SB" report drift --period 2026-11-01..2026-12-01 --format json >recon-escape.drift.json
render recon-escape
no_markup recon-escape
if grep -q '<b>cloudflare</b></td><td class="l wrap">&lt;script&gt;alert("s")&lt;/script&gt; &amp; '"'"'q'"'"'</td>' recon-escape.dom &&
   grep -q '<code>&lt;script&gt;cmd()&lt;/script&gt; "a" &amp; '"'"'b'"'"'</code>' recon-escape.dom; then
	ok "recon-escape: the session and its command are text, not markup"
else
	bad "recon-escape" "the session or its command did not come out as text"
fi
recon_check recon-escape recon-escape.json recon-escape.drift.json --run "$SB" "$work"

# The samples arriving over three nights, as nightly sees them: each night
# the runs of one day (the last night also a file of bad lines), the
# bills on the first; a ledger in the default place, so that the page's
# commands name no --db.  Each night's page is held to its own
# reconcile.json, its trend to report drift over its 30 days, its
# imports to the batches of that night.
night=$work/night
mkdir -p "$night/inbox/runs"
for f in focus record modal daytona e2b-events deepinfra-usage; do
	mkdir -p "$night/inbox/billing/$f"
done
for f in focus record modal daytona e2b-events; do
	cp "$samples"/billing-"$f".* "$night/inbox/billing/$f/"
done
cp "$samples/deepinfra-usage.json" "$night/inbox/billing/deepinfra-usage/"
# nsb NOW ARGS...: sbledger in the night's directory, judged at NOW
nsb() {
	nsb_now=$1
	shift
	(cd "$night" && SBLEDGER_DB= SBLEDGER_NOW="$nsb_now" "$SB" "$@")
}
nsb 2026-11-03T00:00:00Z init >/dev/null
for day in 02 03 04; do
	next=$(printf '%02d' $((${day#0} + 1)))
	grep "\"started_at\":\"2026-11-$day" "$samples/runs.jsonl" >"$night/inbox/runs/runs-2026-11-$day.jsonl"
	[ "$day" = 04 ] && cp "$samples/runs-with-bad-lines.jsonl" "$night/inbox/runs/runs-2026-11-04-late.jsonl"
	nsb "2026-11-${next}T06:00:00Z" --quiet nightly --inbox inbox --period "2026-11-$day" --out reports \
		>"$work/night-$day.out" 2>&1
	cp "$night/reports/2026-11-$day/report.html" "recon-night-$day.html"
	nsb "2026-11-${next}T06:00:00Z" batches --format json >"recon-night-$day.batches.json"
	from=$(python3 -c "import datetime as d; print(d.date(2026,11,${day#0}) - d.timedelta(days=29))")
	nsb "2026-11-${next}T06:00:00Z" report drift --period "$from..2026-11-$next" --format json \
		>"recon-night-$day.drift.json"
	nsb "2026-11-${next}T06:00:00Z" flags --period "2026-11-$day" --format json >"recon-night-$day.flags.json"
	render "recon-night-$day"
	no_markup "recon-night-$day"
	# the commands run as the night was: in its directory, no $SBLEDGER_DB
	SBLEDGER_DB= recon_check "recon-night-$day" "$night/reports/2026-11-$day/reconcile.json" "recon-night-$day.drift.json" \
		--batches "recon-night-$day.batches.json" --night "2026-11-${next}T06:00:00Z" --mail "$work/night-$day.out" \
		--flags "recon-night-$day.flags.json" --run "$SB" "$night"
done
if [ "$(count 'class="pt' recon-night-04.dom)" -gt "$(count 'class="pt' recon-night-03.dom)" ]; then
	ok "recon-night: each night's trend holds the nights before it"
else
	bad "recon-night" "the third night's trend has no more points than the second's"
fi
# the page finance opens: the last night's, for docs/reports.md
if [ -n "${SHOTS:-}" ]; then
	chrome --screenshot="$SHOTS/reconcile-page.png" --window-size=1000,1900 "file://$work/recon-night-04.html" >/dev/null
fi

# The flags of the three nights, one acked and one disputed (reasons full
# of markup and quotes), on the page of the three days by hand: each is
# listed with its state, who, reason and money at stake, the open ones
# first, the money in dispute summed.
nsb 2026-11-05T07:00:00Z flags --period 2026-11-02..2026-11-05 --format json >recon-flags.before.json
set -- $(python3 -c 'import json,sys; print(*[f["id"] for f in json.load(open(sys.argv[1]))][:2])' recon-flags.before.json)
if [ $# -eq 2 ]; then
	nsb 2026-11-05T07:00:00Z flags ack "$1" --reason 'boot time, <b>expected</b> & "fine"' --who ana >/dev/null
	nsb 2026-11-05T07:00:00Z flags dispute "$2" --reason "ticket 4411: idle billed after 'kill'" --who bo >/dev/null
	ok "recon-flags: flags $1 acked and $2 disputed"
else
	bad "recon-flags" "the three nights raised fewer than two flags to handle"
fi
nsb 2026-11-05T07:00:00Z reconcile --period 2026-11-02..2026-11-05 --dry-run --format html >recon-flags.html
nsb 2026-11-05T07:00:00Z reconcile --period 2026-11-02..2026-11-05 --dry-run --format json >recon-flags.json
nsb 2026-11-05T07:00:00Z flags --period 2026-11-02..2026-11-05 --format json >recon-flags.flags.json
nsb 2026-11-05T07:00:00Z report drift --period 2026-10-07..2026-11-06 --format json >recon-flags.drift.json
render recon-flags
no_markup recon-flags
SBLEDGER_DB= recon_check recon-flags recon-flags.json recon-flags.drift.json --flags recon-flags.flags.json \
	--run "$SB" "$night"
if grep -q '<td class="l wrap">boot time, &lt;b&gt;expected&lt;/b&gt; &amp; "fine"</td>' recon-flags.dom &&
   [ "$(count 'class="badge wait">acked<' recon-flags.dom)" -eq 1 ] &&
   [ "$(count 'class="badge watch">disputed<' recon-flags.dom)" -eq 1 ]; then
	ok "recon-flags: one acked and one disputed flag shown, the reason as text"
else
	bad "recon-flags" "the acked or the disputed flag is not shown as such, or its reason became markup"
fi

# A night of faults and nothing else (issue 25): two provider files of
# rejected lines only, a fetch whose key is not set, days older than
# --catch-up; its period holds nothing, so the page has nothing to
# reconcile, yet its verdict leads with the faults and is not green.
faults=$work/faults
mkdir -p "$faults/inbox/runs" "$faults/inbox/billing/record"
printf '%s\n' '{"backend": "cloudflare", "cost_usd": "x"}' 'not json' >"$faults/inbox/billing/record/bad-a.jsonl"
printf '%s\n' '{"backend": 5}' >"$faults/inbox/billing/record/bad-b.jsonl"
grep '"started_at":"2026-11-0[23]' "$samples/runs.jsonl" | head -3 >"$faults/inbox/runs/old.jsonl"
# fsb ARGS...: sbledger in the faults' directory, on 2026-11-06
fsb() {
	(cd "$faults" && SBLEDGER_DB= SBLEDGER_NOW=2026-11-06T06:00:00Z "$SB" "$@")
}
fsb init >/dev/null
(unset DEEPINFRA_API_KEY; fsb --quiet nightly --inbox inbox --period 2026-11-05 --out reports --fetch deepinfra \
	--catch-up 2 >"$work/faults.out" 2>&1)
cp "$faults/reports/2026-11-05/report.html" recon-faults.html
fsb batches --format json >recon-faults.batches.json
fsb report drift --period 2026-10-07..2026-11-06 --format json >recon-faults.drift.json
fsb flags --period 2026-11-05 --format json >recon-faults.flags.json
render recon-faults
no_markup recon-faults
SBLEDGER_DB= recon_check recon-faults "$faults/reports/2026-11-05/reconcile.json" recon-faults.drift.json \
	--batches recon-faults.batches.json --night 2026-11-06T06:00:00Z --mail "$work/faults.out" \
	--flags recon-faults.flags.json --run "$SB" "$faults"
if [ "$(count 'data-fault="rejected"' recon-faults.dom)" -eq 2 ] && [ "$(count 'data-fault="fetch"' recon-faults.dom)" -eq 1 ] &&
   [ "$(count 'data-fault="unjudged"' recon-faults.dom)" -eq 1 ] && grep -q 'Nothing to reconcile' recon-faults.dom &&
   ! grep -q 'class="verdict good"' recon-faults.dom; then
	ok "recon-faults: nothing to reconcile, yet the verdict names 2 rejected files, 1 fetch skipped, 1 range of days, and is not green"
else
	bad "recon-faults" "the verdict of a night of faults does not name them all, or is green"
fi

# Every backend pending: the last day judged before its end.
nsb 2026-11-04T12:00:00Z reconcile --period 2026-11-04 --dry-run --format html >recon-pending.html
nsb 2026-11-04T12:00:00Z reconcile --period 2026-11-04 --dry-run --format json >recon-pending.json
nsb 2026-11-04T12:00:00Z report drift --period 2026-10-06..2026-11-05 --format json >recon-pending.drift.json
render recon-pending
recon_check recon-pending recon-pending.json recon-pending.drift.json
pending=$(sed -n 's/^ "pending": \([0-9]*\)$/\1/p' recon-pending.json)
if [ "${pending:-0}" -gt 0 ] && [ "$(count 'data-status="pending">pending</span>' recon-pending.dom)" -eq "$pending" ]; then
	ok "recon-pending: every pending backend is shown as such"
else
	bad "recon-pending" "the pending backends are not all shown as pending"
fi

# report drift --format html: the trend alone, for any period.
nsb 2026-11-05T06:00:00Z report drift --period 2026-11 --format html >drift.html
nsb 2026-11-05T06:00:00Z report drift --period 2026-11 --format json >drift.json
render drift
no_markup drift
recon_check drift - drift.json

if grep -Eq '(src|href)=|url\(|@import' invoice.html summary-backend.html; then
	bad "self-contained" "a page refers to something outside it"
else
	ok "self-contained: no src, href, url() or @import"
fi

echo "html: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
