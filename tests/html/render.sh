#!/bin/sh
# render.sh: the HTML pages in a real browser.  Builds a ledger from the
# sample runs and bills, writes the summary page (by backend and by
# customer) and the invoice page, and has headless Chromium render each:
# the screenshot must be a non-empty PNG, and the DOM Chromium built must
# hold one bar pair per summary group, one section per invoice, and a tag
# value full of quotes, commas and markup as plain text.
#
#   sh tests/html/render.sh            (SBLEDGER: the binary, else ./sbledger)
#   SHOTS=DIR sh tests/html/render.sh  also keeps the screenshots in DIR
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
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
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
if grep -Eq '(src|href)=|url\(|@import' invoice.html summary-backend.html; then
	bad "self-contained" "a page refers to something outside it"
else
	ok "self-contained: no src, href, url() or @import"
fi

echo "html: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
