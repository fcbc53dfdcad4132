#!/bin/sh
# pg_concurrency.sh: sbledger processes at once on one PostgreSQL ledger,
# and copies between the engines (docs/postgresql.md).
#
#   sh tests/reliability/pg_concurrency.sh            (starts its own cluster)
#   PG_DIR=DIR sh tests/reliability/pg_concurrency.sh (a cluster of tools/pg_cluster.sh)
#
# SBLEDGER is the sbledger under test (default ./sbledger of the repo).
#
#  1. four processes import four different files (disjoint runs, each
#     customer's own) and a fifth a FOCUS bill, while a sixth imports the
#     first file again, all into one PostgreSQL ledger at once: every
#     process ends well, the second import of the same file says "already
#     imported", the ledger holds exactly one complete batch per SHA-256,
#     and its fingerprint (check --fingerprint: every table's natural
#     content) equals that of a SQLite ledger given the same files one
#     after the other by one process;
#  2. three finalizes at once, two of them of the same customer's month:
#     one of those two finalizes it and the other is refused (it is
#     finalized already), the third finalizes the other customer's; each
#     number once, each -001 (no gap), each run on one invoice, and the
#     fingerprints still equal the SQLite ledger's finalized the same;
#  3. copy PostgreSQL -> SQLite and SQLite -> PostgreSQL: each copy's
#     fingerprint equals its original's, and check passes on every ledger.
#
# Prints "FAIL NAME: why" for each failed check, then
# "pg-concurrency: N passed, M failed"; exits 1 when one failed.  No check
# depends on which process goes first.

set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
SB=${SBLEDGER:-$repo/sbledger}
[ -x "$SB" ] || { echo "pg_concurrency.sh: no sbledger at $SB" >&2; exit 70; }
cluster=$repo/tools/pg_cluster.sh

work=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-pgc.XXXXXX") || exit 70
own=
if [ -z "${PG_DIR:-}" ]; then
	PG_DIR=$(mktemp -d /tmp/sbpg.XXXXXX) || exit 70
	own=1
	sh "$cluster" start "$PG_DIR" >/dev/null || exit 70
