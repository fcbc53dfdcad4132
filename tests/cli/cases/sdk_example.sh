# examples/sdk_record.py (docs/formats-runs.md, "What the agent SDK writes"):
# it turns what an application saved of its runs (fixtures/sdk/saved_runs.jsonl:
# run id, client class, times from time.time(), model, tags, and the
# dataclasses.asdict output of each run's SandboxUsage and LLMUsage) into
# records that import whole, with totals equal to the SDK's __add__ of the
# usages (fixtures/sdk/add_usages.py: the SDK's own when installed).  The
# runs: e2b with a -4 ms command (clock skew); a modal run resumed, its usage
# the __add__ of a summary-only part (exec_count 5) and a detailed one (2
# executions listed), LLMUsage without a model; no sandbox (client None:
# backend local); docker, no tokens; a custom client (acme-cloud, no rate
# card: cost_usd null).  python3 -S: no site packages, so no SDK either.
cp "$FIX/sdk/saved_runs.jsonl" saved.jsonl
python3 -S "$REPO/examples/sdk_record.py" saved.jsonl > runs.jsonl
echo "sdk_record.py: exit $?, $(wc -l < runs.jsonl) records"
python3 -c '
import json
for line in open("runs.jsonl"):
    r = json.loads(line)
    su = r["sandbox_usage"]
    print(r["run_id"][:8], r["backend"], r["started_at"], r["ended_at"], (r["token_usage"] or {}).get("model"),
          None if su is None else (su["exec_count"], len(su["executions"])))'
sb init >/dev/null
sb import runs runs.jsonl
sqlite3 sbledger.db "SELECT substr(run_id, 1, 8), backend, started_ms, ended_ms, exec_count, total_duration_ms,
    computed_nanos, card_nanos, model, input_tokens, output_tokens FROM run ORDER BY started_ms"
sb check | grep -v '^ok '
"$SB" report summary --period 2026-11 --by backend --format json > summary.json 2>/dev/null
python3 "$FIX/sdk/add_usages.py" saved.jsonl summary.json
# converting again gives the same bytes; read again (--force), every record is a duplicate
python3 -S "$REPO/examples/sdk_record.py" saved.jsonl > again.jsonl
sb import runs --force again.jsonl
# a saved run without a run_id is refused, not given a new one
echo '{"client": "E2bSandboxClient", "started_at": 1795917600.5, "sandbox_usage": null, "llm_usage": null}' > noid.jsonl
python3 -S "$REPO/examples/sdk_record.py" noid.jsonl; echo "exit $?"
