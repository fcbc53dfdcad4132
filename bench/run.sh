#!/bin/sh
# run.sh: the benchmark: every performance target (docs/performance.md) side by side in one run.
#
#   sh bench/run.sh                      (or: make bench)
#   BENCH_RUNS=1000000 sh bench/run.sh   a million runs (about 1.2 GB)
#
# 1. Generates BENCH_RUNS runs with bench/gen_runs.py into bench/data/
#    (kept and reused while the parameters and the generator are the same).
# 2. Import: imports the file BENCH_ROUNDS times with sbledger (default
#    threads) and with the Python peer, alternately, into a fresh database
#    each time, timing every import with GNU time (wall seconds, CPU,
#    peak RSS); then once more with sbledger --threads 1.
# 3. Same ledger: the --threads 1 ledger and the threaded one must agree:
#    the same 'sbledger check', the same 'report summary --format json'
#    (by backend and by tag:customer), the same checksum of the run,
#    execution, run_tag and reject tables and of the batch counts.
# 4. Reports, on the threaded ledger (BENCH_RUNS runs, all in 2026-11):
#    'report summary --by backend' and 'reconcile' against the same
#    aggregation as one bare SQL query (bench/sql/*.sql) run by the sqlite3
#    shell on the same ledger, alternately, BENCH_ROUNDS times each; and
#    the CPU time of 'invoice --by tag:customer' for the month.
# 5. Prints, per target: median times, throughput (runs/s, MB/s), peak
#    RSS, the ratio, and the target (docs/performance.md) beside it.
#
# It checks that every command exits as expected, that each database
# holds BENCH_RUNS runs and that the two sbledger ledgers are the same,
# and fails loudly otherwise; it never asserts anything about timings.
#
# Environment:
#   BENCH_RUNS      distinct runs to generate            (100000)
#   BENCH_SEED      generator seed                       (1)
#   BENCH_DUP_RATE  share of repeated lines, 0..1        (0)
#   BENCH_ROUNDS    imports and reports per tool         (3)
#   BENCH_DIR       where data and databases go          (bench/data)
#   SBLEDGER        the binary under test                (./sbledger)
#   PYTHON          the interpreter for generator & peer (python3)
set -u

cd "$(dirname "$0")/.." || exit 70

RUNS=${BENCH_RUNS:-100000}
SEED=${BENCH_SEED:-1}
DUP=${BENCH_DUP_RATE:-0}
ROUNDS=${BENCH_ROUNDS:-3}
DIR=${BENCH_DIR:-bench/data}
SBLEDGER=${SBLEDGER:-./sbledger}
PYTHON=${PYTHON:-python3}
TIME=/usr/bin/time
PERIOD=2026-11                      # every generated run starts in it
FROM_MS=1793491200000               # 2026-11-01T00:00:00Z
TO_MS=1796083200000                 # 2026-12-01T00:00:00Z
# a period cutting two days: the invoice reads their parts from run
CUT_PERIOD=2026-11-03T12:00:00Z..2026-11-20T12:00:00Z

die() {
	echo "bench: FAILED: $*" >&2
	exit 1
}

is_count() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	return 0
}

if ! is_count "$RUNS" || [ "$RUNS" -eq 0 ]; then
	die "BENCH_RUNS must be a positive integer, not '$RUNS'"
fi
is_count "$SEED" || die "BENCH_SEED must be a non-negative integer, not '$SEED'"
if ! is_count "$ROUNDS" || [ "$ROUNDS" -eq 0 ]; then
	die "BENCH_ROUNDS must be a positive integer, not '$ROUNDS'"
fi
[ -x "$SBLEDGER" ] || die "$SBLEDGER is not there or not executable: build it with 'make' (or set SBLEDGER)"
command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found (set PYTHON)"
command -v sqlite3 >/dev/null 2>&1 || die "the sqlite3 shell is needed (apt-get install sqlite3)"
"$TIME" -f '%e %M' -o /dev/null true 2>/dev/null ||
	die "GNU time is needed at $TIME (apt-get install time)"

mkdir -p "$DIR" || die "cannot create $DIR"
WORK=$(mktemp -d "$DIR/work.XXXXXX") || die "cannot create a work directory in $DIR"
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

