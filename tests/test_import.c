/* test_import.c: importing run-usage files as batches (importers/import.c
 * with ledger/batch.c and ledger/runs.c), into a ledger file in a
 * temporary directory: counts, duplicates, conflicts, --replace and the
 * history, --strict, resuming an interrupted import, rejected lines kept
 * verbatim, standard input. */
#include "tests/support/support.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importers/import.h"
#include "importers/source.h"

/* Per-test state: a directory and a ledger in it. */
struct ctx {
	char *dir;     /* the temporary directory */
	sb_db *db;     /* dir/ledger.db, opened for writing */
};

static int ledger_setup(void **state)
{
	struct ctx *c = calloc(1, sizeof *c);
	char *path;
	sb_err e;
	int rc;

	if (c == NULL)
		return -1;
	c->dir = support_tmpdir();
	path = support_path(c->dir, "ledger.db");
	sb_err_clear(&e);
	rc = sb_db_open(path, SB_DB_CREATE | SB_DB_WRITE, 1000, &c->db, &e);
	free(path);
	assert_sb_ok(&e, rc);
	*state = c;
	return 0;
}

static int ledger_teardown(void **state)
{
	struct ctx *c = *state;

	sb_db_close(c->db);
	support_rmtree(c->dir);
	free(c);
	return 0;
}

/* Write text to dir/name and return the path (allocated). */
static char *input(struct ctx *c, const char *name, const char *text)
{
	char *path = support_path(c->dir, name);

	support_write_file(path, text);
	return path;
}

/* Import path with opts (NULL: defaults); *r gets the result, e the error. */
static int import(struct ctx *c, const char *path, const sb_import_opts *opts,
                  sb_import_result *r, sb_err *e)
{
	sb_import_opts none;

	memset(&none, 0, sizeof none);
	sb_err_clear(e);
	return sb_import_runs(c->db, path, opts != NULL ? opts : &none, r, e);
}

/* A valid record for run_id with one execution of ms milliseconds at
 * 0.06 USD a minute, tagged customer=cust. */
static char *record(const char *run_id, int ms, const char *cust)
{
	char *line = NULL;
	int n = asprintf(&line,
		"{\"run_id\": \"%s\", \"backend\": \"e2b\", \"started_at\": \"2026-11-02T10:00:00Z\", "
		"\"tags\": {\"customer\": \"%s\"}, \"sandbox_usage\": {\"exec_count\": 1, "
		"\"total_duration_ms\": %d, \"computed_cost_usd\": %.9f, \"executions\": [{\"command\": "
		"\"make\", \"duration_ms\": %d, \"cost_usd\": %.9f}]}}",
		run_id, cust, ms, ms * 0.06 / 60000, ms, ms * 0.06 / 60000);

	assert_true(n > 0);
	return line;
}

/* The concatenation of the lines, each followed by "\n" (allocated). */
static char *lines(const char *const *each, size_t n)
{
	size_t len = 1;
	char *text;

	for (size_t i = 0; i < n; i++)
		len += strlen(each[i]) + 1;
	text = calloc(1, len);
	assert_non_null(text);
	for (size_t i = 0; i < n; i++) {
		strcat(text, each[i]);
		strcat(text, "\n");
	}
	return text;
}

#define BAD_LINE "{\"run_id\": \"bad\", \"backend\": \"e2b\", \"started_at\": \"2026-11-02T10:00:00\", \"sandbox_usage\": {}}"

