#!/bin/sh
# run.sh: the provider API tests, against a fake provider on 127.0.0.1.
#
#   sh tests/http/run.sh            (SBLEDGER: the sbledger under test)
#
# Starts tests/http/provider_server.py on a free port (and a second one
# over HTTPS with a self-signed certificate made here by openssl), runs
# 'fetch' and 'nightly' against every scenario of the server, and checks
# exit statuses, messages and what the ledger holds (with sqlite3): a
# failed fetch commits nothing.  Last, grep finds the test key in no output
# and no file the program wrote.  Prints "FAIL NAME: why" for each failed
# check, then "http: N passed, M failed"; exits 1 when a check failed.
# No check depends on timing: waits are only for the server to be ready.

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

KEY=sbl-test-key-4f1c9a7e2b
work=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-http.XXXXXX") || exit 70
mkdir -p "$work/out" "$work/tmp"
server=
tls_server=
holder=
cleanup() {
	for pid in $server $tls_server $holder; do
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
	SBLEDGER_DEEPINFRA_URL SBLEDGER_VERCEL_URL VERCEL_TEAM_ID VERCEL_TEAM_SLUG

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

t catalog-cutclose 65 --db "$L" fetch catalog --provider deepinfra --base-url "$U/cutclose"
has catalog-cutclose err "not JSON"
eq catalog-cutclose-cards "$(q "$L" "SELECT COUNT(*) FROM rate_card")" "$cards"

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
te billing-gzip 0 "VERCEL_TEAM_ID=team_42" --db "$G" fetch billing --provider vercel --period 2026-11-03 --base-url "$U/gzip"
has billing-gzip out "5 lines stored"
eq billing-gzip-team "$(grep -c '^gzip /v1/billing/charges .*teamId=team_42 auth=ok$' "$work/http.log")" 1

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
has billing-cutclose err "nothing of the response was imported"
eq billing-cutclose-lines "$(q "$L" "SELECT COUNT(*) FROM billing_line")" "$lines"
eq billing-cutclose-batch "$(q "$L" "SELECT status || ' ' || source FROM batch ORDER BY batch_id DESC LIMIT 1")" \
	"failed $U/cutclose/v1/billing/charges?from=2026-11-05T00%3a00%3a00Z&to=2026-11-06T00%3a00%3a00Z"

t billing-shape 65 --db "$L" fetch billing --provider vercel --period 2026-11-05 --base-url "$U/shape"
eq billing-shape-lines "$(q "$L" "SELECT COUNT(*) FROM billing_line")" "$lines"

t billing-big 65 --db "$L" fetch billing --provider vercel --period 2026-11-05 --base-url "$U/big" --max-bytes 100000
has billing-big err "larger than the limit of 100000 bytes"
eq billing-big-lines "$(q "$L" "SELECT COUNT(*) FROM billing_line")" "$lines"

t billing-offsite 65 --db "$L" fetch billing --provider vercel --period 2026-11-05 --base-url "$U/offsite"
has billing-offsite err "the next page is on another host"
eq billing-offsite-lines "$(q "$L" "SELECT COUNT(*) FROM billing_line")" "$lines"

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

t redirect 69 --db "$L" fetch catalog --provider deepinfra --base-url "$U/redirect"
eq redirect-no-key "$(grep -c '^ok /v1/sandboxes/catalog - auth=missing$' "$work/http.log")" 1

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
else
	fail "tls: openssl could not make a certificate" none
fi

t fetch-check 0 --db "$L" check

# ---- nightly ----------------------------------------------------------------
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
eq nightly-stored "$(q "$N" "SELECT COUNT(*) FROM reconciliation")" 1

t nightly-again 1 --db "$N" nightly --inbox "$inbox" --period 2026-11 --out "$R" --fail-on-drift
has nightly-again out "0 files imported, 7 already in the ledger"
eq nightly-again-batches "$(q "$N" "SELECT COUNT(*) FROM batch")" "$batches"
eq nightly-again-runs "$(q "$N" "SELECT COUNT(*) FROM run")" "$(q "$N" "SELECT COUNT(DISTINCT run_id) FROM run")"

t nightly-no-fail 0 --db "$N" nightly --inbox "$inbox" --period 2026-11 --out "$R"

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
found=$(grep -rlF -- "$KEY" "$work" 2>/dev/null)
if [ -z "$found" ]; then
	pass
else
	fail "the test key was found in: $found" none
fi

echo "http: $passed passed, $failed failed"
[ $failed -eq 0 ]