# ---- data ----------------------------------------------------------------
# The generator's checksum is part of the name: a changed generator makes
# new data instead of reusing stale files.
GENSUM=$(cksum bench/gen_runs.py | cut -d' ' -f1)
DATA="$DIR/runs-n$RUNS-s$SEED-d$DUP-g$GENSUM.jsonl"
if [ -f "$DATA" ]; then
	echo "bench: reusing $DATA"
else
	echo "bench: generating $DATA"
	"$PYTHON" bench/gen_runs.py --runs "$RUNS" --seed "$SEED" \
		--dup-rate "$DUP" --out "$DATA" || die "gen_runs.py failed"
fi
BYTES=$(wc -c <"$DATA" | tr -d ' ')
LINES=$(wc -l <"$DATA" | tr -d ' ')
cat "$DATA" >/dev/null # into the page cache, for both tools alike

# ---- one timed command ---------------------------------------------------
# timed NAME ROUND COMMAND...: run COMMAND under GNU time with its output
# in $WORK/out.log; append "WALL_S KIB CPU_S" to $WORK/NAME.times; fail
# with its stderr if it exits with anything but 0.
timed() {
	name=$1 round=$2
	shift 2
	"$TIME" -f '%e %M %U %S' -o "$WORK/time.out" "$@" >"$WORK/out.log" 2>"$WORK/err.log"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "bench: $name, round $round, exited $rc: $*" >&2
		tail -n 20 "$WORK/err.log" >&2
		exit 1
	fi
	# GNU time writes its figures on the last line of -o
	tail -n 1 "$WORK/time.out" | awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' \
		>>"$WORK/$name.times"
	# shellcheck disable=SC2046 # split "SECONDS KIB USER SYS" into $1..$4
	set -- $(tail -n 1 "$WORK/time.out")
	printf '  round %d  %-22s %8s s %8.2f s CPU %8.1f MiB\n' "$round" "$name" "$1" \
		"$(awk -v u="$3" -v s="$4" 'BEGIN { print u + s }')" \
		"$(awk -v k="$2" 'BEGIN { print k / 1024 }')"
}

# expect_runs TOOL DB TABLE: the database holds exactly $RUNS runs.
expect_runs() {
	got=$(sqlite3 "$2" "select count(*) from $3") ||
		die "$1: cannot count the rows of table '$3' in $2"
	[ "$got" = "$RUNS" ] ||
		die "$1: $2 holds $got runs in table '$3', expected $RUNS: the import lost or invented runs"
}

fresh() {
	rm -f "$1" "$1-wal" "$1-shm" "$1-journal" "$1-lock"
}

# init_ledger DB: a fresh sbledger ledger, with prices for the generator's
# models (token costs in the summaries and invoices).
init_ledger() {
	fresh "$1"
	{ "$SBLEDGER" --db "$1" init &&
		"$SBLEDGER" --db "$1" prices set claude-x-mini --input-per-m 0.25 --output-per-m 1.25 &&
		"$SBLEDGER" --db "$1" prices set gpt-5.6-terra --input-per-m 2 --output-per-m 8
	} >"$WORK/init.log" 2>&1 || {
		cat "$WORK/init.log" >&2
		die "sbledger init failed"
	}
}

# ---- imports -------------------------------------------------------------
# loadavg: the 1-minute load average: other work on the machine takes
# cores from the threads, so the figures are read next to it
loadavg() {
	cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'
}
LOAD_START=$(loadavg)
echo "bench: $RUNS runs, $LINES lines, $BYTES bytes; $ROUNDS rounds per tool, alternating"
LEDGER="$WORK/ledger.db"
SINGLE="$WORK/single.db"
PEERDB="$WORK/peer.db"
i=1
while [ "$i" -le "$ROUNDS" ]; do
	init_ledger "$LEDGER"
	timed sbledger "$i" "$SBLEDGER" --db "$LEDGER" --quiet import runs "$DATA"
	expect_runs sbledger "$LEDGER" run

	fresh "$PEERDB"
	timed peer "$i" "$PYTHON" bench/peer_import.py "$PEERDB" "$DATA"
	expect_runs peer "$PEERDB" runs
	fresh "$PEERDB"
	i=$((i + 1))
