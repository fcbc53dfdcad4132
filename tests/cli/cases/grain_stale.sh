# backends set BACKEND --grain (docs/reconcile.md, "Grain"): what it sets
# and what it was, every rejection (64); the same setting again, or one
# that leaves the grain as judged, logs nothing and makes nothing stale; a
# grain that moves makes the backend's stored results stale, shown by
# 'reconciliations' in each format; 'reconcile --stale' judges them again
# (a month-grained backend's day result becomes partial), names the result
# each replaces, exits 1 with --fail-on-drift while a stored result has an
# open flag, and honours --catch-up at its edge.
for r in "modal 0.1" "e2b 0.06" "blaxel 0.09"; do
	set -- $r
	printf '{"run_id": "%s-1", "backend": "%s", "session_id": "%s-s1", "started_at": "2026-11-02T10:00:00Z", "ended_at": "2026-11-02T10:01:00Z", "sandbox_usage": {"exec_count": 1, "total_duration_ms": 60000, "computed_cost_usd": %s}}\n' $1 $1 $1 $2
done >runs.jsonl
printf '{"backend": "e2b", "session_id": "e2b-s1", "cost_usd": 0.06, "currency": "USD", "unit": null, "raw": null, "period_start": "2026-11-02T10:00:00Z", "period_end": "2026-11-02T10:01:00Z", "line_id": "e2b-1"}\n' >bill.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb import billing --format record bill.jsonl >/dev/null
sb reconcile --period 2026-11-02 | tail -2
grains() { sqlite3 sbledger.db "SELECT COUNT(*) || ' grain changes logged' FROM ledger_change WHERE what = 'grain'"; }
echo "== nothing stale yet"
sb reconciliations
sb reconcile --stale

echo "== rejected, 64 each, nothing stored"
sb backends set modal --grain week
sb backends set modal
sb backends set modal extra --grain day
sb backends set 'Bad!' --grain day
sb backends set --grain day
sb backends set modal --grain
grains

echo "== the same setting again (auto, the default): no change logged, nothing stale"
sb backends set modal --grain auto
echo "-- day, which its lines already say: stored, no change logged, nothing stale"
sb backends set ModalSandboxClient --grain day
grains
sb reconciliations --format csv

echo "== month: the grain moves; modal's result of 2026-11-02 is stale"
sb backends set modal --grain month
sb backends set modal --grain month
grains
sb reconciliations
sb reconciliations --format csv
sb reconciliations --format json

echo "== reconcile --stale: refused with what it does not take"
sb reconcile --stale --period 2026-11-02
sb reconcile --stale --dry-run
sb reconcile --stale --abs-tol 1
sb reconcile --stale --format json
sb reconcile --period 2026-11-02 --catch-up 3
sb reconcile --stale --catch-up -1

echo "== judged again: modal unbilled -> partial (month-grained, never flagged); blaxel still open: exit 1"
sb reconcile --stale --fail-on-drift
sb reconciliations
echo "-- and nothing stale after it"
sb reconcile --stale --fail-on-drift

echo "== --catch-up: 2026-11-02 ends 2026-11-03, 27 days before today (2026-11-30)"
sb backends set modal --grain auto
sb reconcile --stale --catch-up 27
sb reconcile --stale --catch-up 28
sb reconciliations --format csv
