#!/bin/sh
# failmalloc.sh: allocation failures injected into import and reconcile.
#
#   sh tests/reliability/failmalloc.sh [--every K] [--jobs N] [SCENARIO...]
#
# (--jobs N: the scenarios N at a time, each in its own directory: make
# check gives one per CPU.)
# SBLEDGER is the sbledger under test (an ASan build: make check passes
# build/san/sbledger), FAILMALLOC the shim (build/reliability/failmalloc.so,
# see failmalloc.c).  Scenarios (all by default):
#
#   runs        import runs of the sample runs.jsonl (--threads 1)
#   threads     the same with its default pool of parser threads (which
#               call fails then depends on the threads' timing)
#   focus       import billing --format focus of the FOCUS CSV sample
#   daytona     import billing --format daytona of the JSON array sample
#   reconcile   reconcile --period 2026-11 of a ledger holding the samples
#   nightly     nightly over an empty inbox on that ledger: it judges
#               2026-11-03 and writes its three report files, each of
#               which must be the clean run's or absent, never half
#               written (a writer that ran out of memory part way leaves
#               no file)
#
# For each, the command runs once cleanly (the ledger and output it gives
# are the reference) and once counting its allocations; then, for every
# Kth allocation (K = --every, default 1: all of them), on a fresh copy of
# the same ledger, it runs again with that allocation failing, and:
#
#  - it must end with 0 or 70 (out of memory is an internal error), with
#    no sanitizer report (ASan, UBSan, or LeakSanitizer at exit: no leak;
#    lsan.supp names leaks inside libcrypto's own set-up).  One crash is
#    known and counted apart, not failed: jansson 2.14 itself crashes in
#    json_loadb when growing a token's buffer fails (a bug of jansson's;
#    the ledger is left consistent, as the checks below still verify).
#    Likewise, with threads, ASan's runtime stops the process with
#    "CHECK failed" when the failed allocation is glibc's inside
#    pthread_getattr_np, which ASan calls as a new thread starts: that
#    is the sanitizer's runtime, not sbledger (without ASan no such call
#    is made); the checks below still run on what it leaves;
#  - when it says 0, its ledger (and output) must be the reference one:
#    a failure is never turned into a wrong result, e.g. a good line
#    rejected as bad data;
#  - 'sbledger check' must pass on the ledger it leaves;
#  - the same command run again without failure must end as the clean run
#    did and leave the reference ledger: nothing lost, nothing doubled.
#
# Prints a line per scenario with the points tried and the exit statuses
# seen, then "failmalloc: N points, M failed"; exits 1 when one failed.

set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
SB=${SBLEDGER:-$repo/build/san/sbledger}
SHIM=${FAILMALLOC:-$repo/build/reliability/failmalloc.so}
every=1
jobs=1
while [ $# -gt 0 ]; do
	case $1 in
	--every) every=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	*) break ;;
	esac
done
scenarios=${*:-runs threads focus daytona reconcile nightly}
if [ "$jobs" -gt 1 ]; then
	# each scenario a run of this script; xargs fails when one does
	printf '%s\n' $scenarios | xargs -P "$jobs" -n 1 sh "$0" --every "$every"
	exit $?
fi
for f in "$SB" "$SHIM"; do
	[ -e "$f" ] || { echo "failmalloc.sh: no $f (make build/san/sbledger build/reliability/failmalloc.so)" >&2; exit 70; }
done
SAMPLES=$(cd "$repo/examples/samples" 2>/dev/null && pwd) || { echo "failmalloc.sh: no samples" >&2; exit 70; }

work=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-failmalloc.XXXXXX") || exit 70
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
cd "$work" || exit 70
cp "$SAMPLES"/runs.jsonl "$SAMPLES"/billing-*.* .

# The shim goes first, before the ASan runtime; ASan still checks every
# allocation that succeeds and reports leaks at exit.  lsan.supp names the
# leaks of libcrypto's own set-up when it runs out of memory.
ASAN_BASE="detect_leaks=1:exitcode=86:verify_asan_link_order=0:fast_unwind_on_malloc=0"
LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
export LSAN_OPTIONS

