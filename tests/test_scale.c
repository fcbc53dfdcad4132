/* test_scale.c: how the run import stores runs at scale
 * (sql/schema/010_scale.sql, ledger/runs.c, ledger/db.c).
 *
 * The executions of a run are one JSON row (run_execs) read through the
 * execution view: the writer's text is the one SQLite's json_array makes,
 * and the view gives back every value and type as stored, for the
 * values at the edges (every escaped byte, the ends of 64 bits, nulls);
 * check 07 finds every malformed row.  An import drops the secondary
 * indexes only for an input at least twice the ledger's size and at
 * least the minimum, and never while a reader has the ledger open;
 * readers wait while an import has it without them, and a ledger left
 * without them gets them back when next opened, as they were.  The
 * session index's recent part is merged into the settled part when it
 * passes an eighth of the runs, and the session queries read both.  The
 * import's connection gets its foreign keys back.
 */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/import.h"
#include "ledger/rates.h"
#include "ledger/runs.h"
#include "ledger/sqlfiles.h"

/* A temporary directory and the path of a ledger in it. */
struct ctx {
	char *dir;     /* the directory */
	char *path;    /* dir/ledger.db */
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof *c);
	sb_db *db = NULL;
	sb_err e;

	if (c == NULL)
		return -1;
	c->dir = support_tmpdir();
	c->path = support_path(c->dir, "ledger.db");
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_open(c->path, SB_DB_CREATE | SB_DB_WRITE, 1000, &db, &e));
	sb_db_close(db);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	free(c->path);
	support_rmtree(c->dir);
	free(c);
	return 0;
}

/* Open c's ledger with flags and busy_ms; the code, *db the ledger. */
static int open_ledger(struct ctx *c, int flags, int busy_ms, sb_db **db, sb_err *e)
{
	sb_err_clear(e);
	*db = NULL;
	return sb_db_open(c->path, flags, busy_ms, db, e);
}

/* The rows of the check sql/checks/NAME.sql lists. */
static int64_t check_rows(sb_db *db, const char *name)
{
	const struct sb_sqlfile *f = sb_sqlfiles;
	sqlite3_stmt *st = NULL;
	int64_t n = 0;
	int rc;

	while (f->name != NULL && strcmp(f->name, name) != 0)
		f++;
	assert_non_null(f->name);
	rc = sqlite3_prepare_v2(sb_db_sqlite(db), f->text, -1, &st, NULL);
	assert_sqlite_ok(sb_db_sqlite(db), rc);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		n++;
	assert_int_equal(rc, SQLITE_DONE);
	sqlite3_finalize(st);
	return n;
}

/* Executions at the edges: every byte JSON escapes or SQLite escapes
 * otherwise, text past ASCII, an empty command and none, the ends of
 * 64-bit integers, nulls. */
static const sb_exec edge_execs[] = {
	{"q\"b\\s/\b\t\n\f\r\x01\x1f\x7f end", 18, true, INT64_MIN, INT64_MIN, 0, 0, 0, 0, true, INT64_MAX,
	 "{\"a\":\"x\\\"y\",\"n\":[1,2.5]}"},
	{"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14, false, 0, -1, INT64_MAX, 4096, INT64_MAX, 1, false, 0,
	 NULL},
	{"", 0, true, 0, 0, 0, 0, 0, 0, true, 0, ""},
	{NULL, 0, true, -7, INT64_MAX, 1, 1, 1, 1, true, -1, NULL},
};
enum { N_EDGE = sizeof edge_execs / sizeof edge_execs[0] };

/* The writer's text of the executions is the text SQLite's json_array and
 * json_group_array make of the same values. */
