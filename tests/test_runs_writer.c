/* test_runs_writer.c: the run writer's two ways of storing a run
 * (ledger/runs.c) leave the same ledger, on either engine: one INSERT
 * after another, each one's answer read before the next (one parsing
 * thread, --replace, a run not expected), and the runs of a parsing job
 * expected at once (sb_run_writer_expect: one query says which the ledger
 * holds, the rows go without waiting; on PostgreSQL as COPY rows).
 *
 * The input holds new runs, a repeat and a different record under one
 * run_id inside one job, repeats and conflicts of runs of earlier jobs and
 * of an earlier batch, over several jobs and commits; each ledger is
 * compared row for row, row ids included (the highest + 1, both ways).
 * With SBLEDGER_TEST_PG_DIR set (make pg-tests) every ledger is a
 * PostgreSQL database (support_memory_ledger).
 */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/import.h"

/* A temporary directory for the inputs. */
static char *dir;

/* One run record: run_id, its session (a different session under a known
 * run_id is a conflict), its day. */
static void put_run(FILE *f, const char *run_id, int session, int day)
{
	fprintf(f, "{\"run_id\": \"%s\", \"backend\": \"e2b\", \"session_id\": \"s%d\", "
	        "\"started_at\": \"2026-11-%02dT10:00:00Z\", \"tags\": {\"customer\": \"c%d\", \"team\": \"t\\t%d\"}, "
	        "\"sandbox_usage\": {\"exec_count\": 2, \"total_duration_ms\": 300, \"computed_cost_usd\": 0.0003, "
	        "\"executions\": [{\"command\": \"echo \\\"a\\\\b\\\"\\n\", \"duration_ms\": 100, \"cost_usd\": 0.0001}, "
	        "{\"command\": \"c%d\", \"duration_ms\": 200, \"exit_code\": 1, \"cost_usd\": 0.0002}]}}\n",
	        run_id, session, 1 + day % 28, session % 3, session % 2, session);
}

/* Write the inputs: first.jsonl, second.jsonl (into a ledger holding
 * the first), third.jsonl (--replace); their paths in paths[]. */
static void write_inputs(char *paths[3])
{
	FILE *f;
	char id[32];

	paths[0] = support_path(dir, "first.jsonl");
	paths[1] = support_path(dir, "second.jsonl");
	paths[2] = support_path(dir, "third.jsonl");
	f = fopen(paths[0], "w");
	assert_non_null(f);
	/* r0..r599; inside the first job a repeat (line 51) and another
	 * record (line 53) of rdup and rcon; then r0..r99 again (lines 605 on):
	 * even ones the same, odd ones in another session */
	for (int i = 0; i < 600; i++) {
		snprintf(id, sizeof id, "r%d", i);
		put_run(f, id, i, i);
		if (i == 48) {
			put_run(f, "rdup", 7, 7);
			put_run(f, "rdup", 7, 7);
			put_run(f, "rcon", 7, 7);
			put_run(f, "rcon", 8, 7);
		}
	}
	for (int i = 0; i < 100; i++) {
		snprintf(id, sizeof id, "r%d", i);
		put_run(f, id, i % 2 ? i + 1000 : i, i);
	}
	assert_int_equal(fclose(f), 0);
	f = fopen(paths[1], "w");
	assert_non_null(f);
	put_run(f, "r5", 5, 5);        /* in the ledger: a duplicate */
	put_run(f, "r7", 77, 7);       /* in the ledger, other content: a conflict */
	put_run(f, "r1000", 1, 1);     /* new */
	put_run(f, "r1000", 2, 1);     /* new just now, other content: a conflict */
	assert_int_equal(fclose(f), 0);
	f = fopen(paths[2], "w");
	assert_non_null(f);
	put_run(f, "r9", 99, 9);       /* replaces r9 */
	put_run(f, "r2000", 1, 1);     /* new */
	assert_int_equal(fclose(f), 0);
}

/* Every row of sql on db as text, one line per row. */
static void dump(sb_db *db, const char *sql, FILE *out)
{
	sb_stmt *st = NULL;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_prepare(db, &sql, "test", &st, &e));
	while ((rc = sb_db_step(db, st, &e)) == SB_ROW) {
		for (int c = 0; c < sb_col_count(st); c++) {
			const char *v = sb_col_text(st, c);
			fprintf(out, "%s|", v != NULL ? v : "NULL");
		}
		fputc('\n', out);
	}
	assert_int_equal(rc, SB_DONE);
	sb_stmt_finalize(st);
	fputs("--\n", out);
}

