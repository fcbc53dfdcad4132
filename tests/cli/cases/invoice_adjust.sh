# Adjustments that name what changed (docs/reports.md, "Adjustments"): a
# finalized invoice whose runs were since replaced (import runs
# --replace), moved to another customer, or repriced lists them under its
# own adjustments, and the invoice of the customer a run moved to takes it
# in (not as a late run of its own), so that the two adjustments add up.
#
# Finalized (computed basis, exec minutes to 3 decimals, amounts to the
# cent):  acme   e2b   a1 60000 ms 0.06 + a2 120000 ms 0.12 = 3.000 min 0.18
#                modal a3 60000 ms 0.10 + a5 60000 ms 0.10  = 2.000 min 0.20
#                total 0.38
#         globex e2b   g1 60000 ms 0.06                     = 1.000 min 0.06
# Then: a1 moves to globex, a5 to newco (no invoice), a2 is repriced
# (180000 ms, 0.18), a3 is replaced with the same figures (an ended_at
# added), a4 arrives late (acme, e2b, 60000 ms, 0.06).
#   acme   e2b   now a2' + a4 = 240000 ms 0.24: +1.000 min, +0.06
#          modal now a3 = 60000 ms 0.10: -1.000 min, -0.10; total -0.04
#          runs: late a4, moved out a1 (now globex) and a5 (now newco),
#          repriced a2, replaced a3
#   globex e2b now g1 + a1 = 120000 ms 0.12: +1.000 min, +0.06
#          runs: moved in a1 (from acme, INV-2026-11-acme-001)
#   newco  no invoice: a5 is still on acme's (a run is on one finalized
#          invoice at most); stderr says it is left out and that acme's
#          adjustment credits it.
# acme and globex together +0.02 = a4 0.06 + a2 0.06 - a5 0.10: a1 is
# counted once.
run() { # ID CUSTOMER BACKEND MS COST [EXTRA]
	printf '{"run_id":"%s","backend":"%s","session_id":"s-%s","started_at":"2026-11-10T10:00:00Z"%s,"tags":{"customer":"%s"},"sandbox_usage":{"exec_count":1,"total_duration_ms":%s,"computed_cost_usd":%s}}\n' \
		"$1" "$3" "$1" "${6:-}" "$2" "$4" "$5"
}
{ run a1 acme e2b 60000 0.06; run a2 acme e2b 120000 0.12; run a3 acme modal 60000 0.10
  run a5 acme modal 60000 0.10; run g1 globex e2b 60000 0.06; } >runs.jsonl
{ run a1 globex e2b 60000 0.06; run a2 acme e2b 180000 0.18; run a5 newco modal 60000 0.10
  run a3 acme modal 60000 0.10 ',"ended_at":"2026-11-10T10:05:00Z"'; run a4 acme e2b 60000 0.06; } >changes.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb invoice --period 2026-11 --by tag:customer --finalize >/dev/null 2>&1
sb import runs --replace changes.jsonl
sb invoice --period 2026-11 --by tag:customer
"$SB" invoice --period 2026-11 --by tag:customer --format json 2>/dev/null | python3 -c '
import json, sys
for inv in json.load(sys.stdin)["invoices"]:
    a = inv["adjustments"]
    print(inv["number"], inv["basis"], "late", a["late_runs"], "changed", json.dumps(a["changed_runs"]), "total", a["total"])'
sb invoice --period 2026-11 --by tag:customer --format csv 2>/dev/null | grep adjustment
sb invoice --period 2026-11 --by tag:customer --format html | grep -F -e '<li>' -e 'Since this invoice'
# nothing changed in the table of charged runs
sqlite3 sbledger.db "SELECT i.number, r.run_id FROM invoice_run r JOIN invoice i USING (invoice_id) ORDER BY 1, 2"
