# An import into a ledger less than half its size drops the secondary
# indexes of the run tables and builds them in its last transaction
# (SBLEDGER_TEST_BULK_MIN=1: any input that size; the default is 32 MiB).
# Readers never see the ledger without them: while the import has it so
# (paused after its first commit, SBLEDGER_TEST_PAUSE), a reader waits,
# then gives up (75, saying why) rather than read; a reader that has the
# ledger open keeps the import from dropping them; a ledger left without
# them by a kill gets them back when a reader next opens it, before it
# reads; and each ledger reads as one clean import of the file.
# cli-tests: alone (it kills or waits on another process: no other case beside it)
# cli-tests: sqlite (SQLite's indexes (sqlite_schema), a reader's lock on the -lock file)
. "$REPO/tests/cli/pause.sh"
python3 - <<'PY'
import json
with open("runs.jsonl", "w") as f:
    for i in range(3000):
        d = [100 + i % 900, 50 + i % 70]
        f.write(json.dumps({"run_id": "run-%05d" % i, "backend": ["e2b", "modal"][i % 2],
                            "session_id": "s-%d" % (i % 400),
                            "started_at": "2026-11-%02dT%02d:00:00Z" % (1 + i % 28, i % 24),
                            "tags": {"customer": ["acme", "globex", "initech"][i % 3]},
                            "sandbox_usage": {"exec_count": 2, "total_duration_ms": sum(d),
                                              "executions": [{"command": "x", "duration_ms": x} for x in d]}}) + "\n")
PY
# the four indexes, as the schema names them
indexes() {
	sqlite3 "${1:-sbledger.db}" "SELECT COUNT(*) || ' of 4 indexes' FROM sqlite_schema WHERE type = 'index'
	  AND name IN ('run_by_started', 'run_by_session', 'run_by_session_recent', 'run_tag_by_value')"
}
SBLEDGER_TEST_BULK_MIN=1
export SBLEDGER_TEST_BULK_MIN
sb --db clean.db init >/dev/null
sb --db clean.db import runs runs.jsonl
sb --db clean.db report summary --period 2026-11 --by tag:customer --format csv >clean.csv
sb init >/dev/null

echo "== a reader while the import has the ledger without its indexes"
SBLEDGER_TEST_PAUSE="$(pwd)/pause" bg out import runs --chunk 1000 runs.jsonl
await pause
indexes
sqlite3 sbledger.db "SELECT COUNT(*) || ' runs committed' FROM run"
sb --busy-timeout 300 report summary --period 2026-11 --by backend
sb --busy-timeout 300 check | tail -1
finish out
indexes
sb report summary --period 2026-11 --by tag:customer --format csv | cmp - clean.csv && echo "the summary is the clean import's"
sb check | tail -1

echo "== a reader that has the ledger open: the import keeps the indexes"
rm -f sbledger.db*
sb init >/dev/null
python3 - <<'PY' &
import fcntl, os, struct, time
# a reader's lock on the ledger's lock file (an open file description
# lock, shared), held until the file 'release' appears
fd = os.open("sbledger.db-lock", os.O_RDWR | os.O_CREAT, 0o600)
fcntl.fcntl(fd, fcntl.F_OFD_SETLK, struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 1, 0))
open("held", "w").close()
while not os.path.exists("release"):
    time.sleep(0.01)
PY
reader=$!
i=0
while [ ! -e held ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i + 1)); done
SBLEDGER_TEST_PAUSE="$(pwd)/pause" bg out import runs --chunk 1000 runs.jsonl
await pause
indexes
touch release
wait $reader
finish out
sb report summary --period 2026-11 --by tag:customer --format csv | cmp - clean.csv && echo "the summary is the clean import's"

echo "== killed without its indexes: the next reader builds them first"
rm -f sbledger.db* release held
sb init >/dev/null
SBLEDGER_TEST_PAUSE="$(pwd)/pause" bg out import runs --chunk 1000 runs.jsonl
await pause
kill -9 "$bg_pid"
{ wait "$bg_pid"; } 2>/dev/null
rm -f pause
indexes
sb report summary --period 2026-11 --by backend --format csv >/dev/null
indexes
sb check | tail -1
sb import runs runs.jsonl
sb report summary --period 2026-11 --by tag:customer --format csv | cmp - clean.csv && echo "the summary is the clean import's"