# The figures of a ledger that must not depend on how it was built.
digest() {
	sqlite3 "$1" "
SELECT run_id, batch_id, line_no, backend, session_id, started_ms, ended_ms, model,
       input_tokens, output_tokens, budget_nanos, exec_count, total_duration_ms, cpu_ms,
       memory_peak_mb, bytes_read, bytes_written, computed_nanos, billed_nanos, card_nanos,
       fingerprint, tags, extra FROM run ORDER BY run_id;
SELECT r.run_id, x.seq, x.command, x.duration_ms, x.cost_nanos, x.extra
  FROM execution x JOIN run r USING (rid) ORDER BY r.run_id, x.seq;
SELECT r.run_id, t.name, t.value FROM run_tag t JOIN run r USING (rid) ORDER BY 1, 2;
SELECT format, line_key, batch_id, line_no, backend, session_id, start_ms, end_ms, kind,
       amount_nanos FROM billing_line ORDER BY format, line_key;
SELECT batch_id, line_no, reason, hex(content) FROM reject ORDER BY batch_id, line_no;
SELECT batch_id, kind, format, status, accepted, duplicates, rejected, skipped, resume_offset
  FROM batch ORDER BY batch_id;
SELECT COUNT(*) FROM reconciliation;
SELECT backend, status, basis, runs, computed_nanos, billed_nanos, drift_nanos
  FROM reconciliation_backend ORDER BY recon_id, backend;" | cksum
}

# The command of a scenario (arguments after --db).
command_of() {
	case $1 in
	runs) echo "import runs --threads 1 runs.jsonl" ;;
	threads) echo "import runs --threads 2 runs.jsonl" ;;
	focus) echo "import billing --format focus billing-focus.csv" ;;
	daytona) echo "import billing --format daytona billing-daytona.json" ;;
	reconcile) echo "reconcile --period 2026-11 --format json" ;;
	nightly) echo "nightly --inbox inbox --period 2026-11-03 --out out" ;;
	esac
}

# The ledger a scenario starts from, as base.db.
base_of() {
	rm -f base.db*
	"$SB" --db base.db init >/dev/null || exit 70
	if [ "$1" = reconcile ] || [ "$1" = nightly ]; then
		"$SB" --db base.db import runs runs.jsonl >/dev/null 2>&1
		"$SB" --db base.db import billing --format focus billing-focus.csv >/dev/null 2>&1
		"$SB" --db base.db import billing --format daytona billing-daytona.json >/dev/null 2>&1
		"$SB" --db base.db import billing --format e2b-events billing-e2b-events.json >/dev/null 2>&1
		"$SB" --db base.db import billing --format record billing-record.jsonl >/dev/null 2>&1
		"$SB" --db base.db import billing --format modal billing-modal.json >/dev/null 2>&1
	fi
	# one file, no -wal: a copy is the whole ledger
	sqlite3 base.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
}

# fresh NAME: a copy of base.db as NAME.db.
fresh() {
	rm -f "$1".db "$1".db-wal "$1".db-shm "$1".db-lock
	cp base.db "$1".db
}

