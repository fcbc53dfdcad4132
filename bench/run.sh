#!/bin/sh
# run.sh: the benchmark: every performance target (docs/performance.md) side by side in one run.
#
#   sh bench/run.sh                            (or: make bench)
#   BENCH_RUNS=100000 BENCH_ROUNDS=5 sh bench/run.sh
#   BENCH_BASE=5000000 sh bench/run.sh         with the 5,000,000-run ledger
#
# 1. Generates the runs with bench/gen_runs.py into bench/data/ (kept and
#    reused while the parameters and the generator are the same), one
#    file per size of BENCH_RUNS.
# 2. Import, at each size: imports the file BENCH_ROUNDS times with
#    sbledger (default threads) and with the Python peer, alternately,
#    into a fresh database each time, timing every import with GNU time
#    (wall seconds, CPU, peak RSS); then once more with the plain writer
#    (--threads 1, and the indexes kept up to date row by row), whose
#    ledger must be the same as the threaded one (the fingerprint below).
# 3. Reports, on the threaded ledger of the largest size (all runs in
#    2026-11): 'report summary --by backend' and 'reconcile' against the
#    same aggregation as one bare SQL query (bench/sql/*.sql) run by the
#    sqlite3 shell, alternately, BENCH_ROUNDS times each; and the CPU time
#    of 'invoice --by tag:customer' for the month.
# 4. Instructions: valgrind's callgrind counts the instructions of the
#    import of the first 10,000 runs (one thread, as the large imports
#    store them), and of the plain writer.
# 5. With BENCH_BASE: a ledger of BENCH_BASE runs spread over the year
#    before 2026-11 is built once (bench/data/base-*.db, reused while the
#    generator, the size and the schema are the same); each round copies
#    it and imports the smallest size's runs into the copy, against the
#    same import into an empty ledger (step 2); then 'report summary' by
#    backend, day, model and tag:customer over that year, each
#    BENCH_ROUNDS times.
# 6. With BENCH_PG: the PostgreSQL ledger (its section below says what).
# 7. Prints, per target: median times, CPU, throughput, peak RSS, the
#    ratio, and the target beside it.
#
# It checks that every command exits as expected, that each database
# holds the runs it should and that the ledgers of the variants are the
# same, and fails loudly otherwise; it never asserts anything about
# timings.
#
# Environment:
#   BENCH_RUNS      import sizes in runs, space separated  ("100000 1000000")
#   BENCH_SEED      generator seed                         (1)
#   BENCH_DUP_RATE  share of repeated lines, 0..1          (0)
#   BENCH_ROUNDS    imports and reports per tool           (3)
#   BENCH_BASE      runs of the base ledger, 0: none       (0)
#   BENCH_CALLGRIND 1: count instructions, 0: not          (1 when valgrind is there)
#   BENCH_PG        1: the PostgreSQL ledger too, 0: not   (1 when its server is here)
#   BENCH_FOCUS_ROWS rows of the billing file both engines import (40000)
#   BENCH_DIR       where data and databases go            (bench/data)
#   SBLEDGER        the binary under test                  (./sbledger)
#   PYTHON          the interpreter for generator & peer   (python3)
set -u

cd "$(dirname "$0")/.." || exit 70

SIZES=${BENCH_RUNS:-100000 1000000}
SEED=${BENCH_SEED:-1}
DUP=${BENCH_DUP_RATE:-0}
ROUNDS=${BENCH_ROUNDS:-3}
FOCUS_ROWS=${BENCH_FOCUS_ROWS:-40000}
BASE=${BENCH_BASE:-0}
DIR=${BENCH_DIR:-bench/data}
SBLEDGER=${SBLEDGER:-./sbledger}
PYTHON=${PYTHON:-python3}
TIME=/usr/bin/time
PERIOD=2026-11                      # every generated run starts in it
FROM_MS=1793491200000               # 2026-11-01T00:00:00Z
TO_MS=1796083200000                 # 2026-12-01T00:00:00Z
# a period cutting two days: the invoice reads their parts from run
CUT_PERIOD=2026-11-03T12:00:00Z..2026-11-20T12:00:00Z
# the base ledger's runs: the year before the month of the imports
BASE_START=2025-11-01
BASE_DAYS=365
BASE_SEED=2
YEAR=2025-11..2026-11
# no index dropped, whatever the sizes: the plain writer
NO_BULK=999999999999999

die() {
	echo "bench: FAILED: $*" >&2
	exit 1
}

is_count() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	return 0
}

[ -n "$SIZES" ] || die "BENCH_RUNS names no size"
for n in $SIZES; do
	if ! is_count "$n" || [ "$n" -eq 0 ]; then
		die "BENCH_RUNS must be positive integers, not '$n'"
	fi
done
is_count "$SEED" || die "BENCH_SEED must be a non-negative integer, not '$SEED'"
if ! is_count "$ROUNDS" || [ "$ROUNDS" -eq 0 ]; then
	die "BENCH_ROUNDS must be a positive integer, not '$ROUNDS'"
