#!/bin/sh
# kill.sh: imports killed with SIGKILL at many points, then run again.
#
#   sh tests/reliability/kill.sh [--rounds N] [--jobs N] [SCENARIO...]
#
# (--jobs N: the scenarios N at a time, each in its own directory: make
# check gives one per CPU.)
# SBLEDGER is the sbledger under test (default ./sbledger of the repo).
# Scenarios (all by default), each on a large generated file with one bad
# record in the middle (so that rejects are resumed too):
#
#   runs      import runs of 12,000 run records (JSON Lines)
#   bulk      the same into a ledger much smaller than the file, as a large
#             import sees it (SBLEDGER_TEST_BULK_MIN=1): the secondary
#             indexes dropped in its first transaction and built again in
#             its last, readers kept out meanwhile
#   focus     import billing --format focus of 40,000 FOCUS CSV rows (CRLF)
#   daytona   import billing --format daytona of a JSON array of 30,000
#
# A clean import of the file into a fresh ledger is the reference.  Then,
# in each of N rounds (default 4) on a fresh ledger, the same command is
# started and killed (SIGKILL) after a random delay, again and again: a
# third of the kills land early (during the SHA-256 of the file, the
# batch's first commit), the rest anywhere in the records (inside a chunk,
# at a commit, after the last one); each
# run resumes the batch where the last commit left it, until one run ends
# on its own.  After every kill 'sbledger check' must pass; at the end the
# ledger must hold exactly what the clean import gave (runs, executions,
# tags, billing lines, rejects, the batch and its counts: one batch, as
# if never interrupted), and the last run must have said so (exit 65 for
# the bad record, or "already imported" when the previous run had ended
# just before its kill).
#
# bulk also kills every other round once inside the rebuild
# (SBLEDGER_TEST_PAUSE_REBUILD: the indexes built in the last transaction,
# not yet committed), and
# after every kill, when the ledger was left without its indexes, a
# reader ('report summary') must find them built again before it reads
# (they are there after it, and it prints what the clean ledger prints
# once complete), and never read without them.
#
# Prints per scenario the kills that hit a running import and how many
# distinct resume points they left, then "kill: N kill points, M failed";
# exits 1 when anything differed.

set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
SB=${SBLEDGER:-$repo/sbledger}
rounds=4
jobs=1
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	*) break ;;
	esac
done
scenarios=${*:-runs bulk focus daytona}
if [ "$jobs" -gt 1 ]; then
	# each scenario a run of this script; xargs fails when one does
	printf '%s\n' $scenarios | xargs -P "$jobs" -n 1 sh "$0" --rounds "$rounds"
	exit $?
fi
[ -x "$SB" ] || { echo "kill.sh: no sbledger at $SB" >&2; exit 70; }

work=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-kill.XXXXXX") || exit 70
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
cd "$work" || exit 70

# ---- the inputs --------------------------------------------------------------
python3 - <<'PY' || exit 70
import json, random
r = random.Random(20261130)
with open("runs.jsonl", "w") as f:
    for i in range(12000):
        if i == 6000:
            f.write('{"run_id": "broken-6000", "backend": "e2b", "sandbox_usage": {}}\n')
            continue
        execs = [{"command": "pytest -k t%d" % j, "exit_code": 0, "duration_ms": r.randint(1, 9000),
                  "cpu_ms": 3, "memory_peak_mb": r.randint(64, 4096), "cost_usd": 0.0001 * r.randint(1, 50)}
                 for j in range(r.randint(1, 5))]
        rec = {"run_id": "run-%06d" % i, "backend": r.choice(["e2b", "modal", "DaytonaSandboxClient"]),
               "session_id": "s-%d" % (i // 3), "started_at": "2026-11-%02dT%02d:00:00Z" % (1 + i % 28, i % 24),
               "tags": {"customer": r.choice(["acme", "globex", "initech"])},
               "sandbox_usage": {"exec_count": len(execs),
                                 "total_duration_ms": sum(x["duration_ms"] for x in execs),
                                 "cpu_ms": 3 * len(execs),
                                 "memory_peak_mb": max(x["memory_peak_mb"] for x in execs),
                                 "computed_cost_usd": round(sum(x["cost_usd"] for x in execs), 9),
                                 "executions": execs}}
        f.write(json.dumps(rec) + "\n")
        if i % 97 == 0:
            f.write(json.dumps(rec) + "\n")     # a duplicate
with open("focus.csv", "w", newline="") as f:
    f.write("BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,"
            "ServiceProviderName,ResourceId,ConsumedQuantity,ConsumedUnit,Tags,x_Note\r\n")
    for i in range(40000):
        if i == 20000:
            f.write("oops,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,Vercel,,,,,\r\n")
            continue
        day = 1 + i % 28
        f.write('%d.%06d,USD,2026-11-%02dT00:00:00Z,2026-11-%02dT00:00:00Z,%s,Vercel,vc-%d,%d,Minutes,'
                '"{""team"":""t%d, eu""}","n, %d"\r\n'
                % (r.randint(0, 3), r.randint(0, 999999), day, day + 1,
                   r.choice(["Usage", "Usage", "Credit", "Tax"]), i, r.randint(1, 500), i % 7, i))
with open("daytona.json", "w") as f:
    f.write("[\n")
    for i in range(30000):
        if i == 15000:
            f.write(' {"sandboxId": "day-bad", "firstStart": "never"},\n')
            continue
        f.write(' {"sandboxId": "day-%06d", "firstStart": "2026-11-%02dT00:29:36.399Z", '
                '"lastEnd": "2026-11-%02dT00:34:25.913Z", "totalCPUSeconds": %d.%03d, '
                '"totalRAMGBSeconds": %d, "totalDiskGBSeconds": 0, "totalGPUSeconds": 0, '
                '"totalPrice": %d.%06d}%s\n'
                % (i, 1 + i % 28, 1 + i % 28, r.randint(0, 999), r.randint(0, 999), r.randint(0, 4000),
                   r.randint(0, 2), r.randint(0, 999999), "," if i < 29999 else ""))
    f.write("]\n")
PY

# The command of a scenario (arguments after --db; small chunks: many commits).
command_of() {
	case $1 in
	runs | bulk) echo "import runs --chunk 150 runs.jsonl" ;;
	focus) echo "import billing --format focus --chunk 400 focus.csv" ;;
	daytona) echo "import billing --format daytona --chunk 300 daytona.json" ;;
	esac
}

