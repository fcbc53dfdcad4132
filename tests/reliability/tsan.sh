#!/bin/sh
# tsan.sh: the import's thread pool under ThreadSanitizer (make tsan).
#
#   SBLEDGER=build/tsan/sbledger sh tests/reliability/tsan.sh build/tsan/tests/test_import_threads
#
# Both programs are built with -fsanitize=thread (make tsan builds them).
# First the unit tests of the threaded import (every kind of line, 1, 2,
# 3 and 7 threads, the pool and the arena); then sbledger imports a few
# thousand generated runs (bench/gen_runs.py, with repeated lines) with
# --threads 4 and small chunks, and with --threads 1 into another ledger:
# both must say the same and hold the same runs.  Any report of
# ThreadSanitizer (a data race, a lock misused) fails the run: it exits
# with status 66 and the report is printed.  Prints "tsan: passed" or
# "FAIL ..." lines; exits 1 when anything failed.

set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
SB=${SBLEDGER:-$repo/build/tsan/sbledger}
TEST=${1:-$repo/build/tsan/tests/test_import_threads}
RUNS=${TSAN_RUNS:-3000}
[ -x "$SB" ] || { echo "tsan.sh: no sbledger at $SB (make tsan builds it)" >&2; exit 70; }
[ -x "$TEST" ] || { echo "tsan.sh: no test at $TEST (make tsan builds it)" >&2; exit 70; }
# halt at the first report, with its own exit status (66, which neither
# program uses for anything it prints no message for)
TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1${TSAN_OPTIONS:+ $TSAN_OPTIONS}"
export TSAN_OPTIONS

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-tsan.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() {
	echo "FAIL $*"
	failed=1
}

"$TEST" >"$tmp/unit.out" 2>&1
status=$?
if [ $status -ne 0 ]; then
	cat "$tmp/unit.out"
	fail "test_import_threads (status $status)"
fi

python3 "$repo/bench/gen_runs.py" --runs "$RUNS" --seed 15 --dup-rate 0.05 --out "$tmp/runs.jsonl" 2>/dev/null ||
	fail "gen_runs.py"
for threads in 4 1; do
	db="$tmp/t$threads.db"
	"$SB" --db "$db" init >/dev/null 2>"$tmp/init$threads.err" || { cat "$tmp/init$threads.err"; fail "init"; }
	"$SB" --db "$db" import runs --threads "$threads" --chunk 250 "$tmp/runs.jsonl" >"$tmp/import$threads.out" 2>&1
	status=$?
	if [ $status -ne 0 ]; then
		cat "$tmp/import$threads.out"
		fail "import runs --threads $threads (status $status)"
	fi
	sed "s|$tmp/||" "$tmp/import$threads.out" >"$tmp/said$threads"
	sqlite3 "$db" "SELECT run_id, backend, session_id, started_ms, computed_nanos, exec_count FROM run ORDER BY run_id;
	               SELECT COUNT(*) FROM execution; SELECT accepted, duplicates, rejected FROM batch" \
		>"$tmp/held$threads" 2>&1 || fail "sqlite3 on $db"
done
cmp -s "$tmp/said4" "$tmp/said1" || { diff "$tmp/said4" "$tmp/said1"; fail "--threads 4 and 1 say different things"; }
cmp -s "$tmp/held4" "$tmp/held1" || fail "--threads 4 and 1 hold different runs"
[ "$(sed -n '$p' "$tmp/held4")" = "$RUNS|$(($(wc -l <"$tmp/runs.jsonl") - RUNS))|0" ] ||
	fail "the batch counts $(sed -n '$p' "$tmp/held4") are not $RUNS accepted, the repeats duplicates, none rejected"
if [ $failed -eq 0 ]; then
	echo "tsan: passed: test_import_threads; $(cat "$tmp/said4") (--threads 4, the same as 1)"
fi
exit $failed