fi
is_count "$BASE" || die "BENCH_BASE must be a non-negative integer, not '$BASE'"
[ -x "$SBLEDGER" ] || die "$SBLEDGER is not there or not executable: build it with 'make' (or set SBLEDGER)"
command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found (set PYTHON)"
command -v sqlite3 >/dev/null 2>&1 || die "the sqlite3 shell is needed (apt-get install sqlite3)"
"$TIME" -f '%e %M' -o /dev/null true 2>/dev/null ||
	die "GNU time is needed at $TIME (apt-get install time)"
if [ -z "${BENCH_CALLGRIND:-}" ]; then
	if command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
		BENCH_CALLGRIND=1
	else
		BENCH_CALLGRIND=0
		echo "bench: no valgrind: instructions not counted (apt-get install valgrind)"
	fi
fi
if [ -z "${BENCH_PG:-}" ]; then
	if sh tools/pg_cluster.sh bindir >/dev/null 2>&1 && command -v psql >/dev/null 2>&1; then
		BENCH_PG=1
	else
		BENCH_PG=0
		echo "bench: no PostgreSQL server here: its ledger not measured (sh tools/deps.sh pg)"
	fi
fi
# the smallest and the largest size
SMALL=$(printf '%s\n' $SIZES | sort -n | head -n 1)
LARGE=$(printf '%s\n' $SIZES | sort -n | tail -n 1)

mkdir -p "$DIR" || die "cannot create $DIR"
WORK=$(mktemp -d "$DIR/work.XXXXXX") || die "cannot create a work directory in $DIR"
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

# ---- data ----------------------------------------------------------------
# The generator's checksum is part of the name: a changed generator makes
# new data instead of reusing stale files.
GENSUM=$(cksum bench/gen_runs.py | cut -d' ' -f1)

# data_file N: the path of the N-run file (made when missing).
data_file() {
	f="$DIR/runs-n$1-s$SEED-d$DUP-g$GENSUM.jsonl"
	if [ ! -f "$f" ]; then
		echo "bench: generating $f" >&2
		"$PYTHON" bench/gen_runs.py --runs "$1" --seed "$SEED" --dup-rate "$DUP" \
			--out "$f" >&2 || die "gen_runs.py failed"
	fi
	echo "$f"
}

# ---- one timed command ---------------------------------------------------
# timed NAME ROUND COMMAND...: run COMMAND under GNU time with its output
# in $WORK/out.log; append "WALL_S KIB CPU_S" to $WORK/NAME.times; fail
# with its stderr if it exits with anything but 0.
timed() {
	name=$1 round=$2
	shift 2
	"$TIME" -f '%e %M %U %S' -o "$WORK/time.out" "$@" >"$WORK/out.log" 2>"$WORK/err.log"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "bench: $name, round $round, exited $rc: $*" >&2
		tail -n 20 "$WORK/err.log" >&2
		exit 1
	fi
	# GNU time writes its figures on the last line of -o
	tail -n 1 "$WORK/time.out" | awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' \
		>>"$WORK/$name.times"
	# shellcheck disable=SC2046 # split "SECONDS KIB USER SYS" into $1..$4
	set -- $(tail -n 1 "$WORK/time.out")
	printf '  round %d  %-26s %8s s %8.2f s CPU %8.1f MiB   load %s\n' "$round" "$name" "$1" \
		"$(awk -v u="$3" -v s="$4" 'BEGIN { print u + s }')" \
		"$(awk -v k="$2" 'BEGIN { print k / 1024 }')" "$(loadavg)"
}

# expect_runs TOOL DB TABLE WANT: the database holds exactly WANT runs.
expect_runs() {
	got=$(sqlite3 "$2" "select count(*) from $3") ||
		die "$1: cannot count the rows of table '$3' in $2"
	[ "$got" = "$4" ] ||
		die "$1: $2 holds $got runs in table '$3', expected $4: the import lost or invented runs"
}

fresh() {
	rm -f "$1" "$1-wal" "$1-shm" "$1-journal" "$1-lock"
}

# init_ledger DB: a fresh sbledger ledger, with prices for the generator's
# models (token costs in the summaries and invoices).
init_ledger() {
	fresh "$1"
	{ "$SBLEDGER" --db "$1" init &&
		"$SBLEDGER" --db "$1" prices set claude-x-mini --input-per-m 0.25 --output-per-m 1.25 &&
		"$SBLEDGER" --db "$1" prices set gpt-5.6-terra --input-per-m 2 --output-per-m 8
	} >"$WORK/init.log" 2>&1 || {
		cat "$WORK/init.log" >&2
		die "sbledger init failed"
	}
}

# loadavg: the 1-minute load average: other work on the machine takes
# cores from the threads, so the figures are read next to it
loadavg() {
	cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'
}

# median NAME FIELD: the median of a field of NAME.times (1 wall seconds,
# 3 CPU seconds; the mean of the middle two for an even count).
# peak_mib NAME: the largest peak RSS.
median() {
	cut -d' ' -f"$2" "$WORK/$1.times" | sort -n |
		awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2);
			printf "%.2f", (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'
}
peak_mib() {
	cut -d' ' -f2 "$WORK/$1.times" | sort -n | tail -n 1 |
		awk '{ printf "%.1f", $1 / 1024 }'
}

