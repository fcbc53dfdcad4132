/* test_db.c: the ledger file (ledger/db.c): open, pragmas, migrations,
 * refusing what is not a ledger or is newer, the write lock, the
 * statement cache and binding by name. */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ledger/batch.h"
#include "ledger/sqlfiles.h"

/* Group state: a temporary directory for the file tests. */
struct dir_state {
	char *dir;
};

static int dir_setup(void **state)
{
	struct dir_state *s = calloc(1, sizeof *s);

	if (s == NULL)
		return -1;
	s->dir = support_tmpdir();
	*state = s;
	return 0;
}

static int dir_teardown(void **state)
{
	struct dir_state *s = *state;

	support_rmtree(s->dir);
	free(s);
	return 0;
}

/* The whole content of path, allocated, its length in *len. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Run sql on the SQLite file path with a plain connection. */
static void raw_exec(const char *path, const char *sql)
{
	sqlite3 *conn = NULL;
	int rc = sqlite3_open(path, &conn);

	assert_sqlite_ok(conn, rc);
	rc = sqlite3_exec(conn, sql, NULL, NULL, NULL);
	assert_sqlite_ok(conn, rc);
	sqlite3_close(conn);
}

static void test_memory_ledger_is_migrated_and_seeded(void **state)
{
	sb_db *db = support_memory_ledger();

	(void)state;
	assert_int_equal(sb_db_schema_version(db), sb_db_schema_latest());
	assert_true(sb_db_schema_latest() >= 2);
	assert_int_equal(support_i64(db, "PRAGMA application_id"), SB_APPLICATION_ID);
	assert_int_equal(support_i64(db, "PRAGMA foreign_keys"), 1);
	/* the card of docs/rules.md, in force from the epoch */
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM rate_card WHERE effective_ms = 0 AND plan IS NULL"), 10);
	assert_int_equal(support_i64(db, "SELECT usd_per_minute_nanos FROM rate_card WHERE backend = 'e2b'"), 60000000);
	assert_int_equal(support_i64(db, "SELECT usd_per_minute_nanos FROM rate_card WHERE backend = 'vercel'"), 120000000);
	assert_int_equal(support_i64(db, "SELECT SUM(free) FROM rate_card"), 3);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM backend"), 10);
	assert_int_equal(support_i64(db, "SELECT persistent FROM backend WHERE backend = 'vercel'"), 0);
	assert_true(support_is_null(db, "SELECT max_cpu FROM backend WHERE backend = 'e2b'"));
	sb_db_close(db);
}

static void test_create_file_mode_0600_and_idempotent(void **state)
{
	struct dir_state *s = *state;
	char *path = support_path(s->dir, "create.db");
	sb_db *db = NULL;
	struct stat st;
	sb_err e;
	int rc;

	umask(022);
	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_CREATE | SB_DB_WRITE, 1000, &db, &e);
	assert_sb_ok(&e, rc);
	assert_true(sb_db_created(db));
	assert_int_equal(support_i64(db, "PRAGMA user_version"), sb_db_schema_latest());
	{
		char *mode = support_text(db, "PRAGMA journal_mode");
		assert_string_equal(mode, "wal");
		free(mode);
	}
	support_exec(db, "INSERT INTO model_price VALUES ('m', 1, 2, 3)");
	sb_db_close(db);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	/* again: nothing created, nothing lost */
	db = NULL;
	rc = sb_db_open(path, SB_DB_CREATE | SB_DB_WRITE, 1000, &db, &e);
	assert_sb_ok(&e, rc);
	assert_false(sb_db_created(db));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM model_price"), 1);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM rate_card"), 10);
	sb_db_close(db);
	free(path);
}

static void test_missing_file_is_refused_and_not_created(void **state)
{
	struct dir_state *s = *state;
	char *path = support_path(s->dir, "missing.db");
	sb_db *db = NULL;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_db_open(path, 0, 1000, &db, &e);
	assert_sb_fails(&e, rc, SB_ENOINPUT, "sbledger");
	assert_non_null(strstr(e.msg, "init"));
	assert_null(db);
	assert_int_not_equal(access(path, F_OK), 0);

	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_WRITE, 1000, &db, &e);
	assert_sb_fails(&e, rc, SB_ENOINPUT, "init");
	assert_int_not_equal(access(path, F_OK), 0);
	free(path);
}

