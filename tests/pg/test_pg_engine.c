/* test_pg_engine.c: the PostgreSQL engine (ledger/db_pg.c) against a real
 * server: the URL's refusals (against the cluster too), init and the schema version, another
 * program's database, parameters rewritten outside quotes and comments,
 * 64-bit values at their edges, a sum past 64 bits, booleans, NULL,
 * bytes, the writers' lock, last id and changes, a statement stepped past
 * its end, COPY statements.
 *
 * SBLEDGER_TEST_PG_DIR names a running cluster of tools/pg_cluster.sh
 * (make pg-tests starts one); each test makes its own database with
 * tools/pg_cluster.sh createdb.  Without it the test fails: a test that
 * cannot run is not a test that passed.
 */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/db.h"

/* The URL of a fresh database name (made again when it exists). */
static char *fresh_db(const char *name)
{
	const char *dir = getenv("SBLEDGER_TEST_PG_DIR");
	char *url = calloc(1, 512);

	if (dir == NULL || dir[0] == '\0') {
		print_error("SBLEDGER_TEST_PG_DIR is not set: run this through 'make pg-tests'\n");
		fail();
	}
	assert_non_null(url);
	support_pg_db(dir, name, url, 512);
	return url;
}

static sb_db *open_ok(const char *url, int flags)
{
	sb_db *db = NULL;
	sb_err e;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_open(url, flags, 300, &db, &e));
	return db;
}

/* A password in the URL, as libpq reads it, is refused before anything
 * connects (64); a '@' or ':' elsewhere is no password, nor is an empty
 * one after "u:" (libpq keeps none: tests/test_db_url.c). */
static void test_password_refused(void **state)
{
	static const char *refused[] = {
		"postgresql://u:secret@localhost/db",
		"postgres://u:secret@localhost/db",
		"postgresql://u@localhost/db?password=secret",
		"postgresql://u@localhost/db?pass%77ord=secret",
		"postgresql://u@localhost/db?sslmode=require&password=secret",
	};
	sb_db *db = NULL;
	sb_err e;

	(void)state;
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		sb_err_clear(&e);
		assert_sb_fails(&e, sb_db_open(refused[i], 0, 100, &db, &e), SB_EUSAGE, "password");
		assert_null(db);
		assert_null(strstr(e.msg, "secret"));
	}
	/* against the cluster itself, which would take them: a password's
	 * spellings and a bad value refused before connecting; the URL as
	 * written back connects and is what messages show */
	{
		static const char *tails[] = {"&pass%77ord=pgsecret", "&password=pgsecret", "&sslmode=bogus",
		                              "&foo=1", "&connect_timeout=5s"};
		char *url = fresh_db("t_url");
		char spelled[640], shown[660];
		sb_db *ok;
		for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
			snprintf(spelled, sizeof spelled, "%s%s", url, tails[i]);
			sb_err_clear(&e);
			assert_sb_fails(&e, sb_db_open(spelled, SB_DB_CREATE, 100, &db, &e), SB_EUSAGE, "URL");
			assert_null(db);
			assert_null(strstr(e.msg, "pgsecret"));
		}
		snprintf(spelled, sizeof spelled, "%s&application_name=sbledger", url);
		ok = open_ok(spelled, SB_DB_CREATE | SB_DB_WRITE);
		snprintf(shown, sizeof shown, "'%s'", spelled);
		assert_string_equal(sb_db_shown(ok), shown);
		sb_db_close(ok);
		free(url);
	}
	assert_true(sb_db_is_url("postgresql://x"));
	assert_true(sb_db_is_url("postgres://x"));
	assert_false(sb_db_is_url("postgresql:/x"));
	assert_false(sb_db_is_url("./postgres://x"));
}

/* A database without a ledger: "no ledger here" (66) until init, which
 * makes one at the newest version; init again changes nothing. */
static void test_init(void **state)
{
	char *url = fresh_db("t_init");
	sb_db *db = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_db_open(url, 0, 300, &db, &e), SB_ENOINPUT, "no ledger here");
	db = open_ok(url, SB_DB_CREATE | SB_DB_WRITE);
	assert_true(sb_db_created(db));
	assert_int_equal(sb_db_schema_version(db), sb_db_schema_latest());
	assert_string_equal(sb_db_engine(db), "PostgreSQL");
	sb_db_close(db);
	db = open_ok(url, SB_DB_CREATE | SB_DB_WRITE);
	assert_false(sb_db_created(db));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM rate_card"), 10);
	sb_db_close(db);
	free(url);
}