# ---- the same ledger -------------------------------------------------------
# fingerprint DB: what must not depend on how the runs were stored (threads,
# indexes dropped and built again, the writer's chunks): every table the
# import writes, in key order, the executions as SQL readers see them and
# as they are stored, the indexes' definitions, the batch's counts and
# resume point, 'sbledger check', and summaries.
fingerprint() {
	for q in "select * from run order by rid" \
		"select * from execution order by rid, seq" \
		"select * from run_execs order by rid" \
		"select * from run_tag order by rid, name" \
		"select * from run_day order by day, backend, model" \
		"select * from run_day_tag order by name, day, value, backend, model" \
		"select * from run_day_untagged order by name, day, backend, model" \
		"select * from run_tag_name order by name" \
		"select type, name, tbl_name, sql from sqlite_schema where type in ('index', 'view') order by name" \
		"select batch_id, line_no, reason, hex(content), full_length from reject order by batch_id, line_no" \
		"select batch_id, status, resume_offset, resume_line, accepted, duplicates, rejected, replaced, skipped from batch order by batch_id"; do
		printf '%s: ' "$q"
		sqlite3 "$1" "$q" | cksum
	done
	"$SBLEDGER" --db "$1" check 2>&1
	echo "check exit $?"
	for by in backend tag:customer day model; do
		"$SBLEDGER" --db "$1" report summary --period "$PERIOD" --by "$by" --format json 2>&1
		echo "summary $by exit $?"
	done
}

LOAD_START=$(loadavg)
THREADS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
LEDGER="$WORK/ledger.db"
PLAIN="$WORK/plain.db"
PEERDB="$WORK/peer.db"

# ---- imports -------------------------------------------------------------
for N in $SIZES; do
	DATA=$(data_file "$N")
	BYTES=$(wc -c <"$DATA" | tr -d ' ')
	LINES=$(wc -l <"$DATA" | tr -d ' ')
	echo "$BYTES" >"$WORK/bytes.$N"
	cat "$DATA" >/dev/null # into the page cache, for both tools alike
	echo "bench: import of $N runs ($LINES lines, $BYTES bytes); $ROUNDS rounds per tool, alternating"
	i=1
	while [ "$i" -le "$ROUNDS" ]; do
		init_ledger "$LEDGER"
		timed "sbledger-$N" "$i" "$SBLEDGER" --db "$LEDGER" --quiet import runs "$DATA"
		expect_runs sbledger "$LEDGER" run "$N"

		fresh "$PEERDB"
		timed "peer-$N" "$i" "$PYTHON" bench/peer_import.py "$PEERDB" "$DATA"
		expect_runs peer "$PEERDB" runs "$N"
		fresh "$PEERDB"
		i=$((i + 1))
	done
	# the plain writer: one thread, indexes kept up to date row by row
	init_ledger "$PLAIN"
	SBLEDGER_TEST_BULK_MIN=$NO_BULK timed "plain-$N" 1 "$SBLEDGER" --db "$PLAIN" --quiet \
		import runs --threads 1 "$DATA"
	expect_runs "plain sbledger" "$PLAIN" run "$N"
	fingerprint "$PLAIN" >"$WORK/plain.fp"
	fingerprint "$LEDGER" >"$WORK/threaded.fp"
	if ! cmp -s "$WORK/plain.fp" "$WORK/threaded.fp"; then
		diff "$WORK/plain.fp" "$WORK/threaded.fp" | head -n 20 >&2
		die "the default import of $N runs left another ledger than the plain writer"
	fi
	grep -q '^check exit 0$' "$WORK/threaded.fp" || die "sbledger check fails on the ledger of $N runs"
	echo "bench: the default import and the plain writer leave the same ledger (tables, indexes, batch, check, summaries)"
	fresh "$PLAIN"
	if [ "$N" = "$SMALL" ]; then
		cp "$WORK/threaded.fp" "$WORK/small.fp"
	fi
	if [ "$N" = "$LARGE" ]; then
		mv "$LEDGER" "$WORK/large.db"
		[ -f "$LEDGER-wal" ] && mv "$LEDGER-wal" "$WORK/large.db-wal"
	fi
	fresh "$LEDGER"
done
LEDGER="$WORK/large.db"

