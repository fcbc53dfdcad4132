# pause.sh: shell functions for the cases that stop sbledger at a known
# point to change its input or its ledger under it (sourced by a case).
#
# With SBLEDGER_TEST_PAUSE=FILE an import, after the commit of its first
# chunk (one that is not its last), creates FILE and waits until it is
# removed; with SBLEDGER_TEST_PAUSE_CHECKED=FILE nightly, after it opened
# and checked an inbox file and before importing it, does the same.
#
#   bg OUT ARGS...   run "$SB" ARGS in the background, stdout and stderr
#                    to OUT; its pid in $bg_pid
#   await FILE       wait until FILE exists (the process paused) or the
#                    process ended; print which (60 s at most)
#   finish OUT       remove the pause file "pause", wait for the process,
#                    print its output with stderr lines as sb prints them
#                    (they are mixed in OUT, so every line is marked) and
#                    "[exit N]"
#   tables [DB]      the rows of every table an import writes, one count
#                    per table (sbledger.db by default)

bg() {
	bg_out=$1
	shift
	"$SB" "$@" >"$bg_out" 2>&1 &
	bg_pid=$!
}

await() {
	i=0
	while [ ! -e "$1" ] && kill -0 "$bg_pid" 2>/dev/null && [ $i -lt 6000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	if [ -e "$1" ]; then
		echo "(paused)"
	else
		echo "(did not pause)"
	fi
}

finish() {
	rm -f pause
	wait "$bg_pid"
	bg_status=$?
	sed 's/^/[out] /' "$1"
	echo "[exit $bg_status]"
}

tables() {
	sqlite3 "${1:-sbledger.db}" "SELECT 'run ' || (SELECT COUNT(*) FROM run)
		|| ', execution ' || (SELECT COUNT(*) FROM execution)
		|| ', run_tag ' || (SELECT COUNT(*) FROM run_tag)
		|| ', run_day ' || (SELECT COUNT(*) FROM run_day)
		|| ', run_day_tag ' || (SELECT COUNT(*) FROM run_day_tag)
		|| ', run_history ' || (SELECT COUNT(*) FROM run_history)
		|| ', execution_history ' || (SELECT COUNT(*) FROM execution_history)
		|| ', billing_line ' || (SELECT COUNT(*) FROM billing_line)
		|| ', reject ' || (SELECT COUNT(*) FROM reject)"
}
