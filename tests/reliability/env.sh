# shellcheck shell=sh disable=SC2034,SC2154
# env.sh: the set-up the reliability tests share, sourced by each after
# it sets `here` (its own folder): a fixed locale, time zone and clock
# (SBLEDGER_NOW), no ledger taken from the caller's environment, `repo`,
# the checkout's root; and the checks of the scripts that count them
# (concurrency.sh, pg_concurrency.sh, pg_diskfull.sh, and tests/pg's
# rows_read.sh and check_corrupt.sh): pass, fail, eq, ok,
# with `SB` the sbledger under test.
LC_ALL=C
TZ=UTC
SBLEDGER_NOW=2026-11-30T12:00:00Z
export LC_ALL TZ SBLEDGER_NOW
unset SBLEDGER_DB
repo=$(cd "$here/../.." && pwd)

# Checks passed and failed.
passed=0
failed=0
pass() { passed=$((passed + 1)); }
# fail WHY [FILE...]: a failed check, and the first lines of each file
fail() {
	failed=$((failed + 1))
	echo "FAIL $1"
	shift
	for f in "$@"; do
		[ -f "$f" ] && sed "s|^|    $f: |" "$f" | head -8
	done
}
# eq NAME GOT WANT
eq() {
	if [ "$2" = "$3" ]; then pass; else fail "$1: got '$2', want '$3'"; fi
}
# ok LEDGER NAME: check passes on LEDGER
ok() {
	if "$SB" --db "$1" check >check.out 2>&1; then pass; else fail "$2: check fails" check.out; fi
}