# ---- reports ---------------------------------------------------------------
# the sqlite3 shell's arguments that set the period for bench/sql/*.sql
SET_FROM=".parameter set :from_ms $FROM_MS"
SET_TO=".parameter set :to_ms $TO_MS"
echo "bench: reports over $LARGE runs, period $PERIOD"
i=1
while [ "$i" -le "$ROUNDS" ]; do
	timed summary "$i" "$SBLEDGER" --db "$LEDGER" report summary --period "$PERIOD" --by backend --format json
	timed summary-sql "$i" sqlite3 "$LEDGER" "$SET_FROM" "$SET_TO" ".read bench/sql/summary_by_backend.sql"
	timed reconcile "$i" "$SBLEDGER" --db "$LEDGER" reconcile --period "$PERIOD" --dry-run --format json
	timed reconcile-sql "$i" sqlite3 "$LEDGER" "$SET_FROM" "$SET_TO" ".read bench/sql/reconcile_runs.sql"
	timed invoice "$i" "$SBLEDGER" --db "$LEDGER" invoice --period "$PERIOD" --by tag:customer --format json
	timed invoice-sql "$i" sqlite3 "$LEDGER" "$SET_FROM" "$SET_TO" ".read bench/sql/invoice_by_customer.sql"
	timed invoice-cut "$i" "$SBLEDGER" --db "$LEDGER" invoice --period "$CUT_PERIOD" --by tag:customer --format json
	i=$((i + 1))
done
fresh "$LEDGER"

# ---- the PostgreSQL ledger -------------------------------------------------
# With BENCH_PG=1 (the default when PostgreSQL's server is here): a
# throwaway cluster (tools/pg_cluster.sh); the smallest size imported
# BENCH_ROUNDS times into a fresh database, then on that ledger the reports
# of step 3, and 'copy' of it into a SQLite file and of a SQLite ledger into
# a database; the PostgreSQL ledger must hold what the SQLite ledger of the
# same file holds (check --fingerprint) and give the same summary.  Then a
# billing file of BENCH_FOCUS_ROWS FOCUS rows imported into each engine,
# BENCH_ROUNDS times, the two ledgers' lines compared by fingerprint.
if [ "$BENCH_PG" = 1 ]; then
	PGDIR=$(mktemp -d /tmp/sbpg.XXXXXX) || die "no temporary directory for PostgreSQL"
	sh tools/pg_cluster.sh start "$PGDIR" >/dev/null || die "the PostgreSQL cluster did not start"
	trap 'sh tools/pg_cluster.sh stop "$PGDIR"; rm -rf "$PGDIR" "$WORK"' EXIT
	DATA=$(data_file "$SMALL")
	# one clock for both engines' ledgers, which are then compared
	SBLEDGER_NOW=2026-11-30T12:00:00Z
	export SBLEDGER_NOW
	echo "bench: PostgreSQL: import of $SMALL runs, $ROUNDS rounds; reports and copies on that ledger"
	i=1
	while [ "$i" -le "$ROUNDS" ]; do
		PGURL=$(sh tools/pg_cluster.sh createdb "$PGDIR" bench) || die "createdb failed"
		{ "$SBLEDGER" --db "$PGURL" init &&
			"$SBLEDGER" --db "$PGURL" prices set claude-x-mini --input-per-m 0.25 --output-per-m 1.25 &&
			"$SBLEDGER" --db "$PGURL" prices set gpt-5.6-terra --input-per-m 2 --output-per-m 8
		} >"$WORK/init.log" 2>&1 || { cat "$WORK/init.log" >&2; die "init of the PostgreSQL ledger failed"; }
		timed "pg-$SMALL" "$i" "$SBLEDGER" --db "$PGURL" --quiet import runs "$DATA"
		i=$((i + 1))
	done
	got=$(psql -XAtq -d "$PGURL" -c 'select count(*) from run') || die "cannot count the PostgreSQL ledger's runs"
	[ "$got" = "$SMALL" ] || die "the PostgreSQL ledger holds $got runs, expected $SMALL"
	init_ledger "$WORK/small.db"
	"$SBLEDGER" --db "$WORK/small.db" --quiet import runs "$DATA" || die "the SQLite import of $SMALL runs failed"
	i=1
	while [ "$i" -le "$ROUNDS" ]; do
		timed pg-summary "$i" "$SBLEDGER" --db "$PGURL" report summary --period "$PERIOD" --by backend --format json
		cp "$WORK/out.log" "$WORK/pg-summary.json"
		timed lite-summary "$i" "$SBLEDGER" --db "$WORK/small.db" report summary --period "$PERIOD" --by backend --format json
		cp "$WORK/out.log" "$WORK/lite-summary.json"
		timed pg-reconcile "$i" "$SBLEDGER" --db "$PGURL" reconcile --period "$PERIOD" --dry-run --format json
		timed lite-reconcile "$i" "$SBLEDGER" --db "$WORK/small.db" reconcile --period "$PERIOD" --dry-run --format json
		timed pg-invoice "$i" "$SBLEDGER" --db "$PGURL" invoice --period "$PERIOD" --by tag:customer --format json
		timed lite-invoice "$i" "$SBLEDGER" --db "$WORK/small.db" invoice --period "$PERIOD" --by tag:customer --format json
		i=$((i + 1))
	done
	cmp -s "$WORK/pg-summary.json" "$WORK/lite-summary.json" ||
		die "report summary differs between the PostgreSQL and the SQLite ledger of the same runs"
	"$SBLEDGER" --db "$PGURL" check --fingerprint >"$WORK/pg.fp" 2>&1
	"$SBLEDGER" --db "$WORK/small.db" check --fingerprint >"$WORK/lite.fp" 2>&1
	cmp -s "$WORK/pg.fp" "$WORK/lite.fp" || die "the PostgreSQL ledger holds another content than the SQLite one"
	fresh "$WORK/back.db"
	timed pg-copy-out 1 "$SBLEDGER" copy --from "$PGURL" --to "$WORK/back.db"
	PGURL2=$(sh tools/pg_cluster.sh createdb "$PGDIR" bench_in) || die "createdb failed"
	timed pg-copy-in 1 "$SBLEDGER" copy --from "$WORK/small.db" --to "$PGURL2"
	echo "bench: the PostgreSQL ledger, its copies and the SQLite ledger hold the same (check --fingerprint)"
	fresh "$WORK/back.db"
	fresh "$WORK/small.db"
	# a billing file into each engine (tests/gen_focus_sample.py: the
	# FOCUS sample's traits, BENCH_FOCUS_ROWS rows), the same lines after
	"$PYTHON" tests/gen_focus_sample.py "$WORK/focus.csv" "$FOCUS_ROWS" >/dev/null ||
		die "tests/gen_focus_sample.py failed"
	echo "bench: import billing --format focus of $FOCUS_ROWS rows into each engine, $ROUNDS rounds"
	i=1
	while [ "$i" -le "$ROUNDS" ]; do
		PGURL=$(sh tools/pg_cluster.sh createdb "$PGDIR" bench_bill) || die "createdb failed"
		"$SBLEDGER" --db "$PGURL" init >/dev/null || die "init of the PostgreSQL ledger failed"
		timed pg-billing "$i" "$SBLEDGER" --db "$PGURL" --quiet import billing --format focus "$WORK/focus.csv"
		fresh "$WORK/bill.db"
		"$SBLEDGER" --db "$WORK/bill.db" init >/dev/null || die "init of the SQLite ledger failed"
		timed lite-billing "$i" "$SBLEDGER" --db "$WORK/bill.db" --quiet import billing --format focus "$WORK/focus.csv"
		i=$((i + 1))
	done
	"$SBLEDGER" --db "$PGURL" check --fingerprint 2>&1 | grep -v '^00_batch' >"$WORK/pg-bill.fp"
	"$SBLEDGER" --db "$WORK/bill.db" check --fingerprint 2>&1 | grep -v '^00_batch' >"$WORK/lite-bill.fp"
	cmp -s "$WORK/pg-bill.fp" "$WORK/lite-bill.fp" ||
		die "the PostgreSQL and the SQLite ledger hold other billing lines of the same file"
	echo "bench: both engines hold the same billing lines (check --fingerprint)"
	fresh "$WORK/bill.db"
	unset SBLEDGER_NOW