/* Another program's tables and no ledger: refused (65), left untouched. */
static void test_foreign_database(void **state)
{
	char *url = fresh_db("t_foreign");
	sb_db *db = NULL;
	sb_err e;

	(void)state;
	db = open_ok(url, SB_DB_CREATE | SB_DB_WRITE);
	support_exec(db, "CREATE TABLE theirs (x BIGINT); DROP TABLE sbledger_meta CASCADE");
	sb_db_close(db);
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_db_open(url, SB_DB_CREATE | SB_DB_WRITE, 300, &db, &e), SB_EDATA, "another program");
	free(url);
}

/* :name outside quotes and comments is a parameter; inside them, or a
 * :: cast, it is text. */
static void test_parameters(void **state)
{
	char *url = fresh_db("t_params");
	sb_db *db = open_ok(url, SB_DB_CREATE);
	const char *sql = "SELECT CAST(:a AS BIGINT) + 1, ':b', '1'::text, \"x:c\".v, CAST(:a AS BIGINT) -- :d\n"
	                  "  FROM (SELECT 5 AS v) AS \"x:c\" /* :e */; SELECT 2";
	sb_stmt *st = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &st, &e));
	assert_string_equal(sql, " SELECT 2");
	assert_true(sb_stmt_has_param(st, ":a"));
	assert_false(sb_stmt_has_param(st, ":b"));
	assert_false(sb_stmt_has_param(st, ":c"));
	assert_false(sb_stmt_has_param(st, ":d"));
	assert_false(sb_stmt_has_param(st, ":e"));
	sb_bind_i64(db, st, ":a", 41);
	assert_int_equal(sb_db_step(db, st, &e), SB_ROW);
	assert_int_equal(sb_col_i64(st, 0), 42);
	assert_string_equal(sb_col_text(st, 1), ":b");
	assert_string_equal(sb_col_text(st, 2), "1");
	assert_int_equal(sb_col_i64(st, 3), 5);
	assert_int_equal(sb_col_i64(st, 4), 41);
	assert_int_equal(sb_db_step(db, st, &e), SB_DONE);
	/* stepped past its end, it runs again, as on SQLite */
	assert_int_equal(sb_db_step(db, st, &e), SB_ROW);
	assert_int_equal(sb_col_i64(st, 0), 42);
	sb_stmt_finalize(st);
	/* a name the statement lacks is an error at the step */
	sql = "SELECT CAST(:a AS BIGINT)";
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &st, &e));
	sb_bind_i64(db, st, ":nope", 1);
	assert_int_equal(sb_db_step(db, st, &e), -1);
	assert_non_null(strstr(e.msg, ":nope"));
	sb_stmt_finalize(st);
	sb_db_close(db);
	free(url);
}

/* 64-bit values at both ends; a sum exactly at the top is an integer;
 * booleans read 1 and 0; NULL; bytes with a NUL among them. */
static void test_values(void **state)
{
	char *url = fresh_db("t_values");
	sb_db *db = open_ok(url, SB_DB_CREATE);
	const char *sql = "SELECT CAST(:max AS BIGINT), CAST(:min AS BIGINT),"
	                  " (SELECT SUM(x) FROM (VALUES (CAST(9223372036854775806 AS BIGINT)), (CAST(1 AS BIGINT))) AS t (x)),"
	                  " CAST(NULL AS BIGINT),"
	                  " 1 = 1, 1 = 2, CAST(NULL AS TEXT), CAST(:bytes AS BYTEA), CAST(:text AS TEXT)";
	static const unsigned char bytes[] = {'a', 0, 'b', 0xff};
	const void *blob;
	size_t len;
	sb_stmt *st = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &st, &e));
	sb_bind_i64(db, st, ":max", INT64_MAX);
	sb_bind_i64(db, st, ":min", INT64_MIN);
	sb_bind_blob(db, st, ":bytes", bytes, sizeof bytes);
	sb_bind_textn(db, st, ":text", "M\xc3\xbcller-and-more", 7);
	assert_int_equal(sb_db_step(db, st, &e), SB_ROW);
	assert_true(sb_col_i64(st, 0) == INT64_MAX);
	assert_true(sb_col_i64(st, 1) == INT64_MIN);
	assert_int_equal(sb_col_kind(st, 2), SB_COL_INT);
	assert_true(sb_col_i64(st, 2) == INT64_MAX);
	assert_true(sb_col_is_null(st, 3));
	assert_int_equal(sb_col_i64(st, 4), 1);
	assert_int_equal(sb_col_i64(st, 5), 0);
	assert_string_equal(sb_col_text(st, 4), "1");
	assert_true(sb_col_is_null(st, 6));
	assert_null(sb_col_text(st, 6));
	assert_int_equal(sb_col_kind(st, 7), SB_COL_BLOB);
	blob = sb_col_blob(st, 7, &len);
	assert_int_equal(len, sizeof bytes);
	assert_memory_equal(blob, bytes, sizeof bytes);
	assert_string_equal(sb_col_text(st, 8), "M\xc3\xbcller");
	sb_stmt_finalize(st);
	sb_db_close(db);
	free(url);
}