static void test_not_sqlite_is_refused_untouched(void **state)
{
	struct dir_state *s = *state;
	char *path = support_path(s->dir, "notes.txt");
	const char *text = "these are my notes, not a ledger\n";
	sb_db *db = NULL;
	size_t len = 0;
	char *after;
	sb_err e;
	int rc;

	support_write_file(path, text);
	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_CREATE | SB_DB_WRITE, 1000, &db, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "not an sbledger ledger");
	assert_null(db);
	after = slurp(path, &len);
	assert_int_equal(len, strlen(text));
	assert_memory_equal(after, text, len);
	free(after);
	free(path);
}

static void test_foreign_sqlite_is_refused_untouched(void **state)
{
	struct dir_state *s = *state;
	char *path = support_path(s->dir, "other.db");
	char *wal = support_path(s->dir, "other.db-wal");
	char *before, *after;
	size_t len_before = 0, len_after = 0;
	sb_db *db = NULL;
	sb_err e;
	int rc;

	raw_exec(path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');");
	before = slurp(path, &len_before);
	for (int flags = 0; flags <= (SB_DB_CREATE | SB_DB_WRITE); flags += SB_DB_CREATE | SB_DB_WRITE) {
		sb_err_clear(&e);
		rc = sb_db_open(path, flags, 1000, &db, &e);
		assert_sb_fails(&e, rc, SB_EDATA, "another program");
		assert_null(db);
	}
	/* not even switched to WAL: the file is byte for byte the same */
	after = slurp(path, &len_after);
	assert_int_equal(len_after, len_before);
	assert_memory_equal(after, before, len_before);
	assert_int_not_equal(access(wal, F_OK), 0);
	free(before);
	free(after);
	free(wal);
	free(path);
}

static void test_newer_schema_is_refused_untouched(void **state)
{
	struct dir_state *s = *state;
	char *path = support_path(s->dir, "newer.db");
	char *before, *after;
	size_t len_before = 0, len_after = 0;
	sb_db *db = NULL;
	sb_err e;
	int rc;

	raw_exec(path, "PRAGMA application_id = 1396853831; PRAGMA user_version = 99;");
	before = slurp(path, &len_before);
	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_WRITE, 1000, &db, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "newer than this sbledger knows");
	assert_non_null(strstr(e.msg, "99"));
	assert_null(db);
	after = slurp(path, &len_after);
	assert_int_equal(len_after, len_before);
	assert_memory_equal(after, before, len_before);
	free(before);
	free(after);
	free(path);
}

static void test_old_ledger_is_migrated(void **state)
{
	struct dir_state *s = *state;
	char *path = support_path(s->dir, "old.db");
	const char *first = sb_sql("schema/001_init");
	char *sql;
	sb_db *db = NULL;
	sb_err e;
	int rc;

	assert_non_null(first);
	sql = sqlite3_mprintf("BEGIN; %s PRAGMA user_version = 1; PRAGMA application_id = %d; "
	                      "INSERT INTO model_price VALUES ('kept', 1, 2, 3); COMMIT;",
	                      first, SB_APPLICATION_ID);
	raw_exec(path, sql);
	sqlite3_free(sql);
	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_WRITE, 1000, &db, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(sb_db_schema_version(db), sb_db_schema_latest());
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM sqlite_schema WHERE name = 'billing_line'"), 1);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM model_price WHERE model = 'kept'"), 1);
	sb_db_close(db);
	free(path);
}

/* Milliseconds on a monotonic clock. */
static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void test_write_lock_times_out(void **state)
{
	struct dir_state *s = *state;
	char *path = support_path(s->dir, "locked.db");
	sb_db *holder = NULL, *waiter = NULL, *reader = NULL;
	int64_t t0;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_CREATE | SB_DB_WRITE, 1000, &holder, &e);
	assert_sb_ok(&e, rc);

	t0 = mono_ms();
	rc = sb_db_open(path, SB_DB_WRITE, 150, &waiter, &e);
	assert_sb_fails(&e, rc, SB_ETEMP, "busy");
	assert_non_null(strstr(e.msg, SB_WORDS_BUSY));   /* the way out, in the library's words */
	assert_int_equal(e.hint, SB_HINT_BUSY);
	assert_true(mono_ms() - t0 >= 150);
	assert_null(waiter);

	/* a reader needs no write lock */
	sb_err_clear(&e);
	rc = sb_db_open(path, 0, 150, &reader, &e);
	assert_sb_ok(&e, rc);
	sb_db_close(reader);

	sb_db_close(holder);
	rc = sb_db_open(path, SB_DB_WRITE, 150, &waiter, &e);
	assert_sb_ok(&e, rc);
	sb_db_close(waiter);
	free(path);
}

