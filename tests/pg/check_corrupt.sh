#!/bin/sh
# check_corrupt.sh: 'sbledger check' on a PostgreSQL ledger whose stored
# executions were edited by hand into shapes the schema does not allow
# lists every problem, as on SQLite, instead of ending at the first check
# that cannot read them (docs/postgresql.md, "What differs").
#
#   sh tests/pg/check_corrupt.sh SBLEDGER DIR    (DIR: a cluster of tools/pg_cluster.sh)
#
# The sample runs are imported into a PostgreSQL ledger and into a SQLite
# file, and on both the executions of four runs are edited: a fraction, an
# exponent, a string counter, an execution of eight values.  On each,
# check must exit 65 (problems found), every check of sql/checks run, the
# shape check (07) listing the same rows on both.  On
# PostgreSQL the aggregates check (01), whose view cannot cast a fraction
# to an integer, is one problem saying so and naming its file; the checks
# after it run.  Prints "pg-check-corrupt: N passed, M failed"; exits 1
# when one failed.
set -u
if [ $# -ne 2 ]; then
	echo "usage: sh tests/pg/check_corrupt.sh SBLEDGER DIR" >&2
	exit 2
fi
SB=$1
dir=$2
cd "$(dirname "$0")/../.." || exit 70
here=$(pwd)/tests/reliability
. "$here/env.sh"
# holds NAME COMMAND...: a check that COMMAND succeeds
holds() {
	name=$1
	shift
	if "$@"; then pass; else fail "$name"; fi
}
work=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-corrupt.XXXXXX") || exit 70
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

url=$(sh tools/pg_cluster.sh createdb "$dir" check_corrupt) || exit 70
file=$work/ledger.db
edits="UPDATE run_execs SET execs = replace(execs, ',0,', ',1.5,') WHERE rid = 1;
UPDATE run_execs SET execs = replace(execs, ',0,', ',1e2,') WHERE rid = 2;
UPDATE run_execs SET execs = '[[\"ls\",0,\"12\",1,1,1,1,0,null]]' WHERE rid = 3;
UPDATE run_execs SET execs = '[[\"ls\",0,12,1,1,1,1,0]]' WHERE rid = 4;"
for db in "$url" "$file"; do
	"$SB" --db "$db" init >/dev/null || exit 70
	"$SB" --db "$db" import runs examples/samples/runs.jsonl >/dev/null || exit 70
done
printf '%s\n' "$edits" | psql -XAtq -v ON_ERROR_STOP=1 -d "$url" >/dev/null || exit 70
printf '%s\n' "$edits" | sqlite3 "$file" || exit 70

checks=$(ls sql/checks/*.sql | wc -l)
for engine in pg sqlite; do
	db=$url
	[ $engine = sqlite ] && db=$file
	"$SB" --db "$db" check >"$work/$engine.out" 2>"$work/$engine.err"
	eq "$engine: check exits 65 (problems found)" $? 65
	# all but the aggregates (01) and the shape (07) pass: each said ok
	eq "$engine: the other $((checks - 2)) checks ran and passed" \
		"$(grep -c '^ok ' "$work/$engine.out")" $((checks - 2))
	grep 'its execution\|its stored executions' "$work/$engine.out" | sort >"$work/$engine.07"
	eq "$engine: the shape check lists the four runs" "$(cut -d: -f1 "$work/$engine.07" | sort -u | wc -l)" 4
done
holds "both engines list the same shape problems" cmp -s "$work/pg.07" "$work/sqlite.07"
holds "PostgreSQL: check 01 could not run, said so, naming its file" \
	grep -q "^FAIL this check could not run: .*the ledger holds a value its schema does not allow (invalid input syntax for type bigint: \"1.5\").*(sql/checks/01_run_aggregates.sql)" "$work/pg.out"
holds "PostgreSQL: no internal error" sh -c "! grep -q 'internal\|PostgreSQL error' '$work/pg.err'"
echo "pg-check-corrupt: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
