/* test_import_threads.c: the number of parsing threads changes nothing
 * (importers/import.c with importers/pool.c and importers/arena.c).
 *
 * One input holds every kind of line an import meets: new runs, repeats
 * (duplicates), a different record under a known run_id (a conflict),
 * lines that are not JSON, records that break a rule, blank lines, a line
 * over the length limit, unknown fields, and more lines than a parsing
 * job takes.  It is imported with 1 thread (none started), 2, 3 and 7,
 * each into a fresh ledger and with a small chunk so that there are many
 * commits, and the ledgers must be equal row for row: runs, executions,
 * tags, the day rollups, rejects with their line numbers, and the batch's counts, status
 * and resume point.  Likewise with --strict (nothing kept), and when the
 * import drops the secondary indexes and builds them at its end (the
 * indexes' definitions compared too), against the plain writer.  (Killing a
 * threaded import and running it again is tests/cli/cases/kill_resume.sh.)
 * The pool itself: jobs come back in the order they were given, whichever
 * thread ends first; and the arena that jansson allocates from.
 */
#include "tests/support/support.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "importers/arena.h"
#include "importers/import.h"
#include "importers/pool.h"

enum { N_RECORDS = 1500 };

/* A temporary directory and the input file in it. */
struct ctx {
	char *dir;       /* the directory */
	char *input;     /* dir/input.jsonl */
};

/* Append the input's lines to f. */
static void write_input(FILE *f)
{
	for (int i = 0; i < N_RECORDS; i++) {
		int k = i % 1200;          /* from 1200 on, the records come again */
		int n_exec = 1 + k % 5;
		long total = 0;
		if (i % 97 == 13)
			fputs("not json at all\n", f);
		if (i % 89 == 7)
			fputs("\n   \n", f);
		if (i % 211 == 100)
			fputs("{\"run_id\": \"bad\", \"backend\": \"e2b\"}\n", f);
		/* a repeat is a duplicate, but for i 1300 (another session: a
		 * conflict) and 1400 (aggregates that disagree: a bad record) */
		fprintf(f, "{\"run_id\": \"r%d\", \"backend\": \"%s\", \"session_id\": \"s%d\", "
		        "\"started_at\": \"2026-11-%02dT10:00:00Z\", \"tags\": {\"customer\": \"c%d\"}, "
		        "%s\"sandbox_usage\": {\"exec_count\": %d, \"executions\": [",
		        k, k % 3 ? "e2b" : "DaytonaSandboxClient", i == 1300 ? 999 : k % 50, 1 + k % 28,
		        k % 7, k % 50 == 0 ? "\"note\": {\"x\": 1}, " : "", n_exec);
		for (int x = 0; x < n_exec; x++) {
			fprintf(f, "%s{\"command\": \"c%d\", \"duration_ms\": %d}", x ? ", " : "", x,
			        100 * (x + 1) + k);
			total += 100 * (x + 1) + k;
		}
		fprintf(f, "], \"total_duration_ms\": %ld}}\n", total + (i == 1400 ? 1 : 0));
		if (i == 700) {
			for (int b = 0; b < 70 * 1024; b++)
				fputc('x', f);
			fputc('\n', f);
		}
	}
}

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof *c);
	FILE *f;

	if (c == NULL)
		return -1;
	c->dir = support_tmpdir();
	c->input = support_path(c->dir, "input.jsonl");
	f = fopen(c->input, "w");
	assert_non_null(f);
	write_input(f);
	assert_int_equal(fclose(f), 0);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	free(c->input);
	support_rmtree(c->dir);
	free(c);
	return 0;
}

/* What must not depend on the threads, as text (allocated). */
static char *contents(sb_db *db)
{
	static const char *const queries[] = {
		"SELECT run_id, batch_id, line_no, backend, session_id, started_ms, exec_count, "
		"total_duration_ms, computed_nanos, card_nanos, fingerprint, tags, extra FROM run ORDER BY rid",
		"SELECT * FROM execution ORDER BY rid, seq",
		"SELECT * FROM run_execs ORDER BY rid",
		"SELECT rid, name, value FROM run_tag ORDER BY rid, name",
		"SELECT * FROM run_day ORDER BY day, backend, model",
		"SELECT * FROM run_day_tag ORDER BY name, day, value, backend, model",
		"SELECT * FROM run_day_untagged ORDER BY name, day, backend, model",
		"SELECT * FROM run_tag_name ORDER BY name",
		"SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE type IN ('index', 'view') ORDER BY name",
		"SELECT batch_id, line_no, reason, hex(content), full_length FROM reject ORDER BY batch_id, line_no",
		"SELECT batch_id, status, resume_offset, resume_line, accepted, duplicates, rejected, "
		"replaced, skipped FROM batch ORDER BY batch_id",
	};
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	for (size_t q = 0; q < sizeof queries / sizeof queries[0]; q++) {
		sqlite3_stmt *st = NULL;
		int rc = sqlite3_prepare_v2(sb_db_sqlite(db), queries[q], -1, &st, NULL);
		assert_sqlite_ok(sb_db_sqlite(db), rc);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			for (int i = 0; i < sqlite3_column_count(st); i++) {
				const unsigned char *v = sqlite3_column_text(st, i);
				fprintf(out, "%s|", v != NULL ? (const char *)v : "NULL");
			}
			fputc('\n', out);
		}
		assert_int_equal(rc, SQLITE_DONE);
		sqlite3_finalize(st);
		fputs("--\n", out);
	}
	fclose(out);
	return text;
}

