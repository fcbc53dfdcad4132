# backends: cheapest first by rate_key (ties by name), filtered by
# capabilities; the seeded backends have no known maximum CPU, memory or
# regions, so --min-cpu, --min-memory-mb and --region match none of them.
sb init >/dev/null
sb backends
sb backends --network --persistent
sb backends --persistent --format csv
sb backends --min-cpu 1
sb backends --min-memory-mb 512
sb backends --region eu
sb rates set newcomer --usd-per-minute 0.01 >/dev/null
sb rates set e2b --usd-per-minute 0.5 --from 2026-11-30T11:00:00Z >/dev/null
sb backends --format json
sb backends --network | grep -c newcomer