static void test_counts_duplicates_and_rejects(void **state)
{
	struct ctx *c = *state;
	char *r1 = record("r1", 1000, "acme"), *r2 = record("r2", 2000, "globex");
	char *r3 = record("r3", 500, "acme");
	const char *each[] = {r1, r2, r1, "", BAD_LINE, r3, "   "};
	char *text = lines(each, 7);
	char *path = input(c, "runs.jsonl", text);
	sb_import_result r;
	sb_err e;
	int rc = import(c, path, NULL, &r, &e);

	assert_sb_fails(&e, rc, SB_EDATA, "1 line rejected; its rejected records are kept with batch 1");
	assert_int_equal(r.batch.id, 1);
	assert_int_equal(r.batch.accepted, 3);
	assert_int_equal(r.batch.duplicates, 1);
	assert_int_equal(r.batch.rejected, 1);
	assert_int_equal(r.batch.replaced, 0);
	assert_int_equal(r.already, 0);
	assert_false(r.empty);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run"), 3);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM execution"), 3);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_tag WHERE name = 'customer' AND value = 'acme'"), 2);
	/* the batch row: counts, status, the file's SHA-256 */
	assert_int_equal(support_i64(c->db,
		"SELECT COUNT(*) FROM batch WHERE batch_id = 1 AND status = 'complete' AND kind = 'runs' "
		"AND format = 'runs' AND accepted = 3 AND duplicates = 1 AND rejected = 1 "
		"AND ended_ms IS NOT NULL AND length(sha256) = 64 AND source = %Q", path), 1);
	/* the rejected line with its number and reason naming the field */
	assert_int_equal(support_i64(c->db, "SELECT line_no FROM reject WHERE batch_id = 1"), 5);
	{
		char *reason = support_text(c->db, "SELECT reason FROM reject");
		char *content = support_text(c->db, "SELECT content FROM reject");
		assert_string_equal(reason, "started_at '2026-11-02T10:00:00' has no UTC offset (add Z or +hh:mm)");
		assert_string_equal(content, BAD_LINE);
		free(reason);
		free(content);
	}
	/* each run points at its line; the duplicate left r1 alone */
	assert_int_equal(support_i64(c->db, "SELECT line_no FROM run WHERE run_id = 'r3'"), 6);
	assert_int_equal(support_i64(c->db, "SELECT line_no FROM run WHERE run_id = 'r1'"), 1);
	/* card cost with the seeded card: 0.06 x 2000 ms / 60000 */
	assert_int_equal(support_i64(c->db, "SELECT card_nanos FROM run WHERE run_id = 'r2'"), 2000000);
	free(r1);
	free(r2);
	free(r3);
	free(text);
	free(path);
}

static void test_same_file_twice_and_force(void **state)
{
	struct ctx *c = *state;
	char *r1 = record("r1", 1000, "acme"), *r2 = record("r2", 2000, "globex");
	const char *each[] = {r1, r2};
	char *text = lines(each, 2);
	char *path = input(c, "runs.jsonl", text);
	char *copy = input(c, "copy.jsonl", text);
	sb_import_opts force;
	sb_import_result r;
	sb_err e;
	int rc;

	rc = import(c, path, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 2);

	/* the same bytes, under any name: not read again */
	rc = import(c, copy, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.already, 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch"), 1);

	/* --force reads it again: all duplicates, nothing changes */
	memset(&force, 0, sizeof force);
	force.force = true;
	rc = import(c, path, &force, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.already, 0);
	assert_int_equal(r.batch.id, 2);
	assert_int_equal(r.batch.accepted, 0);
	assert_int_equal(r.batch.duplicates, 2);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run"), 2);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run WHERE batch_id = 1"), 2);
	{
		char *options = support_text(c->db, "SELECT options FROM batch WHERE batch_id = 2");
		assert_non_null(strstr(options, "force"));
		free(options);
	}
	free(r1);
	free(r2);
	free(text);
	free(path);
	free(copy);
}

