# A killed import leaves a consistent ledger, and the same command run
# again completes it: the ledger then equals one clean import of the file
# (runs, executions and tags, compared by checksum), in one batch, and
# 'check' passes.  Five rounds, each killed (SIGKILL) after a random delay,
# some twice; the figures that vary with the delays go to kills.log, which
# is printed only when something is wrong.
# cli-tests: alone (it kills or waits on another process: no other case beside it)
if [ -f "$REPO/bench/gen_runs.py" ]; then
	python3 "$REPO/bench/gen_runs.py" --runs 6000 --seed 11 --dup-rate 0.05 --out big.jsonl 2>/dev/null
else
	python3 - <<'PY'
import json, random
r = random.Random(11)
with open("big.jsonl", "w") as f:
    for i in range(6000):
        execs = [{"command": "make", "duration_ms": r.randint(1, 9000), "cpu_ms": 1} for _ in range(r.randint(1, 6))]
        f.write(json.dumps({"run_id": "run-%06d" % i, "backend": "e2b", "started_at": "2026-11-02T10:00:00Z",
                            "tags": {"customer": r.choice(["acme", "globex"])},
                            "sandbox_usage": {"exec_count": len(execs), "total_duration_ms": sum(x["duration_ms"] for x in execs),
                                              "cpu_ms": len(execs), "executions": execs}}) + "\n")
PY
fi
# A bad line in the middle, so that rejects are resumed too.
sed -i '3000s/.*/{"run_id": "broken", "backend": "e2b"}/' big.jsonl

# The figures of a ledger that must not depend on how it was built: every
# table's fingerprint (sbledger check --fingerprint: its rows and an
# order-independent SHA-256 of their content, batch numbers left out, the
# same on both engines) of the ledger --db $1, else of the default ledger
# (the case's own).
digest() {
	"$SB" ${1:+--db "$1"} check --fingerprint
}

# A random delay in seconds, 0.05 to 0.8 (the import takes about a
# second under the sanitizers).
delay() {
	awk -v seed="$(od -An -N2 -tu2 /dev/urandom)" 'BEGIN { srand(seed); printf "%.2f\n", 0.05 + rand() * 0.75 }'
}

"$SB" --db clean.db init >/dev/null
"$SB" --db clean.db import runs --chunk 500 big.jsonl >clean.out 2>&1
echo "clean import: exit $?"
sed 's/^/  /' clean.out
want=$(digest clean.db)
landed=0
bad=0
for round in 1 2 3 4 5; do
	rm -f sbledger.db sbledger.db-wal sbledger.db-shm
	"$SB" init >/dev/null
	for kill_no in 1 2; do
		[ $kill_no = 2 ] && [ $((round % 2)) = 1 ] && continue
		d=$(delay)
		"$SB" import runs --chunk 500 big.jsonl >/dev/null 2>&1 &
		pid=$!
		sleep "$d"
		kill -9 $pid 2>/dev/null
		# (the shell's "Killed" notice, there or not, goes nowhere)
		{ wait $pid; } 2>/dev/null
		echo "round $round kill $kill_no after ${d}s: exit $?; batches:" \
			"$(sqlite3 sbledger.db "SELECT status || ' ' || CAST(accepted AS TEXT) || '+' || CAST(duplicates AS TEXT) || '+' ||
  CAST(rejected AS TEXT) || ' @' || CAST(resume_offset AS TEXT) FROM batch ORDER BY batch_id" | awk 'NR > 1 { printf "; " } { printf "%s", $0 }')" >>kills.log
		[ "$(sqlite3 sbledger.db "SELECT COUNT(*) FROM batch WHERE status <> 'complete'")" -gt 0 ] &&
			landed=$((landed + 1))
		# the ledger a kill leaves is consistent
		"$SB" check >check.out 2>&1 || { echo "round $round: check failed after a kill"; grep -v "^ok " check.out; bad=1; }
	done
	"$SB" import runs --chunk 500 big.jsonl >again.out 2>&1
	status=$?
	sed "s/^/round $round again: /" again.out >>kills.log
	got=$(digest)
	# 65: the bad line; 0 when a kill came after the import had ended
	n="$(sqlite3 sbledger.db "SELECT CAST(COUNT(*) AS TEXT) || ' batch, ' || CAST(SUM(accepted) AS TEXT) || ' accepted, ' ||
  CAST(SUM(duplicates) AS TEXT) || ' duplicates, ' || CAST(SUM(rejected) AS TEXT) || ' rejected, ' FROM batch"
	)$(sqlite3 sbledger.db "SELECT status FROM batch ORDER BY batch_id" | paste -sd,)"
	if ! { [ "$status" = 65 ] || grep -q 'already imported' again.out; } || [ "$got" != "$want" ]; then
		echo "round $round: exit $status, the ledger differs from the clean import; $n"
		bad=1
	else
		echo "round $round: same ledger as the clean import; $n"
	fi
	"$SB" check >check.out 2>&1 || { echo "round $round: check failed"; grep -v '^ok ' check.out; bad=1; }
done
[ $bad = 0 ] || cat kills.log
# The delays are random: most kills land mid-import (and the next import
# resumes the batch); at least one must.
[ $landed -ge 1 ] && echo "interrupted imports were resumed" || { echo "no kill landed mid-import"; cat kills.log; }