done
# the ledger of the last threaded round stays for the comparison and the
# reports; one import with a single thread to compare it with
init_ledger "$SINGLE"
timed sbledger-threads-1 1 "$SBLEDGER" --db "$SINGLE" --quiet import runs --threads 1 "$DATA"
expect_runs "sbledger --threads 1" "$SINGLE" run

# ---- the same ledger ------------------------------------------------------
# fingerprint DB: what must not depend on the number of threads.
fingerprint() {
	for q in "select * from run order by rid" \
		"select * from execution order by rid, seq" \
		"select * from run_tag order by rid, name" \
		"select * from run_day order by day, backend, model" \
		"select * from run_day_tag order by name, day, value, backend, model" \
		"select batch_id, line_no, reason, hex(content), full_length from reject order by batch_id, line_no" \
		"select batch_id, status, resume_offset, resume_line, accepted, duplicates, rejected, replaced, skipped from batch order by batch_id"; do
		printf '%s: ' "$q"
		sqlite3 "$1" "$q" | cksum
	done
	"$SBLEDGER" --db "$1" check 2>&1
	echo "check exit $?"
	for by in backend tag:customer day; do
		"$SBLEDGER" --db "$1" report summary --period "$PERIOD" --by "$by" --format json 2>&1
		echo "summary $by exit $?"
	done
}
fingerprint "$SINGLE" >"$WORK/single.fp"
fingerprint "$LEDGER" >"$WORK/threaded.fp"
if ! cmp -s "$WORK/single.fp" "$WORK/threaded.fp"; then
	diff "$WORK/single.fp" "$WORK/threaded.fp" | head -n 20 >&2
	die "the threaded import left another ledger than --threads 1"
fi
grep -q '^check exit 0$' "$WORK/threaded.fp" || die "sbledger check fails on the imported ledger"
echo "bench: --threads 1 and the default leave the same ledger (tables, batch, check, summaries)"
fresh "$SINGLE"

# ---- reports ---------------------------------------------------------------
# the sqlite3 shell's arguments that set the period for bench/sql/*.sql
SET_FROM=".parameter set :from_ms $FROM_MS"
SET_TO=".parameter set :to_ms $TO_MS"
echo "bench: reports over $RUNS runs, period $PERIOD"
i=1
while [ "$i" -le "$ROUNDS" ]; do
	timed summary "$i" "$SBLEDGER" --db "$LEDGER" report summary --period "$PERIOD" --by backend --format json
	timed summary-sql "$i" sqlite3 "$LEDGER" "$SET_FROM" "$SET_TO" ".read bench/sql/summary_by_backend.sql"
	timed reconcile "$i" "$SBLEDGER" --db "$LEDGER" reconcile --period "$PERIOD" --dry-run --format json
	timed reconcile-sql "$i" sqlite3 "$LEDGER" "$SET_FROM" "$SET_TO" ".read bench/sql/reconcile_runs.sql"
	timed invoice "$i" "$SBLEDGER" --db "$LEDGER" invoice --period "$PERIOD" --by tag:customer --format json
	timed invoice-sql "$i" sqlite3 "$LEDGER" "$SET_FROM" "$SET_TO" ".read bench/sql/invoice_by_customer.sql"
	timed invoice-cut "$i" "$SBLEDGER" --db "$LEDGER" invoice --period "$CUT_PERIOD" --by tag:customer --format json
	i=$((i + 1))
done

# ---- figures -------------------------------------------------------------
# median NAME FIELD: the median of a field of NAME.times (1 wall seconds,
# 3 CPU seconds; the mean of the middle two for an even count).
# peak_mib NAME: the largest peak RSS.
median() {
	cut -d' ' -f"$2" "$WORK/$1.times" | sort -n |
		awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2);
			printf "%.2f", (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'
}
peak_mib() {
	cut -d' ' -f2 "$WORK/$1.times" | sort -n | tail -n 1 |
		awk '{ printf "%.1f", $1 / 1024 }'
}

