# No rate card means unknown, never free: a custom backend never given
# 'rates set' (its SDK client declares no card, so its executions'
# cost_usd are null and computed_cost_usd 0.0) is no_rate in reconcile
# (flagged), on the table, in JSON and on the page, each naming both ways
# out; report summary and report budget show its cost as unknown (null in
# JSON and CSV, "unknown" in tables) naming the backend and the fixes; a
# computed invoice's compute line is unknown and its finalize is refused
# (exit 65).  A card from a later date than the run leaves all that so;
# --free from the run's day settles it (a free backend is ok at 0, its
# line 0.00, and the invoice finalizes).
cat > runs.jsonl <<'RUNS'
{"run_id": "g1", "backend": "acme-gpu", "session_id": "s1", "started_at": "2026-11-05T10:00:00Z", "ended_at": "2026-11-05T10:05:00Z", "tags": {"customer": "acme"}, "sandbox_usage": {"exec_count": 1, "total_duration_ms": 60000, "computed_cost_usd": 0.0, "executions": [{"duration_ms": 60000, "cost_usd": null}]}}
{"run_id": "e1", "backend": "e2b", "session_id": "s2", "started_at": "2026-11-05T11:00:00Z", "ended_at": "2026-11-05T11:02:00Z", "tags": {"customer": "acme"}, "sandbox_usage": {"exec_count": 1, "total_duration_ms": 60000, "computed_cost_usd": 0.06, "executions": [{"duration_ms": 60000, "cost_usd": 0.06}]}}
RUNS
sb init >/dev/null
sb import runs runs.jsonl
echo "== reconcile: acme-gpu is no_rate, flagged, with both fixes"
sb reconcile --period 2026-11-05 --dry-run
sb reconcile --period 2026-11-05 --dry-run --format json | grep -e '"backend"' -e '"status"' -e runs_without_card -e '"message"'
sb reconcile --period 2026-11-05 --dry-run --format html >page.html
grep -o '<tr class="backend main" data-backend="[a-z0-9-]*" data-status="[a-z_]*" data-flagged="[a-z]*"' page.html | sed 's/<tr class="backend main" //'
grep -o '<span class="why">[^<]*</span>' page.html | sed 's/<[^>]*>//g'
grep -c 'sbledger rates set acme-gpu --free --from 2026-11-05' page.html
echo "== report summary: card cost unknown, the backend and both fixes named"
sb report summary --period 2026-11 --by backend
sb report summary --period 2026-11 --by day --format json | grep card_cost_usd
sb report summary --period 2026-11 --by backend --format html | grep -o '<li>Card cost unknown[^/]*'
echo "== report budget: the run's compute cost unknown"
sb report budget --period 2026-11
sb report budget --period 2026-11 --format csv 2>/dev/null
sb report budget --period 2026-11 --format json 2>/dev/null | grep -e compute_cost_usd -e compute_unknown_runs
echo "== invoice: the compute line unknown in a draft, the finalize refused"
sb invoice --period 2026-11 --by tag:customer
sb invoice --period 2026-11 --by tag:customer --format json 2>/dev/null | grep -A2 -e '"amount": null' -e '"total"'
sb invoice --period 2026-11 --by tag:customer --finalize
echo "== a card from a later date than the run: still no card in force at its start"
sb rates set acme-gpu --usd-per-minute 0.5 --from 2026-11-06
sb reconcile --period 2026-11-05 --dry-run | grep acme-gpu
sb invoice --period 2026-11 --by tag:customer --finalize 2>&1 | grep -c 'cannot be finalized'
echo "== --free from the run's day: it costs nothing, ok at 0, and the invoice finalizes"
sb rates set acme-gpu --free --from 2026-11-05
sb reconcile --period 2026-11-05 --dry-run | grep acme-gpu
sb report summary --period 2026-11 --by backend
sb invoice --period 2026-11 --by tag:customer --finalize
