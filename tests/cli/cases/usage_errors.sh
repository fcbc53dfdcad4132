# Usage errors exit 64 with the usage.
sb init >/dev/null
# (the command lists grow as commands are added: first and last lines)
sb | sed -n '1p;$p'
sb frobnicate
sb batches --frobnicate
sb batches extra
sb import | sed -n '1p;$p'
sb import runs
sb import bills x | sed -n '1p;$p'
sb import runs --chunk
sb import runs --chunk lots runs.jsonl
sb rates set
sb rates set e2b
sb rates set e2b --usd-per-minute 0.1 --free
sb rates set e2b --usd-per-minute cheap
sb rates set E2B! --usd-per-minute 0.1
sb rates --at someday
sb backends --min-cpu -1
sb prices set m --input-per-m 1
sb prices set m --input-per-m -1 --output-per-m 2
sb report summary
sb report summary --period 2026-13
sb report summary --period 2026-11 --by customer
sb report summary --period 2026-11 --format pdf
sb batches --format yaml
sb --busy-timeout soon batches
sb --db
