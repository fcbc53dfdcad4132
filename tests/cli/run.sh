#!/bin/sh
# run.sh: the command-line tests.
#
#   sh tests/cli/run.sh [NAME...]         run every case (or the named ones)
#   UPDATE=1 sh tests/cli/run.sh [NAME...] rewrite the expected output
#
# A case is tests/cli/cases/NAME.sh, a plain sh script run in a fresh empty
# temporary directory; what it prints (stdout and stderr together) must
# equal tests/cli/cases/NAME.out byte for byte.  It sees:
#
#   SB        the sbledger under test ($SBLEDGER, else ./sbledger of the repo)
#   SAMPLES   the sample inputs (examples/samples of the repository)
#   FIX       tests/cli/fixtures (absolute)
#   REPO      the repository
#   SBLEDGER_NOW=2026-11-30T12:00:00Z, TZ=UTC, LC_ALL=C; SBLEDGER_DB unset
#
# and the function `sb ARGS...`, which runs "$SB" ARGS, then prints its
# standard output as it is, its standard error with each line prefixed by
# "[stderr] ", and "[exit N]".  Cases copy their inputs into the temporary
# directory and name them relatively, so that no machine-dependent path
# appears in the output.  After UPDATE=1, read every rewritten .out file
# and check it by hand before committing it.
#
# Cases run CLI_JOBS at a time (default: one per online CPU; each in its
# own directory, so they cannot meet), those with a line "# cli-tests:
# alone" (they kill a process after a delay, or time a wait) one at a time
# after the others; then their outputs are compared in the order of their
# names.  Prints one line per failing case with a
# unified diff, then "cli: N passed, M failed"; exits 1 when a case failed.

set -u
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

# sb ARGS...: run the sbledger under test as described above.
sb() {
	"$SB" "$@" >"$SB_CAPTURE/out" 2>"$SB_CAPTURE/err"
	sb_status=$?
	cat "$SB_CAPTURE/out"
	if [ -s "$SB_CAPTURE/out" ] && [ "$(tail -c 1 "$SB_CAPTURE/out" | od -An -c | tr -d ' ')" != '\n' ]; then
		printf '\n[no newline at the end of stdout]\n'
	fi
	sed 's/^/[stderr] /' "$SB_CAPTURE/err"
	echo "[exit $sb_status]"
	return 0
}

# Run one case (the runner calls itself so that each case can be timed out).
if [ "${1:-}" = "--one" ]; then
	cd "$2" || exit 70
	. "$3"
	exit 0
fi

# --case SCRATCH SCRIPT: run one case into SCRATCH/NAME/actual (run by
# xargs, CLI_JOBS at a time).
if [ "${1:-}" = "--case" ]; then
	name=$(basename "$3" .sh)
	work=$2/$name
	mkdir -p "$work/cwd" "$work/capture"
	SB_CAPTURE=$work/capture timeout 300 sh "$here/run.sh" --one "$work/cwd" "$3" \
		</dev/null >"$work/actual" 2>&1
	status=$?
	if [ $status -ne 0 ]; then
		echo "[case exited $status]" >>"$work/actual"
	fi
	exit 0
fi

SB=${SBLEDGER:-$repo/sbledger}
case $SB in
/*) ;;
*) SB=$(pwd)/$SB ;;
esac
if [ ! -x "$SB" ]; then
	echo "run.sh: no sbledger at $SB (build it, or set SBLEDGER)" >&2
	exit 70
fi
if ! SAMPLES=$(cd "$repo/examples/samples" 2>/dev/null && pwd); then
	echo "run.sh: no sample files at $repo/examples/samples" >&2
	exit 70
fi
FIX=$here/fixtures
REPO=$repo
SBLEDGER_NOW=2026-11-30T12:00:00Z
TZ=UTC
export SB SAMPLES FIX REPO SBLEDGER_NOW TZ
unset SBLEDGER_DB

if [ $# -gt 0 ]; then
	cases=
	for name in "$@"; do
		cases="$cases $here/cases/$name.sh"
	done
else
	cases=$(ls "$here"/cases/*.sh)
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-cli.XXXXXX") || exit 70
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM

jobs=${CLI_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
# the cases that kill a process after a delay or wait on another run
# alone, after the others ("# cli-tests: alone" among their lines)
alone=$(grep -l '^# cli-tests: alone' $cases 2>/dev/null || true)
together=
for script in $cases; do
	case " $(echo $alone) " in
	*" $script "*) ;;
	*) together="$together $script" ;;
	esac
done
# shellcheck disable=SC2086
printf '%s\n' $together | xargs -P "$jobs" -I{} sh "$here/run.sh" --case "$scratch" {}
for script in $alone; do
	sh "$here/run.sh" --case "$scratch" "$script"
done

passed=0
failed=0
for script in $cases; do
	name=$(basename "$script" .sh)
	expected=${script%.sh}.out
	work=$scratch/$name
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$work/actual" "$expected"
		echo "updated $name"
		passed=$((passed + 1))
	elif [ -f "$expected" ] && cmp -s "$expected" "$work/actual"; then
		passed=$((passed + 1))
	else
		echo "FAIL $name"
		if [ -f "$expected" ]; then
			diff -u "$expected" "$work/actual" | sed 's/^/    /'
		else
			echo "    no $expected; its output was:"
			sed 's/^/    /' "$work/actual"
		fi
		failed=$((failed + 1))
	fi
	rm -rf "$work"
done
echo "cli: $passed passed, $failed failed"
[ $failed -eq 0 ]
