#!/bin/sh
# unit_on_pg.sh DIR TEST: run the unit test binary TEST on PostgreSQL
# ledgers of the cluster of tools/pg_cluster.sh at DIR
# (SBLEDGER_TEST_PG_DIR: support_memory_ledger gives one), its output
# kept and shown only when it fails; one line when it passes.  make
# pg-tests runs two at a time (each makes databases of its own names), so
# that one test's waits on the server overlap the other's work.
set -u
if [ $# -ne 2 ]; then
	echo "usage: sh tests/pg/unit_on_pg.sh DIR TEST" >&2
	exit 2
fi
log=$(mktemp "${TMPDIR:-/tmp}/sbledger-unit.XXXXXX") || exit 70
trap 'rm -f "$log"' EXIT
if SBLEDGER_TEST_PG_DIR=$1 "$2" >"$log" 2>&1; then
	echo "== $(basename "$2") (PostgreSQL): $(grep -o 'PASSED  \] [0-9]* test' "$log" | grep -o '[0-9]*') passed"
	exit 0
fi
echo "== $(basename "$2") (PostgreSQL): FAILED"
cat "$log"
exit 1
