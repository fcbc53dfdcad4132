#!/bin/sh
# The room check (tools/rooms.sh) on the objects of BUILD, then on the same
# objects with one more in ledger/ that calls the reconciliation page of
# report/, reads the environment and calls SQLite itself: the first must
# pass, the second must fail naming all three, so that the check is known to guard the rooms.
set -eu
build=${1:?usage: tests/rooms/selftest.sh BUILD_DIR}
here=$(cd "$(dirname "$0")/../.." && pwd)
sh "$here/tools/rooms.sh" "$build"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
for room in ledger importers reconcile report nightly cli; do
	mkdir "$tmp/$room"
	for o in "$build/$room"/*.o; do ln -s "$(cd "$(dirname "$o")" && pwd)/$(basename "$o")" "$tmp/$room/"; done
done
ln -s "$(cd "$build" && pwd)/sql_embed.o" "$tmp/sql_embed.o"
cat >"$tmp/bad.c" <<'C'
#include <stdlib.h>
int sb_recon_page(void);
int sqlite3_changes(void *);
int bad(void);
int bad(void) { return sb_recon_page() + (getenv("HOME") != NULL) + sqlite3_changes(NULL); }
C
cc -c -o "$tmp/ledger/zz_bad.o" "$tmp/bad.c"
if ROOMS_ALL_OBJECTS=1 sh "$here/tools/rooms.sh" "$tmp" >"$tmp/out" 2>&1; then
	echo "rooms selftest: FAIL: a ledger object calling report/ passed the check"
	exit 1
fi
grep -q 'ledger/zz_bad.o calls sb_recon_page of report/' "$tmp/out" &&
	grep -q 'ledger/zz_bad.o names getenv' "$tmp/out" &&
	grep -q 'ledger/zz_bad.o names sqlite3_changes' "$tmp/out" || {
	echo "rooms selftest: FAIL: the check did not name both calls:"
	cat "$tmp/out"
	exit 1
}
echo "rooms selftest: a ledger object calling report/, getenv and SQLite is refused, naming all three"
