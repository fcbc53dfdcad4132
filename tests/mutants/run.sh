#!/bin/sh
# run.sh: make mutants.  Break one rule at a time and see which tests fail.
#
#   sh tests/mutants/run.sh [--listed] [NAME...]
#
# NAME is a mutation (tests/mutants/NAME.mut, or its prefix: M1); none
# means every one.  The tree is copied (the files git knows of and the
# untracked ones it does not ignore, working changes included) to a
# temporary directory; the real tree is never written.  The copy is built
# once without the sanitizers (build/san there, with SANFLAGS="-O1 -g",
# for speed) and the whole quick suite (what make test runs: every unit
# test binary, every command-line case, the HTTP tests) must pass on it.
# Then for each mutation: a fresh copy of that build, the mutation applied
# (tests/mutants/apply.py: its snippet must occur exactly once in the C
# and SQL sources), an incremental build, the suite again (the unit
# binaries, chunks of the command-line cases and the HTTP tests as
# MUTANTS_JOBS parallel jobs, default one per CPU), and the tests that
# failed recorded: unit tests as BINARY:TEST, cases as cli:NAME, HTTP
# checks as http:NAME.  With --listed, only the tests a mutation names
# in its "tests:" header are run (quicker; the report then counts only
# those).
#
# Prints per mutation "CAUGHT by N tests: ..." or "SURVIVED", then a
# summary; exits 1 when a mutation survived, failed to build, or its
# snippet is not found exactly once (a rule that moved must be found again
# by hand, never pass unnoticed), 70 when the unmutated copy fails.