static void test_conflict_then_replace(void **state)
{
	struct ctx *c = *state;
	char *old1 = record("r1", 1000, "acme"), *new1 = record("r1", 3000, "globex");
	char *r2 = record("r2", 2000, "acme");
	const char *first[] = {old1, r2};
	const char *second[] = {new1, r2};
	char *text1 = lines(first, 2), *text2 = lines(second, 2);
	char *path1 = input(c, "first.jsonl", text1);
	char *path2 = input(c, "second.jsonl", text2);
	char *path3 = input(c, "third.jsonl", text2);
	sb_import_opts replace;
	sb_import_result r;
	sb_err e;
	int rc;

	rc = import(c, path1, NULL, &r, &e);
	assert_sb_ok(&e, rc);

	/* another record under r1: a conflict, rejected; r1 unchanged */
	rc = import(c, path2, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 line rejected");
	assert_int_equal(r.batch.accepted, 0);
	assert_int_equal(r.batch.duplicates, 1);
	assert_int_equal(r.batch.rejected, 1);
	{
		char *reason = support_text(c->db, "SELECT reason FROM reject WHERE batch_id = 2 AND line_no = 1");
		assert_string_equal(reason, "run_id 'r1' is already in the ledger with different content "
		                    "(batch 1, line 1); import it again, replacing what is stored, to keep this version");
		free(reason);
	}
	assert_int_equal(support_i64(c->db, "SELECT total_duration_ms FROM run WHERE run_id = 'r1'"), 1000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_history"), 0);

	/* --replace, as the reason says: the file is read again though batch 2
	 * has it (another request), the new version in, the old one in the
	 * history */
	memset(&replace, 0, sizeof replace);
	replace.replace = true;
	rc = import(c, path2, &replace, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.id, 3);
	assert_int_equal(r.batch.accepted, 1);
	assert_int_equal(r.batch.replaced, 1);
	assert_int_equal(r.batch.duplicates, 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run"), 2);
	assert_int_equal(support_i64(c->db,
		"SELECT COUNT(*) FROM run WHERE run_id = 'r1' AND total_duration_ms = 3000 "
		"AND batch_id = 3 AND line_no = 1 AND card_nanos = 3000000"), 1);
	assert_int_equal(support_i64(c->db,
		"SELECT COUNT(*) FROM run_history WHERE run_id = 'r1' AND total_duration_ms = 1000 "
		"AND batch_id = 1 AND replaced_by_batch = 3"), 1);
	assert_int_equal(support_i64(c->db,
		"SELECT COUNT(*) FROM execution_history x JOIN run_history h USING (hid) "
		"WHERE h.run_id = 'r1' AND x.duration_ms = 1000 AND x.command = 'make'"), 1);
	/* the old version's executions and tags are gone from the live tables */
	assert_int_equal(support_i64(c->db,
		"SELECT COUNT(*) FROM execution x JOIN run r USING (rid) WHERE r.run_id = 'r1'"), 1);
	assert_int_equal(support_i64(c->db,
		"SELECT SUM(x.duration_ms) FROM execution x JOIN run r USING (rid) WHERE r.run_id = 'r1'"), 3000);
	{
		char *tag = support_text(c->db,
			"SELECT group_concat(t.value) FROM run_tag t JOIN run r USING (rid) WHERE r.run_id = 'r1'");
		assert_string_equal(tag, "globex");
		free(tag);
	}
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM execution"), 2);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_tag"), 2);

	/* the same request again: already imported, as batch 3; and the same
	 * with --strict (it changes nothing a complete batch stored) */
	rc = import(c, path2, &replace, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.already, 3);
	replace.strict = true;
	rc = import(c, path3, &replace, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.already, 3);
	replace.strict = false;
	/* without --replace: batch 2 asked that, so it is already imported */
	rc = import(c, path3, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.already, 2);

	/* a new file with a third version: --replace alone does it */
	{
		char *third = record("r1", 4000, "initech");
		char *path4 = input(c, "fourth.jsonl", third);
		replace.force = false;
		rc = import(c, path4, &replace, &r, &e);
		assert_sb_ok(&e, rc);
		assert_int_equal(r.batch.replaced, 1);
		assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_history WHERE run_id = 'r1'"), 2);
		assert_int_equal(support_i64(c->db,
			"SELECT COUNT(*) FROM run_history WHERE run_id = 'r1' AND total_duration_ms = 3000 "
			"AND batch_id = 3 AND replaced_by_batch = 4"), 1);
		assert_int_equal(support_i64(c->db, "SELECT total_duration_ms FROM run WHERE run_id = 'r1'"), 4000);
		free(third);
		free(path4);
	}
	free(old1);
	free(new1);
	free(r2);
	free(text1);
	free(text2);
	free(path1);
	free(path2);
	free(path3);
}

static void test_strict(void **state)
{
	struct ctx *c = *state;
	char *r1 = record("r1", 1000, "acme"), *r2 = record("r2", 2000, "globex");
	const char *bad[] = {r1, BAD_LINE, r2, "[1]"};
	const char *good[] = {r1, r2};
	char *bad_text = lines(bad, 4), *good_text = lines(good, 2);
	char *bad_path = input(c, "bad.jsonl", bad_text);
	char *good_path = input(c, "good.jsonl", good_text);
	sb_import_opts strict;
	sb_import_result r;
	sb_err e;
	int rc;

	memset(&strict, 0, sizeof strict);
	strict.strict = true;
	rc = import(c, bad_path, &strict, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "2 lines rejected (all or nothing: nothing of the file was imported)");
	assert_int_equal(r.batch.accepted, 0);
	assert_int_equal(r.batch.rejected, 2);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run"), 0);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM execution"), 0);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch WHERE status = 'failed' AND rejected = 2 AND accepted = 0"), 1);
	/* the rejects are still kept, verbatim */
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM reject WHERE batch_id = 1"), 2);
	assert_int_equal(support_i64(c->db, "SELECT line_no FROM reject WHERE CAST(content AS TEXT) = '[1]'"), 4);

	/* a failed batch does not count as imported: the same file again */
	rc = import(c, bad_path, &strict, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "(all or nothing: nothing of the file was imported)");
	assert_int_equal(e.hint, SB_HINT_REJECTS);   /* the way out named: its rejects */
	assert_null(strstr(e.msg, "--"));            /* in the library's words */
	assert_int_equal(r.already, 0);

	/* all good: all in */
	rc = import(c, good_path, &strict, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 2);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run"), 2);
	free(r1);
	free(r2);
	free(bad_text);
	free(good_text);
	free(bad_path);
	free(good_path);
}

