# rates set: a new card from a date reprices the runs it covers (their card
# cost), and no others; --at shows the card in force at an instant.
cat > runs.jsonl <<'RUNS'
{"run_id": "before", "backend": "e2b", "started_at": "2026-11-01T23:59:59.999Z", "sandbox_usage": {"exec_count": 1, "total_duration_ms": 60000, "computed_cost_usd": 0.06, "executions": [{"duration_ms": 60000, "cost_usd": 0.06}]}}
{"run_id": "after", "backend": "e2b", "started_at": "2026-11-02T00:00:00Z", "sandbox_usage": {"exec_count": 2, "total_duration_ms": 1500, "computed_cost_usd": 0.0015, "executions": [{"duration_ms": 1000, "cost_usd": 0.001}, {"duration_ms": 500, "cost_usd": 0.0005}]}}
{"run_id": "gpu", "backend": "e2b", "plan": "gpu", "started_at": "2026-11-05T00:00:00Z", "sandbox_usage": {"exec_count": 1, "total_duration_ms": 30000}}
{"run_id": "other", "backend": "modal", "started_at": "2026-11-05T00:00:00Z", "sandbox_usage": {"exec_count": 1, "total_duration_ms": 6000}}
{"run_id": "mine", "backend": "my-cloud", "started_at": "2026-11-05T00:00:00Z", "sandbox_usage": {"exec_count": 1, "total_duration_ms": 6000}}
RUNS
cards() { sqlite3 sbledger.db 'SELECT run_id, card_nanos FROM run ORDER BY run_id'; }
sb init >/dev/null
sb import runs runs.jsonl
cards
# 0.12 from 2026-11-02: after doubles (1000 -> 2,000,000; 500 -> 1,000,000), gpu too
sb rates set e2b --usd-per-minute 0.12 --from 2026-11-02
cards
# a plan card: only the run of that plan
sb rates set e2b --plan gpu --usd-per-minute 0.6 --from 2026-11-03T00:00:00Z
cards
# a custom backend gets a card: its runs are priced; it joins 'backends'
sb rates set my-cloud --usd-per-minute 1.5 --usd-per-cpu-second 0.00002 --usd-per-gb-second 0.000003 --from 2026-01-01
cards
# free from 2026-11-04 on for modal
sb rates set ModalSandboxClient --free --from 2026-11-04
cards
sb rates --all
sb rates --at 2026-11-01T23:59:59.999Z --format csv | grep -e backend -e e2b
sb rates --at 2026-11-02 --format csv | grep e2b
sb rates --at 2026-11-03T00:00:00Z --format csv | grep e2b
sb rates --format json | grep -e my-cloud -e '"e2b"'
sqlite3 sbledger.db "SELECT backend, COALESCE(plan, '-'), source FROM rate_card WHERE source <> 'seed' ORDER BY card_id"
# the same backend, plan and instant again replaces the card
sb rates set e2b --usd-per-minute 0.24 --from 2026-11-02
cards
sqlite3 sbledger.db "SELECT COUNT(*) FROM rate_card WHERE backend = 'e2b'"
sb check | grep -v '^ok '