fi

# ---- instructions ----------------------------------------------------------
# callgrind_total FILE FUNCTION...: the inclusive instruction count of the
# first of FUNCTIONs found in the callgrind output FILE (0 when none).
callgrind_total() {
	file=$1
	shift
	callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$file" 2>/dev/null |
		awk -v names="$*" '
		BEGIN { n = split(names, want, " ") }
		{ for (k = 1; k <= n; k++) if ($0 ~ (":" want[k] "( \\[|$)") && !(k in got)) {
			v = $1; gsub(",", "", v); got[k] = v } }
		END { for (k = 1; k <= n; k++) if (k in got) { print got[k]; exit } print 0 }'
}

# callgrind_import NAME ENV...: count the import of $WORK/10k.jsonl, one
# thread, with the environment ENV; NAME.cg holds "TOTAL PARSE JSON STORE
# ROLLUP INDEXES HASH" (instructions).
callgrind_import() {
	name=$1
	shift
	init_ledger "$WORK/cg.db"
	env "$@" valgrind --tool=callgrind --callgrind-out-file="$WORK/$name.callgrind" \
		"$SBLEDGER" --db "$WORK/cg.db" --quiet import runs --threads 1 "$WORK/10k.jsonl" \
		>"$WORK/cg.log" 2>&1 || {
		tail -n 20 "$WORK/cg.log" >&2
		die "callgrind of the import failed"
	}
	expect_runs "sbledger under callgrind" "$WORK/cg.db" run "$CG_RUNS"
	f="$WORK/$name.callgrind"
	total=$(grep '^summary:' "$f" | awk '{ print $2 }')
	parse=$(callgrind_total "$f" sb_run_parse)
	json=$(callgrind_total "$f" json_loadb)
	store=$(callgrind_total "$f" sb_run_store)
	rollup=$(callgrind_total "$f" sb_rollup_flush)
	indexes=$(callgrind_total "$f" sb_db_indexes_create)
	hash1=$(callgrind_total "$f" hash_range)
	hash2=$(callgrind_total "$f" sb_source_read)
	echo "$total $parse $json $store $rollup $indexes $((hash1 + hash2))" >"$WORK/$name.cg"
	fresh "$WORK/cg.db"
}