# What a ledger holds, as one checksum (rowids and times left out).
digest() {
	sqlite3 "$1" "
SELECT run_id, batch_id, line_no, backend, session_id, plan, started_ms, started_day, ended_ms,
       model, input_tokens, output_tokens, budget_nanos, exec_count, total_duration_ms, cpu_ms,
       memory_peak_mb, bytes_read, bytes_written, computed_nanos, billed_nanos, card_nanos,
       lifetime_nanos, has_executions, fingerprint, tags, extra
  FROM run ORDER BY run_id;
SELECT r.run_id, x.seq, x.command, x.exit_code, x.duration_ms, x.cpu_ms, x.memory_peak_mb,
       x.bytes_read, x.bytes_written, x.cost_nanos, x.extra
  FROM execution x JOIN run r USING (rid) ORDER BY r.run_id, x.seq;
SELECT r.run_id, t.name, t.value FROM run_tag t JOIN run r USING (rid) ORDER BY 1, 2;
SELECT format, line_key, batch_id, line_no, backend, session_id, start_ms, end_ms, kind,
       amount_nanos, currency, category, correction, quantity, unit, vcpu_ms, memory_mb_ms,
       list_cost_nanos, effective_cost_nanos, invoice_id, tags, extra, hex(source_row),
       superseded_by
  FROM billing_line ORDER BY format, line_key;
SELECT batch_id, line_no, reason, hex(content), full_length FROM reject ORDER BY batch_id, line_no;
SELECT batch_id, kind, format, source, sha256, status, accepted, duplicates, rejected, replaced,
       skipped, resume_offset, resume_line FROM batch ORDER BY batch_id;" | cksum
}

# A random delay in seconds: a third of them under 0.05 s (start-up, the
# file's SHA-256, the first commit), the rest up to a fifth of what the
# clean import took ($1, in ms), so that a round kills a few times.
delay() {
	awk -v seed="$(od -An -N4 -tu4 /dev/urandom)" -v ms="$1" 'BEGIN { srand(seed); r = rand();
		printf "%.3f\n", r < 0.33 ? rand() * 0.05 : 0.05 + rand() * ms / 5000 }'
}

# Milliseconds since the epoch.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# The secondary indexes of the run tables a ledger has (4 when all are).
indexes() {
	sqlite3 "$1" "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'index' AND name IN
	  ('run_by_started', 'run_by_session', 'run_by_session_recent', 'run_tag_by_value')" 2>/dev/null
}

# after_kill DB: a reader opens the killed import's ledger: the indexes
# are there after it (built before it read, when they were missing), and
# check passes.  Prints FAIL lines; returns 1 on a failure.
after_kill() {
	before=$(indexes "$1")
	if ! "$SB" --db "$1" report summary --period 2026-11 --by backend --format json >reader.out 2>&1; then
		echo "FAIL $scenario round $round: a reader after kill $kills failed:"
		sed 's/^/    /' reader.out | head -5
		return 1
	fi
	if [ "$(indexes "$1")" != 4 ]; then
		echo "FAIL $scenario round $round: the reader after kill $kills read without the indexes ($before before it, $(indexes "$1") after)"
		return 1
	fi
	[ "$before" = 4 ] || rebuilt=$((rebuilt + 1))
	if ! "$SB" --db "$1" check >check.out 2>&1; then
		echo "FAIL $scenario round $round: check fails after kill $kills:"
		grep -v '^ok' check.out | sed 's/^/    /' | head -5
		return 1
	fi
	return 0
}