points=0
bad_total=0
for scenario in $scenarios; do
	cmd=$(command_of "$scenario")
	[ -n "$cmd" ] || { echo "failmalloc.sh: no scenario $scenario" >&2; exit 64; }
	base_of "$scenario"
	fresh clean
	rm -rf out clean-out inbox && mkdir -p inbox/runs
	ASAN_OPTIONS=$ASAN_BASE "$SB" --db clean.db $cmd >clean.out 2>clean.err
	clean_status=$?
	[ -d out ] && mv out clean-out
	want=$(digest clean.db)
	fresh count
	ASAN_OPTIONS=$ASAN_BASE LD_PRELOAD=$SHIM FAILMALLOC_NTH=0 FAILMALLOC_REPORT=$work/report \
		"$SB" --db count.db $cmd >/dev/null 2>&1
	read -r calls _ first <report
	tried=0
	bad=0
	jansson=0
	seen=
	n=$((first + 1))
	while [ $n -le "$calls" ]; do
		tried=$((tried + 1))
		fresh t
		rm -rf out
		ASAN_OPTIONS=$ASAN_BASE LD_PRELOAD=$SHIM FAILMALLOC_NTH=$n \
			"$SB" --db t.db $cmd >t.out 2>t.err
		status=$?
		why=
		# a report file is the clean run's, or absent
		if [ "$scenario" = nightly ] && [ -d out ]; then
			# (the heartbeat says how this night ended: its exit status)
			if [ -f out/heartbeat.json ] && ! grep -q "\"status\":$status," out/heartbeat.json; then
				why="$why, out/heartbeat.json does not say exit $status"
			fi
			for f in $(cd out && find . -type f ! -name '.*' ! -name heartbeat.json); do
				# (the page's commands name the ledger: t.db here, clean.db there)
				sed 's/--db t\.db /--db clean.db /g' "out/$f" | cmp -s - "clean-out/$f" ||
					why="$why, out/$f is not the clean run's"
			done
		fi
		case $status in
		0|70) ;;
		*) why="exit $status" ;;
		esac
		if grep -q 'SEGV' t.err && grep -m1 '#0 ' t.err | grep -q 'libjansson'; then
			jansson=$((jansson + 1))
			status=jansson
			why=
		elif grep -q 'CHECK failed: sanitizer_linux_libcdep.cpp.*pthread_getattr_np' t.err; then
			status=asanthread
			why=
		elif grep -qE 'Sanitizer|runtime error|Segmentation|Aborted' t.err; then
			why="$why, a sanitizer report"
		fi
		# (nightly names the ledger in the commands it prints: t.db here)
		sed 's/--db t\.db /--db clean.db /g' t.out >t.norm
		if [ $status = 0 ] && { [ "$(digest t.db)" != "$want" ] || ! cmp -s t.norm clean.out; }; then
			why="$why, exit 0 with another result than the clean run"
		fi
		if ! "$SB" --db t.db check >check.out 2>&1; then
			why="$why, check fails: $(grep -v '^ok' check.out | head -3 | tr '\n' ' ')"
		fi
		if [ $status != 0 ]; then
			"$SB" --db t.db $cmd >again.out 2>&1
			again=$?
			case $scenario in
			reconcile|nightly) ;;
			*) [ $again = "$clean_status" ] || why="$why, again: exit $again" ;;
			esac
			if [ "$scenario" != reconcile ] && [ "$scenario" != nightly ] && [ "$(digest t.db)" != "$want" ]; then
				why="$why, again: another ledger than the clean run's"
			fi
			if [ "$scenario" = reconcile ] && ! cmp -s again.out clean.out; then
				why="$why, again: another result than the clean run's"
			fi
		fi
		case " $seen " in
		*" $status "*) ;;
		*) seen="$seen $status" ;;
		esac
		eval "count_$status=\$((\${count_$status:-0} + 1))"
		if [ -n "$why" ]; then
			bad=$((bad + 1))
			echo "FAIL $scenario: allocation $n failing:${why#,}"
			sed 's/^/    /' t.err | head -8
		fi
		n=$((n + every))
	done
	statuses=
	for s in $seen; do
		if [ "$s" = jansson ]; then
			statuses="$statuses, $count_jansson crashed in jansson (upstream)"
		elif [ "$s" = asanthread ]; then
			statuses="$statuses, $count_asanthread stopped by ASan starting a thread (upstream)"
		else
			statuses="$statuses, $(eval echo "\$count_$s") exit $s"
		fi
		eval "count_$s=0"
	done
	echo "failmalloc $scenario: $tried allocation failure points of $calls calls (every ${every}th from $((first + 1)))${statuses}; $bad failed"
	points=$((points + tried))
	bad_total=$((bad_total + bad))
done
echo "failmalloc: $points points, $bad_total failed"
[ $bad_total -eq 0 ]
