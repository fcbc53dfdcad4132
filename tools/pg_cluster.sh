#!/bin/sh
# pg_cluster.sh: a throwaway PostgreSQL server for the tests.
#
#   pg_cluster.sh start DIR         make a cluster in DIR (an empty directory
#                                   the caller made, with a short path such
#                                   as mktemp -d /tmp/sbpg.XXXXXX: the socket
#                                   DIR/.s.PGSQL.PORT must fit in 107 bytes),
#                                   start it, wait until it accepts
#                                   connections, print its base URL
#                                   postgresql://sbledger@/postgres?host=DIR&port=PORT
#   pg_cluster.sh stop DIR          stop it (fast shutdown); nothing to stop
#                                   is not an error, so it is safe twice
#   pg_cluster.sh createdb DIR NAME make a fresh database NAME (dropped
#                                   first if it exists), print its URL
#   pg_cluster.sh dropdb DIR NAME   drop database NAME if it exists
#   pg_cluster.sh url DIR [NAME]    print the URL of NAME (default postgres)
#   pg_cluster.sh bindir            print where the server binaries are
#
# The server runs as an unprivileged user: as root, as nobody (initdb and
# the server refuse root; DIR is given to nobody), else as the caller.  It
# listens on no TCP address, only on its Unix socket in DIR, with trust
# authentication: anyone who can reach DIR is the superuser 'sbledger'.
# It is for tests only: fsync and synchronous_commit are off, so a crash
# of the machine may lose or damage it.  The binaries: $PG_BINDIR, else
# 'pg_config --bindir', else the highest /usr/lib/postgresql/*/bin.
# Exit status: 0, 64 usage, 69 no PostgreSQL server here, 70 it would not
# start or answer.
set -u

die() {
	status=$1
	shift
	echo "pg_cluster: $*" >&2
	exit "$status"
}

usage() {
	die 64 "usage: pg_cluster.sh start DIR | stop DIR | createdb DIR NAME | dropdb DIR NAME | url DIR [NAME] | bindir"
}

