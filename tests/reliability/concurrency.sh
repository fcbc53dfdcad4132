#!/bin/sh
# concurrency.sh: sbledger processes at once on one ledger.
#
#   sh tests/reliability/concurrency.sh
#
# SBLEDGER is the sbledger under test (default ./sbledger of the repo).
# Each check starts processes together on large generated files (an
# import takes a second or more, so they overlap) and then looks at what
# each said and what the ledger holds:
#
#  1. two imports of different files: both end as alone (one waits for
#     the other's write lock), the ledger holds both, once;
#  2. two imports of the same file: one imports it, the other waits and
#     finds it already imported; nothing doubled;
#  3. four imports at once (runs, FOCUS, a JSON array, runs again);
#  4. an import and a reconcile: the reconcile waits for the import, so its
#     result is that of the whole file, never of part of it;
#  5. readers (batches, report summary, check) during an import are not
#     blocked and see a consistent ledger;
#  6. two nightly jobs on one inbox: every file imported once, both end
#     well, the second finds the files already in the ledger;
#  7. with --busy-timeout shorter than the first job: the second exits 75
#     with a message naming the way out, having written nothing but its
#     heartbeat (OUT/heartbeat.json: it ran and ended 75); run
#     again, it completes the ledger, still with nothing doubled;
#  8. three imports and a finalize through three names of one ledger (the
#     file, a symlink, a symlink to the symlink): one write lock, so each
#     ends as alone, the counts exact, and the finalize invoices all the
#     runs of the imports before it or none of an import's runs, never a
#     part of one.
#
# After each, 'sbledger check' must pass.  Prints "FAIL NAME: why" for
# each failed check, then "concurrency: N passed, M failed"; exits 1 when
# one failed.  No check depends on which process goes first.

set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
SB=${SBLEDGER:-$repo/sbledger}
[ -x "$SB" ] || { echo "concurrency.sh: no sbledger at $SB" >&2; exit 70; }

work=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-concurrency.XXXXXX") || exit 70
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
cd "$work" || exit 70

# q DB SQL: one value
q() { sqlite3 "$1" "$2"; }