/* Import the input into a fresh ledger with threads and opts; returns its
 * contents (allocated) and the import's code in *rc; *rebuilt says
 * whether it dropped the indexes and built them again. */
static char *import_rebuilt(struct ctx *c, int64_t threads, const sb_import_opts *base, int *rc,
                            bool *rebuilt)
{
	char *path = support_path(c->dir, "ledger.db");
	sb_import_opts o = *base;
	sb_import_result r;
	sb_db *db = NULL;
	char *text;
	sb_err e;

	remove(path);
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_open(path, SB_DB_CREATE | SB_DB_WRITE, 1000, &db, &e));
	o.threads = threads;
	*rc = sb_import_runs(db, c->input, &o, &r, &e);
	*rebuilt = r.indexes_rebuilt;
	text = contents(db);
	sb_db_close(db);
	free(path);
	return text;
}

/* import_rebuilt into a ledger much smaller than the input that keeps
 * its indexes: the plain writer. */
static char *import_with(struct ctx *c, int64_t threads, const sb_import_opts *base, int *rc)
{
	sb_import_opts o = *base;
	bool rebuilt = false;
	char *text;

	o.bulk_min = INT64_MAX;
	text = import_rebuilt(c, threads, &o, rc, &rebuilt);
	assert_false(rebuilt);
	return text;
}

/* Import with threads and o: the same code (rc1) and ledger (one) as with
 * one thread. */
static void same_as_one(struct ctx *c, const sb_import_opts *o, const char *one, int rc1, int64_t threads)
{
	int rc = 0;
	char *other = import_with(c, threads, o, &rc);

	assert_int_equal(rc, rc1);
	if (strcmp(one, other) != 0)
		fail_msg("--threads %lld, chunk %lld, left another ledger than --threads 1", (long long)threads,
		         (long long)o->chunk);
	free(other);
}

/* Every number of threads leaves the same ledger, committing every 7
 * records and by the default chunk. */
static void test_same_ledger(void **state)
{
	struct ctx *c = *state;
	sb_import_opts o;
	int rc1 = 0;
	char *one;

	memset(&o, 0, sizeof o);
	o.chunk = 7;
	o.max_line = 64 * 1024;   /* the 70 KiB line is too long */
	one = import_with(c, 1, &o, &rc1);
	assert_int_equal(rc1, SB_EDATA);   /* some lines are rejected */
	assert_non_null(strstr(one, "|complete|"));
	assert_non_null(strstr(one, "already in the ledger with different content"));
	assert_non_null(strstr(one, "not valid JSON"));
	assert_non_null(strstr(one, "more than the limit"));
	assert_non_null(strstr(one, "total_duration_ms is"));
	for (int64_t t = 2; t <= 7; t += (t == 3 ? 4 : 1))
		same_as_one(c, &o, one, rc1, t);
	free(one);
	/* and committing by the default chunk, whole parsing jobs between
	 * two commits (their runs expected at once: ledger/runs.h) */
	o.chunk = 0;
	one = import_with(c, 1, &o, &rc1);
	for (int64_t t = 2; t <= 3; t++)
		same_as_one(c, &o, one, rc1, t);
	free(one);
}

/* Dropping the secondary indexes and building them at the end (an input
 * more than twice the ledger's size) changes nothing either, with any
 * number of threads, its commits every 7 records or every chunk of a bulk
 * import: the input padded with an unknown field so that it is more than
 * twice the size of an empty ledger. */
