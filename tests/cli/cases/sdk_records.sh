# docs/formats-runs.md, "What the agent SDK writes": the records the SDK does
# emit, in the shape dataclasses.asdict gives (fixtures/sdk/records.jsonl):
#   sdk-full       E2bSandboxClient, 3 executions, one of -3 ms (clock skew),
#                  total 1997 = their sum; started_at 1795917600.1234567 (7
#                  decimals: 2026-11-29T02:00:00.123Z), ended_at ...625.6
#                  card: 1200 ms + 0 + 800 ms at 0.06/min = 1,200,000 + 800,000
#                  = 2,000,000 nanodollars (cost_for_ms(1997) would be 1,997,000)
#   sdk-partly     ModalSandboxClient, the __add__ of a summary-only usage
#                  (exec_count 3, 4000 ms) and a detailed one (1 execution,
#                  2000 ms): exec_count 4, 6000 ms, started_at ...200.125 (3)
#                  card: 2000 ms at 0.10/min = 3,333,333.3 -> 3,333,333, plus the
#                  unlisted 4000 ms = 6,666,666.7 -> 6,666,667: 10,000,000
#   sdk-nosandbox  "sandbox_usage": null, LLMUsage 800 + 200 tokens, no model:
#                  every counter 0, token cost null (the reports name the run),
#                  and so the token cost of its groups and of the total
#   sdk-zero       DockerSandboxClient, one 0 ms command, the default LLMUsage
#                  (0 tokens, no model): token cost 0; docker free: card 0
#   sdk-edge       partly detailed (exec_count 2), its one listed execution
#                  exactly at the aggregates (1500 ms, 0.0015): card 1,500,000
#   sdk-tol        partly detailed, the listed cost_usd 0.001000001 one
#                  nanodollar over computed 0.001 (1 listed: 1 of tolerance)
#   bad-ms         the listed execution 1001 ms, the total 1000: rejected
#   bad-nanos      the listed cost 2 nanodollars over with 1 listed: rejected
#   bad-cpu        an execution's cpu_ms -1 (only durations may be negative)
#   bad-time       started_at 1e300: rejected
# fixtures/sdk/expect.py recomputes every stored figure and the summary's
# totals (the SDK's __add__) with decimal.
# cli-tests: sqlite (Python's sqlite3 module, sqlite3 -header and json_set on the ledger file)
cp "$FIX/sdk/records.jsonl" records.jsonl
sb init >/dev/null
sb import runs records.jsonl
sqlite3 sbledger.db "SELECT line_no, reason FROM reject ORDER BY line_no"
sqlite3 -header sbledger.db "SELECT run_id, backend, started_ms, ended_ms, exec_count, total_duration_ms,
    computed_nanos, card_nanos, model, input_tokens, output_tokens FROM run ORDER BY run_id"
sqlite3 sbledger.db "SELECT r.run_id, x.seq, x.command, x.duration_ms, x.cost_nanos
    FROM execution x JOIN run r ON r.rid = x.rid ORDER BY r.run_id, x.seq"
sb check | grep -v '^ok '
# token prices (USD per million): sdk-full 12000 x 1.25 + 3000 x 10 = 45,000
# micro-USD = 0.045; sdk-partly 1000 x 1.25 + 100 x 10 = 2,250 = 0.00225
sb prices set gpt-5.6-terra --input-per-m 1.25 --output-per-m 10 >/dev/null
"$SB" report summary --period 2026-11 --by backend --format json > summary.json 2>/dev/null
cat summary.json
python3 "$FIX/sdk/expect.py" records.jsonl sbledger.db summary.json
sb report summary --period 2026-11 --by tag:customer
"$SB" report budget --period 2026-11 --format json 2>/dev/null | python3 -c '
import json, sys
b = json.load(sys.stdin)
for r in b["runs"]:
    print(r["run_id"], r["model"], r["token_cost_usd"], r["compute_cost_usd"], r["total_cost_usd"])
print("total", b["total"]["token_cost_usd"], b["total"]["total_cost_usd"])
print("tokens_without_model", b["tokens_without_model"])'
sb report budget --period 2026-11 | sed -n '1,3p;/stderr/p' 
# a new modal card reprices sdk-partly by the same rule: 2000 ms at 0.20 =
# 6,666,666.7 -> 6,666,667, 4000 ms = 13,333,333.3 -> 13,333,333: 20,000,000
sb rates set modal --usd-per-minute 0.2 --from 2026-11-01 >/dev/null
sqlite3 sbledger.db "SELECT run_id, card_nanos FROM run WHERE backend = 'modal'"
# check verifies the listed executions of a partly detailed run: one
# millisecond more than its total is found (its one execution's duration_ms,
# the third value of the first element of its run_execs array)
sqlite3 sbledger.db "UPDATE run_execs SET execs = json_set(execs, '\$[0][2]', (execs ->> '\$[0][2]') + 1)
    WHERE rid = (SELECT rid FROM run WHERE run_id = 'sdk-edge')"
sb check | grep -v '^ok '
