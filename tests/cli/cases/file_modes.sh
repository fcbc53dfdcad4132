# Finance data is private whatever the umask: the ledger init creates is
# 0600, and so are the files SQLite makes beside it (-wal, -shm), the write
# lock (-lock), and the reports nightly writes.
# cli-tests: sqlite (the modes of the ledger file and of its -wal, -shm and -lock files)
umask 000
cp "$SAMPLES/runs.jsonl" runs.jsonl
mkdir -p inbox/runs
cp "$SAMPLES/runs.jsonl" inbox/runs/
sb init
# an import from a pipe that stays open holds the ledger (and its -wal and
# -shm) open until the pipe closes
mkfifo feed
"$SB" import runs - <feed >import.out 2>&1 &
pid=$!
exec 3>feed
cat runs.jsonl >&3
i=0
while [ ! -e sbledger.db-shm ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
ls -l sbledger.db* | awk '{print $1, $NF}'
exec 3>&-
wait $pid
cat import.out
sb nightly --inbox inbox --period 2026-11 --out reports >/dev/null
ls -l reports/2026-11 | awk 'NR > 1 {print $1, $NF}'
# a second init changes nothing, mode included
chmod 640 sbledger.db
sb init
ls -l sbledger.db | awk '{print $1, $NF}'
