# A SQLite ledger is known by the file it is, not by the name it was
# reached through.  Through a symlink: the write lock is that of the
# resolved file, so a writer through one name waits for (or, past the
# busy timeout, gives up on) a writer through the other, and a finalize
# through the link cannot slip in while an import holds the ledger (the
# import stops after its first chunk, SBLEDGER_TEST_PAUSE, while the
# others try).  With a second hard link: every command refuses it (65),
# through either name, and leaves the file as it was.  An empty (0-byte)
# file is not a ledger: every command but init refuses it (66) and leaves
# it alone; init makes a ledger of it, mode 0600.
# cli-tests: sqlite (symlinks and hard links of the ledger file, its -lock file)
. "$REPO/tests/cli/pause.sh"
python3 - <<'PY'
import json
# a.jsonl: 3000 runs of acme; b.jsonl: 300 runs of globex (60 s each)
for name, n, customer in (("a.jsonl", 3000, "acme"), ("b.jsonl", 300, "globex")):
    with open(name, "w") as f:
        for i in range(n):
            f.write(json.dumps({"run_id": "%s-%05d" % (customer, i), "backend": "e2b",
                                "started_at": "2026-11-02T10:00:00Z", "tags": {"customer": customer},
                                "sandbox_usage": {"exec_count": 1, "total_duration_ms": 60000,
                                                  "computed_cost_usd": 0.06}}) + "\n")
PY
mkdir sub
sb --db real.db init >/dev/null
ln -s real.db alias.db
ln -s ../real.db sub/other-name.db

echo "== two writers through two names: one waits for the other"
SBLEDGER_TEST_PAUSE="$(pwd)/pause" bg out --db real.db import runs --chunk 100 a.jsonl
await pause
echo "-- while the import through real.db holds the ledger:"
sb --db alias.db --busy-timeout 300 import runs b.jsonl
sb --db sub/other-name.db --busy-timeout 300 invoice --period 2026-11 --by tag:customer --finalize
sqlite3 real.db "SELECT COUNT(*) || ' batches, ' || (SELECT COUNT(*) FROM invoice) || ' invoices' FROM batch"
# a second import through the link with the default timeout: it waits
"$SB" --db alias.db import runs b.jsonl >second.out 2>&1 &
second=$!
sleep 1
kill -0 $second 2>/dev/null && echo "the second writer is waiting" || echo "the second writer did NOT wait"
finish out
wait $second
echo "second writer: exit $?"
cat second.out
sqlite3 real.db "SELECT batch_id, source, status, accepted FROM batch"
sqlite3 real.db "SELECT COUNT(*) || ' runs, ' || SUM(computed_nanos) || ' nanodollars computed' FROM run"
echo "-- a finalize through the link afterwards invoices every run (3000 + 300)"
sb --db alias.db invoice --period 2026-11 --by tag:customer --finalize --format csv | tail -n +1 >/dev/null
sqlite3 real.db "SELECT customer || ' ' || runs FROM invoice ORDER BY customer; SELECT COUNT(*) || ' runs invoiced' FROM invoice_run"
ls | grep -- '-lock$'
sb --db alias.db check | tail -1

echo "== a ledger with a second hard link: refused by every command, through either name"
ln real.db hard.db
sqlite3 real.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
sum=$(cksum <real.db)
for db in hard.db real.db; do
	for cmd in "check" "batches" "import runs b.jsonl" "init" "report summary --period 2026-11" \
		"reconcile --period 2026-11" "rates"; do
		"$SB" --db $db $cmd >hard.out 2>&1
		echo "$db $cmd: exit $?"
	done
done
cat hard.out
[ "$(cksum <real.db)" = "$sum" ] && echo "the ledger file is unchanged" || echo "the ledger file CHANGED"
ls hard.db* | tr '\n' ' '
echo
rm hard.db
sb --db alias.db batches | tail -1

echo "== an empty (0-byte) file is not a ledger"
: >empty.db
chmod 644 empty.db
for cmd in "check" "batches" "import runs b.jsonl" "rejects" "report summary --period 2026-11"; do
	"$SB" --db empty.db $cmd >empty.out 2>&1
	echo "$cmd: exit $?"
done
cat empty.out
ls -l empty.db* | awk '{print $1, $5, $NF}'
echo "-- init makes a ledger of it"
sb --db empty.db init
ls -l empty.db | awk '{print $1, $NF}'
sb --db empty.db import runs b.jsonl