/* What the two ways must agree on, as text (allocated). */
static char *contents(sb_db *db)
{
	static const char *const queries[] = {
		"SELECT rid, run_id, batch_id, line_no, backend, session_id, started_ms, started_day, exec_count, "
		"total_duration_ms, computed_nanos, card_nanos, lifetime_nanos, has_executions, fingerprint, tags, "
		"extra, recent FROM run ORDER BY rid",
		"SELECT rid, execs FROM run_execs ORDER BY rid",
		"SELECT rid, name, value FROM run_tag ORDER BY rid, name",
		"SELECT * FROM run_day ORDER BY day, backend, model",
		"SELECT * FROM run_day_tag ORDER BY name, day, value, backend, model",
		"SELECT * FROM run_day_untagged ORDER BY name, day, backend, model",
		"SELECT run_id, batch_id, line_no, fingerprint, replaced_by_batch FROM run_history ORDER BY run_id, batch_id",
		"SELECT batch_id, line_no, reason FROM reject ORDER BY batch_id, line_no, reason",
		"SELECT batch_id, status, accepted, duplicates, rejected, replaced, skipped FROM batch ORDER BY batch_id",
	};
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	for (size_t q = 0; q < sizeof queries / sizeof queries[0]; q++)
		dump(db, queries[q], out);
	fclose(out);
	return text;
}

/* Import the three inputs into a fresh ledger with threads and chunk;
 * its contents (allocated). */
static char *import_all(char *paths[3], int64_t threads, int64_t chunk)
{
	sb_db *db = support_memory_ledger();
	sb_import_opts o;
	sb_import_result r;
	char *text;
	sb_err e;
	int rc;

	/* accepted, duplicates, rejected, replaced of each import */
	static const int64_t counts[3][4] = {{602, 51, 51, 0}, {1, 1, 2, 0}, {2, 0, 0, 1}};

	memset(&o, 0, sizeof o);
	o.threads = threads;
	o.chunk = chunk;
	o.bulk_min = INT64_MAX;
	for (int i = 0; i < 3; i++) {
		sb_err_clear(&e);
		o.replace = i == 2;
		rc = sb_import_runs(db, paths[i], &o, &r, &e);
		if (rc != (i == 2 ? SB_OK : SB_EDATA) || r.batch.accepted != counts[i][0])
			print_error("%s: %s\n", paths[i], e.msg);
		assert_int_equal(rc, i == 2 ? SB_OK : SB_EDATA);
		assert_int_equal(r.batch.accepted, counts[i][0]);
		assert_int_equal(r.batch.duplicates, counts[i][1]);
		assert_int_equal(r.batch.rejected, counts[i][2]);
		assert_int_equal(r.batch.replaced, counts[i][3]);
	}
	text = contents(db);
	sb_db_close(db);
	return text;
}

/* One parsing thread (each run's answer read before the next), three
 * (runs expected a job at a time), and three committing every 100
 * records (commits inside a job: the rest of it one by one) leave the
 * same ledger. */
static void test_ways_agree(void **state)
{
	char *paths[3], *one, *other;
	static const int64_t ways[][2] = {{3, 0}, {3, 100}, {2, 7}};

	(void)state;
	write_inputs(paths);
	one = import_all(paths, 1, 0);
	/* what each kind of line became */
	assert_non_null(strstr(one, "\n1|53|run_id 'rcon' is already in the ledger with different content (batch 1, line 52);"));
	assert_non_null(strstr(one, "\n1|606|run_id 'r1' is already in the ledger with different content (batch 1, line 2);"));
	assert_non_null(strstr(one, "\n2|2|run_id 'r7' is already in the ledger with different content (batch 1, line 8);"));
	assert_non_null(strstr(one, "\n2|4|run_id 'r1000' is already in the ledger with different content (batch 2, line 3);"));
	/* the row ids one after another: 602 runs, then r1000, then r9
	 * again and r2000 */
	assert_non_null(strstr(one, "\n602|r599|1|"));
	assert_non_null(strstr(one, "\n603|r1000|2|3|"));
	assert_non_null(strstr(one, "\n604|r9|3|1|"));
	assert_non_null(strstr(one, "\n605|r2000|3|2|"));
	for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
		other = import_all(paths, ways[w][0], ways[w][1]);
		if (strcmp(one, other) != 0)
			fail_msg("%lld threads, chunk %lld: another ledger than one thread's", (long long)ways[w][0],
			         (long long)ways[w][1]);
		free(other);
	}
	free(one);
	for (int i = 0; i < 3; i++)
		free(paths[i]);
}

static int setup(void **state)
{
	(void)state;
	dir = support_tmpdir();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	support_rmtree(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ways_agree),
	};

	return cmocka_run_group_tests_name("runs_writer", tests, setup, teardown);
}