/* A sum one past 64 bits ends its statement with "a sum overflows" (65),
 * as SQLite's SUM does, though PostgreSQL's SUM of bigint never
 * overflows; so does a bigint that overflows in the server (a rollup's
 * running sum). */
static void test_overflow_is_data(void **state)
{
	char *url = fresh_db("t_overflow");
	sb_db *db = open_ok(url, SB_DB_CREATE);
	const char *sql = "SELECT CAST(:a AS BIGINT) + 1";
	sb_stmt *st = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &st, &e));
	sb_bind_i64(db, st, ":a", INT64_MAX - 1);
	assert_int_equal(sb_db_step(db, st, &e), SB_ROW);
	assert_true(sb_col_i64(st, 0) == INT64_MAX);
	sb_stmt_reset(st);
	sb_bind_i64(db, st, ":a", INT64_MAX);
	assert_int_equal(sb_db_step(db, st, &e), -1);
	assert_int_equal(e.code, SB_EDATA);
	assert_non_null(strstr(e.msg, "a sum overflows 64-bit nanodollars while running a query"));
	sb_stmt_finalize(st);
	sb_err_clear(&e);
	sql = "SELECT SUM(x) FROM (VALUES (CAST(:a AS BIGINT)), (CAST(1 AS BIGINT))) AS t (x)";
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &st, &e));
	sb_bind_i64(db, st, ":a", INT64_MAX - 1);
	assert_int_equal(sb_db_step(db, st, &e), SB_ROW);
	assert_true(sb_col_i64(st, 0) == INT64_MAX);
	sb_stmt_reset(st);
	sb_bind_i64(db, st, ":a", INT64_MAX);
	assert_int_equal(sb_db_step(db, st, &e), -1);
	assert_int_equal(e.code, SB_EDATA);
	assert_non_null(strstr(e.msg, "a sum overflows 64-bit nanodollars while running a query"));
	sb_stmt_finalize(st);
	sb_db_close(db);
	free(url);
}

/* What is sent without waiting (sb_db_run_later) is stored, past the
 * pipeline's bound of 512 too; its error is reported at the next
 * statement that waits, and the transaction then rolls back whole. */
/* In a transaction: first run later with its param bound to v1, then
 * second with it bound to v2; the commit is refused, its message holding
 * why; rolled back. */
static void later_refused(sb_db *db, const char *param, sb_stmt *first, int64_t v1, sb_stmt *second, int64_t v2,
                          const char *why)
{
	sb_err e;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_begin(db, &e));
	sb_bind_i64(db, first, param, v1);
	assert_sb_ok(&e, sb_db_run_later(db, first, &e));
	sb_bind_i64(db, second, param, v2);
	assert_sb_ok(&e, sb_db_run_later(db, second, &e));
	assert_int_equal(sb_db_commit(db, &e), SB_EINTERNAL);
	assert_non_null(strstr(e.msg, why));
	sb_db_rollback(db);
}

static void test_run_later(void **state)
{
	char *url = fresh_db("t_later");
	sb_db *db = open_ok(url, SB_DB_CREATE | SB_DB_WRITE);
	const char *sql = "INSERT INTO fx_rate (currency, effective_ms, usd_nanos) VALUES ('EUR', :ms, 1)";
	sb_stmt *st = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &st, &e));
	assert_sb_ok(&e, sb_db_begin(db, &e));
	for (int i = 0; i < 600; i++) {
		sb_bind_i64(db, st, ":ms", i);
		assert_sb_ok(&e, sb_db_run_later(db, st, &e));
	}
	assert_sb_ok(&e, sb_db_commit(db, &e));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM fx_rate"), 600);
	/* the same key again: refused, told at the commit, nothing kept */
	later_refused(db, ":ms", st, 600, st, 5, "(sql/test.sql)");
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM fx_rate"), 600);
	sb_stmt_finalize(st);
	sb_db_close(db);
	free(url);
}

