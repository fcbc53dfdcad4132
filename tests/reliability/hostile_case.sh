# hostile_case.sh: what the tests/cli/cases/hostile_*.sh cases share.
#
# Sourced by a case (run by tests/cli/run.sh, which provides SB, REPO and a
# fresh directory).  The inputs come from tests/reliability/hostile.py
# (see there for each KIND); the output is made to be the same on every
# machine: messages cut to 110 bytes with unprintable bytes shown as '?'.

# hostile_keys: rows "k|KEY" or "m|START_MS" on standard input, printed
# as one line of the keys (a month YYYY-MM of the start for m, as SQLite's
# strftime('%Y-%m', START_MS / 1000, 'unixepoch'), none when out of its
# range) sorted by their bytes, joined by spaces; "nothing" for no row
hostile_keys='
import datetime, sys
keys = []
for row in sys.stdin.buffer.read().split(b"\n"):
    if not row:
        continue
    kind, _, value = row.partition(b"|")
    if kind == b"m":
        if not value:
            continue
        ms = int(value)
        seconds = abs(ms) // 1000 * (1 if ms >= 0 else -1)
        try:
            at = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=seconds)
        except OverflowError:
            continue
        value = at.strftime("%Y-%m").encode()
    keys.append(value)
sys.stdout.buffer.write(b" ".join(sorted(keys)) if keys else b"nothing")
'

# hostile_import FORMAT KIND [OPTIONS...]: import the hostile file KIND of
# FORMAT into a new ./sbledger.db (left for what follows); print the exit
# status, the batch's counts, which records were stored, the messages,
# and whether check passes.
hostile_import() {
	fmt=$1
	kind=$2
	shift 2
	rm -f sbledger.db sbledger.db-wal sbledger.db-shm sbledger.db-lock
	"$SB" init >/dev/null
	python3 "$REPO/tests/reliability/hostile.py" "$fmt" "$kind" >"in.$kind"
	if [ "$fmt" = runs ]; then
		"$SB" import runs "$@" "in.$kind" >out 2>err
	else
		"$SB" import billing --format "$fmt" "$@" "in.$kind" >out 2>err
	fi
	status=$?
	batch=$(sqlite3 sbledger.db "SELECT MAX(batch_id) FROM batch")
	echo "$kind: exit $status; $(sqlite3 sbledger.db "
SELECT CAST(accepted AS TEXT) || ' accepted, ' || CAST(duplicates AS TEXT) || ' duplicates, ' ||
       CAST(rejected AS TEXT) || ' rejected, ' || CAST(skipped AS TEXT) || ' skipped, ' || status
  FROM batch WHERE batch_id = '$batch'")"
	# what was stored, by key: the run's id, the billing line's session,
	# else the month (UTC) of its start; the first 24 characters of each,
	# in byte order, "nothing" for none (plain SQL that both engines run:
	# the month and the list are made here)
	echo "  stored: $(sqlite3 sbledger.db "
SELECT 'k', substr(run_id, 1, 24) FROM run WHERE batch_id = '$batch'
UNION ALL
SELECT CASE WHEN session_id IS NULL THEN 'm' ELSE 'k' END,
       CASE WHEN session_id IS NULL THEN CAST(start_ms AS TEXT) ELSE substr(session_id, 1, 24) END
  FROM billing_line WHERE batch_id = '$batch'" | python3 -c "$hostile_keys" | LC_ALL=C tr -c '\n -~' '?')"
	cut -c1-110 err | LC_ALL=C tr -c '\n -~' '?' | sed 's/^/  /'
	if "$SB" check >check.out 2>&1; then echo "  check: ok"; else echo "  check: FAILS"; cat check.out; fi
	rm -f "in.$kind"
}

# hostile_memory FORMAT KIND: import the hostile file KIND of FORMAT into
# a fresh ledger with the optimised build (REPO/sbledger, as users run it;
# the sanitizers' own memory would count otherwise) and say whether its
# peak memory stayed under 400 MB (a record is at most 64 MiB).
hostile_memory() {
	fmt=$1
	kind=$2
	opt=$REPO/sbledger
	python3 "$REPO/tests/reliability/hostile.py" "$fmt" "$kind" >"mem.$kind"
	rm -f mem.db mem.db-wal mem.db-shm mem.db-lock
	if [ ! -x "$opt" ] || ! [ -x /usr/bin/time ]; then
		echo "$kind: memory not measured (no $opt or /usr/bin/time)"
		rm -f "mem.$kind"
		return
	fi
	"$opt" --db mem.db init >/dev/null
	if [ "$fmt" = runs ]; then
		/usr/bin/time -f '%M' -o mem.kb "$opt" --db mem.db import runs "mem.$kind" >/dev/null 2>&1
	else
		/usr/bin/time -f '%M' -o mem.kb "$opt" --db mem.db import billing --format "$fmt" \
			"mem.$kind" >/dev/null 2>&1
	fi
	status=$?
	kb=$(tail -1 mem.kb)
	if [ "$kb" -lt 400000 ]; then
		echo "$kind (optimised build): exit $status, peak memory under 400 MB"
	else
		echo "$kind (optimised build): exit $status, peak memory $kb KB, over 400 MB"
	fi
	rm -f "mem.$kind" mem.db mem.db-wal mem.db-shm mem.db-lock mem.kb
}

# hostile_imports FORMAT: hostile_import of every KIND of hostile.py.
hostile_imports() {
	for kind in random nesting long toolong utf8 nan bigint bomcrlf empty overflow; do
		hostile_import "$1" $kind
	done
}

# hostile_memories FORMAT: hostile_memory of the two kinds with huge records.
hostile_memories() {
	for kind in long toolong; do
		hostile_memory "$1" $kind
	done
}
