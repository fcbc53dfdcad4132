# The reconciler against the independent Python model of its rules
# (tests/ref/recon_model.py, which reads the input files, not the ledger):
# on each scenario both must give the same statuses, flags, windows,
# figures, verdicts, sessions and counts (tests/ref/recon_compare.py).
# Scenarios: the samples (judged after the lag, inside the month, between
# the month's end and the lag; half a day for partial; single days), the
# Pacific days of tests/cli/fixtures/pacific (each day, a pending one, all
# together), a DST change each way, and the tolerance's edges each side.
M=$REPO/tests/ref/recon_model.py
C=$REPO/tests/ref/recon_compare.py
# check NAME DB NOW PERIOD [OPTIONS] -- MODEL-INPUTS...
check() {
	name=$1 db=$2 now=$3 period=$4
	shift 4
	opts=
	while [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	SBLEDGER_NOW=$now "$SB" --db "$db" reconcile --period "$period" --dry-run --format json $opts >program.json
	# shellcheck disable=SC2086
	python3 "$M" --period "$period" --now "$now" $opts "$@" >model.json
	python3 "$C" "$name" model.json program.json
}

# ---- the samples
sb --db samples.db init >/dev/null
sb --db samples.db import runs "$SAMPLES/runs.jsonl" >/dev/null
in="--runs $SAMPLES/runs.jsonl"
for f in record:billing-record.jsonl focus:billing-focus.csv modal:billing-modal.json \
	daytona:billing-daytona.json e2b-events:billing-e2b-events.json deepinfra-usage:deepinfra-usage.json; do
	sb --db samples.db import billing --format "${f%%:*}" "$SAMPLES/${f#*:}" >/dev/null
	in="$in --billing ${f%%:*}:$SAMPLES/${f#*:}"
done
# shellcheck disable=SC2086
{
check samples-after-lag samples.db 2026-12-05T00:00:00Z 2026-11-01..2026-12-01 -- $in
check samples-inside samples.db 2026-11-30T12:00:00Z 2026-11-01..2026-12-01 -- $in
check samples-before-lag samples.db 2026-12-02T00:00:00Z 2026-11-01..2026-12-01 -- $in
check samples-half-day samples.db 2026-12-05T00:00:00Z 2026-11-02T00:00:00Z..2026-11-02T12:00:00Z -- $in
check samples-11-03 samples.db 2026-12-05T00:00:00Z 2026-11-03..2026-11-04 -- $in
check samples-11-04-all samples.db 2026-12-05T00:00:00Z 2026-11-04..2026-11-05 --all-sessions -- $in
check samples-zero-tol samples.db 2026-12-05T00:00:00Z 2026-11-01..2026-12-01 --abs-tol 0 --rel-tol 0 -- $in
check samples-lag-0 samples.db 2026-12-01T00:00:01Z 2026-11-01..2026-12-01 --billing-lag 0 -- $in
check samples-at-end-lag-0 samples.db 2026-12-01T00:00:00Z 2026-11-01..2026-12-01 --billing-lag 0 -- $in
check samples-at-lag samples.db 2026-12-04T00:00:00Z 2026-11-01..2026-12-01 -- $in
}

# ---- the Pacific days
sb --db pacific.db init >/dev/null
in=
for f in "$FIX"/pacific/*.jsonl; do
	case ${f##*/} in
	runs-*) sb --db pacific.db import runs "$f" >/dev/null; in="$in --runs $f" ;;
	*) sb --db pacific.db import billing --format focus "$f" >/dev/null; in="$in --billing focus:$f" ;;
	esac
done
# shellcheck disable=SC2086
{
for d in 09 10 11 12 13 14; do
	check "pacific-01-$d" pacific.db 2027-01-20T00:00:00Z "2027-01-$d..2027-01-$((${d#0} + 1))" -- $in
done
check pacific-open pacific.db 2027-01-13T02:15:00Z 2027-01-12..2027-01-13 -- $in
check pacific-just-open pacific.db 2027-01-13T07:59:59.999Z 2027-01-12..2027-01-13 -- $in
check pacific-just-ended pacific.db 2027-01-13T08:00:00Z 2027-01-12..2027-01-13 -- $in
check pacific-lag-24h pacific.db 2027-01-16T09:00:00Z 2027-01-14..2027-01-15 --billing-lag 24h -- $in
check pacific-five-days pacific.db 2027-01-20T00:00:00Z 2027-01-10..2027-01-15 -- $in
}