if [ "$BENCH_CALLGRIND" = 1 ]; then
	head -n 10000 "$(data_file "$SMALL")" >"$WORK/10k.jsonl"
	CG_RUNS=$(wc -l <"$WORK/10k.jsonl" | tr -d ' ')
	echo "bench: instructions of the import of $CG_RUNS runs (valgrind --tool=callgrind, one thread)"
	# as a large import stores them: indexes dropped and built at the end
	callgrind_import lean SBLEDGER_TEST_BULK_MIN=1
	callgrind_import plain SBLEDGER_TEST_BULK_MIN=$NO_BULK
fi

# ---- a large ledger ----------------------------------------------------------
if [ "$BASE" -gt 0 ]; then
	SCHEMA=$("$SBLEDGER" --db "$WORK/schema.db" init | sed -n 's/.*schema version \([0-9]*\).*/\1/p')
	fresh "$WORK/schema.db"
	BASEDB="$DIR/base-n$BASE-s$BASE_SEED-g$GENSUM-v$SCHEMA.db"
	if [ -f "$BASEDB" ]; then
		echo "bench: reusing the base ledger $BASEDB"
	else
		base_data="$DIR/base-n$BASE-s$BASE_SEED-g$GENSUM.jsonl"
		echo "bench: building the base ledger $BASEDB ($BASE runs from $BASE_START, $BASE_DAYS days)"
		"$PYTHON" bench/gen_runs.py --runs "$BASE" --seed "$BASE_SEED" --start "$BASE_START" \
			--days "$BASE_DAYS" --out "$base_data" || die "gen_runs.py failed"
		init_ledger "$WORK/base.db"
		timed base-build 1 "$SBLEDGER" --db "$WORK/base.db" --quiet import runs "$base_data"
		expect_runs "the base ledger" "$WORK/base.db" run "$BASE"
		rm -f "$base_data"   # several GB, not needed again
		timed base-check 1 "$SBLEDGER" --db "$WORK/base.db" check
		sqlite3 "$WORK/base.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null ||
			die "cannot checkpoint the base ledger"
		mv "$WORK/base.db" "$BASEDB" || die "cannot keep the base ledger as $BASEDB"
		fresh "$WORK/base.db"
	fi
	SMALL_DATA=$(data_file "$SMALL")
	echo "bench: $SMALL runs into the base ledger of $BASE; $ROUNDS rounds"
	i=1
	while [ "$i" -le "$ROUNDS" ]; do
		fresh "$WORK/big.db"
		cp "$BASEDB" "$WORK/big.db" || die "cannot copy the base ledger"
		sync
		timed "into-base" "$i" "$SBLEDGER" --db "$WORK/big.db" --quiet import runs "$SMALL_DATA"
		expect_runs "sbledger into the base ledger" "$WORK/big.db" run $((BASE + SMALL))
		i=$((i + 1))
	done
	# the month imported reads the same as in the ledger it made alone
	for by in backend tag:customer day model; do
		"$SBLEDGER" --db "$WORK/big.db" report summary --period "$PERIOD" --by "$by" --format json 2>&1
		echo "summary $by exit $?"
	done >"$WORK/big.fp"
	sed -n '/^check exit /,$p' "$WORK/small.fp" | sed 1d >"$WORK/small.summaries"
	cmp -s "$WORK/big.fp" "$WORK/small.summaries" ||
		die "the month imported into the base ledger reads otherwise than in an empty one"
	echo "bench: the month imported into the base ledger reads as in an empty ledger"
	echo "bench: report summary over the year $YEAR ($BASE runs)"
	i=1
	while [ "$i" -le "$ROUNDS" ]; do
		for by in backend day model tag:customer; do
			timed "year-$by" "$i" "$SBLEDGER" --db "$WORK/big.db" report summary --period "$YEAR" \
				--by "$by" --format json
		done
		i=$((i + 1))
	done
	# the same sums over every run of the year, once, for scale
	timed year-sql 1 sqlite3 "$WORK/big.db" ".parameter set :from_ms 1761955200000" \
		".parameter set :to_ms $FROM_MS" ".read bench/sql/summary_by_backend.sql"
	fresh "$WORK/big.db"
fi