# find_bindir: the directory of initdb, pg_ctl, postgres and psql
find_bindir() {
	for d in ${PG_BINDIR:-} "$(pg_config --bindir 2>/dev/null)" \
		$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5nr); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && [ -x "$d/psql" ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

# absdir DIR: DIR made absolute, refused when it cannot be a socket
# directory in a URL (the characters URL queries and postgresql.conf
# would need quoted) or is too long for the socket's path
absdir() {
	[ -d "$1" ] || die 64 "$1: no such directory (make it first, e.g. mktemp -d /tmp/sbpg.XXXXXX)"
	d=$(cd "$1" && pwd -P) || die 64 "$1: cannot enter it"
	case $d in
	*[!A-Za-z0-9/._-]*) die 64 "$d: use a directory whose path has only letters, digits and / . _ -" ;;
	esac
	# the socket: DIR/.s.PGSQL.NNNNN, at most 107 bytes
	[ ${#d} -le 92 ] || die 64 "$d: too long for a Unix socket directory (92 bytes at most; use mktemp -d /tmp/sbpg.XXXXXX)"
	echo "$d"
}

# as_owner DIR COMMAND...: run COMMAND as the user that owns the cluster
as_owner() {
	owner=$(cat "$1/user")
	shift
	if [ "$(id -u)" = 0 ] && [ "$owner" != root ]; then
		if command -v runuser >/dev/null 2>&1; then
			runuser -u "$owner" -- "$@"
		else
			setpriv --reuid="$owner" --regid="$(id -g "$owner")" --clear-groups "$@"
		fi
	else
		"$@"
	fi
}

# url DIR NAME
url() {
	echo "postgresql://sbledger@/$2?host=$1&port=$(cat "$1/port")"
}

# psql_as DIR DB ARGS...: psql as the superuser sbledger, no psqlrc, quiet
psql_as() {
	dir=$1
	db=$2
	shift 2
	PGOPTIONS='-c client_min_messages=warning' \
		"$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$(cat "$dir/port")" -U sbledger -d "$db" "$@"
}

# check_name NAME: a database name used unquoted in SQL and in URLs
check_name() {
	case $1 in
	'' | *[!a-z0-9_]* | [0-9]*) die 64 "'$1': a database name is lower-case letters, digits and _, not starting with a digit" ;;
	esac
	[ ${#1} -le 63 ] || die 64 "'$1': a database name has 63 bytes at most"
}

running() {
	[ -f "$1/data/postmaster.pid" ] && as_owner "$1" "$bindir/pg_ctl" -D "$1/data" status >/dev/null 2>&1
}

cmd=${1:-}
[ $# -ge 1 ] && shift
case $cmd in
bindir)
	[ $# -eq 0 ] || usage
	find_bindir || die 69 "no PostgreSQL server binaries (initdb, pg_ctl, postgres, psql) here; install them (sh tools/deps.sh pg)"
	exit 0
	;;
start | stop) [ $# -eq 1 ] || usage ;;
createdb | dropdb) [ $# -eq 2 ] || usage ;;
url) [ $# -eq 1 ] || [ $# -eq 2 ] || usage ;;
*) usage ;;
esac
bindir=$(find_bindir) || die 69 "no PostgreSQL server binaries (initdb, pg_ctl, postgres, psql) here; install them (sh tools/deps.sh pg)"

case $cmd in
start)
	dir=$(absdir "$1") || exit
	[ -e "$dir/data" ] && die 64 "$dir already holds a cluster (stop it and use a new directory)"
	if [ "$(id -u)" = 0 ]; then
		user=nobody
		id "$user" >/dev/null 2>&1 || die 70 "no user 'nobody' to run the server as (initdb refuses root)"
		chown "$user:$(id -g "$user")" "$dir" || die 70 "$dir: cannot give it to $user"
	else
		user=$(id -un)
	fi
	chmod 700 "$dir"
	echo "$user" >"$dir/user"
	# every directory above DIR must let the server's user through
	as_owner "$dir" test -w "$dir" ||
		die 70 "$dir: $user cannot write here (a directory above it is closed to $user: use /tmp)"
	as_owner "$dir" "$bindir/initdb" -D "$dir/data" -U sbledger -A trust -E UTF8 --locale=C -N \
		>"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; die 70 "initdb failed (above)"; }
	# trust on the socket only; no TCP address is listened on at all
	printf 'local all all trust\n' >"$dir/data/pg_hba.conf"
	# a port whose socket and lock are not in DIR (the socket is DIR's own,
	# so only another server started on DIR can hold one); start from a
	# number of our own and try the next on failure
	port=$((5432 + 100 + $$ % 800))
	tries=0
	while :; do
		while [ -e "$dir/.s.PGSQL.$port" ] || [ -e "$dir/.s.PGSQL.$port.lock" ]; do
			port=$((port + 1))
		done
		echo "$port" >"$dir/port"
		cat >"$dir/data/postgresql.auto.conf" <<EOF
# tools/pg_cluster.sh: a throwaway cluster for the tests
listen_addresses = ''
unix_socket_directories = '$dir'
port = $port
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 16MB
max_connections = 64
max_locks_per_transaction = 128
log_min_messages = warning
log_min_error_statement = panic
log_checkpoints = off
log_connections = off
log_disconnections = off
EOF
		if as_owner "$dir" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -s start \
			>"$dir/pg_ctl.log" 2>&1; then
			break
		fi
		tries=$((tries + 1))
		if [ $tries -ge 5 ]; then
			cat "$dir/pg_ctl.log" "$dir/server.log" >&2 2>/dev/null
			die 70 "the server would not start (above; $dir/server.log)"
		fi
		port=$((port + 1))
	done
	# pg_ctl -w waited for it; still, ask it once as a client would
	i=0
	until psql_as "$dir" postgres -Atc 'SELECT 1' >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 100 ] || die 70 "the server started but does not answer (see $dir/server.log)"
		sleep 0.1
	done
	url "$dir" postgres
	;;
stop)
	# nothing there (never started, stopped already, DIR gone): nothing to do
	[ -d "$1" ] || exit 0
	dir=$(cd "$1" && pwd -P) || exit 0
	[ -f "$dir/user" ] && [ -d "$dir/data" ] || exit 0
	if running "$dir"; then
		as_owner "$dir" "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 -s stop ||
			die 70 "$dir: the server would not stop"
	fi
	;;
createdb | dropdb | url)
	dir=$(absdir "$1") || exit
	[ -f "$dir/port" ] || die 64 "$dir: no cluster here (pg_cluster.sh start $dir)"
	name=${2:-postgres}
	check_name "$name"
	if [ "$cmd" = url ]; then
		url "$dir" "$name"
		exit 0
	fi
	running "$dir" || die 70 "$dir: the cluster is not running"
	# WITH (FORCE): a test killed half way may have left a session open
	psql_as "$dir" postgres -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" ||
		die 70 "cannot drop database $name"
	if [ "$cmd" = createdb ]; then
		psql_as "$dir" postgres -c "CREATE DATABASE $name TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" ||
			die 70 "cannot create database $name"
		url "$dir" "$name"
	fi
	;;
esac
exit 0
