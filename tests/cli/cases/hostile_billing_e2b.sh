# Hostile input for import billing --format e2b-events (tests/reliability/hostile.py):
# random bytes, nesting 100,000 deep, records of 20 MB and 70 MB, invalid
# UTF-8, NaN and infinities, integers past 64 bits, a BOM with CRLF, an
# empty file, amounts whose sum passes int64 nanodollars; each into a new
# ledger.  Never a crash: the bad records rejected (exit 65), the good ones
# around them kept, check passing, memory bounded; a sum past int64 is an
# error of reconcile, never a wrap.
. "$REPO/tests/reliability/hostile_case.sh"
hostile_imports e2b-events
sb rates set e2b --usd-per-minute 0.06 --usd-per-cpu-second 1000 --usd-per-gb-second 1000 --from 2026-01-01 >/dev/null
sb reconcile --period 2026 --dry-run
hostile_memories e2b-events
# a price past 2^127 before its division (vCPU-ms and a rate, each within
# int64): an overflow error, not undefined behaviour
sb rates set e2b --usd-per-minute 0.06 --usd-per-cpu-second 9000000000 --usd-per-gb-second 9000000000 --from 2026-06-01 >/dev/null
printf '{"id": "x1", "type": "sandbox.lifecycle.killed", "sandbox_id": "s1", "event_data": {"execution": {"started_at": "2026-11-04T10:08:25Z", "vcpu_count": 2147483648, "memory_mb": 2147483648, "execution_time": 2147483648}}}\n' > huge.jsonl
sb import billing --format e2b-events huge.jsonl
sb reconcile --period 2026-11 --dry-run