python3 - <<'PY' || exit 70
import json, random
r = random.Random(7)
def runs(path, prefix, n):
    with open(path, "w") as f:
        for i in range(n):
            d = [r.randint(1, 9000) for _ in range(r.randint(1, 4))]
            f.write(json.dumps({"run_id": "%s-%06d" % (prefix, i), "backend": r.choice(["e2b", "modal", "vercel"]),
                                "session_id": "%s-s%d" % (prefix, i // 2),
                                "started_at": "2026-11-%02dT10:00:00Z" % (1 + i % 28),
                                "sandbox_usage": {"exec_count": len(d), "total_duration_ms": sum(d),
                                                  "executions": [{"command": "x", "duration_ms": x} for x in d]}}) + "\n")
runs("a.jsonl", "a", 15000)
runs("b.jsonl", "b", 15000)
runs("c.jsonl", "c", 8000)
with open("focus.csv", "w") as f:
    f.write("BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ServiceProviderName,ResourceId\n")
    for i in range(20000):
        f.write("0.%06d,USD,2026-11-%02dT00:00:00Z,2026-11-%02dT00:00:00Z,Vercel,a-s%d\n"
                % (r.randint(0, 999999), 1 + i % 28, 2 + i % 28, i))
with open("daytona.json", "w") as f:
    f.write("[" + ",\n".join('{"sandboxId": "day-%d", "firstStart": "2026-11-%02dT00:00:00Z", '
                             '"lastEnd": "2026-11-%02dT00:05:00Z", "totalPrice": 0.%04d}'
                             % (i, 1 + i % 28, 1 + i % 28, r.randint(0, 9999)) for i in range(15000)) + "]\n")
PY

# fresh NAME: an empty ledger NAME.db
fresh() {
	rm -f "$1".db "$1".db-wal "$1".db-shm "$1".db-lock
	"$SB" --db "$1".db init >/dev/null
}

# ---- 1. two imports of different files ------------------------------------
fresh one
"$SB" --db one.db import runs a.jsonl >a.out 2>&1 &
pa=$!
"$SB" --db one.db import runs b.jsonl >b.out 2>&1 &
pb=$!
wait $pa; sa=$?
wait $pb; sb=$?
eq "two-imports status a" "$sa" 0
eq "two-imports status b" "$sb" 0
eq "two-imports runs" "$(q one.db 'SELECT COUNT(*) FROM run')" 30000
eq "two-imports batches" "$(q one.db "SELECT group_concat(status || ':' || accepted, ' ') FROM (SELECT * FROM batch ORDER BY source)")" "complete:15000 complete:15000"
ok one.db two-imports

# ---- 2. two imports of the same file ----------------------------------------
fresh same
"$SB" --db same.db import runs a.jsonl >s1.out 2>&1 &
p1=$!
"$SB" --db same.db import runs a.jsonl >s2.out 2>&1 &
p2=$!
wait $p1; s1=$?
wait $p2; s2=$?
eq "same-file statuses" "$s1 $s2" "0 0"
eq "same-file one imported, one already" "$(cat s1.out s2.out | grep -c 'already imported as batch 1')" 1
eq "same-file runs" "$(q same.db "SELECT COUNT(*) || ' ' || SUM(exec_count) FROM run")" \
	"15000 $(python3 -c "import json; print(sum(json.loads(l)['sandbox_usage']['exec_count'] for l in open('a.jsonl')))")"
eq "same-file batches" "$(q same.db 'SELECT COUNT(*) FROM batch')" 1
ok same.db same-file

# ---- 3. four imports at once ------------------------------------------------
fresh four
"$SB" --db four.db import runs c.jsonl >f1.out 2>&1 &
p1=$!
"$SB" --db four.db import billing --format focus focus.csv >f2.out 2>&1 &
p2=$!
"$SB" --db four.db import billing --format daytona daytona.json >f3.out 2>&1 &
p3=$!
"$SB" --db four.db import runs c.jsonl >f4.out 2>&1 &
p4=$!
wait $p1; s1=$?
wait $p2; s2=$?
wait $p3; s3=$?
wait $p4; s4=$?
eq "four-imports statuses" "$s1 $s2 $s3 $s4" "0 0 0 0"
eq "four-imports rows" "$(q four.db "SELECT (SELECT COUNT(*) FROM run) || ' ' || (SELECT COUNT(*) FROM billing_line WHERE format = 'focus') || ' ' || (SELECT COUNT(*) FROM billing_line WHERE format = 'daytona') || ' ' || (SELECT COUNT(*) FROM batch)")" \
	"8000 20000 15000 3"
ok four.db four-imports

# ---- 4. an import and a reconcile -------------------------------------------
fresh before
"$SB" --db before.db reconcile --period 2026-11 --format json >want-before.json 2>/dev/null
fresh after
"$SB" --db after.db import runs b.jsonl >/dev/null 2>&1
"$SB" --db after.db reconcile --period 2026-11 --format json >want-after.json 2>/dev/null
fresh recon
"$SB" --db recon.db import runs b.jsonl >ri.out 2>&1 &
pi=$!
sleep 0.3
"$SB" --db recon.db reconcile --period 2026-11 --format json >got.json 2>rr.err &
pr=$!
wait $pi; si=$?
wait $pr; sr=$?
eq "import-and-reconcile statuses" "$si $sr" "0 0"
# the reconciliation numbers (its id aside) are those of all or none of the file
sed '/"reconciliation"/d' got.json >got.cmp
sed '/"reconciliation"/d' want-after.json >after.cmp
sed '/"reconciliation"/d' want-before.json >before.cmp
if cmp -s got.cmp after.cmp || cmp -s got.cmp before.cmp; then pass; else
	fail "import-and-reconcile: the reconcile saw part of the import" rr.err
	diff after.cmp got.cmp | head -10 | sed 's/^/    /'
fi
ok recon.db import-and-reconcile

# ---- 5. readers during an import ---------------------------------------------
fresh read
"$SB" --db read.db import runs a.jsonl >ra.out 2>&1 &
pi=$!
sleep 0.2
readers_ok=1
for cmd in "batches --format csv" "report summary --period 2026-11 --format json" "check"; do
	"$SB" --db read.db --busy-timeout 2000 $cmd >reader.out 2>reader.err || {
		readers_ok=0
		fail "readers: '$cmd' during an import exited $?" reader.err
	}
done
wait $pi
eq "readers-during-import" "$readers_ok" 1
ok read.db readers

# ---- 6. two nightly jobs on one inbox ------------------------------------------
mkdir -p inbox/runs inbox/billing/focus inbox/billing/daytona
cp a.jsonl b.jsonl inbox/runs/
cp focus.csv inbox/billing/focus/
cp daytona.json inbox/billing/daytona/
fresh night
# (each waits as long as the other may take: the first imports 65,000
# records and judges 29 periods, which a loaded machine can stretch past
# the default 30 s)
"$SB" --db night.db --busy-timeout 600000 nightly --inbox inbox --period 2026-11 --out out1 >n1.out 2>n1.err &
p1=$!
"$SB" --db night.db --busy-timeout 600000 nightly --inbox inbox --period 2026-11 --out out2 >n2.out 2>n2.err &
p2=$!
wait $p1; s1=$?
wait $p2; s2=$?
eq "two-nightly statuses" "$s1 $s2" "0 0"
eq "two-nightly batches" "$(q night.db "SELECT COUNT(*) || ' ' || SUM(status = 'complete') FROM batch")" "4 4"
eq "two-nightly rows" "$(q night.db "SELECT (SELECT COUNT(*) FROM run) || ' ' || (SELECT COUNT(*) FROM billing_line)")" "30000 35000"
eq "two-nightly: one imported 4 files, the other found 4" \
	"$(cat n1.out n2.out | grep -o '[0-9]* files imported, [0-9]* already' | sort | tr '\n' ';')" \
	"0 files imported, 4 already;4 files imported, 0 already;"
# the runs fill 2026-11-01..28 and the clock (env.sh) is 2026-11-30: the
# first night stores November and catches up its 28 days; the second finds
# those days current and judges only its --period again
eq "two-nightly reconciliations" "$(q night.db "SELECT COUNT(*) || ' ' || SUM(to_ms - from_ms = 86400000) FROM reconciliation")" "30 28"
eq "two-nightly reports" "$(ls out1/2026-11 out2/2026-11 | grep -c reconcile.json)" 2
ok night.db two-nightly

# ---- 7. the second job gives up after its busy timeout ---------------------------
fresh busy
"$SB" --db busy.db nightly --inbox inbox --period 2026-11 --out out3 >b1.out 2>b1.err &
p1=$!
# wait until the first holds the write lock
i=0
while flock -n busy.db-lock true && [ $i -lt 200 ]; do sleep 0.01; i=$((i + 1)); done
"$SB" --db busy.db --busy-timeout 100 nightly --inbox inbox --period 2026-11 --out out4 >b2.out 2>b2.err
s2=$?
"$SB" --db busy.db --busy-timeout 100 import runs c.jsonl >b3.out 2>b3.err
s3=$?
wait $p1; s1=$?
eq "busy statuses" "$s1 $s2 $s3" "0 75 75"
eq "busy nightly message" "$(grep -c 'the ledger is busy: another sbledger has held its write lock for more than 100 ms; try again later or raise --busy-timeout' b2.err)" 1
eq "busy import message" "$(grep -c 'the ledger is busy' b3.err)" 1
# (29: the first job's November and its 28 caught-up days)
eq "busy: nothing from the jobs that gave up" \
	"$(q busy.db "SELECT (SELECT COUNT(*) FROM batch) || ' ' || (SELECT COUNT(*) FROM reconciliation) || ' ' || (SELECT COUNT(*) FROM run WHERE run_id LIKE 'c-%')")" "4 29 0"
# the night that gave up wrote no report, only its heartbeat (it ran, and ended 75)
eq "busy: the nightly that gave up wrote its heartbeat only" "$(ls out4 2>&1 | tr '\n' ' ')" "heartbeat.json "
eq "busy: its heartbeat says 75" "$(grep -o '"status":[0-9]*,"ended":"[a-z]*"' out4/heartbeat.json)" '"status":75,"ended":"failed"'

"$SB" --db busy.db nightly --inbox inbox --period 2026-11 --out out4 >b4.out 2>&1
s4=$?
"$SB" --db busy.db import runs c.jsonl >b5.out 2>&1
s5=$?
eq "busy: run again" "$s4 $s5" "0 0"
eq "busy: all once" "$(q busy.db "SELECT (SELECT COUNT(*) FROM run) || ' ' || (SELECT COUNT(*) FROM billing_line) || ' ' || (SELECT COUNT(*) FROM batch)")" "38000 35000 5"
ok busy.db busy

# ---- 8. one ledger under three names -------------------------------------------
fresh names
ln -sf names.db names-link.db
ln -sf names-link.db names-link2.db
"$SB" --db names.db import runs --chunk 500 a.jsonl >m1.out 2>&1 &
p1=$!
"$SB" --db names-link.db import runs --chunk 500 b.jsonl >m2.out 2>&1 &
p2=$!
"$SB" --db names-link2.db import runs --chunk 500 c.jsonl >m3.out 2>&1 &
p3=$!
sleep 0.3
"$SB" --db names-link2.db invoice --period 2026-11 --by tag:customer --finalize >m4.out 2>&1
s4=$?
wait $p1; s1=$?
wait $p2; s2=$?
wait $p3; s3=$?
eq "names statuses" "$s1 $s2 $s3" "0 0 0"
eq "names batches" "$(q names.db "SELECT group_concat(status || ':' || accepted || ':' || duplicates, ' ') FROM (SELECT * FROM batch ORDER BY source)")" \
	"complete:15000:0 complete:15000:0 complete:8000:0"
eq "names runs" "$(q names.db 'SELECT COUNT(*) FROM run')" 38000
eq "names lock files" "$(ls | grep -c '^names.*-lock$')" 1
# the finalize (if it found runs: the runs carry no customer tag, so one
# '(untagged)' invoice) holds the runs of whole imports only
invoiced=$(q names.db 'SELECT COUNT(*) FROM invoice_run')
case $invoiced in
0 | 8000 | 15000 | 23000 | 30000 | 38000) pass ;;
*) fail "names: the finalize invoiced $invoiced runs, part of an import" m4.out ;;
esac
[ "$s4" = 0 ] || [ "$invoiced" = 0 ] || fail "names: finalize exited $s4 having invoiced" m4.out
ok names.db names

echo "concurrency: $passed passed, $failed failed"
[ $failed -eq 0 ]
