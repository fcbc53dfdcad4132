#!/bin/sh
# run.sh: the provider API tests, against a fake provider on 127.0.0.1.
#
#   sh tests/http/run.sh            (SBLEDGER: the sbledger under test)
#
# Starts tests/http/provider_server.py on a free port (and a second one
# over HTTPS with a self-signed certificate made here by openssl), runs
# 'fetch' and 'nightly' against every scenario of the server, and checks
# exit statuses, messages and what the ledger holds (with sqlite3): a
# failed fetch commits nothing.  Bodies cut off in every way (gzip without
# its trailer, short of Content-Length, chunks without the last one, no
# framing at all), the rules of plain http (a loopback IP only, never
# through a proxy: tests/http/proxy_server.py listens as one), redirects,
# and a server that echoes the key in every form it can.  Last, grep finds
# the test key (raw or URL-encoded) in no output and no file the program
# wrote, the ledger's -wal included.  Prints "FAIL NAME: why" for each
# failed check, then "http: N passed, M failed"; exits 1 when a check
# failed.  No check depends on timing: waits are only for the servers to
# be ready (and the pause inside a response that cuts the key in two).

set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
SB=${SBLEDGER:-$repo/sbledger}
case $SB in
/*) ;;
*) SB=$(pwd)/$SB ;;
esac
if [ ! -x "$SB" ]; then
	echo "run.sh: no sbledger at $SB (build it, or set SBLEDGER)" >&2
	exit 70
fi
SAMPLES=$repo/examples/samples

# The key has characters that URL-encoding changes, so that its encoded
# forms differ from it (upper and lower case hex).
KEY='sbl-test+key/4f1c=9a7e2b'
KEY_UP='sbl-test%2Bkey%2F4f1c%3D9a7e2b'
KEY_LOW='sbl-test%2bkey%2f4f1c%3d9a7e2b'
work=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-http.XXXXXX") || exit 70
mkdir -p "$work/out" "$work/tmp"
server=
tls_server=
v6_server=
proxy=
holder=
reader=
cleanup() {
	for pid in $server $tls_server $v6_server $proxy $holder $reader; do
		kill "$pid" 2>/dev/null
	done
	[ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The program sees the key, a fast backoff, and a temporary directory of
# the test's own (grepped at the end with everything else).
DEEPINFRA_API_KEY=$KEY
VERCEL_TOKEN=$KEY
SBLEDGER_HTTP_BACKOFF_MS=10
SBLEDGER_NOW=2026-11-30T12:00:00Z
TMPDIR=$work/tmp
export DEEPINFRA_API_KEY VERCEL_TOKEN SBLEDGER_HTTP_BACKOFF_MS SBLEDGER_NOW TMPDIR
unset SBLEDGER_DB SBLEDGER_HTTP_RETRIES SBLEDGER_HTTP_TIMEOUT_MS SBLEDGER_CA_BUNDLE \
	SBLEDGER_DEEPINFRA_URL SBLEDGER_VERCEL_URL VERCEL_TEAM_ID VERCEL_TEAM_SLUG \
	http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() {
	failed=$((failed + 1))
	echo "FAIL $1"
	if [ -f "$work/out/$2.err" ]; then
		sed 's/^/    stderr: /' "$work/out/$2.err" | head -20
	fi
}

# start_server NAME [--tls CERT KEY]: a fake provider; sets $port.
start_server() {
	name=$1
	shift
	rm -f "$work/$name.port"
	python3 "$here/provider_server.py" --port-file "$work/$name.port" --key "$KEY" \
		--log "$work/$name.log" --fixtures "$here/fixtures" "$@" \
		>"$work/$name.stdout" 2>&1 &
	last_pid=$!
	i=0
	while [ ! -s "$work/$name.port" ] && [ $i -lt 300 ]; do
		if ! kill -0 "$last_pid" 2>/dev/null; then
			cat "$work/$name.stdout" >&2
			echo "run.sh: the $name server did not start" >&2
			exit 70
		fi
		sleep 0.1
		i=$((i + 1))
	done
	port=$(cat "$work/$name.port")
}

# start_proxy: the proxy listener (tests/http/proxy_server.py); sets
# $proxy and $proxy_port.
start_proxy() {
	python3 "$here/proxy_server.py" --port-file "$work/proxy.port" --log "$work/proxy.log" \
		>"$work/proxy.stdout" 2>&1 &
	proxy=$!
	i=0
	while [ ! -s "$work/proxy.port" ] && [ $i -lt 300 ]; do
		if ! kill -0 "$proxy" 2>/dev/null; then
			cat "$work/proxy.stdout" >&2
			echo "run.sh: the proxy did not start" >&2
			exit 70
		fi
		sleep 0.1
		i=$((i + 1))
	done
	proxy_port=$(cat "$work/proxy.port")
}

# t NAME WANT ARGS...: run sbledger ARGS (stdout and stderr to
# out/NAME.out and .err); the check passes when it exits WANT.
t() {
	name=$1
	want=$2
	shift 2
	"$SB" "$@" >"$work/out/$name.out" 2>"$work/out/$name.err" </dev/null
	got=$?
	if [ "$got" = "$want" ]; then
		pass
	else
		fail "$name: exit $got, want $want" "$name"
	fi
}

# te NAME WANT 'VAR=VALUE ...' ARGS...: t with those variables set.
te() {
	name=$1
	want=$2
	vars=$3
	shift 3
	# shellcheck disable=SC2086
	env $vars "$SB" "$@" >"$work/out/$name.out" 2>"$work/out/$name.err" </dev/null
	got=$?
	if [ "$got" = "$want" ]; then
		pass
	else
		fail "$name: exit $got, want $want" "$name"
	fi
}

# has NAME out|err TEXT: the output of case NAME holds TEXT.
has() {
	if grep -qF -- "$3" "$work/out/$1.$2"; then
		pass
	else
		fail "$1: std$2 lacks '$3'" "$1"
		sed 's/^/    std'"$2"': /' "$work/out/$1.$2" | head -10
	fi
}

# eq NAME GOT WANT: a value read from the ledger or a file.
eq() {
	if [ "$2" = "$3" ]; then
		pass
	else
		fail "$1: got '$2', want '$3'" "$1"
	fi
}

q() { sqlite3 "$1" "$2"; }

# lacks NAME FILE...: none of the files holds the key, raw or URL-encoded.
lacks() {
	name=$1
	shift
	if grep -lF -e "$KEY" -e "$KEY_UP" -e "$KEY_LOW" -- "$@" >/dev/null 2>&1; then
		fail "$name: the key is in $(grep -lF -e "$KEY" -e "$KEY_UP" -e "$KEY_LOW" -- "$@" | tr '\n' ' ')" none
	else
		pass
	fi
}

start_server http
server=$last_pid
P=$port
U=http://127.0.0.1:$P
L=$work/fetch.db
"$SB" --db "$L" init >/dev/null || exit 70

# ---- fetch catalog ------------------------------------------------------
env -u DEEPINFRA_API_KEY "$SB" --db "$L" fetch catalog --provider deepinfra --base-url "$U/ok" \
	>"$work/out/nokey.out" 2>"$work/out/nokey.err"
eq nokey-status "$?" 64
has nokey err "DEEPINFRA_API_KEY is not set"

t catalog 0 --db "$L" fetch catalog --provider deepinfra --base-url "$U/ok"
has catalog out "3 plans stored, 0 unchanged"
eq catalog-cards "$(q "$L" "SELECT plan || '=' || usd_per_minute_nanos FROM rate_card WHERE backend = 'deepinfra' ORDER BY plan")" \
	"$(printf 'large=2666667\nmedium=1333333\nsmall=666667')"
eq catalog-effective "$(q "$L" "SELECT DISTINCT effective_ms FROM rate_card WHERE backend = 'deepinfra'")" 1796040000000
eq catalog-caps "$(q "$L" "SELECT max_cpu || ' ' || max_memory_mb FROM backend WHERE backend = 'deepinfra'")" "8 16384"
eq catalog-source "$(q "$L" "SELECT kind || ' ' || format || ' ' || status || ' ' || source FROM batch ORDER BY batch_id DESC LIMIT 1")" \
	"rates deepinfra-catalog complete $U/ok/v1/sandboxes/catalog"

t catalog-again 0 --db "$L" fetch catalog --provider deepinfra --base-url "$U/ok"
has catalog-again out "0 plans stored, 3 unchanged"
eq catalog-again-cards "$(q "$L" "SELECT COUNT(*) FROM rate_card WHERE backend = 'deepinfra'")" 3

t catalog-from 0 --db "$L" fetch catalog --provider deepinfra --from 2026-01-01 --base-url "$U/ok"
eq catalog-from-cards "$(q "$L" "SELECT COUNT(*) FROM rate_card WHERE backend = 'deepinfra' AND effective_ms = 1767225600000")" 3

te catalog-env-url 0 "SBLEDGER_DEEPINFRA_URL=$U/ok" --db "$L" fetch catalog --provider deepinfra
has catalog-env-url out "$U/ok/v1/sandboxes/catalog"

P2=$work/prices.db
"$SB" --db "$P2" init >/dev/null
t catalog-prices 0 --db "$P2" fetch catalog --provider deepinfra --base-url "$U/prices"
eq catalog-prices-cards "$(q "$P2" "SELECT plan || '=' || usd_per_minute_nanos FROM rate_card WHERE backend = 'deepinfra' ORDER BY plan")" \
	"$(printf 'big=205761300000\nexp=2\nhalf-down=0\nhalf-up=2\ntenth=1666667\ntext-half=2\nwhole=50000000')"

cards=$(q "$L" "SELECT COUNT(*) FROM rate_card")
t catalog-shape 65 --db "$L" fetch catalog --provider deepinfra --base-url "$U/shape"
has catalog-shape err "not a JSON array of plans"
eq catalog-shape-cards "$(q "$L" "SELECT COUNT(*) FROM rate_card")" "$cards"
eq catalog-shape-batch "$(q "$L" "SELECT status || ' ' || rejected FROM batch ORDER BY batch_id DESC LIMIT 1")" "failed 1"

batches=$(q "$L" "SELECT COUNT(*) FROM batch")
t catalog-cutclose 65 --db "$L" fetch catalog --provider deepinfra --base-url "$U/cutclose"
has catalog-cutclose err "neither a Content-Length nor chunks"
eq catalog-cutclose-cards "$(q "$L" "SELECT COUNT(*) FROM rate_card")" "$cards"
eq catalog-cutclose-batches "$(q "$L" "SELECT COUNT(*) FROM batch")" "$batches"

# ---- fetch usage ---------------------------------------------------------
t usage 0 --db "$L" fetch usage --provider deepinfra --period 2026-11 --base-url "$U/ok"
has usage out "2 lines stored"
eq usage-query "$(grep -c '^ok /payment/usage from=1793491200&to=1796083200 auth=ok$' "$work/http.log")" 1
eq usage-sum "$(q "$L" "SELECT SUM(amount_nanos) FROM billing_line WHERE format = 'deepinfra-usage' AND superseded_by IS NULL")" 1320870000000

t usage-again 0 --db "$L" fetch usage --provider deepinfra --period 2026-11 --base-url "$U/ok"
has usage-again out "the same response was imported as batch"

t usage-no-period 64 --db "$L" fetch usage --provider deepinfra --base-url "$U/ok"
t usage-vercel 64 --db "$L" fetch usage --provider vercel --period 2026-11 --base-url "$U/ok"
has usage-vercel err "no provider 'vercel' offers usage"

lines=$(q "$L" "SELECT COUNT(*) FROM billing_line")
t usage-shape 65 --db "$L" fetch usage --provider deepinfra --period 2026-10 --base-url "$U/shape"
eq usage-shape-lines "$(q "$L" "SELECT COUNT(*) FROM billing_line")" "$lines"

# ---- fetch billing (vercel) -----------------------------------------------
t billing-paged 0 --db "$L" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/paged" --verbose
has billing-paged out "5 lines stored"
has billing-paged out "3 pages"
has billing-paged err "HTTP 200"
eq billing-paged-pages "$(grep -c '^paged /v1/billing/charges .*page=[23] auth=ok$' "$work/http.log")" 2
eq billing-paged-sum "$(q "$L" "SELECT SUM(amount_nanos) FROM billing_line WHERE format = 'focus' AND superseded_by IS NULL")" 1296000000
eq billing-paged-source "$(q "$L" "SELECT source FROM batch ORDER BY batch_id DESC LIMIT 1")" \
	"$U/paged/v1/billing/charges?from=2026-11-03T00%3a00%3a00Z&to=2026-11-04T00%3a00%3a00Z"

G=$work/gzip.db
"$SB" --db "$G" init >/dev/null
# the server compresses although sbledger asked for identity: decoded here
te billing-gzip 0 "VERCEL_TEAM_ID=team_42" --db "$G" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/gzip"
has billing-gzip out "5 lines stored"
eq billing-gzip-team "$(grep -c '^gzip /v1/billing/charges .*teamId=team_42 auth=ok$' "$work/http.log")" 1
eq billing-gzip-asked "$(grep -c '^gzip accept-encoding=identity$' "$work/http.log.hdr")" 1

t billing-reissue 0 --db "$G" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/paged"
has billing-reissue out "5 superseded"
eq billing-reissue-live "$(q "$G" "SELECT COUNT(*) FROM billing_line WHERE superseded_by IS NULL")" 5

# Daily statements that carry the month's fee: each fetch replaces its
# requested day and the fee (the same charge), never the days before it
# (the fee's month is not the span the fetch covers).
D=$work/daily.db
"$SB" --db "$D" init >/dev/null
for day in 01 02 03; do
	t "billing-daily-$day" 0 --db "$D" fetch billing --provider vercel --period 2026-11-$day --base-url "$U/daily"
done
has billing-daily-03 out "1 superseded"
# 10.00 + 11.00 + 12.00 of usage, and the fee once, as of Nov 3: 25.00
eq billing-daily-sum "$(q "$D" "SELECT SUM(amount_nanos) FROM billing_line WHERE superseded_by IS NULL")" 58000000000
eq billing-daily-days "$(q "$D" "SELECT COUNT(*) FROM billing_line WHERE superseded_by IS NULL AND end_ms - start_ms = 86400000")" 3
eq billing-daily-fee "$(q "$D" "SELECT COUNT(*) FROM billing_line WHERE superseded_by IS NULL AND instr(extra, 'Pro plan') > 0")" 1

t billing-empty 0 --db "$G" fetch billing --provider vercel --period 2026-11-04 --base-url "$U/empty"
has billing-empty out "0 lines stored"

lines=$(q "$L" "SELECT COUNT(*) FROM billing_line")
batches=$(q "$L" "SELECT COUNT(*) FROM batch")
t billing-cut 75 --db "$L" fetch billing --provider vercel --period 2026-11-05 --base-url "$U/cut"
has billing-cut err "cut off"
eq billing-cut-lines "$(q "$L" "SELECT COUNT(*) FROM billing_line")" "$lines"
eq billing-cut-batches "$(q "$L" "SELECT COUNT(*) FROM batch")" "$batches"

t billing-cutclose 65 --db "$L" fetch billing --provider vercel --period 2026-11-05 --base-url "$U/cutclose"
has billing-cutclose err "neither a Content-Length nor chunks, so its end could not be told from a connection cut short"
eq billing-cutclose-lines "$(q "$L" "SELECT COUNT(*) FROM billing_line")" "$lines"
eq billing-cutclose-batches "$(q "$L" "SELECT COUNT(*) FROM batch")" "$batches"

t billing-shape 65 --db "$L" fetch billing --provider vercel --period 2026-11-05 --base-url "$U/shape"
eq billing-shape-lines "$(q "$L" "SELECT COUNT(*) FROM billing_line")" "$lines"

t billing-big 65 --db "$L" fetch billing --provider vercel --period 2026-11-05 --base-url "$U/big" --max-bytes 100000
has billing-big err "larger than the limit of 100000 bytes"
eq billing-big-lines "$(q "$L" "SELECT COUNT(*) FROM billing_line")" "$lines"

t billing-offsite 65 --db "$L" fetch billing --provider vercel --period 2026-11-05 --base-url "$U/offsite"
has billing-offsite err "the next page is on another host"
eq billing-offsite-lines "$(q "$L" "SELECT COUNT(*) FROM billing_line")" "$lines"

# ---- a body is whole, or nothing of it is stored ---------------------------
# A day of 5 lines (1.296 USD) is in W; each cut response below would, if
# taken whole, supersede them with its first lines.
W=$work/whole.db
"$SB" --db "$W" init >/dev/null
live() { q "$W" "SELECT COUNT(*) || ' ' || SUM(amount_nanos) FROM billing_line WHERE superseded_by IS NULL"; }
t whole-ok 0 --db "$W" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/ok.whole"
eq whole-ok-live "$(live)" "5 1296000000"
batches=$(q "$W" "SELECT COUNT(*) FROM batch")
# gzip cut at a flush point: every byte the server promised came, and the
# two lines inflate cleanly, but the stream has no end (no gzip trailer)
t gzipcut 75 --db "$W" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/gzipcut"
has gzipcut err "$U/gzipcut/v1/billing/charges?from=2026-11-03T00%3a00%3a00Z&to=2026-11-04T00%3a00%3a00Z: the response was cut off after 616 bytes: its gzip stream stops before its end (no trailer)"
has gzipcut err "try again later"
eq gzipcut-live "$(live)" "5 1296000000"
eq gzipcut-batches "$(q "$W" "SELECT COUNT(*) FROM batch")" "$batches"
# a plain body that ends at a line end, short of its Content-Length
t short 75 --db "$W" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/short"
has short err "the response was cut off after 308 bytes"
eq short-live "$(live)" "5 1296000000"
eq short-batches "$(q "$W" "SELECT COUNT(*) FROM batch")" "$batches"
# chunks that stop at a line end, without the last (zero-length) chunk
t chunkcut 75 --db "$W" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/chunkcut"
has chunkcut err "the response was cut off after 616 bytes"
eq chunkcut-live "$(live)" "5 1296000000"
eq chunkcut-batches "$(q "$W" "SELECT COUNT(*) FROM batch")" "$batches"
# no length, no chunks, closed at a line end: cannot be told from a cut
t closecut 65 --db "$W" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/closecut"
has closecut err "neither a Content-Length nor chunks"
has closecut err "nothing of it was stored"
eq closecut-live "$(live)" "5 1296000000"
eq closecut-batches "$(q "$W" "SELECT COUNT(*) FROM batch")" "$batches"
# whole bodies in every framing and encoding are the same statement, byte
# for byte once decoded: imported once
for s in chunked gzip gzip2; do
	t "whole-$s" 0 --db "$W" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/$s"
	has "whole-$s" out "the same response was imported as batch 1"
done
eq whole-live "$(live)" "5 1296000000"
t gzipjunk 65 --db "$W" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/gzipjunk"
has gzipjunk err "the response does not decode as gzip"
t br 65 --db "$W" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/br"
has br err "the response is encoded as 'br' (Content-Encoding), which sbledger does not decode"
eq bad-encoding-live "$(live)" "5 1296000000"
eq bad-encoding-batches "$(q "$W" "SELECT COUNT(*) FROM batch")" "$batches"
# the catalog (read whole before it is checked) the same way
cards=$(q "$L" "SELECT COUNT(*) FROM rate_card")
t catalog-short 75 --db "$L" fetch catalog --provider deepinfra --base-url "$U/short"
has catalog-short err "cut off"
t catalog-closecut 65 --db "$L" fetch catalog --provider deepinfra --base-url "$U/closecut"
eq catalog-cut-cards "$(q "$L" "SELECT COUNT(*) FROM rate_card")" "$cards"

# ---- plain http: a loopback IP only, never a name --------------------------
# each refused before anything is sent (64), whatever the name resolves to
for base in "http://localhost:$P/ok" "http://127.attacker.example/ok" \
	"http://127.0.0.1.nip.io:$P/ok" "http://127.0.0.1.:$P/ok" "http://[::ffff:127.0.0.1]:$P/ok" \
	"http://126.255.255.255:$P/ok" "http://128.0.0.1:$P/ok" "http://10.0.0.1:$P/ok"; do
	requests=$(wc -l <"$work/http.log")
	t plain-name 64 --db "$L" fetch catalog --provider deepinfra --base-url "$base" --retries 0
	has plain-name err "refusing to send DEEPINFRA_API_KEY over plain http to"
	has plain-name err "never to a host name"
	eq "plain-name-sent $base" "$(wc -l <"$work/http.log")" "$requests"
done
te plain-env 64 "SBLEDGER_DEEPINFRA_URL=http://localhost:$P/ok" --db "$L" fetch catalog --provider deepinfra
has plain-env err "over plain http to 'localhost'"
# the edges of 127.0.0.0/8 are loopback: tried (nothing listens: 75), not refused
t plain-edge-high 75 --db "$L" fetch catalog --provider deepinfra --base-url "http://127.255.255.254:1/ok" --retries 0
t plain-edge-low 75 --db "$L" fetch catalog --provider deepinfra --base-url "http://127.0.0.0:1/ok" --retries 0
# 127.1 is how libcurl reads 127.0.0.1; what is checked is what is fetched
t plain-short-form 0 --db "$L" fetch catalog --provider deepinfra --base-url "http://127.1:$P/ok"
has plain-short-form out "http://127.0.0.1:$P/ok/v1/sandboxes/catalog"
# [::1] over plain http, to a server on the IPv6 loopback
if python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null; then
	start_server v6 --host ::1
	v6_server=$last_pid
	t plain-v6 0 --db "$L" fetch catalog --provider deepinfra --base-url "http://[::1]:$port/ok"
	eq plain-v6-key "$(grep -c '^ok /v1/sandboxes/catalog - auth=ok$' "$work/v6.log")" 1
else
	echo "http: no IPv6 loopback here: [::1] not tried"
fi

# ---- plain http never goes through a proxy ---------------------------------
start_proxy
PX=http://127.0.0.1:$proxy_port
for var in http_proxy HTTP_PROXY ALL_PROXY all_proxy; do
	te "noproxy-$var" 0 "$var=$PX" --db "$L" fetch catalog --provider deepinfra --base-url "$U/ok"
done
te noproxy-all 0 "http_proxy=$PX HTTP_PROXY=$PX ALL_PROXY=$PX all_proxy=$PX" --db "$L" fetch catalog --provider deepinfra --base-url "$U/ok"
te noproxy-billing 0 "http_proxy=$PX ALL_PROXY=$PX" --db "$L" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/paged"
eq noproxy-reached "$(wc -l <"$work/proxy.log" | tr -d ' ')" 0

# ---- the key is taken out of everything a response leaves -----------------
# K collects what echoing servers send; a reader holds a snapshot open all
# along, so that SQLite keeps every page these fetches write in K-wal (it is
# checkpointed into K and deleted when the last connection closes).
K=$work/keys.db
"$SB" --db "$K" init >/dev/null
mkfifo "$work/reader.fifo"
sqlite3 "$K" <"$work/reader.fifo" >"$work/reader.out" 2>&1 &
reader=$!
exec 8>"$work/reader.fifo"
echo "BEGIN; SELECT COUNT(*) FROM batch;" >&8
t echo-catalog 0 --db "$K" fetch catalog --provider deepinfra --base-url "$U/echo" --verbose
eq echo-catalog-plans "$(q "$K" "SELECT group_concat(plan, ' ') FROM (SELECT plan FROM rate_card WHERE plan LIKE '%[key]%' ORDER BY plan)")" \
	"esc-[key] low-[key] raw-[key] up-[key]"
t echo-usage 0 --db "$K" fetch usage --provider deepinfra --period 2026-11 --base-url "$U/echo"
eq echo-usage-extra "$(q "$K" "SELECT extra FROM billing_line WHERE format = 'deepinfra-usage'")" \
	'{"note":"[key] [key] [key] [key]"}'
t echo-billing 0 --db "$K" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/echo"
eq echo-billing-extra "$(q "$K" "SELECT COUNT(*) FROM billing_line WHERE format = 'focus' AND extra LIKE '%\"ChargeDescription\":\"key [key]\"%'")" 5
# the same charges with the key cut in two by the chunks (and a pause), in a
# ledger of their own so that they are not "the same response" as above
S=$work/split.db
"$SB" --db "$S" init >/dev/null
t echo-split 0 --db "$S" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/split"
eq echo-split-extra "$(q "$S" "SELECT COUNT(*) FROM billing_line WHERE extra LIKE '%\"ChargeDescription\":\"key [key]\"%'")" 5
eq echo-split-same "$(q "$S" "SELECT sha256 FROM batch")" "$(q "$K" "SELECT sha256 FROM batch WHERE format = 'focus'")"
# a body that is the request's own headers: rejected, kept, key out
t echo-headers 65 --db "$K" fetch catalog --provider deepinfra --base-url "$U/echohdr"
t echo-headers-billing 65 --db "$K" fetch billing --provider vercel --period 2026-11-04 --base-url "$U/echohdr"
t echo-rejects 0 --db "$K" rejects --format json
has echo-rejects out 'Authorization: Bearer [key]'
eq echo-rejects-both "$(grep -c 'Bearer \[key\]' "$work/out/echo-rejects.out")" 2
# URLs that carry the key: a next-page link, a redirect's Location, and a
# base URL a user wrote with the key in it (the batch's source is scrubbed)
t echo-link 0 --db "$K" fetch billing --provider vercel --period 2026-11-05 --base-url "$U/echolink" --verbose
has echo-link err "&sig=[key]"
t echo-redirect 0 --db "$K" fetch catalog --provider deepinfra --base-url "$U/redirok" --verbose
has echo-redirect err "redirected to $U/ok/v1/sandboxes/catalog?sig=[key]"
eq echo-redirect-key "$(grep -c '^ok /v1/sandboxes/catalog sig=\[key\] auth=ok$' "$work/http.log")" 1
t echo-base 0 --db "$K" fetch catalog --provider deepinfra --base-url "$U/ok.$KEY_UP"
has echo-base out "$U/ok.[key]/v1/sandboxes/catalog"
eq echo-base-source "$(q "$K" "SELECT source FROM batch ORDER BY batch_id DESC LIMIT 1")" "$U/ok.[key]/v1/sandboxes/catalog"
t echo-batches 0 --db "$K" batches --format json
has echo-batches out "$U/ok.[key]/v1/sandboxes/catalog"
# the WAL holds what was written, scrubbed
cp "$K-wal" "$work/keys.db-wal.copy" 2>/dev/null
if [ -s "$work/keys.db-wal.copy" ] && grep -qaF '[key]' "$work/keys.db-wal.copy"; then pass; else fail "echo: $K-wal is missing or holds no [key]" none; fi
lacks echo-ledger "$K" "$work/keys.db-wal.copy" "$S"
exec 8>&-
wait "$reader" 2>/dev/null
reader=
rm -f "$work/reader.fifo"
# keys too short to scrub are refused before anything is sent
te key-short 64 "DEEPINFRA_API_KEY=abcdefg" --db "$L" fetch catalog --provider deepinfra --base-url "$U/ok"
has key-short err "DEEPINFRA_API_KEY is 7 characters long: a key has at least 8"
te key-min 69 "DEEPINFRA_API_KEY=abcdefgh" --db "$L" fetch catalog --provider deepinfra --base-url "$U/ok"
has key-min err "refused the key in DEEPINFRA_API_KEY: 401"

# ---- redirects -----------------------------------------------------------------
t redirect-same 0 --db "$L" fetch catalog --provider deepinfra --base-url "$U/redirmany.5"
t redirect-many 69 --db "$L" fetch catalog --provider deepinfra --base-url "$U/redirmany.6"
has redirect-many err "$U/redirmany.1/v1/sandboxes/catalog redirects (302 Found) to $U/ok/v1/sandboxes/catalog: more than 5 redirects in a row"
t redirect-loop 69 --db "$L" fetch catalog --provider deepinfra --base-url "$U/redirloop"
has redirect-loop err "$U/redirloop2/v1/sandboxes/catalog redirects (302 Found) back to $U/redirloop/v1/sandboxes/catalog: a redirect loop"

# ---- retries, refusals, timeouts -----------------------------------------
t retry429 0 --db "$L" fetch catalog --provider deepinfra --base-url "$U/retry429.a"
has retry429 err "429 Too Many Requests; retry 1 of 4 in 1.000 s"
eq retry429-requests "$(grep -c '^retry429.a ' "$work/http.log")" 2

t retry503 0 --db "$L" fetch usage --provider deepinfra --period 2026-09 --base-url "$U/retry503.a"
has retry503 err "503 Service Unavailable; retry 1 of 4 in"

batches=$(q "$L" "SELECT COUNT(*) FROM batch")
te s503 75 "SBLEDGER_HTTP_RETRIES=2" --db "$L" fetch billing --provider vercel --period 2026-11-05 --base-url "$U/s503.a"
has s503 err "503 Service Unavailable (3 attempts); try again later"
eq s503-requests "$(grep -c '^s503.a ' "$work/http.log")" 3
eq s503-batches "$(q "$L" "SELECT COUNT(*) FROM batch")" "$batches"

t s401 69 --db "$L" fetch catalog --provider deepinfra --base-url "$U/s401"
has s401 err "deepinfra refused the key in DEEPINFRA_API_KEY: 401 Unauthorized (it said: invalid token)"
eq s401-requests "$(grep -c '^s401 ' "$work/http.log")" 1

t s402 69 --db "$L" fetch billing --provider vercel --period 2026-11-05 --base-url "$U/s402"
has s402 err "vercel says the account is suspended: 402 Payment Required"

t s403 69 --db "$L" fetch usage --provider deepinfra --period 2026-11 --base-url "$U/s403"
has s403 err "403 Forbidden"

t echo401 69 --db "$L" fetch catalog --provider deepinfra --base-url "$U/echo401" --verbose
has echo401 err "token Bearer [key] is not valid"

# a redirect from 127.0.0.1 to a name over plain http: not followed at all
t redirect 69 --db "$L" fetch catalog --provider deepinfra --base-url "$U/redirect"
has redirect err "$U/redirect/v1/sandboxes/catalog redirects (302 Found) to http://localhost:$P/ok/v1/sandboxes/catalog"
has redirect err "never to a host name such as 'localhost'"
eq redirect-not-followed "$(grep -c '^ok /v1/sandboxes/catalog - auth=missing$' "$work/http.log")" 0

t notfound 69 --db "$L" fetch catalog --provider deepinfra --base-url "$U/ok/nowhere"
has notfound err "404 Not Found"

t slow 75 --db "$L" fetch catalog --provider deepinfra --base-url "$U/slow" --timeout 1 --retries 0
has slow err "try again later"

t refused 75 --db "$L" fetch catalog --provider deepinfra --base-url "http://127.0.0.1:1/ok" --retries 1
has refused err "(2 attempts); try again later"

t plain-http 64 --db "$L" fetch catalog --provider deepinfra --base-url "http://provider.invalid/ok"
has plain-http err "refusing to send DEEPINFRA_API_KEY over plain http"

t userinfo 64 --db "$L" fetch catalog --provider deepinfra --base-url "http://u:p@127.0.0.1:$P/ok"
has userinfo err "must not hold a user name or password"

t no-provider 64 --db "$L" fetch catalog --provider nosuch
t bad-from 64 --db "$L" fetch catalog --provider deepinfra --from yesterdayish --base-url "$U/ok"

# ---- HTTPS: a self-signed certificate is refused unless trusted ----------
if openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/tls.key" -out "$work/tls.crt" \
	-days 2 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" >/dev/null 2>&1; then
	start_server https --tls "$work/tls.crt" "$work/tls.key"
	tls_server=$last_pid
	TU=https://127.0.0.1:$port
	cards=$(q "$L" "SELECT COUNT(*) FROM rate_card")
	t tls-refused 69 --db "$L" fetch catalog --provider deepinfra --base-url "$TU/ok" --retries 0
	has tls-refused err "TLS"
	has tls-refused err "the certificate is always verified"
	eq tls-refused-cards "$(q "$L" "SELECT COUNT(*) FROM rate_card")" "$cards"
	if [ -s "$work/https.log" ]; then fail "tls-refused: a request got through" tls-refused; else pass; fi
	t tls-cacert 0 --db "$L" fetch catalog --provider deepinfra --base-url "$TU/ok" --cacert "$work/tls.crt"
	has tls-cacert out "https://127.0.0.1:$port/ok/v1/sandboxes/catalog"
	TP=$port
	# https honours https_proxy and ALL_PROXY (a CONNECT tunnel, the key
	# inside TLS), and no_proxy, as curl does
	connects() { grep -c "^CONNECT 127.0.0.1:$TP auth=no$" "$work/proxy.log"; }
	te tls-proxy 0 "https_proxy=$PX" --db "$L" fetch catalog --provider deepinfra --base-url "$TU/ok" --cacert "$work/tls.crt"
	eq tls-proxy-connect "$(connects)" 1
	te tls-proxy-all 0 "ALL_PROXY=$PX" --db "$L" fetch catalog --provider deepinfra --base-url "$TU/ok" --cacert "$work/tls.crt"
	eq tls-proxy-all-connect "$(connects)" 2
	te tls-noproxy 0 "https_proxy=$PX no_proxy=127.0.0.1" --db "$L" fetch catalog --provider deepinfra --base-url "$TU/ok" --cacert "$work/tls.crt"
	te tls-noproxy-upper 0 "https_proxy=$PX NO_PROXY=127.0.0.1" --db "$L" fetch catalog --provider deepinfra --base-url "$TU/ok" --cacert "$work/tls.crt"
	eq tls-noproxy-connect "$(connects)" 2
	eq proxy-only-connects "$(grep -vc '^CONNECT ' "$work/proxy.log")" 0
	# https down to plain http (even to this machine): refused, never sent
	t tls-to-http 69 --db "$L" fetch catalog --provider deepinfra --base-url "$TU/tohttp.$P" --cacert "$work/tls.crt"
	has tls-to-http err "$TU/tohttp.$P/v1/sandboxes/catalog redirects (302 Found) to $U/fromtls/v1/sandboxes/catalog: a redirect from https down to plain http is refused"
	eq tls-to-http-sent "$(grep -c '^fromtls ' "$work/http.log")" 0
	# plain http (loopback) up to https on another origin: followed, without the key
	t to-tls 69 --db "$L" fetch catalog --provider deepinfra --base-url "$U/redirtls.$TP" --cacert "$work/tls.crt"
	has to-tls err "from $TU/ok/v1/sandboxes/catalog, where a redirect led: the key in DEEPINFRA_API_KEY goes to $U/redirtls.$TP/v1/sandboxes/catalog only and was not sent there"
	eq to-tls-no-key "$(grep -c '^ok /v1/sandboxes/catalog - auth=missing$' "$work/https.log")" 1
else
	fail "tls: openssl could not make a certificate" none
fi

t fetch-check 0 --db "$L" check

# ---- nightly ----------------------------------------------------------------
# Judged on 2026-12-05: November has ended, more than the billing lag ago,
# so its backends get verdicts (on 2026-11-30 they would all be pending).
SBLEDGER_NOW=2026-12-05T00:00:00Z
export SBLEDGER_NOW
inbox=$work/inbox
mkdir -p "$inbox/runs" "$inbox/billing/focus" "$inbox/billing/modal" "$inbox/billing/daytona" \
	"$inbox/billing/e2b-events" "$inbox/billing/record" "$inbox/billing/deepinfra-usage"
cp "$SAMPLES/runs.jsonl" "$inbox/runs/"
cp "$SAMPLES/billing-focus.csv" "$inbox/billing/focus/"
cp "$SAMPLES/billing-modal.json" "$inbox/billing/modal/"
cp "$SAMPLES/billing-daytona.json" "$inbox/billing/daytona/"
cp "$SAMPLES/billing-e2b-events.json" "$inbox/billing/e2b-events/"
cp "$SAMPLES/billing-record.jsonl" "$inbox/billing/record/"
cp "$SAMPLES/deepinfra-usage.json" "$inbox/billing/deepinfra-usage/"
echo '{"half": "written' >"$inbox/runs/.incoming.jsonl"
N=$work/nightly.db
R=$work/reports
"$SB" --db "$N" init >/dev/null

t nightly 1 --db "$N" nightly --inbox "$inbox" --period 2026-11 --out "$R" --fail-on-drift
has nightly out "7 files imported, 0 already in the ledger, 0 records rejected"
has nightly out "over_billed"
for f in reconcile.json summary.csv report.html; do
	if [ -s "$R/2026-11/$f" ]; then pass; else fail "nightly: no $R/2026-11/$f" nightly; fi
done
eq nightly-json "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["flagged"] > 0, len(d["backends"]) > 3)' "$R/2026-11/reconcile.json")" "True True"
eq nightly-csv "$(head -1 "$R/2026-11/summary.csv")" \
	"key,runs,exec_count,total_duration_ms,cpu_ms,memory_peak_mb,bytes_read,bytes_written,computed_cost_usd,billed_cost_usd,card_cost_usd,token_cost_usd"
has nightly out "reports in $R/2026-11/"
"$SB" --db "$N" report summary --period 2026-11 --format csv >"$work/out/summary.csv" 2>/dev/null
if cmp -s "$work/out/summary.csv" "$R/2026-11/summary.csv"; then pass; else fail "nightly: summary.csv differs from report summary --format csv" nightly; fi
"$SB" --db "$N" reconcile --period 2026-11 --format json --dry-run >"$work/out/reconcile.json" 2>/dev/null
if cmp -s "$work/out/reconcile.json" "$R/2026-11/reconcile.json"; then pass; else fail "nightly: reconcile.json differs from reconcile --format json" nightly; fi
batches=$(q "$N" "SELECT COUNT(*) FROM batch")
eq nightly-batches "$batches" 7
# November (--period); the days of November that hold runs or lines of a
# backend billed by the day, caught up (2026-11-02, 03, 04); and October,
# the month of DeepInfra's October bill (billed by the month, no runs:
# unexpected), ended more than the billing lag ago
eq nightly-stored "$(q "$N" "SELECT COUNT(*) FROM reconciliation")" 5
eq nightly-periods "$(q "$N" "SELECT COUNT(*) FROM reconciliation WHERE to_ms - from_ms = 86400000")" 3

t nightly-again 1 --db "$N" nightly --inbox "$inbox" --period 2026-11 --out "$R" --fail-on-drift
has nightly-again out "0 files imported, 7 already in the ledger"
eq nightly-again-batches "$(q "$N" "SELECT COUNT(*) FROM batch")" "$batches"
eq nightly-again-runs "$(q "$N" "SELECT COUNT(*) FROM run")" "$(q "$N" "SELECT COUNT(DISTINCT run_id) FROM run")"

t nightly-no-fail 0 --db "$N" nightly --inbox "$inbox" --period 2026-11 --out "$R"

# open flags are named every night until someone handles them; once each
# is acked, a night with nothing new to say prints nothing
t nightly-open 0 --db "$N" --quiet nightly --inbox "$inbox" --period 2020-01 --out "$R"
has nightly-open out "open flags ("
for id in $(q "$N" "SELECT flag_id FROM flag WHERE state = 'open'"); do
	"$SB" --db "$N" flags ack "$id" --reason "seen in the HTTP tests" --who tests >/dev/null
done
t nightly-quiet 0 --db "$N" --quiet nightly --inbox "$inbox" --period 2020-01 --out "$R"
eq nightly-quiet-out "$(wc -c <"$work/out/nightly-quiet.out" | tr -d ' ')" 0

cp "$SAMPLES/runs-with-bad-lines.jsonl" "$inbox/runs/"
t nightly-rejects 65 --db "$N" nightly --inbox "$inbox" --period 2026-11 --out "$R" --fail-on-drift
has nightly-rejects out "1 file imported, 7 already in the ledger, 6 records rejected"
rm "$inbox/runs/runs-with-bad-lines.jsonl"

# a symlink out of the inbox is not followed
echo '{"run_id": "outside-1", "backend": "e2b", "started_at": "2026-11-02T10:00:00Z", "sandbox_usage": {}}' \
	>"$work/outside.jsonl"
ln -s "$work/outside.jsonl" "$inbox/runs/outside.jsonl"
t nightly-symlink 66 --db "$N" nightly --inbox "$inbox" --period 2026-11 --out "$R"
has nightly-symlink err "leads out of the inbox"
eq nightly-symlink-run "$(q "$N" "SELECT COUNT(*) FROM run WHERE run_id = 'outside-1'")" 0
rm "$inbox/runs/outside.jsonl"

t nightly-missing 66 --db "$N" nightly --inbox "$work/no-such-inbox" --period 2026-11
t nightly-usage 64 --db "$N" nightly --period 2026-11
t nightly-bad-fetch 64 --db "$N" nightly --inbox "$inbox" --fetch deepinfra,nosuch

# fetching from the providers, then reconciling
te nightly-fetch 1 "SBLEDGER_DEEPINFRA_URL=$U/ok SBLEDGER_VERCEL_URL=$U/ok" --db "$N" nightly --inbox "$inbox" --period 2026-11-03 --out "$R" --fetch deepinfra,vercel --fail-on-drift
has nightly-fetch out "fetch deepinfra catalog"
has nightly-fetch out "fetch deepinfra usage"
has nightly-fetch out "fetch vercel billing"
eq nightly-fetch-query "$(grep -c '^ok /v1/billing/charges from=2026-11-03T00%3a00%3a00Z&to=2026-11-04T00%3a00%3a00Z auth=ok$' "$work/http.log")" 1
if [ -s "$R/2026-11-03/reconcile.json" ]; then pass; else fail "nightly-fetch: no reconcile.json" nightly-fetch; fi

te nightly-fetch-fails 75 "SBLEDGER_HTTP_RETRIES=1 SBLEDGER_VERCEL_URL=$U/s503.b" --db "$N" nightly --inbox "$inbox" --period 2026-11-04 --out "$R" --fetch vercel
if [ -s "$R/2026-11-04/report.html" ]; then pass; else fail "nightly-fetch-fails: no report.html" nightly-fetch-fails; fi
# the page's verdict leads with the failed fetch and is not green
if grep -q '<li class="fault" data-fault="fetch" data-provider="vercel" data-what="billing" data-skipped="false" data-code="75"><b>Fetch failed</b>' "$R/2026-11-04/report.html" &&
   ! grep -q '<section class="verdict good"' "$R/2026-11-04/report.html"; then
	pass
else
	fail "nightly-fetch-fails: the page's verdict does not lead with the failed fetch, or is green" nightly-fetch-fails-page
fi

# without --period each night fetches from the day the last fetch covered:
# the first night yesterday, a night after two missed ones those days too,
# never more than --catch-up days back
F=$work/nights.db
mkdir -p "$work/empty-inbox"
t nights-init 0 --db "$F" init
te nights-first 0 "SBLEDGER_NOW=2026-11-05T02:15:00Z SBLEDGER_VERCEL_URL=$U/ok" --db "$F" nightly --inbox "$work/empty-inbox" --out "$work/nights" --fetch vercel
eq nights-first-query "$(grep -c '^ok /v1/billing/charges from=2026-11-04T00%3a00%3a00Z&to=2026-11-05T00%3a00%3a00Z auth=ok$' "$work/http.log")" 1
te nights-missed 0 "SBLEDGER_NOW=2026-11-08T02:15:00Z SBLEDGER_VERCEL_URL=$U/ok" --db "$F" nightly --inbox "$work/empty-inbox" --out "$work/nights" --fetch vercel
eq nights-missed-query "$(grep -c '^ok /v1/billing/charges from=2026-11-04T00%3a00%3a00Z&to=2026-11-08T00%3a00%3a00Z auth=ok$' "$work/http.log")" 1
te nights-reach 0 "SBLEDGER_NOW=2026-11-20T02:15:00Z SBLEDGER_VERCEL_URL=$U/ok" --db "$F" nightly --inbox "$work/empty-inbox" --out "$work/nights" --fetch vercel --catch-up 3
eq nights-reach-query "$(grep -c '^ok /v1/billing/charges from=2026-11-17T00%3a00%3a00Z&to=2026-11-20T00%3a00%3a00Z auth=ok$' "$work/http.log")" 1

# a second nightly while the first holds the write lock: exits 75
(
	exec 9>"$N-lock"
	flock 9
	touch "$work/held"
	sleep 60
) &
holder=$!
i=0
while [ ! -f "$work/held" ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
t nightly-locked 75 --db "$N" --busy-timeout 200 nightly --inbox "$inbox" --period 2026-11 --out "$R"
has nightly-locked err "the ledger is busy"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
holder=

t nightly-check 0 --db "$N" check

# ---- the key is nowhere ------------------------------------------------------
# every file left under $work: ledgers and their -wal (and the copy taken
# while a reader held it), the temporary directory, every stdout and stderr,
# the servers' logs
found=$(grep -rlF -D skip -e "$KEY" -e "$KEY_UP" -e "$KEY_LOW" "$work" 2>/dev/null)
if [ -z "$found" ]; then
	pass
else
	fail "the test key (raw or URL-encoded) was found in: $(echo $found)" none
fi
echo "http: the key was looked for in $(find "$work" -type f | wc -l) files"

echo "http: $passed passed, $failed failed"
[ $failed -eq 0 ]
