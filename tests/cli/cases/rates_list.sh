# The seeded card (docs/rules.md) in the three formats; the JSON is
# an array of {backend, plan, effective_from, usd_per_minute,
# usd_per_cpu_second, usd_per_gb_second, free}, rates with 9 decimals.
sb init >/dev/null
sb rates
sb rates --format csv
sb rates --format json
"$SB" rates --format json | python3 -c '
import json, sys
cards = json.load(sys.stdin)
print(len(cards), sorted(cards[0]))
print(all(c["usd_per_cpu_second"] is None and isinstance(c["free"], bool) for c in cards))'