/* Two names of one file, a symlink and the file: one write lock, taken
 * on the resolved file (a writer through either name waits for the
 * other), and no lock file beside the link. */
static void test_symlink_shares_the_lock(void **state)
{
	struct dir_state *s = *state;
	char *path = support_path(s->dir, "real.db");
	char *link = support_path(s->dir, "alias.db");
	char *link_lock = support_path(s->dir, "alias.db-lock");
	sb_db *holder = NULL, *waiter = NULL;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_CREATE | SB_DB_WRITE, 1000, &holder, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(symlink("real.db", link), 0);
	rc = sb_db_open(link, SB_DB_WRITE, 100, &waiter, &e);
	assert_sb_fails(&e, rc, SB_ETEMP, "busy");
	assert_null(waiter);
	sb_db_close(holder);
	/* the other way round */
	sb_err_clear(&e);
	rc = sb_db_open(link, SB_DB_WRITE, 100, &holder, &e);
	assert_sb_ok(&e, rc);
	rc = sb_db_open(path, SB_DB_WRITE, 100, &waiter, &e);
	assert_sb_fails(&e, rc, SB_ETEMP, "busy");
	sb_db_close(holder);
	assert_int_not_equal(access(link_lock, F_OK), 0);
	free(path);
	free(link);
	free(link_lock);
}

/* A ledger file with one link is a ledger; with two it is refused (65)
 * by readers and writers, through either name, naming the count and the
 * way to copy a ledger, before anything is made beside it. */
static void test_hard_link_is_refused(void **state)
{
	struct dir_state *s = *state;
	char *path = support_path(s->dir, "one.db");
	char *other = support_path(s->dir, "two.db");
	char *other_lock = support_path(s->dir, "two.db-lock");
	char *other_wal = support_path(s->dir, "two.db-wal");
	const int modes[] = {0, SB_DB_WRITE, SB_DB_CREATE | SB_DB_WRITE};
	sb_db *db = NULL;
	char *before, *after;
	size_t n_before, n_after;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_CREATE | SB_DB_WRITE, 1000, &db, &e);
	assert_sb_ok(&e, rc);
	sb_db_close(db);
	db = NULL;
	/* one link: opens */
	rc = sb_db_open(path, 0, 1000, &db, &e);
	assert_sb_ok(&e, rc);
	sb_db_close(db);
	db = NULL;
	before = slurp(path, &n_before);
	assert_int_equal(link(path, other), 0);
	for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
		sb_err_clear(&e);
		rc = sb_db_open(other, modes[m], 100, &db, &e);
		assert_sb_fails(&e, rc, SB_EDATA, "has 2 hard links");
		assert_non_null(strstr(e.msg, ".backup COPY"));
		assert_null(db);
		sb_err_clear(&e);
		rc = sb_db_open(path, modes[m], 100, &db, &e);
		assert_sb_fails(&e, rc, SB_EDATA, "has 2 hard links");
	}
	after = slurp(path, &n_after);
	assert_int_equal(n_before, n_after);
	assert_memory_equal(before, after, n_before);
	assert_int_not_equal(access(other_lock, F_OK), 0);
	assert_int_not_equal(access(other_wal, F_OK), 0);
	/* the second name gone: a ledger again */
	assert_int_equal(unlink(other), 0);
	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_WRITE, 100, &db, &e);
	assert_sb_ok(&e, rc);
	sb_db_close(db);
	free(before);
	free(after);
	free(path);
	free(other);
	free(other_lock);
	free(other_wal);
}

/* An empty file is not a ledger: readers and writers refuse it (66,
 * naming init) and leave it empty with its mode; init makes a ledger of
 * it, mode 0600. */
