# Tokens without a model (docs/reports.md, "Tokens without a model"): a
# run with tokens and no model has a token cost nobody can price.  A draft
# shows that line and the total as unknown (null in JSON, empty in CSV)
# and names the runs; --finalize is refused naming them, nothing stored.
# A run with no model and no tokens adds nothing (no unknown line).  Then:
# each invoice in JSON states its own basis (a billed invoice reprinted
# while --basis computed is asked), and no invoice output (table, csv,
# json, html) carries a command line: the hints go to stderr.
#   acme: e2b 60000 ms 0.06 (t1, 1000 in / 100 out, model null),
#         e2b 60000 ms 0.06 (t2, 50 in / 0 out, no model key),
#         e2b 60000 ms 0.06 (t3, no token_usage): e2b 3.000 min 0.18,
#         tokens of no model 1050 in / 100 out, amount and total unknown
#   globex: modal 60000 ms 0.10 (t4, token_usage model null, 0 tokens):
#         modal 1.000 min 0.10, no token line, total 0.10
printf '%s\n' \
  '{"run_id":"t1","backend":"e2b","session_id":"s1","started_at":"2026-11-10T10:00:00Z","tags":{"customer":"acme"},"token_usage":{"model":null,"input_tokens":1000,"output_tokens":100},"sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":0.06}}' \
  '{"run_id":"t2","backend":"e2b","session_id":"s1","started_at":"2026-11-11T10:00:00Z","tags":{"customer":"acme"},"token_usage":{"input_tokens":50,"output_tokens":0},"sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":0.06}}' \
  '{"run_id":"t3","backend":"e2b","session_id":"s1","started_at":"2026-11-12T10:00:00Z","tags":{"customer":"acme"},"sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":0.06}}' \
  '{"run_id":"t4","backend":"modal","session_id":"s4","started_at":"2026-11-12T11:00:00Z","tags":{"customer":"globex"},"token_usage":{"model":null,"input_tokens":0,"output_tokens":0},"sandbox_usage":{"exec_count":1,"total_duration_ms":60000,"computed_cost_usd":0.1}}' >runs.jsonl
sb init >/dev/null
sb import runs runs.jsonl >/dev/null
sb invoice --period 2026-11 --by tag:customer
sb invoice --period 2026-11 --by tag:customer --customer acme --format json
sb invoice --period 2026-11 --by tag:customer --format csv
sb invoice --period 2026-11 --by tag:customer --customer acme --format html | grep -F -e unknown
# a period cutting a day (head and tail from the runs, not the rollups)
sb invoice --period 2026-11-10T09:00:00Z..2026-11-11T12:00:00Z --by tag:customer --format csv
sb invoice --period 2026-11 --by tag:customer --finalize
sb invoice --period 2026-11 --by tag:customer --customer acme --finalize
sqlite3 sbledger.db "SELECT COUNT(*) FROM invoice"
sb invoice --period 2026-11 --by tag:customer --customer globex --basis billed --finalize >/dev/null 2>&1
# globex's invoice is billed, the set asked for computed
"$SB" invoice --period 2026-11 --by tag:customer --format json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("set basis", d["basis"])
for inv in d["invoices"]:
    print(inv["customer"], inv["number"], "basis", inv["basis"], "total", inv["total"])'
# no command line on any invoice output: the hints are on stderr only
cp "$SAMPLES/runs.jsonl" samples.jsonl
cp "$SAMPLES/billing-record.jsonl" record.jsonl
sb --db s.db init >/dev/null
sb --db s.db import runs samples.jsonl >/dev/null
sb --db s.db import billing --format record record.jsonl >/dev/null
sb --db s.db prices set gpt-5.6-terra --input-per-m 2.5 --output-per-m 10 >/dev/null
sb --db s.db prices set claude-x-mini --input-per-m 1 --output-per-m 4 >/dev/null
for f in table csv json html; do
	"$SB" --db s.db invoice --period 2026-11 --by tag:customer --basis billed --format $f >out.$f 2>err.$f
	echo "$f: exit $?, $(grep -c -E 'sbledger (fx|rates|reconcile|prices|import|invoice)|--[a-z]' out.$f) command lines on the invoice, $(grep -c -E 'sbledger (fx|rates|reconcile|prices|import|invoice)|--[a-z]' err.$f) on stderr"
done
cat err.table
