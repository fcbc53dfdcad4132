/* support.c: helpers shared by the cmocka tests (see support.h). */
#include "tests/support/support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importers/runs_jsonl.h"
#include "ledger/batch.h"
#include "ledger/rates.h"
#include "ledger/runs.h"
#include "ledger/sqlfiles.h"

void support_assert_ok(int rc, const sb_err *e, const char *file, int line)
{
	if (rc == SB_OK && e->code == SB_OK)
		return;
	print_error("expected success, got rc %d, error %d: %s\n", rc, e->code, e->msg);
	_fail(file, line);
}

void support_assert_fails(int rc, const sb_err *e, int want, const char *part,
                          const char *file, int line)
{
	if (rc == want && e->code == want && (part == NULL || strstr(e->msg, part) != NULL))
		return;
	print_error("expected error %d with \"%s\", got rc %d, error %d: %s\n", want,
	            part != NULL ? part : "", rc, e->code, e->msg);
	_fail(file, line);
}

void support_assert_sqlite_ok(sqlite3 *conn, int rc, const char *file, int line)
{
	if (rc == SQLITE_OK || rc == SQLITE_DONE)
		return;
	print_error("SQLite error %d: %s\n", rc, conn != NULL ? sqlite3_errmsg(conn) : sqlite3_errstr(rc));
	_fail(file, line);
}

/* The first line cmd prints, in out (its newline dropped); the test fails
 * unless cmd exits 0. */
static void command_line(const char *cmd, char *out, size_t cap)
{
	FILE *p = popen(cmd, "r");

	assert_non_null(p);
	out[0] = '\0';
	if (fgets(out, (int)cap, p) == NULL)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	if (pclose(p) != 0) {
		print_error("failed: %s\n", cmd);
		fail();
	}
}

void support_pg_db(const char *dir, const char *name, char *url, size_t cap)
{
	char cmd[1024];

	snprintf(cmd, sizeof cmd, "sh tools/pg_cluster.sh createdb '%s' %s", dir, name);
	command_line(cmd, url, cap);
}

/* A fresh PostgreSQL ledger in the cluster of tools/pg_cluster.sh at dir:
 * a database made from a template the first call initialised (init once,
 * then a copy per ledger). */
static sb_db *pg_ledger(const char *dir)
{
	static int made;
	char cmd[1024], url[512], name[64];
	sb_db *db = NULL;
	sb_err e;

	sb_err_clear(&e);
	if (made == 0) {
		char tmpl[64];
		snprintf(tmpl, sizeof tmpl, "unit_template_%d", (int)getpid());
		support_pg_db(dir, tmpl, url, sizeof url);
		assert_sb_ok(&e, sb_db_open(url, SB_DB_CREATE | SB_DB_WRITE, 1000, &db, &e));
		sb_db_close(db);
		db = NULL;
	}
	snprintf(name, sizeof name, "unit_%d_%d", (int)getpid(), ++made);
	snprintf(cmd, sizeof cmd,
	         "psql -XAtq -v ON_ERROR_STOP=1 -d \"$(sh tools/pg_cluster.sh url '%s' postgres)\""
	         " -c 'CREATE DATABASE %s TEMPLATE unit_template_%d' >/dev/null && sh tools/pg_cluster.sh url '%s' %s",
	         dir, name, (int)getpid(), dir, name);
	command_line(cmd, url, sizeof url);
	assert_sb_ok(&e, sb_db_open(url, 0, 1000, &db, &e));
	return db;
}

sb_db *support_memory_ledger(void)
{
	const char *pg = getenv("SBLEDGER_TEST_PG_DIR");
	sb_db *db = NULL;
	sb_err e;
	int rc;

	if (pg != NULL && pg[0] != '\0')
		return pg_ledger(pg);
	sb_err_clear(&e);
	rc = sb_db_open(NULL, SB_DB_MEMORY, 1000, &db, &e);
	assert_sb_ok(&e, rc);
	assert_non_null(db);
	return db;
}