static void test_execs_text_is_sqlites(void **state)
{
	sb_db *db = support_memory_ledger();
	char *text = malloc(sb_execs_json_max(edge_execs, N_EDGE) + 1);
	size_t len;
	sqlite3_stmt *st = NULL;
	int rc;

	(void)state;
	assert_non_null(text);
	len = sb_execs_json(edge_execs, N_EDGE, text);
	assert_int_equal(len, strlen(text));
	assert_true(len <= sb_execs_json_max(edge_execs, N_EDGE));
	support_exec(db, "CREATE TEMP TABLE x (seq, command, exit_code, duration_ms, cpu_ms, memory_peak_mb, "
	                 "bytes_read, bytes_written, cost_nanos, extra)");
	rc = sqlite3_prepare_v2(sb_db_sqlite(db), "INSERT INTO x VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1,
	                        &st, NULL);
	assert_sqlite_ok(sb_db_sqlite(db), rc);
	for (int i = 0; i < N_EDGE; i++) {
		const sb_exec *x = &edge_execs[i];
		sqlite3_bind_int(st, 1, i);
		if (x->command != NULL)
			sqlite3_bind_text(st, 2, x->command, (int)x->command_len, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 2);
		if (x->has_exit_code)
			sqlite3_bind_int64(st, 3, x->exit_code);
		else
			sqlite3_bind_null(st, 3);
		sqlite3_bind_int64(st, 4, x->duration_ms);
		sqlite3_bind_int64(st, 5, x->cpu_ms);
		sqlite3_bind_int64(st, 6, x->memory_peak_mb);
		sqlite3_bind_int64(st, 7, x->bytes_read);
		sqlite3_bind_int64(st, 8, x->bytes_written);
		if (x->has_cost)
			sqlite3_bind_int64(st, 9, x->cost_nanos);
		else
			sqlite3_bind_null(st, 9);
		if (x->extra != NULL)
			sqlite3_bind_text(st, 10, x->extra, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 10);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
	}
	sqlite3_finalize(st);
	{
		char *sqlite = support_text(db, "SELECT json_group_array(json_array(command, exit_code, duration_ms, "
		                                "cpu_ms, memory_peak_mb, bytes_read, bytes_written, cost_nanos, extra)) "
		                                "FROM (SELECT * FROM x ORDER BY seq)");
		assert_string_equal(text, sqlite);
		free(sqlite);
	}
	free(text);
	sb_db_close(db);
}

/* A run with the edge executions, stored by the writer, reads back
 * through the view with every value and type as given, seq from 0. */
static void test_view_gives_back_every_value(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_rates *rates = NULL;
	sb_run_writer *w = NULL;
	sb_run run;
	enum sb_store stored;
	char why[256];
	sqlite3_stmt *st = NULL;
	int64_t batch;
	sb_err e;
	int rc, row = 0;

	(void)state;
	memset(&run, 0, sizeof run);
	run.run_id = "edge";
	run.backend = "e2b";
	run.started_ms = 1793491200000;
	run.exec_count = N_EDGE;
	run.execs = edge_execs;
	run.n_execs = N_EDGE;
	memset(run.fingerprint, 'f', 64);
	support_exec(db, "INSERT INTO batch (kind, format, source, status, started_ms) VALUES ('runs', 'runs', 't', 'running', 0)");
	batch = support_i64(db, "SELECT MAX(batch_id) FROM batch");
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_rates_load(db, &rates, &e));
	assert_sb_ok(&e, sb_run_writer_new(db, rates, batch, &w, &e));
	assert_sb_ok(&e, sb_run_store(w, &run, 1, false, &stored, why, sizeof why, &e));
	assert_int_equal(stored, SB_STORED);
	assert_sb_ok(&e, sb_run_writer_flush(w, &e));
	rc = sqlite3_prepare_v2(sb_db_sqlite(db), "SELECT seq, command, exit_code, duration_ms, cpu_ms, "
	                        "memory_peak_mb, bytes_read, bytes_written, cost_nanos, extra FROM execution "
	                        "ORDER BY seq", -1, &st, NULL);
	assert_sqlite_ok(sb_db_sqlite(db), rc);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const sb_exec *x = &edge_execs[row];
		const int64_t ints[5] = {x->duration_ms, x->cpu_ms, x->memory_peak_mb, x->bytes_read,
		                         x->bytes_written};
		assert_true(row < N_EDGE);
		assert_int_equal(sqlite3_column_type(st, 0), SQLITE_INTEGER);
		assert_int_equal(sqlite3_column_int64(st, 0), row);
		if (x->command == NULL) {
			assert_int_equal(sqlite3_column_type(st, 1), SQLITE_NULL);
		} else {
			assert_int_equal(sqlite3_column_type(st, 1), SQLITE_TEXT);
			assert_int_equal(sqlite3_column_bytes(st, 1), (int)x->command_len);
			assert_memory_equal(sqlite3_column_text(st, 1), x->command, x->command_len);
		}
		if (x->has_exit_code) {
			assert_int_equal(sqlite3_column_type(st, 2), SQLITE_INTEGER);
			assert_true(sqlite3_column_int64(st, 2) == x->exit_code);
		} else {
			assert_int_equal(sqlite3_column_type(st, 2), SQLITE_NULL);
		}
		for (int k = 0; k < 5; k++) {
			assert_int_equal(sqlite3_column_type(st, 3 + k), SQLITE_INTEGER);
			assert_true(sqlite3_column_int64(st, 3 + k) == ints[k]);
		}
		if (x->has_cost) {
			assert_int_equal(sqlite3_column_type(st, 8), SQLITE_INTEGER);
			assert_true(sqlite3_column_int64(st, 8) == x->cost_nanos);
		} else {
			assert_int_equal(sqlite3_column_type(st, 8), SQLITE_NULL);
		}
		if (x->extra == NULL)
			assert_int_equal(sqlite3_column_type(st, 9), SQLITE_NULL);
		else
			assert_string_equal((const char *)sqlite3_column_text(st, 9), x->extra);
		row++;
	}
	assert_int_equal(rc, SQLITE_DONE);
	assert_int_equal(row, N_EDGE);
	sqlite3_finalize(st);
	sb_run_writer_free(w);
	sb_rates_free(rates);
	sb_db_close(db);
}