static void test_same_ledger_rebuilt(void **state)
{
	struct ctx *group = *state, local = *group, *c = &local;
	sb_import_opts o;
	int rc1 = 0, rc = 0;
	bool rebuilt = false;
	char *one;
	FILE *in = fopen(group->input, "r"), *out;
	char *padded = support_path(group->dir, "padded.jsonl"), line[80 * 1024];

	assert_non_null(in);
	out = fopen(padded, "w");
	assert_non_null(out);
	while (fgets(line, sizeof line, in) != NULL) {
		size_t n = strlen(line);
		if (n > 2 && line[0] == '{' && line[n - 2] == '}' && line[n - 1] == '\n')
			fprintf(out, "{\"pad\": \"%0400d\", %s", 0, line + 1);
		else
			fputs(line, out);
	}
	fclose(in);
	assert_int_equal(fclose(out), 0);
	c->input = padded;
	memset(&o, 0, sizeof o);
	o.chunk = 7;
	o.max_line = 64 * 1024;
	one = import_with(c, 1, &o, &rc1);
	assert_int_equal(rc1, SB_EDATA);
	o.bulk_min = 1;
	for (int64_t t = 1; t <= 3; t++) {
		for (int chunked = 0; chunked < 2; chunked++) {
			char *other;
			o.chunk = chunked ? 7 : 0;
			other = import_rebuilt(c, t, &o, &rc, &rebuilt);
			assert_int_equal(rc, rc1);
			assert_true(rebuilt);
			if (strcmp(one, other) != 0)
				fail_msg("--threads %lld, chunk %lld, indexes built at the end, left another ledger than the plain writer",
				         (long long)t, (long long)o.chunk);
			free(other);
		}
	}
	free(one);
	free(padded);
}

/* The same with --strict: nothing but the rejects and the failed batch. */
static void test_same_ledger_strict(void **state)
{
	struct ctx *c = *state;
	sb_import_opts o;
	int rc1 = 0, rc = 0;
	char *one, *other;

	memset(&o, 0, sizeof o);
	o.strict = true;
	o.max_line = 64 * 1024;
	one = import_with(c, 1, &o, &rc1);
	other = import_with(c, 3, &o, &rc);
	assert_int_equal(rc1, SB_EDATA);
	assert_int_equal(rc, rc1);
	assert_string_equal(one, other);
	assert_non_null(strstr(one, "|failed|"));
	free(one);
	free(other);
}

/* A job of the pool test: sleep a while, then record when it ended. */
struct pool_job {
	int index;         /* submission order */
	int sleep_us;      /* how long it runs */
	int done;          /* set by the worker */
};

static void run_pool_job(void *worker, void *arg)
{
	struct pool_job *j = arg;
	struct timespec ts = {0, (long)j->sleep_us * 1000};

	(void)worker;
	nanosleep(&ts, NULL);
	j->done = 1;
}

/* Jobs come back in submission order, done, though later ones end first. */
static void test_pool_order(void **state)
{
	struct pool_job jobs[64];
	void *workers[4] = {NULL, NULL, NULL, NULL};
	sb_pool *pool = NULL;
	int next = 0, back = 0;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_pool_new(4, run_pool_job, workers, 8, &pool, &e));
	while (back < 64) {
		struct pool_job *j;
		while (next < 64 && sb_pool_in_flight(pool) < 8) {
			jobs[next] = (struct pool_job){next, (7 - next % 8) * 300, 0};
			sb_pool_submit(pool, &jobs[next]);
			next++;
		}
		j = sb_pool_wait(pool);
		assert_non_null(j);
		assert_int_equal(j->index, back);
		assert_int_equal(j->done, 1);
		back++;
	}
	assert_null(sb_pool_wait(pool));
	/* stopping with jobs in flight drops them */
	jobs[0] = (struct pool_job){0, 1000, 0};
	sb_pool_submit(pool, &jobs[0]);
	sb_pool_free(pool);
}

/* The arena: aligned memory, strings, reset, ownership; jansson's values
 * come from the entered arena and from malloc outside it. */
static void test_arena(void **state)
{
	sb_arena *a = sb_arena_new(0);
	sb_arena *prev;
	json_t *v;
	char *s;

	(void)state;
	assert_non_null(a);
	for (int i = 1; i < 5000; i += 37) {
		void *p = sb_arena_alloc(a, (size_t)i);
		assert_non_null(p);
		assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
		memset(p, 0xab, (size_t)i);
		assert_true(sb_arena_owns(a, p));
	}
	s = sb_arena_strndup(a, "abcdef", 3);
	assert_string_equal(s, "abc");
	assert_non_null(sb_arena_alloc(a, 1 << 20));   /* past the first block */
	sb_arena_reset(a);
	sb_arena_json_install();
	prev = sb_arena_json_enter(a);
	v = json_loads("{\"a\": [1, 2.5, \"x\"]}", 0, NULL);
	assert_non_null(v);
	assert_true(sb_arena_owns(a, v));
	json_decref(v);                                  /* freeing arena memory is nothing */
	sb_arena_json_leave(prev);
	v = json_loads("{\"b\": 1}", 0, NULL);
	assert_non_null(v);
	assert_false(sb_arena_owns(a, v));
	json_decref(v);                                  /* malloc'd: freed (LeakSanitizer) */
	sb_arena_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_ledger),
		cmocka_unit_test(test_same_ledger_rebuilt),
		cmocka_unit_test(test_same_ledger_strict),
		cmocka_unit_test(test_pool_order),
		cmocka_unit_test(test_arena),
	};

	return cmocka_run_group_tests_name("import_threads", tests, setup, teardown);
}