/* Rows come one at a time; another statement run between two of them
 * finds the connection free (the rest is read ahead), and the rows go on
 * in order; an error after some rows is told at the step that reaches
 * it, read ahead or not; a statement left before its end is reset. */
static void test_streamed_rows(void **state)
{
	char *url = fresh_db("t_stream");
	sb_db *db = open_ok(url, SB_DB_CREATE);
	const char *all = "SELECT x, CAST(x AS TEXT) FROM generate_series(CAST(1 AS BIGINT), CAST(:n AS BIGINT)) AS t (x)";
	const char *bad = "SELECT 10 / (x - CAST(:at AS BIGINT)) FROM generate_series(CAST(1 AS BIGINT), 3000) AS t (x)";
	const char *sql;
	sb_stmt *st = NULL, *div = NULL;
	int64_t n = 0, sum = 0;
	sb_err e;
	int rc;

	(void)state;
	sb_err_clear(&e);
	sql = all;
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &st, &e));
	sb_bind_i64(db, st, ":n", 3000);
	while ((rc = sb_db_step(db, st, &e)) == SB_ROW) {
		n++;
		assert_int_equal(sb_col_i64(st, 0), n);
		sum += sb_col_i64(st, 0);
		if (n == 10 || n == 2999)   /* the connection, wanted meanwhile */
			assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM rate_card"), 10);
	}
	assert_int_equal(rc, SB_DONE);
	assert_int_equal(n, 3000);
	assert_int_equal(sum, 3000 * 3001 / 2);
	/* left after one row, then reset: the connection is free again */
	assert_int_equal(sb_db_step(db, st, &e), SB_ROW);
	sb_stmt_reset(st);
	assert_int_equal(support_i64(db, "SELECT 7"), 7);
	sb_stmt_finalize(st);

	sql = bad;
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &div, &e));
	for (int ahead = 0; ahead < 2; ahead++) {
		sb_stmt_reset(div);
		sb_bind_i64(db, div, ":at", 1500);
		n = 0;
		sb_err_clear(&e);
		while ((rc = sb_db_step(db, div, &e)) == SB_ROW) {
			n++;
			if (ahead && n == 5)
				assert_int_equal(support_i64(db, "SELECT 8"), 8);
		}
		assert_int_equal(rc, -1);
		assert_int_equal(n, 1499);
		assert_int_equal(e.code, SB_EINTERNAL);
		assert_non_null(strstr(e.msg, "division by zero"));
	}
	sb_stmt_finalize(div);
	sb_db_close(db);
	free(url);
}

/* A role that may read but not write (a BI tool's): its reports run, its
 * writes are refused as an I/O error (74) naming what was refused, and
 * its init, where it may not create tables, too. */
static void test_role_refused(void **state)
{
	char *url = fresh_db("t_role");
	char weak[600];
	sb_db *db = open_ok(url, SB_DB_CREATE | SB_DB_WRITE), *ro = NULL;
	const char *at = strstr(url, "sbledger@");
	sb_err e;

	(void)state;
	support_exec(db, "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sb_reader') THEN "
	                 "CREATE ROLE sb_reader LOGIN; END IF; END $$; "
	                 "REVOKE CREATE ON SCHEMA public FROM PUBLIC; GRANT USAGE ON SCHEMA public TO sb_reader; "
	                 "GRANT SELECT ON ALL TABLES IN SCHEMA public TO sb_reader");
	sb_db_close(db);
	assert_non_null(at);
	snprintf(weak, sizeof weak, "%.*ssb_reader@%s", (int)(at - url), url, at + strlen("sbledger@"));
	ro = open_ok(weak, 0);
	assert_int_equal(support_i64(ro, "SELECT COUNT(*) FROM rate_card"), 10);
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_db_exec(ro, "DELETE FROM rate_card", &e), SB_EIO, "permission denied for table rate_card");
	sb_db_close(ro);
	free(url);
	url = fresh_db("t_role_init");
	snprintf(weak, sizeof weak, "%.*ssb_reader@%s", (int)(strstr(url, "sbledger@") - url), url,
	         strstr(url, "sbledger@") + strlen("sbledger@"));
	/* an empty database whose schema the role may not create in */
	sb_err_clear(&e);
	ro = NULL;
	assert_sb_fails(&e, sb_db_open(weak, SB_DB_CREATE | SB_DB_WRITE, 300, &ro, &e), SB_EIO,
	                "permission denied for schema public");
	assert_null(ro);
	free(url);
}