THREADS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
echo
echo "machine: $THREADS online CPUs; load average $LOAD_START at the start, $(loadavg) at the end"
echo
awk -v runs="$RUNS" -v bytes="$BYTES" -v threads="$THREADS" \
	-v s_sec="$(median sbledger 1)" -v s_cpu="$(median sbledger 3)" -v s_rss="$(peak_mib sbledger)" \
	-v o_sec="$(median sbledger-threads-1 1)" -v o_cpu="$(median sbledger-threads-1 3)" \
	-v o_rss="$(peak_mib sbledger-threads-1)" \
	-v p_sec="$(median peer 1)" -v p_cpu="$(median peer 3)" -v p_rss="$(peak_mib peer)" 'BEGIN {
	printf "import runs: %d runs, %.1f MB\n", runs, bytes / 1e6
	printf "  %-30s %9s %9s %10s %8s %13s\n", "", "median s", "CPU s", "runs/s", "MB/s", "peak RSS MiB"
	row("sbledger (" threads " threads)", s_sec, s_cpu, s_rss)
	row("sbledger --threads 1 (once)", o_sec, o_cpu, o_rss)
	row("peer (python json + sqlite3)", p_sec, p_cpu, p_rss)
	if (s_sec > 0 && p_sec > 0)
		printf "  ratio peer / sbledger: %.2fx   (target: at least 3x; peak RSS at most 64 MiB)\n", p_sec / s_sec
	else
		printf "  ratio: too fast to time at this size (raise BENCH_RUNS)\n"
}
function row(name, sec, cpu, rss) {
	if (sec > 0)
		printf "  %-30s %9.2f %9.2f %10.0f %8.1f %13.1f\n", name, sec, cpu, runs / sec,
			bytes / 1e6 / sec, rss
	else
		printf "  %-30s %9.2f %9.2f %10s %8s %13.1f\n", name, sec, cpu, "-", "-", rss
}'
echo
awk -v runs="$RUNS" -v period="$PERIOD" \
	-v s_sec="$(median summary 1)" -v s_rss="$(peak_mib summary)" \
	-v sq_sec="$(median summary-sql 1)" -v sq_rss="$(peak_mib summary-sql)" \
	-v r_sec="$(median reconcile 1)" -v r_rss="$(peak_mib reconcile)" \
	-v rq_sec="$(median reconcile-sql 1)" -v rq_rss="$(peak_mib reconcile-sql)" \
	-v i_sec="$(median invoice 1)" -v i_cpu="$(median invoice 3)" -v i_rss="$(peak_mib invoice)" \
	-v iq_sec="$(median invoice-sql 1)" -v iq_cpu="$(median invoice-sql 3)" \
	-v ic_sec="$(median invoice-cut 1)" -v ic_cpu="$(median invoice-cut 3)" \
	-v ic_rss="$(peak_mib invoice-cut)" -v cut="$CUT_PERIOD" 'BEGIN {
	printf "reports: %d runs in %s\n", runs, period
	printf "  %-30s %9s %12s %8s %10s %13s\n", "", "median s", "bare SQL s", "ratio", "runs/s", "peak RSS MiB"
	row("report summary --by backend", s_sec, sq_sec, s_rss)
	row("reconcile --dry-run", r_sec, rq_sec, r_rss)
	printf "  (target: within 1.5x of the bare query run by the sqlite3 shell; bare peak RSS %.1f and %.1f MiB)\n",
		sq_rss, rq_rss
	printf "  %-30s %9.2f s wall, %.2f s CPU, peak RSS %.1f MiB   (target: under 1 s CPU at 1,000,000 runs)\n",
		"invoice --by tag:customer", i_sec, i_cpu, i_rss
	printf "  %-30s %9.2f s wall, %.2f s CPU   (the same sums joined over every run by the sqlite3 shell)\n",
		"  bare SQL", iq_sec, iq_cpu
	printf "  %-30s %9.2f s wall, %.2f s CPU, peak RSS %.1f MiB   (%s: two part days from run)\n",
		"  a period cutting days", ic_sec, ic_cpu, ic_rss, cut
}
function row(name, sec, bare_sec, rss) {
	ratio = "-"
	if (bare_sec > 0)
		ratio = sprintf("%.2fx", sec / bare_sec)
	rate = "-"
	if (sec > 0)
		rate = sprintf("%.0f", runs / sec)
	printf "  %-30s %9.2f %12.2f %8s %10s %13.1f\n", name, sec, bare_sec, ratio, rate, rss
}'