static void test_empty_file(void **state)
{
	struct dir_state *s = *state;
	char *path = support_path(s->dir, "empty.db");
	FILE *f = fopen(path, "w");
	sb_db *db = NULL;
	struct stat st;
	sb_err e;
	int rc;

	assert_non_null(f);
	fclose(f);
	assert_int_equal(chmod(path, 0644), 0);
	sb_err_clear(&e);
	rc = sb_db_open(path, 0, 100, &db, &e);
	assert_sb_fails(&e, rc, SB_ENOINPUT, "an empty file, not a ledger");
	assert_non_null(strstr(e.msg, "init"));
	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_WRITE, 100, &db, &e);
	assert_sb_fails(&e, rc, SB_ENOINPUT, "an empty file, not a ledger");
	assert_null(db);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_CREATE | SB_DB_WRITE, 100, &db, &e);
	assert_sb_ok(&e, rc);
	assert_true(sb_db_created(db));
	assert_int_equal(sb_db_schema_version(db), sb_db_schema_latest());
	sb_db_close(db);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	free(path);
}

static void test_sqlite_busy_is_temporary(void **state)
{
	struct dir_state *s = *state;
	char *path = support_path(s->dir, "busy.db");
	sqlite3 *other = NULL;
	sb_db *db = NULL;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_CREATE, 100, &db, &e);
	assert_sb_ok(&e, rc);
	/* a writer that ignores the lock file: SQLite's own lock */
	rc = sqlite3_open(path, &other);
	assert_sqlite_ok(other, rc);
	rc = sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	assert_sqlite_ok(other, rc);
	rc = sb_db_begin(db, &e);
	assert_sb_fails(&e, rc, SB_ETEMP, "busy");
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);
	sb_err_clear(&e);
	rc = sb_db_begin(db, &e);
	assert_sb_ok(&e, rc);
	sb_db_rollback(db);
	sb_db_close(db);
	free(path);
}

/* Group fixture for the statement tests: one in-memory ledger. */
static int mem_setup(void **state)
{
	*state = support_memory_ledger();
	return 0;
}

static int mem_teardown(void **state)
{
	sb_db_close(*state);
	return 0;
}

static void test_statement_cache(void **state)
{
	sb_db *db = *state;
	sb_stmt *a, *b;
	sb_err e;

	sb_err_clear(&e);
	a = sb_db_stmt(db, "model_price_get", &e);
	assert_non_null(a);
	sb_bind_text(db, a, ":model", "m");
	assert_ptr_equal(strstr(sb_sql("queries/model_price_get"), sqlite3_sql(sb_stmt_sqlite(a))),
	                 sb_sql("queries/model_price_get"));
	b = sb_db_stmt(db, "model_price_get", &e);
	assert_ptr_equal(a, b);
	/* handed out again with its bindings cleared */
	{
		char *expanded = sqlite3_expanded_sql(sb_stmt_sqlite(b));
		assert_non_null(strstr(expanded, "model = NULL"));
		sqlite3_free(expanded);
	}
	assert_int_equal(e.code, SB_OK);

	assert_null(sb_db_stmt(db, "no_such_query", &e));
	assert_int_equal(e.code, SB_EINTERNAL);
	assert_non_null(strstr(e.msg, "no_such_query"));
}

static void test_bind_unknown_name_is_an_error(void **state)
{
	sb_db *db = *state;
	sb_stmt *st;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	st = sb_db_stmt(db, "model_price_get", &e);
	assert_non_null(st);
	sb_bind_text(db, st, ":modle", "m");
	rc = sb_db_step(db, st, &e);
	assert_int_equal(rc, -1);
	assert_int_equal(e.code, SB_EINTERNAL);
	assert_non_null(strstr(e.msg, ":modle"));

	/* the pending error was reported once: the next step runs */
	sb_err_clear(&e);
	st = sb_db_stmt(db, "model_price_get", &e);
	sb_bind_text(db, st, ":model", "m");
	rc = sb_db_step(db, st, &e);
	assert_int_equal(rc, SQLITE_DONE);
	assert_int_equal(e.code, SB_OK);

	/* sb_db_run reports it too */
	st = sb_db_stmt(db, "model_price_set", &e);
	sb_bind_text(db, st, ":model", "m");
	sb_bind_i64(db, st, ":input_per_m_nanos", 1);
	sb_bind_i64(db, st, ":output_per_m_nanos", 2);
	sb_bind_i64(db, st, ":updated", 3);
	assert_int_equal(sb_db_run(db, st, &e), SB_EINTERNAL);
	assert_non_null(strstr(e.msg, ":updated"));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM model_price"), 0);
}