void support_exec(sb_db *db, const char *sql)
{
	sb_err e;

	sb_err_clear(&e);
	if (sb_db_exec(db, sql, &e) != SB_OK) {
		print_error("SQL failed: %s\n  %s\n", e.msg, sql);
		fail();
	}
}

void support_assert_checks_pass(sb_db *db)
{
	for (const struct sb_sqlfile *f = sb_sqlfiles; f->name != NULL; f++) {
		const char *sql = sb_db_sql(db, f->name);
		sb_stmt *st = NULL;
		sb_err e;
		int rc;
		if (strncmp(f->name, "checks/", 7) != 0)
			continue;
		sb_err_clear(&e);
		assert_sb_ok(&e, sb_db_prepare(db, &sql, f->name, &st, &e));
		assert_non_null(st);
		rc = sb_db_step(db, st, &e);
		if (rc == SB_ROW)
			print_error("%s: %s\n", f->name, sb_col_text(st, 0));
		else if (rc != SB_DONE)
			print_error("%s: %s\n", f->name, e.msg);
		assert_int_equal(rc, SB_DONE);
		sb_stmt_finalize(st);
	}
}

void support_rollup_rebuild(sb_db *db)
{
	static const char marker[] = "-- The rollups of the runs already stored, made again whole.";
	/* SQLite reads a JOIN without ON as a cross join; PostgreSQL wants it
	 * said (the same rows on both) */
	static const char join[] = "FROM run_tag_name n JOIN run r";
	static const char cross[] = "FROM run_tag_name n CROSS JOIN run r";
	const struct sb_sqlfile *f = sb_sqlfiles;
	const char *from, *at;
	char *sql;
	size_t head;

	while (f->name != NULL && strcmp(f->name, "schema/010_scale") != 0)
		f++;
	assert_non_null(f->name);
	from = strstr(f->text, marker);
	assert_non_null(from);
	at = strstr(from, join);
	assert_non_null(at);
	assert_null(strstr(at + 1, join));
	head = (size_t)(at - from);
	sql = malloc(strlen(from) + sizeof cross);
	assert_non_null(sql);
	memcpy(sql, from, head);
	strcpy(sql + head, cross);
	strcat(sql + head, at + strlen(join));
	/* the last part of 010 makes every rollup again from the runs (on
	 * either engine: sql/pg/schema/010_init.sql makes the tables empty) */
	support_exec(db, "DELETE FROM run_day_untagged; DELETE FROM run_tag_name;");
	support_exec(db, sql);
	free(sql);
}