/* One writer at a time: a second writer waits the busy timeout, then
 * "the ledger is busy" (75); a reader never waits; the first writer gone,
 * the second gets in.  A write transaction of a reader's connection takes
 * the lock for its while. */
static void test_write_lock(void **state)
{
	char *url = fresh_db("t_lock");
	sb_db *w1 = open_ok(url, SB_DB_CREATE | SB_DB_WRITE), *w2 = NULL, *r = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_db_open(url, SB_DB_WRITE, 200, &w2, &e), SB_ETEMP, "busy");
	r = open_ok(url, 0);
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_db_begin(r, &e), SB_ETEMP, "busy");
	sb_db_close(w1);
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_begin(r, &e));
	sb_db_rollback(r);
	w2 = open_ok(url, SB_DB_WRITE);
	sb_db_close(w2);
	sb_db_close(r);
	free(url);
}

/* The id the last INSERT made and the rows a statement changed. */
static void test_last_id_and_changes(void **state)
{
	char *url = fresh_db("t_ids");
	sb_db *db = open_ok(url, SB_DB_CREATE | SB_DB_WRITE);
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	support_exec(db, "INSERT INTO batch (kind, format, source, status, started_ms) VALUES ('runs', 'jsonl', 'a', 'complete', 1)");
	assert_int_equal(sb_db_last_id(db), 1);
	support_exec(db, "INSERT INTO batch (kind, format, source, status, started_ms) VALUES ('runs', 'jsonl', 'b', 'complete', 1)");
	assert_int_equal(sb_db_last_id(db), 2);
	assert_sb_ok(&e, sb_db_exec(db, "UPDATE batch SET status = 'failed'", &e));
	assert_int_equal(sb_db_changes(db), 2);
	sb_db_close(db);
	free(url);
}

/* A COPY statement: its columns are its parameters; each run is a row,
 * sent with the others before the next statement (which sees them) and
 * at the commit; text with COPY's special bytes, a blob with every byte,
 * NULL and 64-bit edges arrive exactly; the rows of two tables go in the
 * order of their first rows (a parent's before its children's); more rows than are held at once
 * go in several COPYs; a row refused is told at the next statement, and
 * a rollback drops rows not yet sent; a statement finalized with rows
 * held sends them. */
