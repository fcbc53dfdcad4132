# Names in messages are quoted, their control characters escaped, so that
# nothing a file name or a record holds can forge a line of what cron
# mails (every line of stderr below starts with "[stderr] "), and a
# command a message suggests runs as printed.
run='{"run_id": "%s", "backend": "e2b", "started_at": "2026-11-02T10:00:00Z", "sandbox_usage": {"exec_count": 1, "total_duration_ms": 1000, "computed_cost_usd": 0.001}%s}\n'
mkdir -p inbox/runs outside
nl='
'
# an inbox file whose name holds a line break and a fake message, with a
# bad record in it; a link out of the inbox named with an escape sequence
f="inbox/runs/a${nl}sbledger: all clear, nothing to see.jsonl"
{ printf "$run" r1 ''; echo '{"run_id": 7}'; } > "$f"
printf 'secret\n' > outside/secret
ln -s "$(pwd)/outside/secret" "inbox/runs/b$(printf '\033')[2J.jsonl"
sb init >/dev/null
echo "== nightly --quiet: the mail cron sends"
sb --quiet nightly --inbox inbox --period 2026-11-02 --out reports 2>&1 | sed "s|$(pwd)/|./|g"
echo "== import runs: the file's name quoted in every line"
sb import runs "$f"
echo "== a model named -2+3: the suggested command, run as printed (X and Y filled in)"
printf "$run" r2 ', "token_usage": {"model": "-2+3", "input_tokens": 1000000, "output_tokens": 1000000}' > model.jsonl
sb import runs model.jsonl
sb report summary --period 2026-11 --by model > summary.txt
cat summary.txt
cmd=$(sed -n 's/^\[stderr\] .*(\(sbledger prices set .*\))$/\1/p' summary.txt | sed 's/ X / 1 /; s/ Y / 2 /')
echo "running: $cmd"
sh -c "$cmd"; echo "[exit $?]"
sb prices
sb report summary --period 2026-11 --by model
echo "== a tag and a customer with a quote"
printf "$run" r3 ', "tags": {"cust'"'"'omer": "o'"'"'brien"}' > tagged.jsonl
sb import runs tagged.jsonl
sb invoice --period 2026-11 --by "tag:cust'omer" --customer "o'neil"
sb invoice --period 2026-11 --by "tag:cust'omr"
sb invoice --period 2026-11 --by "tag:team" --customer "o'neil"
