#!/bin/sh
# run.sh: the import benchmark, sbledger against the obvious Python script.
#
#   sh bench/run.sh                      (or: make bench)
#   BENCH_RUNS=1000000 sh bench/run.sh   a million runs (about 1.2 GB)
#
# Generates BENCH_RUNS runs with bench/gen_runs.py into bench/data/ (kept
# and reused while the parameters and the generator are the same), then
# imports the file BENCH_ROUNDS times with each tool, alternately, into a
# fresh database each time, timing every import with GNU time (wall
# seconds, peak RSS).  Prints the median time, throughput and the largest
# peak RSS of each tool, and the ratio of the medians.  It checks that
# every import exits 0 and that each database holds BENCH_RUNS runs, and
# fails loudly otherwise; it never asserts anything about timings.
#
# Environment:
#   BENCH_RUNS      distinct runs to generate            (100000)
#   BENCH_SEED      generator seed                       (1)
#   BENCH_DUP_RATE  share of repeated lines, 0..1        (0)
#   BENCH_ROUNDS    imports per tool                     (3)
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
command -v sqlite3 >/dev/null 2>&1 || die "the sqlite3 shell is needed to count the imported runs (apt-get install sqlite3)"
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

# ---- one timed import ----------------------------------------------------
# timed TOOL ROUND COMMAND...: run COMMAND under GNU time; append
# "SECONDS KIB" to $WORK/TOOL.times; fail with its stderr if it fails.
timed() {
	tool=$1 round=$2
	shift 2
	"$TIME" -f '%e %M' -o "$WORK/time.out" "$@" >"$WORK/out.log" 2>"$WORK/err.log"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "bench: $tool import, round $round, exited $rc: $*" >&2
		tail -n 20 "$WORK/err.log" >&2
		exit 1
	fi
	# GNU time writes its figures on the last line of -o
	tail -n 1 "$WORK/time.out" >>"$WORK/$tool.times"
	# shellcheck disable=SC2046 # split "SECONDS KIB" into $1 $2
	set -- $(tail -n 1 "$WORK/time.out")
	printf '  round %d  %-8s %8s s %8.1f MiB\n' "$round" "$tool" "$1" \
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
	rm -f "$1" "$1-wal" "$1-shm" "$1-journal"
}

echo "bench: $RUNS runs, $LINES lines, $BYTES bytes; $ROUNDS rounds per tool, alternating"
LEDGER="$WORK/ledger.db"
PEERDB="$WORK/peer.db"
i=1
while [ "$i" -le "$ROUNDS" ]; do
	fresh "$LEDGER"
	"$SBLEDGER" --db "$LEDGER" init >"$WORK/init.log" 2>&1 || {
		cat "$WORK/init.log" >&2
		die "sbledger init failed"
	}
	timed sbledger "$i" "$SBLEDGER" --db "$LEDGER" --quiet import runs "$DATA"
	expect_runs sbledger "$LEDGER" run
	fresh "$LEDGER"

	fresh "$PEERDB"
	timed peer "$i" "$PYTHON" bench/peer_import.py "$PEERDB" "$DATA"
	expect_runs peer "$PEERDB" runs
	fresh "$PEERDB"
	i=$((i + 1))
done

# ---- figures -------------------------------------------------------------
# median_s TOOL: the median wall time (the mean of the middle two when the
# number of rounds is even).  peak_mib TOOL: the largest peak RSS.
median_s() {
	cut -d' ' -f1 "$WORK/$1.times" | sort -n |
		awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2);
			printf "%.2f", (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'
}
peak_mib() {
	cut -d' ' -f2 "$WORK/$1.times" | sort -n | tail -n 1 |
		awk '{ printf "%.1f", $1 / 1024 }'
}

S_SEC=$(median_s sbledger)
P_SEC=$(median_s peer)
echo
awk -v runs="$RUNS" -v bytes="$BYTES" \
	-v s_sec="$S_SEC" -v s_rss="$(peak_mib sbledger)" \
	-v p_sec="$P_SEC" -v p_rss="$(peak_mib peer)" 'BEGIN {
	printf "%-10s %10s %10s %12s %8s %14s\n", "tool", "runs", "median s",
		"runs/s", "MB/s", "peak RSS MiB"
	row("sbledger", s_sec, s_rss)
	row("peer", p_sec, p_rss)
	printf "\n"
	if (s_sec > 0 && p_sec > 0) {
		r = p_sec / s_sec
		printf "peer time / sbledger time = %.2f: ", r
		if (r >= 1)
			printf "sbledger is %.2fx faster\n", r
		else
			printf "sbledger is %.2fx slower\n", 1 / r
	} else
		printf "ratio: too fast to time at this size (raise BENCH_RUNS)\n"
}
function row(name, sec, rss) {
	if (sec > 0)
		printf "%-10s %10d %10.2f %12.0f %8.1f %14.1f\n", name, runs, sec,
			runs / sec, bytes / 1e6 / sec, rss
	else
		printf "%-10s %10d %10.2f %12s %8s %14.1f\n", name, runs, sec,
			"-", "-", rss
}'