static void test_resume_after_interruption(void **state)
{
	struct ctx *c = *state;
	char *each[10];
	char *text, *path;
	int64_t offset7 = 0;
	sb_import_opts opts;
	sb_import_result r;
	sb_err e;
	int rc;

	for (int i = 0; i < 10; i++) {
		char id[16];
		snprintf(id, sizeof id, "r%d", i + 1);
		each[i] = i == 4 ? strdup(BAD_LINE) : record(id, 1000 * (i + 1), "acme");
		if (i < 6)
			offset7 += (int64_t)strlen(each[i]) + 1;
	}
	text = lines((const char *const *)each, 10);
	path = input(c, "runs.jsonl", text);
	memset(&opts, 0, sizeof opts);
	opts.chunk = 3;
	rc = import(c, path, &opts, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 line rejected");
	assert_int_equal(r.batch.accepted, 9);

	/* as if the process died after committing lines 1-6: lines 7-10 not
	 * stored, the batch still 'running' with its resume point at line 7 */
	support_exec(c->db,
		"DELETE FROM run WHERE line_no >= 7;"
		"UPDATE batch SET status = 'running', ended_ms = NULL, accepted = 5, duplicates = 0, "
		"rejected = 1, resume_line = 7 WHERE batch_id = 1;");
	{
		char *sql = sqlite3_mprintf("UPDATE batch SET resume_offset = %lld WHERE batch_id = 1",
		                            (long long)offset7);
		support_exec(c->db, sql);
		sqlite3_free(sql);
	}
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run"), 5);

	/* the same command again: it takes the batch up at line 7 */
	rc = import(c, path, &opts, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 line rejected; its rejected records are kept with batch 1");
	assert_true(r.batch.resumed);
	assert_int_equal(r.batch.id, 1);
	assert_int_equal(r.batch.accepted, 9);
	assert_int_equal(r.batch.duplicates, 0);   /* lines 1-6 were not read again */
	assert_int_equal(r.batch.rejected, 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch"), 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch WHERE status = 'complete' AND accepted = 9"), 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run"), 9);
	assert_int_equal(support_i64(c->db, "SELECT line_no FROM run WHERE run_id = 'r7'"), 7);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM reject"), 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM execution"), 9);
	/* and then it is imported */
	rc = import(c, path, &opts, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.already, 1);

	/* an interruption before the first commit resumes from the start */
	support_exec(c->db,
		"DELETE FROM run; DELETE FROM reject;"
		"UPDATE batch SET status = 'interrupted', ended_ms = NULL, accepted = 0, rejected = 0, "
		"resume_offset = 0, resume_line = 1;");
	rc = import(c, path, &opts, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 line rejected");
	assert_true(r.batch.resumed);
	assert_int_equal(r.batch.accepted, 9);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run"), 9);
	assert_int_equal(support_i64(c->db, "SELECT line_no FROM reject"), 5);

	for (int i = 0; i < 10; i++)
		free(each[i]);
	free(text);
	free(path);
}

static void test_rejects_verbatim(void **state)
{
	struct ctx *c = *state;
	/* CRLF ends, bytes that are not UTF-8, a NUL, trailing blanks */
	static const char text[] =
		"{\"run_id\": 1}\r\n"
		"\xff\xfe not json \x01\r\n"
		"{\"a\": \"\\u00e9\"}  \t\n"
		"nul\0inside\n"
		"{\"run_id\": \"last\", \"backend\": \"e2b\", \"started_at\": \"2026-11-02T10:00:00Z\", \"sandbox_usage\": {}}";
	char *path = support_path(c->dir, "odd.jsonl");
	FILE *f = fopen(path, "wb");
	sqlite3_stmt *st = NULL;
	sb_import_result r;
	sb_err e;
	int rc;

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, sizeof text - 1, f), sizeof text - 1);
	fclose(f);
	rc = import(c, path, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "4 lines rejected");
	assert_int_equal(r.batch.accepted, 1);
	rc = sqlite3_prepare_v2(sb_db_sqlite(c->db),
		"SELECT line_no, content, full_length, typeof(content) FROM reject ORDER BY line_no", -1, &st, NULL);
	assert_sqlite_ok(sb_db_sqlite(c->db), rc);
	{
#define LINE(n, text) {n, text, sizeof text - 1}
		static const struct {
			int64_t line;
			const char *content;
			size_t len;
		} want[] = {
			LINE(1, "{\"run_id\": 1}"),
			LINE(2, "\xff\xfe not json \x01"),
			LINE(3, "{\"a\": \"\\u00e9\"}  \t"),
			LINE(4, "nul\0inside"),
		};
#undef LINE
		for (size_t i = 0; i < 4; i++) {
			assert_int_equal(sqlite3_step(st), SQLITE_ROW);
			assert_int_equal(sqlite3_column_int64(st, 0), want[i].line);
			assert_int_equal(sqlite3_column_bytes(st, 1), want[i].len);
			assert_memory_equal(sqlite3_column_blob(st, 1), want[i].content, want[i].len);
			assert_int_equal(sqlite3_column_int64(st, 2), want[i].len);
			assert_string_equal((const char *)sqlite3_column_text(st, 3), "blob");
		}
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	}
	sqlite3_finalize(st);
	free(path);
}