/* Check 07 finds each malformed row of run_execs, one problem each, and
 * passes the well-formed ones (nulls where they may be). */
static void test_check_finds_malformed_execs(void **state)
{
	static const char *const bad[] = {
		"not json",                                     /* not JSON */
		"{\"a\": 1}",                                   /* not an array */
		"[]",                                           /* empty */
		"[1]",                                          /* an element not an array */
		"[[\"c\",0,1,0,0,0,0,0]]",                      /* eight values */
		"[[\"c\",0,1,0,0,0,0,0,null,null]]",            /* ten */
		"[[1,0,1,0,0,0,0,0,null]]",                     /* command an integer */
		"[[\"c\",\"0\",1,0,0,0,0,0,null]]",             /* exit_code text */
		"[[\"c\",0,\"1\",0,0,0,0,0,null]]",             /* duration_ms text */
		"[[\"c\",0,1.5,0,0,0,0,0,null]]",               /* duration_ms a real */
		"[[\"c\",0,1,null,0,0,0,0,null]]",              /* cpu_ms null */
		"[[\"c\",0,1,0,0,0,0,0.5,null]]",               /* cost_nanos a real */
		"[[\"c\",0,1,0,0,0,0,0,1]]",                    /* extra an integer */
		"[[\"c\",0,1,0,0,0,0,0,null],[\"c\",0,1,0,0,0,0]]", /* the second element short */
	};
	sb_db *db = support_memory_ledger();

	(void)state;
	support_add_runs(db, "{\"run_id\": \"a\", \"backend\": \"e2b\", \"started_at\": \"2026-11-02T00:00:00Z\", "
	                     "\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": 1, \"executions\": "
	                     "[{\"duration_ms\": 1}]}}");
	assert_int_equal(check_rows(db, "checks/07_run_executions_shape"), 0);
	support_exec(db, "UPDATE run_execs SET execs = '[[null,null,1,0,0,0,0,null,null]]'");
	assert_int_equal(check_rows(db, "checks/07_run_executions_shape"), 0);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *sql = sqlite3_mprintf("UPDATE run_execs SET execs = %Q", bad[i]);
		support_exec(db, sql);
		sqlite3_free(sql);
		if (check_rows(db, "checks/07_run_executions_shape") != 1)
			fail_msg("check 07 does not find exactly one problem in %s", bad[i]);
	}
	sb_db_close(db);
}

/* The size of c's ledger file in bytes, as the writer sees it. */
static int64_t ledger_bytes(sb_db *db)
{
	return support_i64(db, "SELECT p.page_count * s.page_size FROM pragma_page_count() p, pragma_page_size() s");
}

/* Whether a bulk import of input_bytes (min_bytes at least) drops the
 * indexes of c's ledger, opened for writing, in a transaction rolled back. */
