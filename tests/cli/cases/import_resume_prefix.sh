# Each commit of an import keeps how many bytes of the file were read and
# their SHA-256; a killed import is resumed only when the file still
# begins with them.  The import is killed (SIGKILL) while it waits after
# its first chunk (SBLEDGER_TEST_PAUSE), so that the kill lands at a known
# point; then: the same file resumes; a file appended to since resumes
# (its batch then has the SHA-256 of the whole new file); a file rewritten
# since is read again from its start, the interrupted batch taken out
# first (nothing of the old version left, no conflicts); with another
# import in between, the interrupted batch is left as it is and the file
# read as a new batch (what it stored counts as duplicates); a batch of an
# older sbledger (no prefix kept) resumes on its SHA-256 as before.  Each
# ledger is compared with one clean import of the file as it is at the
# end, and 'check' passes.
# cli-tests: sqlite (Python's sqlite3 module opens the ledger file)
. "$REPO/tests/cli/pause.sh"
cat >gen.py <<'PY'
import json, random, sys
# gen.py OUT N SEED [FIRST]: N runs from run number FIRST
out, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
r = random.Random(seed)
with open(out, "w") as f:
    for i in range(first, first + n):
        d = [r.randint(1, 9000) for _ in range(r.randint(1, 3))]
        f.write(json.dumps({"run_id": "run-%05d" % i, "backend": "e2b",
                            "started_at": "2026-11-%02dT10:00:00Z" % (1 + i % 28),
                            "tags": {"team": r.choice(["search", "infra"])},
                            "sandbox_usage": {"exec_count": len(d), "total_duration_ms": sum(d),
                                              "executions": [{"command": "x", "duration_ms": x} for x in d]}}) + "\n")
PY
# digest DB: the runs, executions, tags and rejects (batch numbers left out)
digest() {
	sqlite3 "$1" "SELECT run_id, line_no, backend, started_ms, exec_count, total_duration_ms, computed_nanos,
	                     card_nanos, fingerprint, tags FROM run ORDER BY run_id;
	              SELECT r.run_id, x.seq, x.duration_ms FROM execution x JOIN run r USING (rid) ORDER BY 1, 2;
	              SELECT r.run_id, t.name, t.value FROM run_tag t JOIN run r USING (rid) ORDER BY 1, 2;
	              SELECT * FROM run_day ORDER BY 1, 2, 3; SELECT * FROM run_day_tag ORDER BY 1, 2, 3, 4, 5;
	              SELECT line_no, reason, hex(content) FROM reject ORDER BY 1" | cksum
}
# same FILE: does the ledger hold what one clean import of FILE gives?
same() {
	rm -f clean.db*
	"$SB" --db clean.db init >/dev/null
	"$SB" --db clean.db import runs "$1" >/dev/null 2>&1
	if [ "$(digest sbledger.db)" = "$(digest clean.db)" ]; then
		echo "the ledger equals one clean import of $1"
	else
		echo "the ledger DIFFERS from one clean import of $1"
	fi
	sb check | tail -1
}
batches() {
	sqlite3 sbledger.db "SELECT batch_id, status, accepted, duplicates, rejected, COALESCE(reason, '-') FROM batch"
}
# killed FILE: import FILE, kill it while it waits after its first chunk
killed() {
	SBLEDGER_TEST_PAUSE="$(pwd)/pause" bg out import runs --chunk 200 "$1"
	await pause
	kill -9 "$bg_pid"
	{ wait "$bg_pid"; } 2>/dev/null
	rm -f pause
}
python3 gen.py runs.jsonl 2000 1
# a bad line in the middle: rejects are resumed too
sed -i '700s/.*/{"run_id": "broken"}/' runs.jsonl
cp runs.jsonl runs.orig

echo "== killed after its first chunk: the prefix read is kept"
sb init >/dev/null
killed runs.jsonl
sqlite3 sbledger.db "SELECT status, accepted, resume_offset, resume_line, prefix_length >= resume_offset FROM batch"
python3 - <<'PY'
import hashlib, sqlite3
n, sha = sqlite3.connect("sbledger.db").execute("SELECT prefix_length, prefix_sha256 FROM batch").fetchone()
print("prefix_sha256 is the SHA-256 of the first prefix_length bytes:",
      hashlib.sha256(open("runs.jsonl", "rb").read()[:n]).hexdigest() == sha)
PY
echo "-- the same file again: resumed"
sb import runs --chunk 200 runs.jsonl
batches
same runs.jsonl

echo "== appended to after the kill: resumed, the batch has the new file's SHA-256"
rm -f sbledger.db*
sb init >/dev/null
killed runs.jsonl
python3 gen.py more.jsonl 300 9 2000
cat more.jsonl >>runs.jsonl
sb import runs --chunk 200 runs.jsonl
batches
sqlite3 sbledger.db "SELECT sha256 FROM batch" >got.sha
sha256sum runs.jsonl | cut -d' ' -f1 | cmp -s - got.sha && echo "batch sha256 = SHA-256 of the whole file" || echo "batch sha256 is NOT the file's"
same runs.jsonl

echo "== rewritten after the kill: the interrupted batch is taken out, the file read again"
rm -f sbledger.db*
cp runs.orig runs.jsonl
sb init >/dev/null
killed runs.jsonl
sed -i 's/"search"/"SEARCH"/' runs.jsonl
sb import runs --chunk 200 runs.jsonl
batches
same runs.jsonl

echo "== another import in between: the interrupted batch is left, the file read as a new batch"
rm -f sbledger.db*
cp runs.orig runs.jsonl
python3 gen.py other.jsonl 10 3 5000
sb init >/dev/null
killed runs.jsonl
sb import runs other.jsonl
sb import runs --chunk 200 runs.jsonl
batches
sqlite3 sbledger.db "SELECT COUNT(*) || ' runs, ' || COUNT(DISTINCT run_id) || ' distinct' FROM run"
sb check | tail -1

echo "== a batch of an older sbledger (no prefix kept): resumed on its SHA-256"
rm -f sbledger.db*
sb init >/dev/null
killed runs.jsonl
sqlite3 sbledger.db "UPDATE batch SET prefix_length = NULL, prefix_sha256 = NULL, path = NULL"
sb import runs --chunk 200 runs.jsonl
batches
same runs.jsonl