# ---- figures -------------------------------------------------------------
echo
echo "machine: $THREADS online CPUs; load average $LOAD_START at the start, $(loadavg) at the end"
echo
for N in $SIZES; do
	awk -v runs="$N" -v bytes="$(cat "$WORK/bytes.$N")" -v threads="$THREADS" \
		-v s_sec="$(median "sbledger-$N" 1)" -v s_cpu="$(median "sbledger-$N" 3)" \
		-v s_rss="$(peak_mib "sbledger-$N")" \
		-v o_sec="$(median "plain-$N" 1)" -v o_cpu="$(median "plain-$N" 3)" \
		-v o_rss="$(peak_mib "plain-$N")" \
		-v p_sec="$(median "peer-$N" 1)" -v p_cpu="$(median "peer-$N" 3)" -v p_rss="$(peak_mib "peer-$N")" 'BEGIN {
	printf "import runs: %d runs, %.1f MB\n", runs, bytes / 1e6
	printf "  %-30s %9s %9s %9s %10s %8s %13s\n", "", "median s", "CPU s", "CPU/10k", "runs/s", "MB/s", "peak RSS MiB"
	row("sbledger (" threads " threads)", s_sec, s_cpu, s_rss)
	row("plain: --threads 1, indexes", o_sec, o_cpu, o_rss)
	row("peer (python json + sqlite3)", p_sec, p_cpu, p_rss)
	if (s_sec > 0 && p_sec > 0)
		printf "  ratio peer / sbledger: %.2fx   (target: at least 2x; peak RSS at most 64 MiB)\n", p_sec / s_sec
	else
		printf "  ratio: too fast to time at this size\n"
	print ""
}
function row(name, sec, cpu, rss) {
	if (sec > 0)
		printf "  %-30s %9.2f %9.2f %9.3f %10.0f %8.1f %13.1f\n", name, sec, cpu, cpu * 10000 / runs,
			runs / sec, bytes / 1e6 / sec, rss
	else
		printf "  %-30s %9.2f %9.2f %9.3f %10s %8s %13.1f\n", name, sec, cpu, cpu * 10000 / runs,
			"-", "-", rss
}'
done
if [ "$BASE" -gt 0 ]; then
	awk -v runs="$SMALL" -v base="$BASE" -v e_sec="$(median "sbledger-$SMALL" 1)" \
		-v e_cpu="$(median "sbledger-$SMALL" 3)" -v b_sec="$(median into-base 1)" \
		-v b_cpu="$(median into-base 3)" -v b_rss="$(peak_mib into-base)" 'BEGIN {
	printf "cost flat in the ledger'"'"'s size: %d new runs\n", runs
	printf "  %-30s %9s %9s %13s\n", "", "median s", "CPU s", "peak RSS MiB"
	printf "  %-30s %9.2f %9.2f\n", "into an empty ledger", e_sec, e_cpu
	printf "  %-30s %9.2f %9.2f %13.1f\n", "into a ledger of " base " runs", b_sec, b_cpu, b_rss
	if (e_sec > 0)
		printf "  ratio: %.2fx   (target: at most 1.3x)\n", b_sec / e_sec
	print ""
}'
	[ -f "$WORK/base-build.times" ] && awk -v base="$BASE" -v b="$(median base-build 1)" \
		-v c="$(median base-build 3)" -v k="$(median base-check 1)" 'BEGIN {
	printf "  (the base ledger built once: %d runs in %.1f s, %.1f s CPU; sbledger check over it: %.1f s)\n\n",
		base, b, c, k }'
	awk -v base="$BASE" -v year="$YEAR" -v b="$(median year-backend 1)" -v d="$(median year-day 1)" \
		-v m="$(median year-model 1)" -v t="$(median year-tag:customer 1)" \
		-v q="$(median year-sql 1)" -v rss="$(peak_mib year-day)" 'BEGIN {
	printf "report summary over a year (%s) of a ledger of %d runs\n", year, base
	printf "  %-30s %9.2f s\n", "--by backend", b
	printf "  %-30s %9.2f s\n", "--by day", d
	printf "  %-30s %9.2f s\n", "--by model", m
	printf "  %-30s %9.2f s\n", "--by tag:customer", t
	printf "  (target: under 2 s each; the same sums as one bare query over the runs: %.2f s; peak RSS %.1f MiB)\n\n", q, rss
}'
fi
awk -v runs="$LARGE" -v period="$PERIOD" \
	-v s_sec="$(median summary 1)" -v s_rss="$(peak_mib summary)" \
	-v sq_sec="$(median summary-sql 1)" -v sq_rss="$(peak_mib summary-sql)" \
	-v r_sec="$(median reconcile 1)" -v r_rss="$(peak_mib reconcile)" \
	-v rq_sec="$(median reconcile-sql 1)" -v rq_rss="$(peak_mib reconcile-sql)" \
	-v i_sec="$(median invoice 1)" -v i_cpu="$(median invoice 3)" -v i_rss="$(peak_mib invoice)" \
	-v iq_sec="$(median invoice-sql 1)" -v iq_cpu="$(median invoice-sql 3)" \
	-v ic_sec="$(median invoice-cut 1)" -v ic_cpu="$(median invoice-cut 3)" \
	-v ic_rss="$(peak_mib invoice-cut)" -v cut="$CUT_PERIOD" 'BEGIN {
	printf "reports: %d runs in %s\n", runs, period
	printf "  %-30s %9s %12s %8s %10s %13s\n", "", "median s", "bare SQL s", "ratio", "runs/s", "peak RSS MiB"
	row("report summary --by backend", s_sec, sq_sec, s_rss)
	row("reconcile --dry-run", r_sec, rq_sec, r_rss)
	printf "  (target: within 1.5x of the bare query run by the sqlite3 shell; bare peak RSS %.1f and %.1f MiB)\n",
		sq_rss, rq_rss
	printf "  %-30s %9.2f s wall, %.2f s CPU, peak RSS %.1f MiB   (target: under 1 s CPU at 1,000,000 runs)\n",
		"invoice --by tag:customer", i_sec, i_cpu, i_rss
	printf "  %-30s %9.2f s wall, %.2f s CPU   (the same sums joined over every run by the sqlite3 shell)\n",
		"  bare SQL", iq_sec, iq_cpu
	printf "  %-30s %9.2f s wall, %.2f s CPU, peak RSS %.1f MiB   (%s: two part days from run)\n",
		"  a period cutting days", ic_sec, ic_cpu, ic_rss, cut
}
function row(name, sec, bare_sec, rss) {
	ratio = "-"
	if (bare_sec > 0)
		ratio = sprintf("%.2fx", sec / bare_sec)
	rate = "-"
	if (sec > 0)
		rate = sprintf("%.0f", runs / sec)
	printf "  %-30s %9.2f %12.2f %8s %10s %13.1f\n", name, sec, bare_sec, ratio, rate, rss
}'
if [ "$BENCH_PG" = 1 ]; then
	awk -v runs="$SMALL" -v bytes="$(cat "$WORK/bytes.$SMALL")" \
		-v pg_sec="$(median "pg-$SMALL" 1)" -v pg_cpu="$(median "pg-$SMALL" 3)" -v pg_rss="$(peak_mib "pg-$SMALL")" \
		-v s_sec="$(median "sbledger-$SMALL" 1)" -v p_sec="$(median "peer-$SMALL" 1)" \
		-v ps="$(median pg-summary 1)" -v ls="$(median lite-summary 1)" \
		-v pr="$(median pg-reconcile 1)" -v lr="$(median lite-reconcile 1)" \
		-v pi="$(median pg-invoice 1)" -v li="$(median lite-invoice 1)" \
		-v co="$(median pg-copy-out 1)" -v ci="$(median pg-copy-in 1)" \
		-v frows="$FOCUS_ROWS" -v pb="$(median pg-billing 1)" -v lb="$(median lite-billing 1)" \
		-v pbr="$(peak_mib pg-billing)" -v lbr="$(peak_mib lite-billing)" 'BEGIN {
	printf "\nPostgreSQL ledger (a local server on a Unix socket): %d runs, %.1f MB\n", runs, bytes / 1e6
	printf "  %-30s %9s %9s %10s %13s\n", "", "median s", "CPU s", "runs/s", "peak RSS MiB"
	printf "  %-30s %9.2f %9.2f %10.0f %13.1f\n", "import runs", pg_sec, pg_cpu, (pg_sec > 0 ? runs / pg_sec : 0), pg_rss
	if (pg_sec > 0 && s_sec > 0)
		printf "  beside sbledger on SQLite: %.2f s (PostgreSQL %.2fx its time); the peer on SQLite: %.2f s (%.2fx)\n",
			s_sec, pg_sec / s_sec, p_sec, (pg_sec / (p_sec > 0 ? p_sec : 1))
	printf "  %-30s %10s %9s\n", "", "PostgreSQL", "SQLite"
	printf "  %-30s %9.2fs %8.2fs\n", "report summary --by backend", ps, ls
	printf "  %-30s %9.2fs %8.2fs\n", "reconcile --dry-run", pr, lr
	printf "  %-30s %9.2fs %8.2fs\n", "invoice --by tag:customer", pi, li
	printf "  copy PostgreSQL -> SQLite %.2f s, SQLite -> PostgreSQL %.2f s\n", co, ci
	printf "  import billing (FOCUS, %d rows)  %8.2fs %8.2fs   (PostgreSQL %.2fx its time; peak RSS %.1f and %.1f MiB)\n",
		frows, pb, lb, (lb > 0 ? pb / lb : 0), pbr, lbr
}'
fi
if [ "$BENCH_CALLGRIND" = 1 ]; then
	# shellcheck disable=SC2046 # "TOTAL PARSE JSON STORE ROLLUP INDEXES HASH"
	set -- $(cat "$WORK/lean.cg") $(cat "$WORK/plain.cg")
	awk -v n="$CG_RUNS" -v t="$1" -v p="$2" -v j="$3" -v s="$4" -v r="$5" -v x="$6" -v h="$7" \
		-v pt="$8" -v ps="${11}" -v pr="${12}" 'BEGIN {
	k = 10000 / n
	printf "\ninstructions per 10,000 runs (callgrind, one thread; G = 10^9)\n"
	printf "  %-44s %8.2f G\n", "whole import", t * k / 1e9
	printf "  %-44s %8.2f G\n", "  parse and validate (sb_run_parse)", p * k / 1e9
	printf "  %-44s %8.2f G\n", "    of which jansson (json_loadb)", j * k / 1e9
	printf "  %-44s %8.2f G\n", "  store (sb_run_store)", s * k / 1e9
	printf "  %-44s %8.2f G\n", "  day rollups written (sb_rollup_flush)", r * k / 1e9
	printf "  %-44s %8.2f G\n", "  indexes built (sb_db_indexes_create)", x * k / 1e9
	printf "  %-44s %8.2f G\n", "  SHA-256 of the file, twice (no SHA-NI here)", h * k / 1e9
	printf "  %-44s %8.2f G   (store %.2f G, rollups %.2f G)\n", "plain writer: whole import", pt * k / 1e9,
		ps * k / 1e9, pr * k / 1e9
}'
fi
