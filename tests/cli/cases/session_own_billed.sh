# A session's billed figure: its lines in the period; else, only when no
# line names it in any period, its runs' own billed_cost_usd.  Session s1
# is billed by a line in September and has an October run that carries its
# own billed_cost_usd 0.50: in October it has no billed figure (its bill
# is September's line, the run's own figure is not counted again).  Session
# s2 has no line anywhere: its run's own 0.30 is its billed.  Session s3's
# line in October makes the backend's sessions judged (a backend is judged
# per session when its lines of the period name sessions).
run() { # run_id session started computed billed
	printf '{"run_id":"%s","backend":"cloudflare","session_id":"%s","started_at":"%s","sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":%s,"billed_cost_usd":%s,"executions":[{"command":"x","duration_ms":60000,"cost_usd":%s}]}}\n' "$1" "$2" "$3" "$4" "$5" "$4"
}
{ run r0 s1 2026-09-20T10:00:00Z 0.40 null
  run r1 s1 2026-10-02T10:00:00Z 0.45 0.50
  run r2 s2 2026-10-03T10:00:00Z 0.25 0.30
  run r3 s3 2026-10-04T10:00:00Z 0.20 null; } >runs.jsonl
printf '%s\n' '{"backend":"cloudflare","session_id":"s1","cost_usd":0.40,"currency":"USD","period_start":"2026-09-20T10:00:00Z","period_end":"2026-09-20T10:01:00Z","line_id":"sep-s1"}' \
	'{"backend":"cloudflare","session_id":"s3","cost_usd":0.20,"currency":"USD","period_start":"2026-10-04T10:00:00Z","period_end":"2026-10-04T10:01:00Z","line_id":"oct-s3"}' >bill.jsonl
sb init >/dev/null
sb --quiet import runs runs.jsonl
sb --quiet import billing --format record bill.jsonl
"$SB" reconcile --dry-run --period 2026-10 --all-sessions --format json |
	python3 -c 'import json,sys; d=json.load(sys.stdin)
for s in d["sessions"]: print(s["session_id"], s["status"], s["computed_cost_usd"], s["billed_cost_usd"], s.get("basis"))
for b in d["backends"]: print(b["backend"], b["status"], b["computed_cost_usd"], b["billed_cost_usd"], b["basis"])'
"$SB" reconcile --dry-run --period 2026-09 --all-sessions --format json |
	python3 -c 'import json,sys; d=json.load(sys.stdin)
for s in d["sessions"]: print(s["session_id"], s["status"], s["computed_cost_usd"], s["billed_cost_usd"], s.get("basis"))
for b in d["backends"]: print(b["backend"], b["status"], b["computed_cost_usd"], b["billed_cost_usd"], b["basis"])'
