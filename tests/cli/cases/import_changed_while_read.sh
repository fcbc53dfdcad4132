# A file that changes while it is imported fails its batch: every chunk of
# it already committed is taken out again (runs, executions, tags, the day
# rollups, billing lines, rejects, replaced runs put back), the batch is
# kept as 'failed' with the reason, and the import exits 75.  The import
# is stopped after its first chunk (SBLEDGER_TEST_PAUSE) while the test
# changes the file: rewritten (same size), appended to, rewritten in
# place where it was already read with its mtime put back (only the
# change time shows it), and a --replace import rewritten.  Each time
# 'check' passes and importing the complete file afterwards brings in
# exactly what it holds (the figures computed here with Python's decimal).
. "$REPO/tests/cli/pause.sh"
export SBLEDGER_TEST_PAUSE="$(pwd)/pause"
cat >gen.py <<'PY'
import json, random, sys
from decimal import Decimal
# gen.py OUT N SEED [BACKEND]: N runs, 1-4 executions each, tagged
out, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
backend = sys.argv[4] if len(sys.argv) > 4 else "e2b"
r = random.Random(seed)
with open(out, "w") as f:
    for i in range(n):
        ex = [{"command": "step %d" % k, "duration_ms": r.randint(1, 9000), "cost_usd": "%d" % r.randint(1, 999999)}
              for k in range(r.randint(1, 4))]
        cost = sum(Decimal(x["cost_usd"]) / 10**9 for x in ex)
        for x in ex:
            x["cost_usd"] = float(Decimal(x["cost_usd"]) / 10**9)
        f.write(json.dumps({"run_id": "run-%05d" % i, "backend": backend,
                            "started_at": "2026-11-%02dT10:00:00Z" % (1 + i % 28),
                            "tags": {"customer": r.choice(["acme", "globex"])},
                            "sandbox_usage": {"exec_count": len(ex),
                                              "total_duration_ms": sum(x["duration_ms"] for x in ex),
                                              "computed_cost_usd": float(cost), "executions": ex}}) + "\n")
PY
cat >sums.py <<'PY'
import json, sys
from decimal import Decimal
# sums.py FILE...: runs, executions and the sum of computed_cost_usd (9 decimals)
runs = execs = 0
total = Decimal(0)
for path in sys.argv[1:]:
    for line in open(path):
        d = json.loads(line)
        runs += 1
        execs += len(d["sandbox_usage"]["executions"])
        total += sum(Decimal(repr(x["cost_usd"])).quantize(Decimal("1E-9")) for x in d["sandbox_usage"]["executions"])
print("%d runs, %d executions, computed %s" % (runs, execs, total.quantize(Decimal("1E-9"))))
PY
# same_size_rewrite FILE OLD NEW [FIRST]: replace OLD by NEW (same length) in
# place, in every line or only the first, and put the mtime back
cat >rewrite.py <<'PY'
import os, sys
path, old, new = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
assert len(old) == len(new)
st = os.stat(path)
with open(path, "r+b") as f:
    before = data = f.read()
    if len(sys.argv) > 4:
        nl = data.index(b"\n")
        data = data[:nl].replace(old, new) + data[nl:]
    else:
        data = data.replace(old, new)
    assert data != before, "nothing to rewrite"
    f.seek(0)
    f.write(data)
os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
print("rewritten in place: size %s, mtime %s" % ("kept" if os.stat(path).st_size == st.st_size else "changed",
      "kept" if os.stat(path).st_mtime_ns == st.st_mtime_ns else "changed"))
PY
# the runs, executions and computed USD of the ledger (the dollars written
# here from the sum of nanodollars: plain SQL that both engines run)
ledger() {
	sqlite3 sbledger.db "SELECT COUNT(*), (SELECT COUNT(*) FROM execution), COALESCE(SUM(computed_nanos), 0) FROM run" |
		while IFS='|' read -r runs execs nanos; do
			printf '%s runs, %s executions, computed %d.%09d\n' "$runs" "$execs" \
				$((nanos / 1000000000)) $((nanos % 1000000000))
		done
}
batches() {
	sqlite3 sbledger.db "SELECT batch_id, status, accepted, duplicates, rejected, replaced, COALESCE(reason, '-') FROM batch ORDER BY batch_id"
}

