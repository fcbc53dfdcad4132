# nightly never follows a symlink out of its inbox, at any level (a file,
# the runs directory, the billing directory, a format's directory), nor
# reads what is not a regular file (a FIFO would block it, a device never
# ends); links that stay inside the inbox, and an inbox that is itself a
# link, are fine.  What it skipped it says, and it exits 66.
outside=$(pwd)/outside
mkdir -p outside/runs outside/focus inbox/runs inbox/billing/daytona real/runs
printf '{"run_id": "outside-1", "backend": "e2b", "started_at": "2026-11-02T10:00:00Z", "sandbox_usage": {}}\n' > outside/runs/o.jsonl
cp "$SAMPLES/billing-focus.csv" outside/focus/f.csv
cp "$SAMPLES/runs.jsonl" inbox/runs/a.jsonl
printf '{"run_id": "inside-1", "backend": "e2b", "started_at": "2026-11-02T10:00:00Z", "sandbox_usage": {}}\n' > inbox/runs/b.data
ln -s b.data inbox/runs/c-link-inside.jsonl
ln -s "$outside/runs/o.jsonl" inbox/runs/d-link-out.jsonl
ln -s ../../outside/runs/o.jsonl inbox/runs/e-relative-out.jsonl
ln -s /dev/zero inbox/runs/f-device.jsonl
mkfifo inbox/runs/g-fifo.jsonl
ln -s h-loop.jsonl inbox/runs/h-loop.jsonl
ln -s "$outside/focus" inbox/billing/focus
cp "$SAMPLES/billing-daytona.json" inbox/billing/daytona/
sb init >/dev/null
sb nightly --inbox inbox --period 2026-11 --out reports --quiet 2>&1 | sed "s|$(pwd)/|./|g"
sqlite3 sbledger.db "SELECT run_id FROM run WHERE run_id LIKE '%side-%' ORDER BY run_id" | paste -sd' '
sqlite3 sbledger.db "SELECT COUNT(*) FROM billing_line WHERE format = 'focus'; SELECT CAST(COUNT(*) AS TEXT) || ' batches' FROM batch"
echo "== the runs directory and the billing directory as links out"
rm -rf inbox2 && mkdir inbox2
ln -s "$outside/runs" inbox2/runs
ln -s "$outside" inbox2/billing
sb nightly --inbox inbox2 --period 2026-11 --out reports --quiet 2>&1 | sed "s|$(pwd)/|./|g"
sqlite3 sbledger.db "SELECT COUNT(*) FROM run WHERE run_id = 'outside-1'"
echo "== an inbox that is a link"
cp "$SAMPLES/runs-with-bad-lines.jsonl" real/runs/
ln -s real linked-inbox
sb nightly --inbox linked-inbox --period 2026-11 --out reports --quiet 2>&1 | sed "s|$(pwd)/|./|g"
