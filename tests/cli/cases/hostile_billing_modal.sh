# Hostile input for import billing --format modal (tests/reliability/hostile.py):
# random bytes, nesting 100,000 deep, records of 20 MB and 70 MB, invalid
# UTF-8, NaN and infinities, integers past 64 bits, a BOM with CRLF, an
# empty file, amounts whose sum passes int64 nanodollars; each into a new
# ledger.  Never a crash: the bad records rejected (exit 65), the good ones
# around them kept, check passing, memory bounded; a sum past int64 is an
# error of reconcile, never a wrap.
. "$REPO/tests/reliability/hostile_case.sh"
hostile_imports modal
sb reconcile --period 2026 --dry-run
hostile_memories modal