static bool drops(sb_db *db, int64_t input_bytes, int64_t min_bytes)
{
	sb_rates *rates = NULL;
	sb_run_writer *w = NULL;
	bool dropped = false, all = false;
	sb_err e;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_begin(db, &e));
	assert_sb_ok(&e, sb_rates_load(db, &rates, &e));
	assert_sb_ok(&e, sb_run_writer_new(db, rates, 1, &w, &e));
	assert_sb_ok(&e, sb_run_writer_bulk(w, input_bytes, min_bytes, &dropped, &e));
	assert_sb_ok(&e, sb_db_indexes_present(db, &all, &e));
	assert_true(all != dropped);
	sb_db_rollback(db);
	sb_db_readers_let_in(db);
	sb_run_writer_free(w);
	sb_rates_free(rates);
	return dropped;
}

/* The indexes go only for an input at least twice the ledger's size and
 * at least the minimum: each at its edge and one byte short of it. */
static void test_bulk_thresholds(void **state)
{
	struct ctx *c = *state;
	sb_db *db = NULL;
	int64_t size;
	sb_err e;

	assert_sb_ok(&e, open_ledger(c, SB_DB_WRITE, 1000, &db, &e));
	size = ledger_bytes(db);
	assert_true(size > 0);
	assert_true(drops(db, 2 * size, 1));
	assert_false(drops(db, 2 * size - 1, 1));
	assert_true(drops(db, 3 * size, 3 * size));
	assert_false(drops(db, 3 * size, 3 * size + 1));
	sb_db_close(db);
}

/* A reader that has the ledger open keeps the indexes in: the import
 * stores its runs with them, as a smaller import would. */
static void test_bulk_waits_for_no_reader(void **state)
{
	struct ctx *c = *state;
	sb_db *db = NULL, *reader = NULL;
	sb_err e;

	assert_sb_ok(&e, open_ledger(c, SB_DB_WRITE, 1000, &db, &e));
	assert_sb_ok(&e, open_ledger(c, 0, 1000, &reader, &e));
	assert_false(drops(db, INT64_MAX / 4, 1));
	sb_db_close(reader);
	assert_true(drops(db, INT64_MAX / 4, 1));
	sb_db_close(db);
}

/* The definitions of the indexes, as text (allocated). */
static char *index_sql(sb_db *db)
{
	return support_text(db, "SELECT group_concat(name || ': ' || sql, char(10)) FROM "
	                        "(SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL "
	                        "ORDER BY name)");
}

/* While an import keeps readers out with the indexes dropped, a reader
 * waits (then gives up, SB_ETEMP, saying why); a ledger left without them
 * (that import gone without building them: killed) gets them back as
 * they were when a reader opens it, and when a writer does. */
static void test_readers_never_see_it_without_indexes(void **state)
{
	struct ctx *c = *state;
	sb_db *db = NULL, *reader = NULL;
	char *before, *after;
	bool all = true;
	int rc;
	sb_err e;

	assert_sb_ok(&e, open_ledger(c, SB_DB_WRITE, 1000, &db, &e));
	before = index_sql(db);
	assert_true(sb_db_readers_shut_out(db));
	assert_sb_ok(&e, sb_db_begin(db, &e));
	assert_sb_ok(&e, sb_db_indexes_drop(db, &e));
	assert_sb_ok(&e, sb_db_commit(db, &e));
	rc = open_ledger(c, 0, 100, &reader, &e);
	assert_sb_fails(&e, rc, SB_ETEMP, "a large import has it without its indexes until it ends");
	assert_null(reader);
	/* killed: the process's locks go with it */
	sb_db_close(db);
	db = NULL;
	assert_sb_ok(&e, open_ledger(c, 0, 1000, &reader, &e));
	assert_sb_ok(&e, sb_db_indexes_present(reader, &all, &e));
	assert_true(all);
	after = index_sql(reader);
	assert_string_equal(before, after);
	free(after);
	sb_db_close(reader);
	/* and a writer opening it */
	assert_sb_ok(&e, open_ledger(c, SB_DB_WRITE, 1000, &db, &e));
	assert_sb_ok(&e, sb_db_begin(db, &e));
	assert_sb_ok(&e, sb_db_indexes_drop(db, &e));
	assert_sb_ok(&e, sb_db_commit(db, &e));
	sb_db_close(db);
	assert_sb_ok(&e, open_ledger(c, SB_DB_WRITE, 1000, &db, &e));
	after = index_sql(db);
	assert_string_equal(before, after);
	free(after);
	free(before);
	sb_db_close(db);
}