set -u
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
jobs=${MUTANTS_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
flags=${MUTANTS_CFLAGS:--O1 -g}
apply=$here/apply.py
listed=0
if [ "${1:-}" = --listed ]; then
	listed=1
	shift
fi

muts=
if [ $# -eq 0 ]; then
	muts=$(ls "$here"/*.mut)
else
	for n in "$@"; do
		f=$(ls "$here/$n.mut" "$here/${n}_"*.mut 2>/dev/null | head -n 1)
		if [ -z "$f" ]; then
			echo "mutants: no mutation $n in tests/mutants" >&2
			exit 64
		fi
		muts="$muts $f"
	done
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-mutants.XXXXXX") || exit 70
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# Every snippet first, against the real tree (read only): one that is
# not found exactly once fails now, before the long part.
missing=
for m in $muts; do
	python3 "$apply" check "$repo" "$m" || missing="$missing $(basename "$m" .mut)"
done

# The copy.
mkdir -p "$tmp/base"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard | \
	tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$tmp/base" || exit 70
tests=$(cd "$tmp/base" && ls tests/test_*.c | sed 's|^tests/\(.*\)\.c$|build/san/tests/\1|')

# build DIR: the sbledger of the command-line tests (build/san/sbledger,
# and ./sbledger for the memory cases) and the unit test binaries.
build() {
	# shellcheck disable=SC2086
	make -C "$1" --no-print-directory -j"$jobs" SANFLAGS="$flags" build/san/sbledger sbledger $tests \
		>"$1/build.log" 2>&1
}

# suite DIR OUT [TESTS]: run the suite (or the named tests: unit binaries
# test_X, cli:NAME, http) in the copy DIR; the failed tests, one a line,
# into OUT.
suite() {
	dir=$1 out=$2 only=${3:-}
	res=$dir/results
	rm -rf "$res"
	mkdir -p "$res"
	: >"$res/jobs"
	for t in $tests; do
		n=${t##*/}
		if [ -z "$only" ] || echo " $only " | grep -q " $n "; then
			echo "unit $n" >>"$res/jobs"
		fi
	done
	if [ -z "$only" ]; then
		# the cases in chunks of about ten (the slow ones spread out)
		(cd "$dir/tests/cli/cases" && ls *.sh | sed 's/\.sh$//') | \
			awk -v n=20 '{ c[NR % n] = c[NR % n] " " $0 } END { for (i in c) print "cli" c[i] }' >>"$res/jobs"
		echo "http" >>"$res/jobs"
	else
		cases=$(for w in $only; do case $w in cli:*) printf ' %s' "${w#cli:}" ;; esac; done)
		[ -n "$cases" ] && echo "cli$cases" >>"$res/jobs"
		echo " $only " | grep -q ' http ' && echo "http" >>"$res/jobs"
	fi
	# each job: its output into results/N.log, then its failures
	awk '{ print NR " " $0 }' "$res/jobs" | xargs -P "$jobs" -L 1 sh -c '
		dir=$1 n=$2 kind=$3
		shift 3
		log=$dir/results/$n.log
		case $kind in
		unit)
			(cd "$dir" && timeout 300 "build/san/tests/$1") >"$log" 2>&1
			st=$?
			fails=$(sed -n "s/^\[  FAILED  \] \([A-Za-z0-9_]*\)$/\1/p" "$log" | sort -u)
			for f in $fails; do echo "$1:$f"; done >"$log.fail"
			if [ $st -ne 0 ] && [ -z "$fails" ]; then echo "$1:(exit $st)" >"$log.fail"; fi ;;
		cli)
			(cd "$dir" && SBLEDGER="$dir/build/san/sbledger" sh tests/cli/run.sh "$@") >"$log" 2>&1
			sed -n "s/^FAIL \(.*\)$/cli:\1/p" "$log" >"$log.fail" ;;
		http)
			(cd "$dir" && SBLEDGER="$dir/build/san/sbledger" timeout 600 sh tests/http/run.sh) >"$log" 2>&1
			st=$?
			sed -n "s/^FAIL \(.*\)$/\1/p" "$log" | tr " " _ | sed "s/^/http:/" | sort -u >"$log.fail"
			if [ $st -ne 0 ] && [ ! -s "$log.fail" ]; then echo "http:(exit $st)" >"$log.fail"; fi ;;
		esac
	' sh "$dir"
	cat "$res"/*.fail 2>/dev/null | sort -u >"$out"
}

start=$(date +%s)
echo "mutants: building the unmutated copy in $tmp/base"
if ! build "$tmp/base"; then
	tail -n 30 "$tmp/base/build.log"
	echo "mutants: the unmutated tree does not build" >&2
	exit 70
fi
suite "$tmp/base" "$tmp/base.fail"
if [ -s "$tmp/base.fail" ]; then
	echo "mutants: the unmutated tree fails these tests (fix them first):" >&2
	sed 's/^/  /' "$tmp/base.fail" >&2
	# and what they printed
	for log in $(grep -l '^FAIL\|FAILED' "$tmp/base/results"/*.log 2>/dev/null); do
		echo "== $log" >&2
		sed -n '/^FAIL\|FAILED/,$p' "$log" | head -n 60 >&2
	done
	exit 70
fi
echo "mutants: the unmutated copy passes the suite ($(( $(date +%s) - start )) s)"

summary=$tmp/summary
: >"$summary"
bad=0
for m in $muts; do
	name=$(basename "$m" .mut)
	t0=$(date +%s)
	case " $missing " in
	*" $name "*)
		echo "$name: SNIPPET NOT FOUND EXACTLY ONCE ($(python3 "$apply" get rule "$m"))" | tee -a "$summary"
		bad=1
		continue ;;
	esac
	rm -rf "$tmp/mut"
	cp -a "$tmp/base" "$tmp/mut"
	if ! where=$(python3 "$apply" apply "$tmp/mut" "$m" | sort -u | paste -sd " " -); [ -z "$where" ]; then
		echo "$name: SNIPPET NOT FOUND EXACTLY ONCE" | tee -a "$summary"
		bad=1
		continue
	fi
	if ! build "$tmp/mut"; then
		echo "$name: DOES NOT BUILD (in $where): rewrite the mutation" | tee -a "$summary"
		sed 's/^/    /' "$tmp/mut/build.log" | grep -m 5 error
		bad=1
		continue
	fi
	only=
	[ $listed = 1 ] && only=$(python3 "$apply" get tests "$m")
	suite "$tmp/mut" "$tmp/mut.fail" "$only"
	n=$(wc -l <"$tmp/mut.fail" | tr -d ' ')
	secs=$(( $(date +%s) - t0 ))
	if [ "$n" -eq 0 ]; then
		echo "$name: SURVIVED ($where; $secs s)" | tee -a "$summary"
		echo "    rule: $(python3 "$apply" get rule "$m")"
		bad=1
	else
		echo "$name: CAUGHT by $n tests ($where; $secs s):" | tee -a "$summary"
		sed 's/^/    /' "$tmp/mut.fail" | tee -a "$summary"
	fi
done

echo
echo "mutants: summary ($(( $(date +%s) - start )) s)"
grep -v '^    ' "$summary" | sed 's/^/  /'
if [ $bad -ne 0 ]; then
	echo "mutants: FAILED: a mutation survived, did not build or was not found"
	exit 1
fi
echo "mutants: every mutation was caught"
