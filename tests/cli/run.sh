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
#   SB        sbledger, the name of the sbledger under test ($SBLEDGER, else
#             ./sbledger of the repo), found by PATH as an installed one is
#             (its directory first on PATH, or a link to it in the runner's
#             scratch directory when its file has another name)
#   SAMPLES   the sample inputs (examples/samples of the repository)
#   FIX       tests/cli/fixtures (absolute)
#   REPO      the repository
#   SBLEDGER_NOW=2026-11-30T12:00:00Z, TZ=UTC, LC_ALL=C; SBLEDGER_DB unset
#
# and the function `sb ARGS...`, which runs "$SB" ARGS, then prints its
# standard output as it is, its standard error with each line prefixed by
# "[stderr] ", and "[exit N]".  A command the program suggests names the
# program as it was run (docs/rules.md): run by a name without a slash, it
# says "sbledger", whatever build or wrapper is under test, so the .out
# files hold no path of this machine; a case about a program run by its
# path (cron's ./sbledger) links one: ln -s "$(command -v "$SB")" ./sbledger.
# Cases copy their inputs into the temporary
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
#
# The PostgreSQL engine: CLI_ENGINE=pg CLI_PG_DIR=DIR (a cluster running
# from tools/pg_cluster.sh start DIR; make cli-tests-pg does it all) runs
# the same cases against the same .out files, each case with a fresh
# database of its own (cli_NAME, dropped after it) named by SBLEDGER_DB
# instead of ./sbledger.db.  So that a case reads the same on both engines:
#
#   - the database's URL in the output, quoted ('URL') or not, is replaced
#     by ./sbledger.db (the name the default ledger has in messages), and
#     "--db URL " in a command line the program suggests is left out (a
#     ledger from $SBLEDGER_DB, as the default one, is named by no --db in
#     them, but init's 'sbledger --db ./sbledger.db init' names the ledger
#     it creates), in an HTML page too;
#   - the function sqlite3 runs SQL given for sbledger.db or ./sbledger.db
#     (its second argument, else its standard input) through psql on the
#     case's database, printing rows as sqlite3 does (a|b, NULL empty) and
#     errors of constraints and triggers as sqlite3 words them; for any
#     other file it is the real sqlite3;
#   - the function rm, given sbledger.db (or sbledger.db*), starts the
#     case's database over, as removing the file starts a SQLite ledger
#     over.
#
# Cases about the SQLite file itself (its modes, links, -lock file, WAL,
# PRAGMA, .dump, Python's sqlite3 module) have a line "# cli-tests: sqlite
# (why)"; in this mode they are skipped, and after the summary line the
# runner prints "cli: skipped K (sqlite only): NAME...".  UPDATE=1 is
# refused in this mode: the .out files are written with SQLite.

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

