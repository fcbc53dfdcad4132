# A run's own billed_cost_usd is part of what the run is: the same run
# imported again with another billed figure (or with one where it had
# none) is a conflict, rejected, and the stored figure stays; the same
# figure written another way (0.5 and 0.50) is a duplicate.
run() { # billed
	printf '{"run_id":"r1","backend":"modal","started_at":"2026-11-02T10:00:00Z","sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":0.4,"billed_cost_usd":%s,"executions":[{"command":"x","duration_ms":60000,"cost_usd":0.4}]}}\n' "$1"
}
run 0.5 >a.jsonl
run 0.50 >b.jsonl
run 0.51 >c.jsonl
run null >d.jsonl
sb init >/dev/null
sb import runs a.jsonl
sb import runs b.jsonl
sb import runs c.jsonl
sb import runs d.jsonl
sqlite3 sbledger.db 'SELECT run_id, billed_nanos FROM run'
