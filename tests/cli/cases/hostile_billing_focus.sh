# Hostile input for import billing --format focus (tests/reliability/hostile.py):
# random bytes, nesting 100,000 deep, records of 20 MB and 70 MB, invalid
# UTF-8, NaN and infinities, integers past 64 bits, a BOM with CRLF, an
# empty file, amounts whose sum passes int64 nanodollars; each into a new
# ledger.  Never a crash: the bad records rejected (exit 65), the good ones
# around them kept, check passing, memory bounded; a sum past int64 is an
# error of reconcile, never a wrap.
. "$REPO/tests/reliability/hostile_case.sh"
hostile_imports focus
sb reconcile --period 2026 --dry-run
hostile_memories focus
# an amount within int64 whose value in USD is not: an overflow error, not
# a line "without an exchange rate" (status currency)
rm -f sbledger.db sbledger.db-wal sbledger.db-shm sbledger.db-lock
sb init >/dev/null
printf 'BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ServiceProviderName\r\n9000000000,EUR,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Vercel\r\n' > eur.csv
sb import billing --format focus eur.csv
sb fx set EUR 2 --from 2026-01-01
sb reconcile --period 2026-11 --dry-run
