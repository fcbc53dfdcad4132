# The sample with bad lines: exit 65, the good line kept, the 6 bad ones
# listed by 'rejects' with their line numbers and reasons.
cp "$SAMPLES/runs-with-bad-lines.jsonl" bad.jsonl
sb init >/dev/null
sb import runs bad.jsonl
sqlite3 sbledger.db 'SELECT run_id, backend, exec_count, total_duration_ms FROM run'
sb rejects
sb rejects --batch 1 --format csv
sb rejects --batch 2      # there is no batch 2: 65 (tests/cli/cases/exit_statuses.sh)
sb rejects --format json
sb batches --format csv
sb check | grep -v '^ok '
