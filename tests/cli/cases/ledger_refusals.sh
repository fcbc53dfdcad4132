# A ledger sbledger must not or cannot write is refused with a message that
# says why, and left byte for byte as it was: a read-only file (readers
# still work), a read-only directory (SQLite cannot make the -wal and -shm
# files), a damaged file (check names the damage; import refuses), a
# truncated one, a device, a directory; and for the commands that write,
# a file that is not SQLite, another program's database and a newer
# ledger.  Root writes any file whatever its mode, so as root the
# commands run as nobody (setpriv), in a directory of their own.
# cli-tests: sqlite (read-only, damaged and truncated SQLite files, the -wal and -lock files)
cp "$SAMPLES/runs.jsonl" runs.jsonl
printf '{"run_id": "new-1", "backend": "e2b", "started_at": "2026-11-02T10:00:00Z", "sandbox_usage": {}}\n' > new.jsonl
"$SB" --db good.db init >/dev/null
"$SB" --db good.db import runs runs.jsonl >/dev/null
sqlite3 good.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
rm -f good.db-wal good.db-shm good.db-lock
here=$(pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/sbledger-ro.XXXXXX")
chmod 755 "$dir"
cp runs.jsonl new.jsonl "$dir"/
chmod 644 "$dir"/*.jsonl
cd "$dir" || exit 1
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}
# try DB COMMAND...: run as the user, print the exit status and stderr
try() {
	db=$1
	shift
	as_user "$SB" --db "$db" "$@" >try.out 2>try.err
	echo "$*: exit $?"
	sed 's/^/  /' try.err
}

echo "== a read-only file in a writable directory"
cp "$here/good.db" ro.db
chmod 444 ro.db
chmod 777 .
cp ro.db before
try ro.db batches --format csv
try ro.db check
try ro.db import runs new.jsonl
try ro.db rates set e2b --usd-per-minute 0.1
try ro.db reconcile --period 2026-11
cmp ro.db before && echo "ro.db unchanged"
rm -f ro.db ro.db-wal ro.db-shm ro.db-lock
chmod 755 .

echo "== a writable file in a read-only directory"
sub=$(mktemp -d "$dir/sub.XXXXXX")
cp "$here/good.db" "$sub/l.db"
chmod 666 "$sub/l.db"
chmod 555 "$sub"
cp "$sub/l.db" before
try "$sub/l.db" batches >try.log 2>&1
sed "s|$sub/|DIR/|g" try.log
try "$sub/l.db" import runs new.jsonl >try.log 2>&1
sed "s|$sub/|DIR/|g" try.log
cmp "$sub/l.db" before && echo "l.db unchanged"
ls "$sub"
chmod 755 "$sub"

echo "== a damaged file (a page overwritten)"
cp "$here/good.db" bad.db
printf '\336\255\276\357%.0s' $(seq 1 500) | dd of=bad.db bs=1 seek=8192 conv=notrunc 2>/dev/null
cp bad.db before
"$SB" --db bad.db check 2>&1 | head -3
echo "check: exit $("$SB" --db bad.db check >/dev/null 2>&1; echo $?)"
"$SB" --db bad.db import runs new.jsonl
echo "import: exit $?"
cmp bad.db before && echo "bad.db unchanged"

echo "== a truncated file, a device, a directory"
head -c 5000 "$here/good.db" > cut.db
cp cut.db before
"$SB" --db cut.db batches; echo "cut.db batches: exit $?"
"$SB" --db cut.db import runs new.jsonl; echo "cut.db import: exit $?"
cmp cut.db before && echo "cut.db unchanged"
"$SB" --db /dev/null import runs new.jsonl; echo "/dev/null: exit $?"
mkdir folder.db
"$SB" --db folder.db import runs new.jsonl; echo "folder.db: exit $?"

echo "== commands that write, on files that are not ledgers"
printf 'my notes, not a ledger\n' > notes.db
sqlite3 other.db "CREATE TABLE notes (body TEXT)"
sqlite3 newer.db 'PRAGMA application_id=1396853831; PRAGMA user_version=99;'
mkdir inbox
for db in notes.db other.db newer.db; do
	cp $db before
	for cmd in "rates set e2b --usd-per-minute 0.1" "reconcile --period 2026-11" \
		"nightly --inbox inbox --period 2026-11 --out out" "import billing --format focus new.jsonl"; do
		"$SB" --db $db $cmd >cmd.out 2>&1
		status=$?
		sed 's/this sbledger knows ([0-9]*)/this sbledger knows (N)/' cmd.out
		echo "$db $cmd: exit $status"
	done
	cmp $db before && echo "$db unchanged"
done
# (the write lock, PATH-lock, is made before the file is looked at; out/
# holds the heartbeat of the nightlies that could not open a ledger)
ls | grep -v '^sub\.\|^try\.\|^cmd\.'
cd "$here" && rm -rf "$dir"