static void test_copy_rows(void **state)
{
	char *url = fresh_db("t_copy");
	sb_db *db = open_ok(url, SB_DB_CREATE | SB_DB_WRITE);
	const char *sql = "COPY cp_parent (id, s, b, n) FROM STDIN; COPY cp_child (id, v) FROM STDIN";
	static const char *const texts[] = {"tab\there", "new\nline", "cr\rcr", "back\\slash", "\\N", "", "M\xc3\xbcller"};
	unsigned char bytes[256];
	char big[2048];
	sb_stmt *parent = NULL, *child = NULL, *st = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	for (int i = 0; i < 256; i++)
		bytes[i] = (unsigned char)i;
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	support_exec(db, "CREATE TABLE cp_parent (id BIGINT PRIMARY KEY, s TEXT COLLATE \"C\", b BYTEA, n BIGINT);"
	                 "CREATE TABLE cp_child (id BIGINT NOT NULL REFERENCES cp_parent (id), v TEXT COLLATE \"C\")");
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &parent, &e));
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &child, &e));
	assert_true(sb_stmt_has_param(parent, ":id"));
	assert_true(sb_stmt_has_param(parent, ":n"));
	assert_false(sb_stmt_has_param(parent, ":v"));
	assert_true(sb_stmt_has_param(child, ":v"));

	assert_sb_ok(&e, sb_db_begin(db, &e));
	for (int i = 0; i < 7; i++) {
		sb_bind_i64(db, parent, ":id", i);
		sb_bind_text(db, parent, ":s", texts[i]);
		sb_bind_blob(db, parent, ":b", bytes, i == 6 ? 0 : sizeof bytes);
		if (i == 0)
			sb_bind_null(db, parent, ":n");
		else
			sb_bind_i64(db, parent, ":n", i % 2 ? INT64_MAX : INT64_MIN);
		/* a step is a row too */
		if (i == 3)
			assert_sb_ok(&e, sb_db_run(db, parent, &e));
		else
			assert_sb_ok(&e, sb_db_run_later(db, parent, &e));
		/* the child's rows after: sent after the parent's */
		sb_bind_i64(db, child, ":id", i);
		sb_bind_text(db, child, ":v", texts[i]);
		assert_sb_ok(&e, sb_db_run_later(db, child, &e));
	}
	/* the next statement sees them */
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM cp_parent"), 7);
	assert_sb_ok(&e, sb_db_commit(db, &e));
	sql = "SELECT p.s, p.b, p.n, c.v FROM cp_parent p JOIN cp_child c ON c.id = p.id WHERE p.id = :id";
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &st, &e));
	for (int i = 0; i < 7; i++) {
		const void *blob;
		size_t len;
		sb_bind_i64(db, st, ":id", i);
		assert_int_equal(sb_db_step(db, st, &e), SB_ROW);
		assert_string_equal(sb_col_text(st, 0), texts[i]);
		assert_string_equal(sb_col_text(st, 3), texts[i]);
		blob = sb_col_blob(st, 1, &len);
		assert_int_equal(len, i == 6 ? 0 : sizeof bytes);
		if (len > 0)
			assert_memory_equal(blob, bytes, len);
		if (i == 0)
			assert_true(sb_col_is_null(st, 2));
		else
			assert_true(sb_col_i64(st, 2) == (i % 2 ? INT64_MAX : INT64_MIN));
		sb_stmt_reset(st);
	}
	sb_stmt_finalize(st);

	/* 3000 rows of 2 KiB: more than one COPY's worth */
	assert_sb_ok(&e, sb_db_begin(db, &e));
	for (int i = 100; i < 3100; i++) {
		sb_bind_i64(db, parent, ":id", i);
		sb_bind_text(db, parent, ":s", big);
		sb_bind_null(db, parent, ":b");
		sb_bind_i64(db, parent, ":n", i);
		assert_sb_ok(&e, sb_db_run_later(db, parent, &e));
	}
	assert_sb_ok(&e, sb_db_commit(db, &e));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM cp_parent WHERE length(s) = 2047"), 3000);

	/* a child's row before its parent's: refused, at the next statement */
	later_refused(db, ":id", child, 7000, parent, 7000, "foreign key");
	/* a key that is there: refused, told at the next statement */
	later_refused(db, ":id", parent, 5000, parent, 5, "(sql/test.sql)");
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM cp_parent"), 3007);

	/* a rollback drops the rows not sent; the next transaction has none */
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_begin(db, &e));
	sb_bind_i64(db, parent, ":id", 6000);
	assert_sb_ok(&e, sb_db_run_later(db, parent, &e));
	sb_db_rollback(db);
	assert_sb_ok(&e, sb_db_begin(db, &e));
	assert_sb_ok(&e, sb_db_commit(db, &e));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM cp_parent WHERE id = 6000"), 0);

	/* a statement finalized with rows held: they go (with the others
	 * held, in their order), and an error among them is told at the next
	 * statement */
	assert_sb_ok(&e, sb_db_begin(db, &e));
	sql = "COPY cp_parent (id, s) FROM STDIN";
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &st, &e));
	sb_bind_i64(db, st, ":id", 8000);
	sb_bind_text(db, st, ":s", "kept");
	assert_sb_ok(&e, sb_db_run_later(db, st, &e));
	sb_stmt_finalize(st);
	assert_sb_ok(&e, sb_db_commit(db, &e));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM cp_parent WHERE id = 8000 AND s = 'kept'"), 1);
	assert_sb_ok(&e, sb_db_begin(db, &e));
	sql = "COPY cp_parent (id, s) FROM STDIN";
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &st, &e));
	sb_bind_i64(db, st, ":id", 8000);
	assert_sb_ok(&e, sb_db_run_later(db, st, &e));
	sb_stmt_finalize(st);
	assert_int_equal(sb_db_commit(db, &e), SB_EINTERNAL);
	assert_non_null(strstr(e.msg, "duplicate key"));
	sb_db_rollback(db);
	sb_err_clear(&e);

	/* a COPY must name its columns */
	sql = "COPY cp_parent FROM STDIN";
	assert_int_equal(sb_db_prepare(db, &sql, "test", &st, &e), SB_EINTERNAL);
	assert_non_null(strstr(e.msg, "names its columns"));
	sb_stmt_finalize(child);
	sb_stmt_finalize(parent);
	sb_db_close(db);
	free(url);
}