/* Import r1, a line of `big` bytes of 'x', r2 with a 64 KiB line limit:
 * the long line is rejected, its first 64 KiB kept, its neighbours stored. */
static void long_line(struct ctx *c, size_t big)
{
	char *r1 = record("r1", 1000, "acme"), *r2 = record("r2", 2000, "acme");
	char *text = malloc(big + strlen(r1) + strlen(r2) + 4);
	char *path, *reason, *want;
	sb_import_opts opts;
	sb_import_result r;
	sb_err e;
	int rc;

	assert_non_null(text);
	strcpy(text, r1);
	strcat(text, "\n");
	memset(text + strlen(text), 'x', big);
	strcpy(text + strlen(r1) + 1 + big, "\n");
	strcat(text, r2);
	strcat(text, "\n");
	path = input(c, "long.jsonl", text);
	memset(&opts, 0, sizeof opts);
	opts.max_line = 65536;
	rc = import(c, path, &opts, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 line rejected");
	assert_int_equal(r.batch.accepted, 2);
	assert_int_equal(support_i64(c->db, "SELECT full_length FROM reject WHERE line_no = 2"), big);
	assert_int_equal(support_i64(c->db, "SELECT length(content) FROM reject WHERE line_no = 2"), 65536);
	reason = support_text(c->db, "SELECT reason FROM reject");
	assert_true(asprintf(&want, "line is %zu bytes long, more than the limit of 65536", big) > 0);
	assert_string_equal(reason, want);
	assert_int_equal(support_i64(c->db, "SELECT line_no FROM run WHERE run_id = 'r2'"), 3);
	free(want);
	free(reason);
	free(r1);
	free(r2);
	free(text);
	free(path);
}

static void test_long_line_in_the_buffer(void **state)
{
	/* 100,000 bytes: read whole with its newline in one block */
	long_line(*state, 100000);
}

static void test_long_line_past_the_buffer(void **state)
{
	/* 3,000,000 bytes: longer than any block, skipped as it is read */
	long_line(*state, 3000000);
}

static void test_empty_and_missing(void **state)
{
	struct ctx *c = *state;
	char *empty = input(c, "empty.jsonl", "");
	char *blank = input(c, "blank.jsonl", "\n  \n\r\n");
	char *missing = support_path(c->dir, "missing.jsonl");
	sb_import_result r;
	sb_err e;
	int rc;

	rc = import(c, empty, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "no records");
	assert_true(r.empty);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch WHERE status = 'failed'"), 1);
	rc = import(c, blank, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "no records");
	assert_true(r.empty);

	rc = import(c, missing, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_ENOINPUT, "missing.jsonl");
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch"), 2);

	rc = import(c, c->dir, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_ENOINPUT, "directory");
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch"), 2);
	free(empty);
	free(blank);
	free(missing);
}

static void test_standard_input(void **state)
{
	struct ctx *c = *state;
	char *r1 = record("r1", 1000, "acme");
	const char *each[] = {r1, r1};
	char *text = lines(each, 2);
	char *path = input(c, "in.jsonl", text);
	int saved = dup(STDIN_FILENO);
	int fd = open(path, O_RDONLY);
	char *sha_file = NULL;
	sb_import_result r;
	sb_err e;
	int rc;

	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	rc = import(c, "-", NULL, &r, &e);
	dup2(saved, STDIN_FILENO);
	close(saved);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 1);
	assert_int_equal(r.batch.duplicates, 1);
	/* the SHA-256 learnt while reading is the file's */
	{
		char hex[65];
		int64_t size = 0;
		sb_source *src = NULL;
		rc = sb_source_open(path, &src, &e);
		assert_sb_ok(&e, rc);
		rc = sb_source_snapshot(src, hex, &size, &e);
		sb_source_close(src);
		assert_sb_ok(&e, rc);
		sha_file = support_text(c->db, "SELECT sha256 FROM batch WHERE source = '-'");
		assert_string_equal(sha_file, hex);
	}
	free(sha_file);
	free(r1);
	free(text);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_counts_duplicates_and_rejects, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_same_file_twice_and_force, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_conflict_then_replace, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_strict, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_resume_after_interruption, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_rejects_verbatim, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_long_line_in_the_buffer, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_long_line_past_the_buffer, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_empty_and_missing, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_standard_input, ledger_setup, ledger_teardown),
	};

	return cmocka_run_group_tests_name("import", tests, NULL, NULL);
}