total_kills=0
failed=0
for scenario in $scenarios; do
	cmd=$(command_of "$scenario")
	[ -n "$cmd" ] || { echo "kill.sh: no scenario $scenario" >&2; exit 64; }
	if [ "$scenario" = bulk ]; then
		SBLEDGER_TEST_BULK_MIN=1
		export SBLEDGER_TEST_BULK_MIN
	else
		unset SBLEDGER_TEST_BULK_MIN
	fi
	rebuilt=0
	rm -f clean.db*
	"$SB" --db clean.db init >/dev/null
	started=$(now_ms)
	"$SB" --db clean.db $cmd >clean.out 2>&1
	clean_status=$?
	took=$(($(now_ms) - started))
	want=$(digest clean.db)
	if [ $clean_status != 65 ]; then
		echo "FAIL $scenario: the clean import exited $clean_status, not 65 (one bad record):"
		sed 's/^/    /' clean.out
		failed=$((failed + 1))
		continue
	fi
	"$SB" --db clean.db report summary --period 2026-11 --by backend --format json >clean.summary 2>&1
	kills=0
	points=
	bad=0
	for round in $(seq "$rounds"); do
		rm -f sbledger.db*
		"$SB" init >/dev/null
		tries=0
		# bulk: every other round's first run killed inside the rebuild,
		# its indexes built in the last transaction, not yet committed
		if [ "$scenario" = bulk ] && [ $((round % 2)) = 1 ]; then
			rm -f rebuild.pause
			SBLEDGER_TEST_PAUSE_REBUILD=$PWD/rebuild.pause "$SB" $cmd >run.out 2>&1 &
			pid=$!
			i=0
			while [ ! -e rebuild.pause ] && kill -0 $pid 2>/dev/null && [ $i -lt 3000 ]; do
				sleep 0.01
				i=$((i + 1))
			done
			if [ ! -e rebuild.pause ]; then
				echo "FAIL $scenario round $round: the import never reached the rebuild's pause"
				bad=$((bad + 1))
			fi
			kill -9 $pid 2>/dev/null
			{ wait $pid; } 2>/dev/null
			rm -f rebuild.pause
			kills=$((kills + 1))
			if [ "$(indexes sbledger.db)" = 4 ]; then
				echo "FAIL $scenario round $round: killed inside the rebuild, the ledger has its indexes (the rebuild was committed?)"
				bad=$((bad + 1))
			fi
			after_kill sbledger.db || bad=$((bad + 1))
		fi
		while :; do
			tries=$((tries + 1))
			"$SB" $cmd >run.out 2>&1 &
			pid=$!
			sleep "$(delay $took)"
			if kill -9 $pid 2>/dev/null; then
				{ wait $pid; } 2>/dev/null
				status=$?
			else
				{ wait $pid; } 2>/dev/null
				status=$?
			fi
			if [ $status = 137 ]; then
				kills=$((kills + 1))
				points="$points
$(sqlite3 sbledger.db "SELECT COALESCE(MAX(resume_offset), -1) FROM batch" 2>/dev/null)"
				after_kill sbledger.db || bad=$((bad + 1))
				[ $tries -lt 400 ] && continue
				echo "FAIL $scenario round $round: still not done after $tries runs"
				bad=$((bad + 1))
				break
			fi
			# it ended on its own: as the clean import did, or said the
			# file was already imported (killed just after it ended)
			if ! { [ $status = 65 ] || { [ $status = 0 ] && grep -q 'already imported' run.out; }; }; then
				echo "FAIL $scenario round $round: the last run exited $status:"
				sed 's/^/    /' run.out | head -5
				bad=$((bad + 1))
			fi
			break
		done
		if [ "$(digest sbledger.db)" != "$want" ]; then
			echo "FAIL $scenario round $round: the ledger differs from one clean import:"
			sqlite3 sbledger.db "SELECT batch_id, status, accepted, duplicates, rejected, resume_offset FROM batch" | sed 's/^/    /'
			bad=$((bad + 1))
		fi
		if ! "$SB" check >check.out 2>&1; then
			echo "FAIL $scenario round $round: check fails at the end"
			bad=$((bad + 1))
		fi
		"$SB" report summary --period 2026-11 --by backend --format json >end.summary 2>&1
		if ! cmp -s clean.summary end.summary || [ "$(indexes sbledger.db)" != 4 ]; then
			echo "FAIL $scenario round $round: the summary or the indexes differ from one clean import's"
			bad=$((bad + 1))
		fi
	done
	distinct=$(printf '%s\n' "$points" | grep -v '^$' | sort -u | wc -l)
	echo "kill $scenario: $kills kill points in $rounds rounds ($distinct distinct resume offsets; a clean import takes $took ms; $rebuilt left without the indexes, built again by the next reader); $bad failed"
	total_kills=$((total_kills + kills))
	failed=$((failed + bad))
done
echo "kill: $total_kills kill points, $failed failed"
[ $failed -eq 0 ]
