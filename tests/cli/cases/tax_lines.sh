# Tax lines (FOCUS ChargeCategory Tax) are not the provider's bill of a
# session's compute: a budget's session billed figure leaves them out
# (s-usage: 0.70, not 0.75; breaking that rule in budget_runs.sql fails
# this case), and an invoice on the billed basis charges no Tax line, a
# session whose only line is Tax (s-tax) taking its run's own billed 0.40,
# charged to that run's customer (beta): with Tax counted as covering the
# session in invoice_sessions.sql, beta's 0.40 would be pooled and split
# 0.20/0.20 with acme by computed cost.
run() { # RUN_ID SESSION CUSTOMER BILLED
	printf '{"run_id": "%s", "backend": "e2b", "session_id": "%s", "started_at": "2026-11-02T10:00:00Z", "ended_at": "2026-11-02T10:10:00Z", "tags": {"customer": "%s"}, "budget_usd": 0.65, "sandbox_usage": {"exec_count": 1, "total_duration_ms": 600000, "computed_cost_usd": 0.6, "billed_cost_usd": %s, "executions": [{"command": "make", "duration_ms": 600000, "cost_usd": 0.6}]}}\n' "$@"
}
{
	run r-usage s-usage acme null
	run r-tax s-tax beta 0.4
} >runs.jsonl
{
	echo 'BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ServiceProviderName,ResourceId'
	echo '0.70,USD,2026-11-02T10:00:00Z,2026-11-02T10:10:00Z,Usage,E2B,s-usage'
	echo '0.05,USD,2026-11-02T10:00:00Z,2026-11-02T10:10:00Z,Tax,E2B,s-usage'
	echo '0.02,USD,2026-11-02T10:00:00Z,2026-11-02T10:10:00Z,Tax,E2B,s-tax'
} >focus.csv
sb init >/dev/null
sb import runs runs.jsonl
sb import billing --format focus focus.csv
echo "== invoice, billed basis: acme 0.70 billed, beta s-tax's own 0.40, no Tax"
sb invoice --period 2026-11 --by tag:customer --basis billed --format csv
echo "== budget: s-usage's session billed is 0.70, not 0.75 (over its 0.65 by 0.05)"
sb report budget --period 2026-11 --format csv