# In PostgreSQL mode (CLI_PG_URL: the case's database; CLI_PG_NAME, its name):
# pg_sql: run the SQL on standard input through psql as sqlite3 would.
pg_sql() {
	pg_sql_err=$SB_CAPTURE/psql.err
	PGOPTIONS='-c client_min_messages=warning' \
		command psql -XAtq -F'|' -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -d "$CLI_PG_URL" -f - 2>"$pg_sql_err"
	pg_sql_status=$?
	# psql's "psql:<stdin>:1: ERROR:  CODE: MESSAGE" and the fields below
	# it, worded as sqlite3 words the same error, with its exit status
	# (19 for a constraint, a trigger's RAISE included; else 1)
	awk '
	/^psql:.*(ERROR|FATAL):  / {
		sub(/^psql:[^ ]* (ERROR|FATAL):  /, ""); code = substr($0, 1, 5); msg = substr($0, 8); next
	}
	/^DETAIL:  Key \(/ { cols = $0; sub(/^DETAIL:  Key \(/, "", cols); sub(/\)=.*/, "", cols); next }
	/^TABLE NAME:  / { table = substr($0, 14); next }
	/^COLUMN NAME:  / { column = substr($0, 15); next }
	/^CONSTRAINT NAME:  / { constraint = substr($0, 19); next }
	/^(LINE [0-9]+|HINT|CONTEXT|LOCATION|SCHEMA NAME|DATATYPE NAME|QUERY|STATEMENT):/ { next }
	/^ *\^$/ { next }
	code == "" { print; next }
	END {
		if (code == "") exit 1
		status = 19
		if (code == "23505") {
			n = split(cols, c, /, /)
			what = ""
			for (i = 1; i <= n; i++) what = what (i > 1 ? ", " : "") table "." c[i]
			print "Error: stepping, UNIQUE constraint failed: " what " (19)"
		} else if (code == "23502") {
			print "Error: stepping, NOT NULL constraint failed: " table "." column " (19)"
		} else if (code == "23514") {
			print "Error: stepping, CHECK constraint failed: " constraint " (19)"
		} else if (code == "23503") {
			print "Error: stepping, FOREIGN KEY constraint failed (19)"
		} else if (code ~ /^(23|P0)/) {
			print "Error: stepping, " msg " (19)"
		} else if (code ~ /^42/) {
			print "Error: in prepare, " msg
			status = 1
		} else {
			print "Error: " msg
			status = 1
		}
		exit status
	}' "$pg_sql_err" >&2
	pg_sql_awk=$?
	[ $pg_sql_status -eq 0 ] && return 0
	return $pg_sql_awk
}

# sqlite3 DB [SQL...]: the case's database for sbledger.db, else sqlite3
pg_sqlite3() {
	case ${1:-} in
	sbledger.db | ./sbledger.db) ;;
	*)
		command sqlite3 "$@"
		return
		;;
	esac
	shift
	case ${1:-} in
	.* | -*)
		echo "run.sh: sqlite3 sbledger.db $1: not run on PostgreSQL (mark the case '# cli-tests: sqlite')" >&2
		return 1
		;;
	esac
	if [ $# -eq 0 ]; then
		pg_sql
	else
		printf '%s\n' "$@" | pg_sql
	fi
}

# rm ARGS...: sbledger.db among them starts the case's database over
pg_rm() {
	for pg_rm_arg in "$@"; do
		case $pg_rm_arg in
		sbledger.db* | ./sbledger.db*)
			sh "$repo/tools/pg_cluster.sh" createdb "$CLI_PG_DIR" "$CLI_PG_NAME" >/dev/null || return 1
			break
			;;
		esac
	done
	command rm "$@"
}

