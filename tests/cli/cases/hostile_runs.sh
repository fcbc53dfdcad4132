# Hostile input for import runs (tests/reliability/hostile.py): random
# bytes, nesting 100,000 deep, lines of 20 MB and 70 MB, invalid UTF-8,
# NaN and infinities, integers past 64 bits, sums past int64, a BOM with
# CRLF, an empty file; each into a new ledger.  Never a crash: the bad
# lines rejected (exit 65), the good ones around them kept, check passing,
# memory bounded; amounts whose sum passes int64 nanodollars are an error
# of the reports, never a wrap.
. "$REPO/tests/reliability/hostile_case.sh"
hostile_imports runs
sb report summary --period 2026-11 --format json
sb reconcile --period 2026-11 --dry-run
sb invoice --period 2026-11 --by tag:customer
hostile_memories runs