/* Write n runs r<from>..r<from+n-1> to path, each in its own session but
 * for s-shared, which runs r<shared_a> and r<shared_b> have. */
static void write_runs(const char *path, int from, int n, int shared_a, int shared_b)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	for (int i = from; i < from + n; i++)
		fprintf(f, "{\"run_id\": \"r%d\", \"backend\": \"e2b\", \"session_id\": \"%s%d\", "
		        "\"started_at\": \"2026-11-%02dT10:00:00Z\", \"tags\": {\"customer\": \"c%d\"}, "
		        "\"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": %d, \"executions\": "
		        "[{\"duration_ms\": %d}]}}\n", i, i == shared_a || i == shared_b ? "shared" : "s",
		        i == shared_a || i == shared_b ? 0 : i, 1 + i % 28, i % 3, 100 + i, 100 + i);
	assert_int_equal(fclose(f), 0);
}

/* How many runs, and their exec time, invoice_session_owners finds for
 * the session s-shared0. */
static void owners(sb_db *db, int64_t *runs, int64_t *exec_ms)
{
	sb_err e;
	sb_stmt *st;
	int rc;

	*runs = *exec_ms = 0;
	sb_err_clear(&e);
	st = sb_db_stmt(db, "invoice_session_owners", &e);
	assert_non_null(st);
	sb_bind_text(db, st, ":tag", "customer");
	sb_bind_text(db, st, ":backend", "e2b");
	sb_bind_text(db, st, ":session_id", "shared0");
	while ((rc = sb_db_step(db, st, &e)) == SB_ROW) {
		*runs += sb_col_i64(st, 1);
		*exec_ms += sb_col_i64(st, 2);
	}
	assert_int_equal(rc, SB_DONE);
	sb_stmt_reset(st);
}

/* The recent part of the session index: an import into an empty ledger
 * ends with every run settled; then 100 runs to a ledger of 800 (an
 * eighth exactly) stay recent, one more (101 of 801) merges them; a
 * session with a run in each part is found whole. */
static void test_session_index_parts(void **state)
{
	struct ctx *c = *state;
	char *input = support_path(c->dir, "runs.jsonl");
	sb_import_opts o;
	sb_import_result r;
	sb_db *db = NULL;
	int64_t runs, exec_ms;
	sb_err e;

	memset(&o, 0, sizeof o);
	assert_sb_ok(&e, open_ledger(c, SB_DB_WRITE, 1000, &db, &e));
	write_runs(input, 0, 700, 5, -1);
	assert_sb_ok(&e, sb_import_runs(db, input, &o, &r, &e));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM run WHERE recent"), 0);
	write_runs(input, 700, 100, 750, -1);
	assert_sb_ok(&e, sb_import_runs(db, input, &o, &r, &e));
	assert_int_equal(support_i64(db, "SELECT MAX(rid) FROM run"), 800);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM run WHERE recent"), 100);
	/* r5 (settled) and r750 (recent): 105 + 850 ms */
	owners(db, &runs, &exec_ms);
	assert_int_equal(runs, 2);
	assert_int_equal(exec_ms, 955);
	write_runs(input, 800, 1, -1, -1);
	assert_sb_ok(&e, sb_import_runs(db, input, &o, &r, &e));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM run WHERE recent"), 0);
	owners(db, &runs, &exec_ms);
	assert_int_equal(runs, 2);
	assert_int_equal(exec_ms, 955);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'"), 0);
	/* the import gave its connection its foreign keys back */
	assert_int_equal(support_i64(db, "PRAGMA foreign_keys"), 1);
	sb_db_close(db);
	free(input);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_execs_text_is_sqlites),
		cmocka_unit_test(test_view_gives_back_every_value),
		cmocka_unit_test(test_check_finds_malformed_execs),
		cmocka_unit_test_setup_teardown(test_bulk_thresholds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bulk_waits_for_no_reader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_readers_never_see_it_without_indexes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session_index_parts, setup, teardown),
	};

	return cmocka_run_group_tests_name("scale", tests, NULL, NULL);
}