python3 gen.py runs.jsonl 3000 1
echo "== rewritten (same size) after the first chunk"
sb init >/dev/null
bg out import runs --chunk 100 runs.jsonl
await pause
python3 rewrite.py runs.jsonl '"e2b"' '"k8s"'
finish out
batches
tables
sb check | tail -1
echo "-- the complete file, imported again"
sb import runs runs.jsonl
python3 sums.py runs.jsonl
ledger
sb check | tail -1

echo "== appended to after the first chunk"
rm -f sbledger.db*
python3 gen.py runs.jsonl 3000 1
sb init >/dev/null
bg out import runs --chunk 100 runs.jsonl
await pause
python3 gen.py more.jsonl 3500 1
tail -n 500 more.jsonl >>runs.jsonl
finish out
batches
tables
sb check | tail -1
echo "-- the complete file, imported again"
sb import runs runs.jsonl
python3 sums.py runs.jsonl
ledger

echo "== rewritten in place where it was already read, mtime put back"
rm -f sbledger.db*
python3 gen.py runs.jsonl 3000 1
sb init >/dev/null
bg out import runs --chunk 100 runs.jsonl
await pause
python3 rewrite.py runs.jsonl '"run-00000"' '"RUN-00000"' first
finish out
batches
tables
sb check | tail -1
sb import runs runs.jsonl
python3 sums.py runs.jsonl
ledger

echo "== a --replace import rewritten: the runs it replaced are put back"
rm -f sbledger.db*
python3 gen.py runs.jsonl 3000 1
python3 gen.py new.jsonl 3000 2
sb init >/dev/null
sb import runs runs.jsonl
sqlite3 sbledger.db "SELECT run_id, batch_id, line_no, computed_nanos, fingerprint, tags FROM run ORDER BY run_id" >before.runs
bg out import runs --replace --chunk 100 new.jsonl
await pause
python3 rewrite.py new.jsonl '"e2b"' '"k8s"'
finish out
batches
tables
sqlite3 sbledger.db "SELECT run_id, batch_id, line_no, computed_nanos, fingerprint, tags FROM run ORDER BY run_id" >after.runs
cmp -s before.runs after.runs && echo "runs as before the --replace import" || echo "runs differ from before"
sqlite3 sbledger.db "SELECT r.run_id, x.seq, x.command, x.duration_ms, x.cost_nanos FROM execution x JOIN run r USING (rid) ORDER BY 1, 2" | cksum >after.x
"$SB" --db clean.db init >/dev/null
"$SB" --db clean.db import runs runs.jsonl >/dev/null
sqlite3 clean.db "SELECT r.run_id, x.seq, x.command, x.duration_ms, x.cost_nanos FROM execution x JOIN run r USING (rid) ORDER BY 1, 2" | cksum >clean.x
cmp -s after.x clean.x && echo "executions as before" || echo "executions differ"
# (a run put back has a new rid: tags are compared by run_id)
for q in "SELECT r.run_id, t.name, t.value FROM run_tag t JOIN run r USING (rid)" \
	"SELECT * FROM run_day" "SELECT * FROM run_day_tag"; do
	a=$(sqlite3 sbledger.db "$q" | sort | cksum)
	c=$(sqlite3 clean.db "$q" | sort | cksum)
	[ "$a" = "$c" ] && echo "as before: $q" || echo "differs: $q"
done
sb check | tail -1
echo "-- the complete file, imported again"
sb import runs --replace new.jsonl
python3 sums.py new.jsonl
ledger

echo "== billing: a FOCUS file with a bad row, rewritten after the first chunk"
rm -f sbledger.db*
python3 - <<'PY'
import random
r = random.Random(5)
with open("focus.csv", "w") as f:
    f.write("BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ServiceProviderName,ResourceId\n")
    for i in range(3000):
        if i == 50:
            f.write("not-a-number,USD,2026-11-01T00:00:00Z,2026-11-02T00:00:00Z,Vercel,bad\n")
            continue
        f.write("0.%06d,USD,2026-11-%02dT00:00:00Z,2026-11-%02dT00:00:00Z,Vercel,s%d\n"
                % (r.randint(0, 999999), 1 + i % 28, 2 + i % 28, i))
PY
sb init >/dev/null
bg out import billing --format focus --chunk 100 focus.csv
await pause
python3 rewrite.py focus.csv 'Vercel' 'VERCEL'
finish out
batches
tables
sb check | tail -1
sb import billing --format focus focus.csv
tables