# ---- a DST change each way (Pacific days of 23 and 25 hours)
focus_line() { # start end amount
	printf '{"ServiceName":"Sandbox Active CPU","PricingQuantity":1,"PricingUnit":"MIUs","PricingCategory":"Committed","PricingCurrency":"USD","EffectiveCost":%s,"BilledCost":%s,"ChargePeriodStart":"%s","ChargePeriodEnd":"%s","ConsumedQuantity":1,"ConsumedUnit":"GB-Seconds","ChargeCategory":"Usage","BillingCurrency":"USD","RegionId":"iad1","RegionName":"Washington, D.C., USA","ServiceCategory":"Compute","ServiceProviderName":"Vercel","Tags":{}}\n' "$3" "$3" "$1" "$2"
}
run_line() { # id backend start end secs cost
	printf '{"run_id":"%s","backend":"%s","session_id":"s-%s","started_at":"%s","ended_at":"%s","sandbox_usage":{"exec_count":1,"total_duration_ms":%s000,"cpu_ms":0,"memory_peak_mb":0,"bytes_read":0,"bytes_written":0,"computed_cost_usd":%s,"billed_cost_usd":null,"executions":[{"command":"t","exit_code":0,"duration_ms":%s000,"cpu_ms":0,"memory_peak_mb":0,"bytes_read":0,"bytes_written":0,"cost_usd":%s}]}}\n' "$1" "$2" "$1" "$3" "$4" "$5" "$6" "$5" "$6"
}
{
	focus_line 2027-03-12T08:00:00.000Z 2027-03-13T08:00:00.000Z 0.12
	focus_line 2027-03-13T08:00:00.000Z 2027-03-14T08:00:00.000Z 0.24
	focus_line 2027-03-14T08:00:00.000Z 2027-03-15T07:00:00.000Z 0.36
	focus_line 2027-03-15T07:00:00.000Z 2027-03-16T07:00:00.000Z 0.5
	focus_line 2027-11-06T07:00:00.000Z 2027-11-07T07:00:00.000Z 0.12
	focus_line 2027-11-07T07:00:00.000Z 2027-11-08T08:00:00.000Z 0.24
	focus_line 2027-11-08T08:00:00.000Z 2027-11-09T08:00:00.000Z 0.12
} >dst.jsonl
{
	run_line d1 vercel 2027-03-14T07:30:00Z 2027-03-14T07:31:00Z 60 0.12
	run_line d2 vercel 2027-03-15T06:30:00Z 2027-03-15T06:32:00Z 120 0.24
	run_line d3 vercel 2027-03-15T07:30:00Z 2027-03-15T07:33:00Z 180 0.36
	run_line d4 vercel 2027-11-08T07:30:00Z 2027-11-08T07:32:00Z 120 0.24
} >dst-runs.jsonl
sb --db dst.db init >/dev/null
sb --db dst.db import runs dst-runs.jsonl >/dev/null
sb --db dst.db import billing --format focus dst.jsonl >/dev/null
for p in 2027-03-13..2027-03-14 2027-03-14..2027-03-15 2027-03-15..2027-03-16 2027-11-07..2027-11-08 \
	2027-11-08..2027-11-09 2027-03-13..2027-03-16; do
	check "dst-$p" dst.db 2027-12-01T00:00:00Z "$p" -- --runs dst-runs.jsonl --billing focus:dst.jsonl
	python3 -c 'import json; print(" ", *[b["window"]["from"] + ".." + b["window"]["to"] + " " + b["status"] + " " + b["computed_cost_usd"] + " " + str(b["billed_cost_usd"]) for b in json.load(open("program.json"))["backends"]])'
done

# ---- the tolerance's edges: modal computed 0.10 (the absolute branch),
# runloop computed 1.00 (the relative one); billed at the tolerance, a
# nanodollar under and over, each way
for c in "0.11 1.05" "0.109999999 1.049999999" "0.110000001 1.050000001" "0.09 0.95" "0.089999999 0.949999999"; do
	set -- $c
	rm -f tol.db
	{
		echo "BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ServiceProviderName"
		echo "$1,USD,2027-01-12T00:00:00Z,2027-01-13T00:00:00Z,Usage,Modal"
		echo "$2,USD,2027-01-12T00:00:00Z,2027-01-13T00:00:00Z,Usage,Runloop"
	} >tol.csv
	{
		run_line t1 modal 2027-01-12T05:00:00Z 2027-01-12T05:01:00Z 60 0.10
		run_line t2 runloop 2027-01-12T05:00:00Z 2027-01-12T05:10:00Z 600 1.00
	} >tol-runs.jsonl
	sb --db tol.db init >/dev/null
	sb --db tol.db import runs tol-runs.jsonl >/dev/null
	sb --db tol.db import billing --format focus tol.csv >/dev/null
	check "tolerance-$1-$2" tol.db 2027-02-01T00:00:00Z 2027-01-12..2027-01-13 -- --runs tol-runs.jsonl --billing focus:tol.csv
	python3 -c 'import json; print(" ", *[b["backend"] + " " + b["status"] for b in json.load(open("program.json"))["backends"]])'
done