static void test_error_mapping(void **state)
{
	static const struct {
		int rc;      /* SQLite result code */
		int code;    /* the exit status it deserves */
	} map[] = {
		{SQLITE_BUSY, SB_ETEMP}, {SQLITE_LOCKED, SB_ETEMP}, {SQLITE_BUSY_SNAPSHOT, SB_ETEMP},
		{SQLITE_FULL, SB_EIO}, {SQLITE_IOERR, SB_EIO}, {SQLITE_IOERR_WRITE, SB_EIO},
		{SQLITE_READONLY, SB_EIO}, {SQLITE_NOTADB, SB_EDATA}, {SQLITE_CORRUPT, SB_EDATA},
		{SQLITE_NOMEM, SB_EINTERNAL}, {SQLITE_ERROR, SB_EINTERNAL},
	};
	sb_db *db = *state;

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
		sb_err e;
		sb_err_clear(&e);
		assert_int_equal(sb_db_sqlite_error(db, map[i].rc, "testing", &e), map[i].code);
		assert_int_equal(e.code, map[i].code);
	}
}

/* The library's "now" is the clock its caller hands the ledger, never the
 * environment: without one it is the system clock (SBLEDGER_NOW, which
 * only the command line reads, changes nothing), with one it is that
 * clock's, and a batch begun stores it. */
static void test_now_is_the_clock_handed_in(void **state)
{
	sb_db *db = support_memory_ledger();
	int64_t fixed = INT64_C(1796040000000);   /* 2026-11-30T12:00:00Z */
	int64_t before = sb_clock_system_ms();
	sb_batch b;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	setenv("SBLEDGER_NOW", "2026-11-30T12:00:00Z", 1);
	assert_true(sb_db_now_ms(db) >= before);
	assert_true(sb_db_now_ms(db) != fixed);
	unsetenv("SBLEDGER_NOW");
	sb_db_set_clock(db, (sb_clock){sb_clock_fixed, &fixed});
	assert_int_equal(sb_db_now_ms(db), fixed);
	fixed += 250;
	assert_int_equal(sb_db_now_ms(db), INT64_C(1796040000250));
	assert_sb_ok(&e, sb_batch_begin(db, "runs", "runs", "test", NULL, "", &b, &e));
	assert_int_equal(support_i64(db, "SELECT started_ms FROM batch WHERE batch_id = %lld",
	                             (long long)b.id), INT64_C(1796040000250));
	sb_db_close(db);
}

int main(void)
{
	const struct CMUnitTest file_tests[] = {
		cmocka_unit_test(test_create_file_mode_0600_and_idempotent),
		cmocka_unit_test(test_missing_file_is_refused_and_not_created),
		cmocka_unit_test(test_not_sqlite_is_refused_untouched),
		cmocka_unit_test(test_foreign_sqlite_is_refused_untouched),
		cmocka_unit_test(test_newer_schema_is_refused_untouched),
		cmocka_unit_test(test_old_ledger_is_migrated),
		cmocka_unit_test(test_write_lock_times_out),
		cmocka_unit_test(test_sqlite_busy_is_temporary),
		cmocka_unit_test(test_symlink_shares_the_lock),
		cmocka_unit_test(test_hard_link_is_refused),
		cmocka_unit_test(test_empty_file),
	};
	const struct CMUnitTest memory_tests[] = {
		cmocka_unit_test(test_memory_ledger_is_migrated_and_seeded),
		cmocka_unit_test(test_statement_cache),
		cmocka_unit_test(test_bind_unknown_name_is_an_error),
		cmocka_unit_test(test_error_mapping),
		cmocka_unit_test(test_now_is_the_clock_handed_in),
	};
	int failed = cmocka_run_group_tests_name("db_file", file_tests, dir_setup, dir_teardown);

	failed += cmocka_run_group_tests_name("db_memory", memory_tests, mem_setup, mem_teardown);
	return failed;
}