void support_undo_010(sb_db *db)
{
	FILE *f = fopen("tests/cli/fixtures/undo_010.sql", "rb");
	char *sql;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	sql = calloc(1, (size_t)n + 1);
	assert_non_null(sql);
	assert_int_equal(fread(sql, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	support_exec(db, sql);
	free(sql);
}

/* Prepare the printf-style query (sqlite3_vmprintf: %q and %Q quote)
 * and step it to its first row, through the ledger's own interface. */
static sb_stmt *first_row(sb_db *db, const char *fmt, va_list ap)
{
	char *sql = sqlite3_vmprintf(fmt, ap);
	const char *text = sql;
	sb_stmt *st = NULL;
	sb_err e;
	int rc = -1;

	assert_non_null(sql);
	sb_err_clear(&e);
	if (sb_db_prepare(db, &text, "a test's query", &st, &e) == SB_OK && st != NULL)
		rc = sb_db_step(db, st, &e);
	if (rc != SB_ROW) {
		print_error("query gave no row (%d: %s):\n  %s\n", rc, e.msg, sql);
		sb_stmt_finalize(st);
		sqlite3_free(sql);
		fail();
	}
	sqlite3_free(sql);
	return st;
}

int64_t support_i64(sb_db *db, const char *fmt, ...)
{
	va_list ap;
	sb_stmt *st;
	int64_t v;

	va_start(ap, fmt);
	st = first_row(db, fmt, ap);
	va_end(ap);
	v = sb_col_i64(st, 0);
	sb_stmt_finalize(st);
	return v;
}

bool support_is_null(sb_db *db, const char *fmt, ...)
{
	va_list ap;
	sb_stmt *st;
	bool null;

	va_start(ap, fmt);
	st = first_row(db, fmt, ap);
	va_end(ap);
	null = sb_col_is_null(st, 0);
	sb_stmt_finalize(st);
	return null;
}

char *support_text(sb_db *db, const char *fmt, ...)
{
	va_list ap;
	sb_stmt *st;
	char *text = NULL;

	va_start(ap, fmt);
	st = first_row(db, fmt, ap);
	va_end(ap);
	if (!sb_col_is_null(st, 0)) {
		text = strdup(sb_col_text(st, 0));
		assert_non_null(text);
	}
	sb_stmt_finalize(st);
	return text;
}

char *support_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = malloc(4096);

	assert_non_null(dir);
	snprintf(dir, 4096, "%s/sbledger-test-XXXXXX", base != NULL && base[0] != '\0' ? base : "/tmp");
	if (mkdtemp(dir) == NULL) {
		print_error("mkdtemp %s failed\n", dir);
		free(dir);
		fail();
	}
	return dir;
}

void support_rmtree(char *dir)
{
	DIR *d;
	struct dirent *ent;

	if (dir == NULL)
		return;
	d = opendir(dir);
	if (d != NULL) {
		while ((ent = readdir(d)) != NULL) {
			char *p;
			if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
				continue;
			p = support_path(dir, ent->d_name);
			unlink(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(dir);
	free(dir);
}

char *support_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	assert_non_null(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

void support_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL) {
		print_error("cannot write %s\n", path);
		fail();
	}
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
}

int64_t support_add_runs(sb_db *db, const char *jsonl)
{
	sb_run_parser *parser = sb_run_parser_new();
	sb_rates *rates = NULL;
	sb_run_writer *w = NULL;
	sb_batch b;
	sb_err e;
	int64_t line_no = 0;
	int rc;

	assert_non_null(parser);
	sb_err_clear(&e);
	rc = sb_batch_begin(db, "runs", "runs", "support_add_runs", NULL, "", &b, &e);
	assert_sb_ok(&e, rc);
	rc = sb_rates_load(db, &rates, &e);
	assert_sb_ok(&e, rc);
	rc = sb_run_writer_new(db, rates, b.id, &w, &e);
	assert_sb_ok(&e, rc);
	rc = sb_db_begin(db, &e);
	assert_sb_ok(&e, rc);
	for (const char *line = jsonl; *line != '\0';) {
		const char *end = strchr(line, '\n');
		size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
		enum sb_store stored = SB_CONFLICT;
		char why[512] = "";
		sb_run run;

		line_no++;
		rc = sb_run_parse(parser, line, len, &run, &e);
		if (rc != SB_OK)
			print_error("line %lld: %.*s\n", (long long)line_no, (int)len, line);
		assert_sb_ok(&e, rc);
		rc = sb_run_store(w, &run, line_no, false, &stored, why, sizeof why, &e);
		assert_sb_ok(&e, rc);
		if (stored != SB_STORED)
			print_error("line %lld not stored as new (%d): %s\n", (long long)line_no, stored, why);
		assert_int_equal(stored, SB_STORED);
		b.accepted++;
		line = end != NULL ? end + 1 : line + len;
	}
	b.resume_line = line_no + 1;
	rc = sb_run_writer_flush(w, &e);
	assert_sb_ok(&e, rc);
	rc = sb_batch_end(db, &b, SB_BATCH_COMPLETE, NULL, &e);
	assert_sb_ok(&e, rc);
	rc = sb_db_commit(db, &e);
	assert_sb_ok(&e, rc);
	sb_run_writer_free(w);
	sb_rates_free(rates);
	sb_run_parser_free(parser);
	return b.id;
}
