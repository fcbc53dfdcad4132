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

# every symbol defined, with its room
: >"$tmp/defs"
for room in $ROOMS; do
	for o in $(objects_of "$room"); do
		nm -g --defined-only "$o" | awk -v r="$room" 'NF == 3 { print $3, r }' >>"$tmp/defs"
	done
done
[ -f "$build/sql_embed.o" ] &&
	nm -g --defined-only "$build/sql_embed.o" | awk 'NF == 3 { print $3, "ledger" }' >>"$tmp/defs"
if [ ! -s "$tmp/defs" ]; then
	echo "rooms: no objects under $build (build it first)" >&2
	exit 2
fi

bad=0 objects=0 calls=0
for room in $ROOMS; do
	may=$(allowed "$room")
	for o in $(objects_of "$room"); do
		objects=$((objects + 1))
		nm -u "$o" | awk '{ print $NF }' >"$tmp/undef"
		# the room defining each undefined symbol, when one does
		awk 'NR == FNR { room[$1] = $2; next } ($1 in room) { print $1, room[$1] }' \
			"$tmp/defs" "$tmp/undef" >"$tmp/calls"
		while read -r sym to; do
			[ "$to" = "$room" ] && continue
			calls=$((calls + 1))
			case " $may " in
			*" $to "*) ;;
			*)
				echo "rooms: $room/$(basename "$o") calls $sym of $to/: $room may call ${may:-nothing}"
				bad=1
				;;
			esac
		done <"$tmp/calls"
		if [ "$room" != cli ]; then
			for sym in $(grep -E "$FORBIDDEN" "$tmp/undef" || true); do
				echo "rooms: $room/$(basename "$o") names $sym: the library never prints, reads the environment or exits"
				bad=1
			done
		fi
	done
done
if [ "$bad" -ne 0 ]; then
	echo "rooms: the calls above break the rooms (docs/architecture.md)"
	exit 1
fi
echo "rooms: $objects objects, $calls calls between rooms, all of them allowed"
