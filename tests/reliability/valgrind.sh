#!/bin/sh
# valgrind.sh: the command-line tests with every sbledger under valgrind.
#
#   sh tests/reliability/valgrind.sh [--quick] [CASE...]
#
# SBLEDGER is the sbledger to check: an ordinary build (make's ./sbledger;
# not an ASan build, which valgrind cannot run).  Runs tests/cli/run.sh
# with SBLEDGER set to a wrapper that runs it under
#
#   valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect,possible
#            --error-exitcode=99
#
# so that every case must still give its expected output (an error shows
# as a different exit status), and valgrind's log of each process must be
# empty (-q: it writes only errors and leaks).  With no CASE, every case
# but those of SKIP below (about twenty minutes); --quick runs the QUICK
# list below, which make check
# uses (about two minutes): imports of good and bad input (runs and every
# billing format), reconcile, reports, invoices, nightly, fetch errors, the
# ledger's refusals, output errors.  (The hostile_* cases, with records of
# tens of MB, take minutes each under valgrind; make check runs them under
# ASan; so do init and sql_text_verbatim, left out of QUICK for time: the
# first is in every case, the second stores text through the same import
# paths as import_samples, 37 s under valgrind.)  Prints the CLI
# runner's result, then "valgrind: N processes, M with errors"; exits 1
# when a case failed or a process had an error or a leak.

set -u
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
REAL=${SBLEDGER:-$repo/sbledger}
case $REAL in
/*) ;;
*) REAL=$(pwd)/$REAL ;;
esac
QUICK="check import_samples import_bad_lines report_samples output_errors ledger_refusals
nightly_symlinks secrets_nowhere file_modes"
# kill_resume kills imports after delays shorter than valgrind's start-up:
# under valgrind its kills land before any import begins
SKIP="kill_resume"
cases=
if [ $# -eq 0 ]; then
	for c in "$repo"/tests/cli/cases/*.sh; do
		c=$(basename "$c" .sh)
		case " $SKIP " in *" $c "*) ;; *) cases="$cases $c" ;; esac
	done
elif [ "${1:-}" = "--quick" ]; then
	shift
	for c in $QUICK; do
		[ -f "$repo/tests/cli/cases/$c.sh" ] && cases="$cases $c"
	done
fi
cases="$cases $*"
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed" >&2; exit 70; }
[ -x "$REAL" ] || { echo "valgrind.sh: no sbledger at $REAL" >&2; exit 70; }
if nm "$REAL" 2>/dev/null | grep -q __asan_init; then
	echo "valgrind.sh: $REAL is an ASan build; give an ordinary one (make sbledger)" >&2
	exit 70
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-valgrind.XXXXXX") || exit 70
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
# the wrapper and its logs are open to every user: some cases run sbledger
# as nobody (ledger_refusals)
chmod 755 "$work"
mkdir -m 1777 "$work/logs"
# The log goes to descriptor 9, opened by the wrapper: a log file valgrind
# opened itself would take the place of a standard stream a case closed,
# and the program's output would go there.
# A process that a closed pipe ended by SIGPIPE (status 141, as git ends;
# tests/cli/cases/exit_statuses) still held its memory when it died: that
# is no leak, so its log is emptied.
# The program is run by its name on PATH (a link to it in bin/), as the
# CLI runner runs it, so that the commands it suggests say "sbledger"
# (valgrind hands the program argv[0] as given).
mkdir "$work/bin" && ln -s "$REAL" "$work/bin/sbledger" || exit 70
cat >"$work/sbledger" <<EOF
#!/bin/sh
exec 9>"$work/logs/vg.\$\$"
PATH="$work/bin:\$PATH" valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \\
	--error-exitcode=99 --log-fd=9 sbledger "\$@"
status=\$?
[ \$status -eq 141 ] && : >"$work/logs/vg.\$\$"
exit \$status
EOF
chmod 755 "$work/sbledger"

SBLEDGER=$work/sbledger sh "$repo/tests/cli/run.sh" $cases
status=$?
processes=$(ls "$work/logs" | wc -l)
bad=0
for log in "$work"/logs/vg.*; do
	[ -s "$log" ] || continue
	bad=$((bad + 1))
	echo "valgrind errors in one process:"
	head -40 "$log" | sed 's/^/    /'
done
echo "valgrind: $processes processes, $bad with errors"
[ $status -eq 0 ] && [ $bad -eq 0 ]
