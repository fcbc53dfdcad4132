# docs/rules.md, "Time": every time's UTC instant lies in
# 0000-01-01T00:00:00Z .. 9999-12-31T23:59:59.999Z.  In each importer
# (runs, and the billing formats record, focus, modal, daytona,
# e2b-events) a time at each edge is taken, however its offset writes it,
# and one a millisecond past an edge (an offset pushing it there) is
# rejected naming its field; the lines taken are stored at the edges.
cat >runs.jsonl <<'JSON'
{"run_id": "in-first", "backend": "e2b", "started_at": "0000-01-01T01:00:00+01:00", "ended_at": "0000-01-01T00:00:00.001Z", "sandbox_usage": {}}
{"run_id": "out-first", "backend": "e2b", "started_at": "0000-01-01T00:59:59.999+01:00", "sandbox_usage": {}}
{"run_id": "in-last", "backend": "e2b", "started_at": "9999-12-31T22:59:59.998-01:00", "ended_at": "9999-12-31T23:59:59.999Z", "sandbox_usage": {}}
{"run_id": "out-last", "backend": "e2b", "started_at": "9999-12-31T23:59:59.998Z", "ended_at": "9999-12-31T23:00:00-01:00", "sandbox_usage": {}}
{"run_id": "out-issue-first", "backend": "e2b", "started_at": "0000-01-01T00:30:00+01:00", "sandbox_usage": {}}
{"run_id": "out-issue-last", "backend": "e2b", "started_at": "9999-12-31T23:30:00-01:00", "sandbox_usage": {}}
{"run_id": "in-seconds", "backend": "e2b", "started_at": -62167219200, "ended_at": 253402300799.999, "sandbox_usage": {}}
{"run_id": "out-seconds", "backend": "e2b", "started_at": -62167219200.001, "sandbox_usage": {}}
JSON
cat >record.jsonl <<'JSON'
{"backend": "cloudflare", "session_id": "s1", "cost_usd": 1, "period_start": "0000-01-01T01:00:00+01:00", "period_end": "0000-01-01T00:00:00.001Z", "line_id": "in-first"}
{"backend": "cloudflare", "session_id": "s2", "cost_usd": 1, "period_start": "0000-01-01T00:59:59.999+01:00", "period_end": "0000-01-02T00:00:00Z", "line_id": "out-first"}
{"backend": "cloudflare", "session_id": "s3", "cost_usd": 1, "period_start": "9999-12-31T22:59:59.998-01:00", "period_end": "9999-12-31T23:59:59.999Z", "line_id": "in-last"}
{"backend": "cloudflare", "session_id": "s4", "cost_usd": 1, "period_start": "9999-12-31T23:59:59.998Z", "period_end": "9999-12-31T23:00:00-01:00", "line_id": "out-last"}
JSON
cat >focus.csv <<'CSV'
BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ServiceProviderName,ServiceName
1,USD,0000-01-01 00:00:00,0000-01-01T00:00:00.001Z,Usage,Vercel,Sandbox
1,USD,0000-01-01T00:59:59.999+01:00,0000-01-02T00:00:00Z,Usage,Vercel,Sandbox
1,USD,9999-12-31T22:59:59.998-01:00,9999-12-31 23:59:59.999,Usage,Vercel,Sandbox
1,USD,9999-12-31T23:59:59.998Z,9999-12-31T23:00:00-01:00,Usage,Vercel,Sandbox
CSV
cat >modal.json <<'JSON'
[
 {"object_id": "in-first", "interval_start": "0000-01-01T00:00:00", "cost": "1"},
 {"object_id": "out-first", "interval_start": "0000-01-01T00:59:59.999+01:00", "cost": "1"},
 {"object_id": "in-last", "interval_start": "9999-12-31T01:00:00+01:00", "cost": "1"},
 {"object_id": "out-last", "interval_start": "9999-12-31T23:00:00-01:00", "cost": "1"}
]
JSON
day() {
	printf ' {"sandboxId": "%s", "firstStart": "%s", "lastEnd": "%s", "totalCPUSeconds": 0, "totalRAMGBSeconds": 0, "totalDiskGBSeconds": 0, "totalGPUSeconds": 0, "totalPrice": 1}' "$1" "$2" "$3"
}
{
	echo '['
	day in-first 0000-01-01T01:00:00+01:00 0000-01-01T00:00:00.001Z; echo ','
	day out-first 0000-01-01T00:59:59.999+01:00 0000-01-02T00:00:00Z; echo ','
	day in-last 9999-12-31T22:59:59.998-01:00 9999-12-31T23:59:59.999Z; echo ','
	day out-last 9999-12-31T23:59:59.998Z 9999-12-31T23:00:00-01:00; echo
	echo ']'
} >daytona.json
e2b() {
	printf ' {"id": "%s", "type": "sandbox.lifecycle.killed", "sandbox_id": "sb-%s", "event_data": {"execution": {"started_at": "%s", "vcpu_count": 1, "memory_mb": 512, "execution_time": 0}}}' "$1" "$1" "$2"
}
{
	echo '['
	e2b in-first 0000-01-01T01:00:00+01:00; echo ','
	e2b out-first 0000-01-01T00:59:59.999+01:00; echo ','
	e2b in-last 9999-12-31T22:59:59.999-01:00; echo ','
	e2b out-last 9999-12-31T23:00:00-01:00; echo
	echo ']'
} >e2b.json
sb init >/dev/null
sb import runs runs.jsonl
for f in record:record.jsonl focus:focus.csv modal:modal.json daytona:daytona.json e2b-events:e2b.json; do
	sb import billing --format "${f%%:*}" "${f#*:}"
done
sqlite3 sbledger.db 'SELECT run_id, started_ms, started_day, ended_ms FROM run ORDER BY started_ms, run_id'
sqlite3 sbledger.db 'SELECT backend, start_ms, end_ms FROM billing_line ORDER BY backend, start_ms'