fi
cleanup() {
	[ -n "$own" ] && { sh "$cluster" stop "$PG_DIR"; rm -rf "$PG_DIR"; }
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$work" || exit 70

# same NAME A B: the fingerprints of ledgers A and B are equal
same() {
	"$SB" --db "$2" check --fingerprint >fa.out 2>&1
	"$SB" --db "$3" check --fingerprint >fb.out 2>&1
	if [ -s fa.out ] && cmp -s fa.out fb.out; then
		pass
	else
		diff fa.out fb.out >fd.out
		fail "$1: fingerprints differ" fd.out
	fi
}
# psql on database NAME: one value
q() { psql -XAtq -d "$(sh "$cluster" url "$PG_DIR" "$1")" -c "$2"; }

python3 - <<'PY' || exit 70
import json, random
r = random.Random(11)
def runs(path, prefix, customer, n):
    with open(path, "w") as f:
        for i in range(n):
            d = [r.randint(1, 9000) for _ in range(r.randint(1, 4))]
            f.write(json.dumps({"run_id": "%s-%06d" % (prefix, i), "backend": r.choice(["e2b", "modal", "vercel"]),
                                "session_id": "%s-s%d" % (prefix, i // 2),
                                "started_at": "2026-11-%02dT10:00:00Z" % (1 + i % 28),
                                "tags": {"customer": customer, "team": "t%d" % (i % 3)},
                                "sandbox_usage": {"exec_count": len(d), "total_duration_ms": sum(d),
                                                  "executions": [{"command": "x", "duration_ms": x} for x in d]}}) + "\n")
runs("a.jsonl", "a", "acme", 2500)
runs("b.jsonl", "b", "beta", 2500)
runs("c.jsonl", "c", "acme", 1500)
runs("d.jsonl", "d", "beta", 1500)
with open("focus.csv", "w") as f:
    f.write("BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ServiceProviderName,ResourceId\n")
    for i in range(3000):
        f.write("0.%06d,USD,2026-11-%02dT00:00:00Z,2026-11-%02dT00:00:00Z,Vercel,a-s%d\n"
                % (r.randint(0, 999999), 1 + i % 28, 2 + i % 28, i))
PY

pg=$(sh "$cluster" createdb "$PG_DIR" conc) || exit 70
"$SB" --db "$pg" init >/dev/null || exit 70

# ---- the SQLite ledger of one process, the files one after the other ------
"$SB" --db ref.db init >/dev/null
for f in a.jsonl b.jsonl c.jsonl d.jsonl; do "$SB" --db ref.db import runs "$f" >/dev/null; done
"$SB" --db ref.db import billing --format focus focus.csv >/dev/null

# ---- 1. six imports at once ----------------------------------------------
"$SB" --db "$pg" import runs a.jsonl >i1.out 2>&1 &
p1=$!
"$SB" --db "$pg" import runs b.jsonl >i2.out 2>&1 &
p2=$!
"$SB" --db "$pg" import runs c.jsonl >i3.out 2>&1 &
p3=$!
"$SB" --db "$pg" import runs d.jsonl >i4.out 2>&1 &
p4=$!
"$SB" --db "$pg" import billing --format focus focus.csv >i5.out 2>&1 &
p5=$!
"$SB" --db "$pg" import runs a.jsonl >i6.out 2>&1 &
p6=$!
st=
for p in $p1 $p2 $p3 $p4 $p5 $p6; do wait "$p"; st="$st$?"; done
eq "six-imports statuses" "$st" 000000
eq "six-imports: the same file once, then already imported" "$(cat i1.out i6.out | grep -c 'already imported as batch')" 1
eq "six-imports: one complete batch per SHA-256" \
	"$(q conc "SELECT COUNT(*) || ' ' || COUNT(DISTINCT sha256) FROM batch WHERE status = 'complete'")" "5 5"
eq "six-imports: no other batch" "$(q conc "SELECT COUNT(*) FROM batch WHERE status <> 'complete'")" 0
eq "six-imports runs" "$(q conc 'SELECT COUNT(*) FROM run')" 8000
same "six-imports against one process on SQLite" "$pg" ref.db
ok "$pg" six-imports

# ---- 2. two finalizes at once --------------------------------------------
"$SB" --db ref.db invoice --period 2026-11 --by tag:customer --customer acme --finalize >/dev/null 2>&1
"$SB" --db ref.db invoice --period 2026-11 --by tag:customer --customer beta --finalize >/dev/null 2>&1
"$SB" --db "$pg" invoice --period 2026-11 --by tag:customer --customer acme --finalize >n1.out 2>&1 &
p1=$!
"$SB" --db "$pg" invoice --period 2026-11 --by tag:customer --customer beta --finalize >n2.out 2>&1 &
p2=$!
"$SB" --db "$pg" invoice --period 2026-11 --by tag:customer --customer acme --finalize >n3.out 2>&1 &
p3=$!
wait $p1; s1=$?
wait $p2; s2=$?
wait $p3; s3=$?
# the two of acme: one finalizes, the other finds it finalized (65)
eq "three-finalizes statuses" "$(echo $s1 $s3 | tr ' ' '\n' | sort | tr '\n' ' ')$s2" "0 65 0"
eq "three-finalizes: the second of acme refused" "$(cat n1.out n3.out | grep -c 'already finalized for 2026-11: INV-2026-11-acme-001')" 1
eq "three-finalizes numbers" "$(q conc "SELECT string_agg(number, ' ' ORDER BY number) FROM invoice")" \
	"INV-2026-11-acme-001 INV-2026-11-beta-001"
eq "three-finalizes: each run on one invoice" \
	"$(q conc "SELECT COUNT(*) || ' ' || COUNT(DISTINCT run_id) FROM invoice_run")" "8000 8000"
same "three-finalizes against one process on SQLite" "$pg" ref.db
eq "three-finalizes: the invoices' totals" \
	"$(q conc "SELECT string_agg(customer || '=' || total_nanos, ' ' ORDER BY customer) FROM invoice")" \
	"$(sqlite3 ref.db "SELECT group_concat(customer || '=' || total_nanos, ' ') FROM (SELECT * FROM invoice ORDER BY customer)")"
ok "$pg" three-finalizes

# ---- 3. copies both ways -------------------------------------------------
if "$SB" copy --from "$pg" --to back.db >c1.out 2>&1; then pass; else fail "copy PostgreSQL to SQLite" c1.out; fi
same "copy PostgreSQL to SQLite" "$pg" back.db
ok back.db copy-to-sqlite
pg2=$(sh "$cluster" createdb "$PG_DIR" conc2) || exit 70
if "$SB" copy --from ref.db --to "$pg2" >c2.out 2>&1; then pass; else fail "copy SQLite to PostgreSQL" c2.out; fi
same "copy SQLite to PostgreSQL" ref.db "$pg2"
ok "$pg2" copy-to-postgresql
eq "copy: the invoices' numbers kept" "$(q conc2 "SELECT string_agg(number || ':' || customer, ' ' ORDER BY number) FROM invoice")" \
	"$(sqlite3 ref.db "SELECT group_concat(number || ':' || customer, ' ') FROM (SELECT * FROM invoice ORDER BY number)")"
# a copy into a ledger that holds batches is refused, nothing written
"$SB" copy --from ref.db --to "$pg2" >c3.out 2>&1
eq "copy into a used ledger: refused" "$?" 65
same "copy into a used ledger: left as it was" ref.db "$pg2"

echo "pg-concurrency: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
