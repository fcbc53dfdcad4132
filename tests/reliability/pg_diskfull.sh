#!/bin/sh
# pg_diskfull.sh: a PostgreSQL ledger whose server runs out of disk in the
# middle of an import (docs/postgresql.md, docs/reliability.md).
#
#   sh tests/reliability/pg_diskfull.sh            (starts its own cluster)
#   PG_DIR=DIR sh tests/reliability/pg_diskfull.sh (a cluster of tools/pg_cluster.sh)
#
# SBLEDGER is the sbledger under test (default ./sbledger of the repo).
#
# The ledger's database lives in a tablespace on a small tmpfs of its own
# (mounted here: this needs root, as make check runs; without root the
# test says it was skipped), so the server's own files and its WAL are
# not short of space and the error is the one a full data disk gives:
#
#  1. an import of runs committing every 500 records fills the disk: it
#     exits 74 with "disk full" on standard error and nothing on standard
#     output; the chunks committed before are kept and counted in the
#     batch, which is left running (to be resumed, as after a kill); with
#     room again (on a full disk even a read can fail: a new connection
#     writes the server's cache of the catalog, a sort its temporary
#     files), 'check' passes and a report reads the ledger;
#  2. the same import resumes where the last commit left it and ends
#     complete: the ledger's fingerprint (every table's natural content)
#     equals a SQLite ledger's given the file in one go, and 'check'
#     passes.
#
# Prints "FAIL NAME: why" for each failed check, then
# "pg-diskfull: N passed, M failed"; exits 1 when one failed.

set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
SB=${SBLEDGER:-$repo/sbledger}
[ -x "$SB" ] || { echo "pg_diskfull.sh: no sbledger at $SB" >&2; exit 70; }
cluster=$repo/tools/pg_cluster.sh

if [ "$(id -u)" != 0 ]; then
	echo "pg-diskfull: skipped: a small file system for the ledger is mounted as root only"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-pgfull.XXXXXX") || exit 70
chmod 0755 "$work"
space=$work/space
mkdir "$space" || exit 70
own=
if [ -z "${PG_DIR:-}" ]; then
	PG_DIR=$(mktemp -d /tmp/sbpg.XXXXXX) || exit 70
	own=1
	sh "$cluster" start "$PG_DIR" >/dev/null || exit 70
fi
mounted=
cleanup() {
	cd /
	# the database and the tablespace go before the file system under them
	psql -XAtq -d "$(sh "$cluster" url "$PG_DIR" postgres)" \
		-c 'DROP DATABASE IF EXISTS full_ledger' -c 'DROP TABLESPACE IF EXISTS sb_small' >/dev/null 2>&1
	[ -n "$mounted" ] && umount "$space"
	[ -n "$own" ] && { sh "$cluster" stop "$PG_DIR"; rm -rf "$PG_DIR"; }
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$work" || exit 70

# psql as the superuser on database NAME: one value
q() { psql -XAtq -d "$(sh "$cluster" url "$PG_DIR" "$1")" -c "$2"; }

# The server's user owns the tablespace's directory (tools/pg_cluster.sh
# runs the server as nobody when root starts it).
owner=$(stat -c %u "$PG_DIR/data")
# room for the database PostgreSQL copies from its template and the
# ledger's empty tables, and not for the runs
mount -t tmpfs -o "size=24m,uid=$owner,mode=0700" tmpfs "$space" ||
	{ echo "pg_diskfull.sh: cannot mount a tmpfs at $space" >&2; exit 70; }
mounted=1

python3 - <<'PY' || exit 70
import json, random
r = random.Random(5)
with open("runs.jsonl", "w") as f:
    for i in range(30000):
        d = [r.randint(1, 9000) for _ in range(r.randint(1, 4))]
        f.write(json.dumps({"run_id": "full-%06d" % i, "backend": r.choice(["e2b", "modal"]),
                            "session_id": "s%d" % (i // 3),
                            "started_at": "2026-11-%02dT10:00:00Z" % (1 + i % 28),
                            "tags": {"customer": "c%d" % (i % 4)},
                            "note": "x" * 400,
                            "sandbox_usage": {"exec_count": len(d), "total_duration_ms": sum(d),
                                              "executions": [{"command": "python step_%d.py" % k, "duration_ms": x}
                                                             for k, x in enumerate(d)]}}) + "\n")
PY

q postgres "CREATE TABLESPACE sb_small LOCATION '$space'" >/dev/null || exit 70
q postgres "CREATE DATABASE full_ledger TABLESPACE sb_small" >/dev/null || exit 70
pg=$(sh "$cluster" url "$PG_DIR" full_ledger)
"$SB" --db "$pg" init >/dev/null || { echo "pg_diskfull.sh: init failed on the small tablespace" >&2; exit 70; }
"$SB" --db ref.db init >/dev/null
"$SB" --db ref.db --quiet import runs runs.jsonl

# ---- 1. the disk fills ----------------------------------------------------
"$SB" --db "$pg" --quiet import runs --chunk 500 runs.jsonl >i1.out 2>i1.err
eq "full: exit status" "$?" 74
if grep -q "^sbledger: .*: disk full while running a query" i1.err && [ "$(wc -l <i1.err)" -eq 1 ]; then
	pass
else
	fail "full: one line on standard error, saying the disk is full" i1.err
fi
eq "full: nothing on standard output" "$(wc -c <i1.out)" 0
# then room again: on a full disk a new connection to the database can
# fail ("could not write init file", the server's cache of its catalog)
# and so can a query that sorts (its temporary files are in the
# database's tablespace); the ledger is looked at with room
mount -o remount,size=400m "$space" || exit 70
kept=$(q full_ledger "SELECT COUNT(*) FROM run")
counted=$(q full_ledger "SELECT accepted FROM batch WHERE batch_id = 1")
eq "full: the batch counts the runs kept" "$counted" "$kept"
if [ "$kept" -gt 0 ] && [ "$kept" -lt 30000 ] && [ $((kept % 500)) -eq 0 ]; then
	pass
else
	fail "full: whole chunks kept, some but not all: $kept runs"
fi
eq "full: the batch is not complete" "$(q full_ledger "SELECT status FROM batch WHERE batch_id = 1")" running
ok "$pg" full

if "$SB" --db "$pg" report summary --period 2026-11 --by backend >r.out 2>&1; then
	pass
else
	fail "full: a report fails" r.out
fi

# ---- 2. the import resumes --------------------------------------------
"$SB" --db "$pg" --quiet import runs --chunk 500 runs.jsonl >i2.out 2>i2.err
eq "resumed: exit status" "$?" 0
eq "resumed: one complete batch" "$(q full_ledger "SELECT COUNT(*) || ' ' || MIN(status) FROM batch")" "1 complete"
eq "resumed: every run" "$(q full_ledger "SELECT COUNT(*) FROM run")" 30000
"$SB" --db "$pg" check --fingerprint | grep -v '^00_batch ' >fa.out 2>&1
"$SB" --db ref.db check --fingerprint | grep -v '^00_batch ' >fb.out 2>&1
if [ -s fa.out ] && cmp -s fa.out fb.out; then
	pass
else
	diff fa.out fb.out >fd.out
	fail "resumed: fingerprints differ from one import into SQLite" fd.out
fi
ok "$pg" resumed

echo "pg-diskfull: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
