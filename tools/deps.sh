#!/bin/sh
# deps.sh [WHAT...]: make sure what sbledger needs for WHAT is here.
#
#   build     the compiler and libraries ./sbledger builds with (always
#             checked; what plain 'make' asks for)
#   test      the unit and command-line tests: cmocka, python3, the
#             sqlite3 and openssl shells, GNU time
#   fuzz      the fuzzers: clang (libFuzzer)
#   valgrind  the command-line tests under valgrind
#   html      the HTML pages rendered by headless Chromium
#   tsan      the compiler's ThreadSanitizer runtime (make tsan)
#   pg        the PostgreSQL server (initdb, pg_ctl, postgres, with
#             amcheck) and the psql shell: the tests of the PostgreSQL
#             ledger on a throwaway cluster (tools/pg_cluster.sh)
#   check     all of the above (what 'make check' needs)
#
# On Debian as root it installs what is missing with apt-get; elsewhere it
# prints exactly what to install and fails, so that a test whose tool is
# missing fails rather than being skipped.
set -u
what=${*:-build}
case " $what " in
*" check "*) what="build test fuzz valgrind html tsan pg" ;;
esac

pkgs=""
# need_cmd COMMAND DEBIAN-PACKAGE / need_pc PKG-CONFIG-NAME DEBIAN-PACKAGE
need_cmd() { command -v "$1" >/dev/null 2>&1 || pkgs="$pkgs $2"; }
need_pc() { pkg-config --exists "$1" 2>/dev/null || pkgs="$pkgs $2"; }

need_cmd pkg-config pkg-config
need_cmd cc gcc
need_pc sqlite3 libsqlite3-dev
need_pc jansson libjansson-dev
need_pc yajl libyajl-dev
need_pc libcurl libcurl4-openssl-dev
need_pc libcrypto libssl-dev
need_pc zlib zlib1g-dev
need_pc libpq libpq-dev
for w in $what; do
	case $w in
	build) ;;
	test)
		need_pc cmocka libcmocka-dev
		need_cmd python3 python3
		need_cmd sqlite3 sqlite3
		need_cmd openssl openssl
		[ -x /usr/bin/time ] || pkgs="$pkgs time"
		;;
	pg)
		# the server binaries are off PATH on Debian (/usr/lib/postgresql/N/bin):
		# pg_cluster.sh finds them; amcheck is among its extensions
		if bindir=$(sh "$(dirname "$0")/pg_cluster.sh" bindir 2>/dev/null); then
			[ -f "$("$bindir/pg_config" --sharedir 2>/dev/null)/extension/amcheck.control" ] ||
				pkgs="$pkgs postgresql-contrib"
		else
			pkgs="$pkgs postgresql postgresql-contrib"
		fi
		need_cmd psql postgresql-client
		;;
	fuzz) need_cmd clang clang ;;
	valgrind) need_cmd valgrind valgrind ;;
	html) need_cmd chromium chromium ;;
	tsan)
		# the runtime of -fsanitize=thread (GCC 12's package)
		printf 'int main(void) { return 0; }\n' | ${CC:-cc} -fsanitize=thread -x c - -o /dev/null \
			>/dev/null 2>&1 || pkgs="$pkgs libtsan2"
		;;
	*)
		echo "deps: '$w' is not one of build, test, fuzz, valgrind, html, tsan, pg, check" >&2
		exit 64
		;;
	esac
done
[ -z "$pkgs" ] && exit 0

echo "deps: missing Debian packages:$pkgs" >&2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing them with apt-get" >&2
	export DEBIAN_FRONTEND=noninteractive
	# (the lock wait: two make jobs may ask at once)
	apt-get -o DPkg::Lock::Timeout=300 update -qq >&2 &&
		apt-get -o DPkg::Lock::Timeout=300 install -y -qq $pkgs >&2 && exit 0
	echo "deps: apt-get failed; install by hand: apt-get install$pkgs" >&2
	exit 1
fi
echo "deps: install them, e.g. 'sudo apt-get install$pkgs'" >&2
echo "deps: (elsewhere: SQLite 3, jansson, libcurl with OpenSSL, libcrypto, zlib, libpq," >&2
echo "deps: pkg-config; for the tests cmocka, Python 3, the sqlite3 and openssl shells," >&2
echo "deps: GNU time, clang, valgrind, Chromium, the compiler's ThreadSanitizer runtime," >&2
echo "deps: the PostgreSQL server with amcheck and psql)" >&2
exit 1
