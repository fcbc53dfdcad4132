#!/bin/sh
# rooms.sh BUILD: hold the compiled objects to the rooms of
# docs/architecture.md, from what each object really calls (its undefined
# symbols, read with nm), not from its #include lines.
#
# BUILD is a build directory with one subdirectory of objects per room
# (build/san: ledger/, importers/, reconcile/, report/, nightly/, cli/;
# sql_embed.o, the SQL text compiled in, belongs to ledger).  A symbol an
# object of room A needs that an object of room B defines is a call from
# A to B, allowed only when the table below says A may call B.  The rooms
# of the library (all but cli) also may not name what prints to the
# terminal, reads the environment or ends the process (exit, abort,
# printf, puts, perror, stdout, stderr, getenv, ...): they write only to
# the FILE * they are given and return their errors.
#
# Prints each call that breaks a rule (room, object, symbol, the room that
# defines it) and exits 1 when there is one; 0 and a one-line summary
# otherwise.  tests/rooms/selftest.sh proves that it fails when it should.
set -eu

build=${1:?usage: tools/rooms.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/.." && pwd)

# An object may also not name an engine's library (sqlite3_*, libpq's
# PQ* and lo_*) unless it is that engine's file, ledger/db_sqlite.o or
# ledger/db_pg.o, nor the tests' way to the SQLite connection
# (ledger/db_sqlite.h).

# the objects of a room: those whose source is still in the room (an
# object left behind by a file moved to another room is not read), or
# every one with ROOMS_ALL_OBJECTS=1 (tests/rooms/selftest.sh's own tree)
objects_of() {
	for o in "$build/$1"/*.o; do
		[ -f "$o" ] || continue
		if [ "${ROOMS_ALL_OBJECTS:-0}" = 1 ] || [ -f "$src/$1/$(basename "$o" .o).c" ]; then
			echo "$o"
		fi
	done
	return 0
}

# who may call whom: the data flows one way, from the file or response
# (importers) into the ledger, out through reconcile and report, to the
# faces (nightly, the command line)
allowed() {
	case "$1" in
	ledger)    echo "" ;;
	importers) echo "ledger" ;;
	reconcile) echo "ledger" ;;
	report)    echo "ledger reconcile" ;;
	nightly)   echo "ledger importers reconcile report" ;;
	cli)       echo "ledger importers reconcile report nightly" ;;
	*)         return 1 ;;
	esac
}
ROOMS="ledger importers reconcile report nightly cli"
# what a library room may not name
FORBIDDEN='^(exit|_exit|_Exit|abort|quick_exit|atexit|printf|vprintf|puts|putchar|perror|stdout|stderr|getenv|secure_getenv|setenv|putenv|system|popen)$'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# the objects read, each as "room object-path"
: >"$tmp/objs"
for room in $ROOMS; do
	for o in $(objects_of "$room"); do echo "$room $o"; done >>"$tmp/objs"
done
if [ ! -s "$tmp/objs" ]; then
	echo "rooms: no objects under $build (build it first)" >&2
	exit 2
fi
objects=$(wc -l <"$tmp/objs" | tr -d ' ')
# one nm for all of them (-A names the object on each line): every symbol
# defined, with its room (sql_embed.o, the SQL text, is the ledger's), and
# what every object needs, "room object symbol"
# shellcheck disable=SC2046
nm -A -g --defined-only $(awk '{ print $2 }' "$tmp/objs") >"$tmp/nm_defs"
# shellcheck disable=SC2046
nm -A -u $(awk '{ print $2 }' "$tmp/objs") >"$tmp/nm_undef"
awk 'FILENAME == ARGV[1] { room[$2] = $1; next }
     { split($1, f, ":"); if (NF == 3) print $3, room[f[1]] }' "$tmp/objs" "$tmp/nm_defs" >"$tmp/defs"
[ -f "$build/sql_embed.o" ] &&
	nm -g --defined-only "$build/sql_embed.o" | awk 'NF == 3 { print $3, "ledger" }' >>"$tmp/defs"
awk 'FILENAME == ARGV[1] { room[$2] = $1; n = split($2, p, "/"); base[$2] = p[n]; next }
     { split($1, f, ":"); print room[f[1]], base[f[1]], $NF }' "$tmp/objs" "$tmp/nm_undef" >"$tmp/undef"
for room in $ROOMS; do echo "$room $(allowed "$room")"; done >"$tmp/allowed"

# each call across rooms held to the table, each library object to the
# names it may not use
awk -v forbidden="$FORBIDDEN" '
	FILENAME == ARGV[1] { room[$1] = $2; next }
	FILENAME == ARGV[2] { may[$1] = " " substr($0, length($1) + 2) " "; next }
	{
		from = $1; obj = $2; sym = $3
		if ((sym in room) && room[sym] != from) {
			calls++
			if (index(may[from], " " room[sym] " ") == 0) {
				m = may[from]; gsub(/^ +| +$/, "", m)
				printf "rooms: %s/%s calls %s of %s/: %s may call %s\n", from, obj, sym, room[sym], from, m == "" ? "nothing" : m
				bad = 1
			}
		}
		# an engine is named by its own file only (ledger/db.h is the
		# storage every other object reaches it through)
		if (sym ~ /^sqlite3_/ && obj != "db_sqlite.o" ||
		    sym ~ /^(PQ|lo_)/ && obj != "db_pg.o" ||
		    sym ~ /^(sb_db_sqlite|sb_stmt_sqlite|sb_db_sqlite_error)$/) {
			printf "rooms: %s/%s names %s: only the engine'"'"'s own file (ledger/db_sqlite.c, ledger/db_pg.c) reaches its library\n", from, obj, sym
			bad = 1
		}
		if (from != "cli" && sym ~ forbidden) {
			printf "rooms: %s/%s names %s: the library never prints, reads the environment or exits\n", from, obj, sym
			bad = 1
		}
	}
	END { print calls + 0 >"/dev/stderr"; exit bad }
' "$tmp/defs" "$tmp/allowed" "$tmp/undef" 2>"$tmp/calls" && bad=0 || bad=1
calls=$(cat "$tmp/calls")
if [ "$bad" -ne 0 ]; then
	echo "rooms: the calls above break the rooms (docs/architecture.md)"
	exit 1
fi
echo "rooms: $objects objects, $calls calls between rooms, all of them allowed"
