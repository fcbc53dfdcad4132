#!/bin/sh
# rows_read.sh: an import into a PostgreSQL ledger reads a bounded number of
# rows per record it stores, however many the ledger already holds: the
# look-ups of each record search an index, whatever plan the server
# kept from when the tables were nearly empty (docs/postgresql.md, "Speed").
#
#   sh tests/pg/rows_read.sh SBLEDGER DIR    (DIR: a cluster of tools/pg_cluster.sh)
#
# Counted by the server itself (pg_stat_user_tables: rows read by
# sequential scans and fetched through indexes, each table of the ledger
# in a fresh database), not timed.  A plan that reads the whole table per
# record reads about N*N/2 rows for N records; the bound here is 40 per
# record:
#  1. 6,000 FOCUS rows, every one a line of its own session (a look-up of
#     its key and one of the same charge in other batches, each line);
#  2. the same rows again as another file (each one a duplicate of a
#     stored line: found by its key);
#  3. 12,000 runs, then 12,000 runs again of which half are repeats.
# Prints "FAIL ..." for each bound passed, then "pg-rows-read: N passed, M
# failed"; exits 1 when one failed.
set -u
if [ $# -ne 2 ]; then
	echo "usage: sh tests/pg/rows_read.sh SBLEDGER DIR" >&2
	exit 2
fi
SB=$1
dir=$2
cd "$(dirname "$0")/../.." || exit 70
here=$(pwd)/tests/reliability
. "$here/env.sh"
cluster=tools/pg_cluster.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-rows.XXXXXX") || exit 70
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# read DB TABLE: rows that table's scans have read so far
read_rows() {
	psql -XAtq -d "$(sh "$cluster" url "$dir" "$1")" -c "SELECT pg_stat_force_next_flush()" \
		-c "SELECT COALESCE(seq_tup_read, 0) + COALESCE(idx_tup_fetch, 0) FROM pg_stat_user_tables WHERE relname = '$2'" |
		tail -n 1
}
# bounded NAME DB TABLE BEFORE RECORDS: at most 40 rows read per record since BEFORE
bounded() {
	got=$(read_rows "$2" "$3")
	if [ $((got - $4)) -le $(($5 * 40)) ]; then
		pass
	else
		fail "$1: $((got - $4)) rows of $3 read for $5 records (at most $(($5 * 40)))"
	fi
}

python3 - "$work" <<'PY' || exit 70
import json, random, sys
w = sys.argv[1]
r = random.Random(7)
with open(w + "/focus.csv", "w") as f:
    f.write("BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ServiceProviderName,ResourceId\n")
    for i in range(6000):
        f.write("0.%06d,USD,2026-11-%02dT00:00:00Z,2026-11-%02dT00:00:00Z,Vercel,s%d\n"
                % (r.randint(0, 999999), 1 + i % 28, 2 + i % 28, i))
def runs(path, start, n):
    with open(path, "w") as f:
        for i in range(start, start + n):
            ri = random.Random(i)     # run i is the same record in both files
            d = [ri.randint(1, 9000) for _ in range(ri.randint(1, 3))]
            f.write(json.dumps({"run_id": "rr-%06d" % i, "backend": "e2b", "session_id": "s%d" % (i // 4),
                                "started_at": "2026-11-%02dT10:00:00Z" % (1 + i % 28), "tags": {"customer": "c%d" % (i % 3)},
                                "sandbox_usage": {"exec_count": len(d), "total_duration_ms": sum(d),
                                                  "executions": [{"command": "x", "duration_ms": x} for x in d]}}) + "\n")
runs(w + "/runs1.jsonl", 0, 12000)
runs(w + "/runs2.jsonl", 6000, 12000)
PY
# the second file's bytes differ from the first's (a header with quotes)
sed '1s/^BilledCost,/"BilledCost",/' "$work/focus.csv" >"$work/focus2.csv"

url=$(sh "$cluster" createdb "$dir" rows_read) || exit 70
"$SB" --db "$url" init >/dev/null || exit 70
"$SB" --db "$url" --quiet import billing --format focus "$work/focus.csv" || exit 70
bounded "6,000 new lines" rows_read billing_line 0 6000
before=$(read_rows rows_read billing_line)
"$SB" --db "$url" --quiet import billing --format focus "$work/focus2.csv" >/dev/null 2>&1
bounded "6,000 lines again" rows_read billing_line "$before" 6000
"$SB" --db "$url" --quiet import runs "$work/runs1.jsonl" || exit 70
bounded "12,000 new runs" rows_read run 0 12000
before=$(read_rows rows_read run)
"$SB" --db "$url" --quiet import runs "$work/runs2.jsonl" || exit 70
bounded "12,000 runs, half of them stored" rows_read run "$before" 12000
sh "$cluster" dropdb "$dir" rows_read >/dev/null 2>&1

echo "pg-rows-read: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
