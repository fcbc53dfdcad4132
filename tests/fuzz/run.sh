#!/bin/sh
# run.sh: run the libFuzzer targets built by the Makefile.
#
#   sh tests/fuzz/run.sh [--check] [--seconds N] build/fuzz/fuzz_NAME...
#
# For each target, tests/fuzz/corpus/NAME/ is its seed corpus: inputs made
# from the samples, hand-written edge cases, and every input that once
# crashed it (regress-*), kept as regression tests.
#
#   --check      (make check) replay every corpus input once, then fuzz
#                for N seconds (default 3) into a scratch corpus that is
#                thrown away;
#   otherwise    (make fuzz) fuzz for N seconds (default 60) into
#                build/fuzz/corpus/NAME/, which grows from run to run,
#                reading the seed corpus too.
#
# A crash, a sanitizer report, a leak, a timeout (10 s) or an input that
# takes more than 2 GiB fails the target; the input is saved under
# build/fuzz/crashes/ (replay it: build/fuzz/fuzz_NAME FILE; once fixed,
# copy it to tests/fuzz/corpus/NAME/regress-WHAT).  Prints one line per
# target with its executions, then "fuzz: N targets, M failed"; exits 1
# when one failed.

set -u
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
check=0
seconds=
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1; shift ;;
	--seconds) seconds=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ -z "$seconds" ]; then
	if [ $check = 1 ]; then seconds=3; else seconds=60; fi
fi

crashes=$repo/build/fuzz/crashes
mkdir -p "$crashes"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-fuzz.XXXXXX") || exit 70
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM
# Leaks fail a target as crashes do; a short input never takes 10 s.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export ASAN_OPTIONS UBSAN_OPTIONS
opts="-timeout=10 -rss_limit_mb=2048 -print_final_stats=0"

targets=0
failed=0
total_runs=0
for bin in "$@"; do
	name=$(basename "$bin")
	name=${name#fuzz_}
	seeds=$here/corpus/$name
	log=$scratch/$name.log
	targets=$((targets + 1))
	if [ ! -x "$bin" ] || [ ! -d "$seeds" ]; then
		echo "FAIL fuzz_$name: no program $bin or no corpus $seeds"
		failed=$((failed + 1))
		continue
	fi
	inputs=$(find "$seeds" -type f | wc -l)
	if [ $check = 1 ]; then
		# every corpus input once: the regression tests
		if ! "$bin" $opts -runs=0 "$seeds" >"$log" 2>&1; then
			echo "FAIL fuzz_$name: an input of $seeds fails:"
			grep -E 'ERROR|SUMMARY|property failed|Running:|Test unit' "$log" | head -10 | sed 's/^/    /'
			failed=$((failed + 1))
			continue
		fi
		work=$scratch/corpus-$name
	else
		work=$repo/build/fuzz/corpus/$name
	fi
	mkdir -p "$work"
	if "$bin" $opts -max_total_time="$seconds" -artifact_prefix="$crashes/$name-" \
		"$work" "$seeds" >"$log" 2>&1; then
		runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
		secs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\2/p' "$log" | tail -1)
		total_runs=$((total_runs + ${runs:-0}))
		echo "fuzz_$name: $inputs corpus inputs, ${runs:-?} executions in ${secs:-?} s, no crash"
	else
		echo "FAIL fuzz_$name: crashed while fuzzing:"
		grep -E 'ERROR|SUMMARY|property failed|Test unit written' "$log" | head -10 | sed 's/^/    /'
		failed=$((failed + 1))
	fi
done
echo "fuzz: $targets targets, $failed failed, $total_runs executions"
[ $failed -eq 0 ]