# Run one case (the runner calls itself so that each case can be timed out).
if [ "${1:-}" = "--one" ]; then
	if [ "${CLI_ENGINE:-sqlite}" = pg ]; then
		sqlite3() { pg_sqlite3 "$@"; }
		rm() { pg_rm "$@"; }
	fi
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
	if [ "${CLI_ENGINE:-sqlite}" = pg ]; then
		# cli_NAME: lower case, and any other character _ (then a checksum
		# of the name, so that two names cannot meet in one)
		CLI_PG_NAME=cli_$(printf '%s' "$name" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9_' '_' | cut -c1-40)
		[ "cli_$name" = "$CLI_PG_NAME" ] || CLI_PG_NAME=${CLI_PG_NAME}_$(printf '%s' "$name" | cksum | cut -d' ' -f1)
		if ! CLI_PG_URL=$(sh "$repo/tools/pg_cluster.sh" createdb "$CLI_PG_DIR" "$CLI_PG_NAME" 2>"$work/capture/createdb.err"); then
			{ echo "[no database for the case]"; cat "$work/capture/createdb.err"; } >"$work/actual"
			exit 0
		fi
		SBLEDGER_DB=$CLI_PG_URL
		export CLI_PG_NAME CLI_PG_URL SBLEDGER_DB
	fi
	SB_CAPTURE=$work/capture timeout 300 sh "$here/run.sh" --one "$work/cwd" "$3" \
		</dev/null >"$work/actual" 2>&1
	status=$?
	if [ $status -ne 0 ]; then
		echo "[case exited $status]" >>"$work/actual"
	fi
	if [ "${CLI_ENGINE:-sqlite}" = pg ]; then
		# the database's URL reads as the default ledger's name; messages
		# quote it ('URL': ? & = are not plain in a shell word), the
		# name ./sbledger.db they do not
		# name ./sbledger.db they do not; a command line the program
		# suggests names it with --db, which the default ledger's
		# suggestion leaves out (an HTML page writes it escaped)
		awk -v url="$CLI_PG_URL" '
		function swap(s, from, to,    out, i) {
			out = ""
			while ((i = index(s, from)) > 0) {
				out = out substr(s, 1, i - 1) to
				s = substr(s, i + length(from))
			}
			return out s
		}
		BEGIN { html = url; gsub(/&/, "\\&amp;", html) }
		{
			# (but for init: the default ledger is named, --db ./sbledger.db)
			s = swap($0, "--db \047" url "\047 init", "--db ./sbledger.db init")
			s = swap(s, "--db " url " init", "--db ./sbledger.db init")
			s = swap(s, "--db \047" url "\047 ", "")
			s = swap(s, "--db " url " ", "")
			s = swap(s, "--db &#39;" html "&#39; ", "")
			s = swap(s, "&#39;" html "&#39;", "./sbledger.db")
			print swap(swap(s, "\047" url "\047", "./sbledger.db"), url, "./sbledger.db")
		}' "$work/actual" >"$work/actual.pg" &&
			mv "$work/actual.pg" "$work/actual"
		sh "$repo/tools/pg_cluster.sh" dropdb "$CLI_PG_DIR" "$CLI_PG_NAME" >>"$work/actual" 2>&1
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
case ${CLI_ENGINE:-sqlite} in
sqlite) ;;
pg)
	if [ -z "${CLI_PG_DIR:-}" ]; then
		echo "run.sh: CLI_ENGINE=pg needs CLI_PG_DIR, a cluster of tools/pg_cluster.sh start DIR" >&2
		exit 64
	fi
	if [ "${UPDATE:-}" = 1 ]; then
		echo "run.sh: UPDATE=1 writes the .out files with SQLite: run it without CLI_ENGINE=pg" >&2
		exit 64
	fi
	sh "$repo/tools/pg_cluster.sh" url "$CLI_PG_DIR" >/dev/null || exit 70
	export CLI_ENGINE CLI_PG_DIR
	;;
*)
	echo "run.sh: CLI_ENGINE is sqlite or pg, not '$CLI_ENGINE'" >&2
	exit 64
	;;
esac

if [ $# -gt 0 ]; then
	cases=
	for name in "$@"; do
		cases="$cases $here/cases/$name.sh"
	done
else
	cases=$(ls "$here"/cases/*.sh)
fi
# on PostgreSQL, the cases about the SQLite file are left out
skipped=
if [ "${CLI_ENGINE:-sqlite}" = pg ]; then
	sqlite_only=$(grep -l '^# cli-tests: sqlite' $cases 2>/dev/null || true)
	kept=
	for script in $cases; do
		case " $(echo $sqlite_only) " in
		*" $script "*) skipped="$skipped $(basename "$script" .sh)" ;;
		*) kept="$kept $script" ;;
		esac
	done
	cases=$kept
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-cli.XXXXXX") || exit 70
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM

# the program by its name on PATH (see SB above)
. "$repo/tests/support/on_path.sh"
sb_on_path "$SB" "$scratch" || exit 70
SB=sbledger
export SB

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
if [ -n "$skipped" ]; then
	# shellcheck disable=SC2086
	echo "cli: skipped $(echo $skipped | wc -w | tr -d ' ') (sqlite only):$skipped"
fi
[ $failed -eq 0 ]