/* sb_db_step_past: a look-up stepped past the COPY rows held does not
 * see them (they stay held, across several look-ups); a plain step, a
 * commit or sb_db_flush sends them; an error among them is told at
 * sb_db_flush; a rollback drops them still held. */
static void test_step_past(void **state)
{
	char *url = fresh_db("t_past");
	sb_db *db = open_ok(url, SB_DB_CREATE | SB_DB_WRITE);
	const char *sql = "COPY sp_row (id) FROM STDIN; SELECT COUNT(*) FROM sp_row";
	sb_stmt *copy = NULL, *count = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	support_exec(db, "CREATE TABLE sp_row (id BIGINT PRIMARY KEY)");
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &copy, &e));
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &count, &e));
	assert_sb_ok(&e, sb_db_begin(db, &e));
	for (int64_t id = 1; id <= 3; id++) {
		sb_bind_i64(db, copy, ":id", id);
		assert_sb_ok(&e, sb_db_run_later(db, copy, &e));
		/* each look-up past them: none sent yet */
		assert_int_equal(sb_db_step_past(db, count, &e), SB_ROW);
		assert_int_equal(sb_col_i64(count, 0), 0);
		sb_stmt_reset(count);
	}
	/* a plain step sends them first */
	assert_int_equal(sb_db_step(db, count, &e), SB_ROW);
	assert_int_equal(sb_col_i64(count, 0), 3);
	sb_stmt_reset(count);
	/* sb_db_flush sends them, and nothing is left for the next */
	sb_bind_i64(db, copy, ":id", 4);
	assert_sb_ok(&e, sb_db_run_later(db, copy, &e));
	assert_sb_ok(&e, sb_db_flush(db, &e));
	assert_sb_ok(&e, sb_db_flush(db, &e));
	assert_int_equal(sb_db_step_past(db, count, &e), SB_ROW);
	assert_int_equal(sb_col_i64(count, 0), 4);
	sb_stmt_reset(count);
	/* a key that is there, held past a look-up: told at the flush */
	sb_bind_i64(db, copy, ":id", 2);
	assert_sb_ok(&e, sb_db_run_later(db, copy, &e));
	assert_int_equal(sb_db_step_past(db, count, &e), SB_ROW);
	sb_stmt_reset(count);
	assert_int_equal(sb_db_flush(db, &e), SB_EINTERNAL);
	assert_non_null(strstr(e.msg, "duplicate key"));
	sb_db_rollback(db);
	sb_err_clear(&e);
	/* rows held at a rollback are dropped */
	assert_sb_ok(&e, sb_db_begin(db, &e));
	sb_bind_i64(db, copy, ":id", 9);
	assert_sb_ok(&e, sb_db_run_later(db, copy, &e));
	assert_int_equal(sb_db_step_past(db, count, &e), SB_ROW);
	sb_stmt_reset(count);
	sb_db_rollback(db);
	assert_sb_ok(&e, sb_db_begin(db, &e));
	assert_sb_ok(&e, sb_db_commit(db, &e));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM sp_row"), 0);
	/* a commit sends them */
	assert_sb_ok(&e, sb_db_begin(db, &e));
	sb_bind_i64(db, copy, ":id", 10);
	assert_sb_ok(&e, sb_db_run_later(db, copy, &e));
	assert_int_equal(sb_db_step_past(db, count, &e), SB_ROW);
	sb_stmt_reset(count);
	assert_sb_ok(&e, sb_db_commit(db, &e));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM sp_row WHERE id = 10"), 1);
	sb_stmt_finalize(count);
	sb_stmt_finalize(copy);
	sb_db_close(db);
	free(url);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_password_refused),
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_foreign_database),
		cmocka_unit_test(test_parameters),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_overflow_is_data),
		cmocka_unit_test(test_run_later),
		cmocka_unit_test(test_streamed_rows),
		cmocka_unit_test(test_role_refused),
		cmocka_unit_test(test_write_lock),
		cmocka_unit_test(test_last_id_and_changes),
		cmocka_unit_test(test_copy_rows),
		cmocka_unit_test(test_step_past),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
