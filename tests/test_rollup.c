/* test_rollup.c: the per UTC day rollups (ledger/rollup.c,
 * sql/schema/005_rollup.sql) and the invoice queries that read them.
 *
 * The rollups must always hold exactly the sums of the runs: after
 * every commit of imports in small chunks, with several threads, with --replace moving a
 * run to another day, backend and customer, after a strict import that
 * failed, with more groups in one chunk than the table gathers, and after
 * the migration of a ledger made before them.  The invoice reads whole
 * days from them and the rest of the period from run: for every kind of
 * period (a month, a day, a range of days, ranges cutting days) its lines
 * must equal the same figures summed straight from run and run_tag.
 */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/import.h"
#include "ledger/batch.h"
#include "ledger/rates.h"
#include "ledger/sqlfiles.h"
#include "reconcile/invoice.h"
#include "reconcile/summary.h"

/* A temporary directory, a ledger in it, and an input file's path. */
struct ctx {
	char *dir;
	char *input;
	sb_db *db;
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof *c);
	char *path;
	sb_err e;

	if (c == NULL)
		return -1;
	c->dir = support_tmpdir();
	c->input = support_path(c->dir, "input.jsonl");
	path = support_path(c->dir, "ledger.db");
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_open(path, SB_DB_CREATE | SB_DB_WRITE, 1000, &c->db, &e));
	free(path);
	support_exec(c->db, "INSERT INTO model_price VALUES ('m1', 1250000000, 10000000000, 0),"
	                    " ('m2', 3000000000, 15000000000, 0)");
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	sb_db_close(c->db);
	free(c->input);
	support_rmtree(c->dir);
	free(c);
	return 0;
}

/* Write run number i to f: started on a day and hour that depend on i,
 * one of three backends, no model or one of two, tagged with one of four
 * customers (one of them the literal "(untagged)") or not at all, and a
 * team tag now and then.  shift moves it (for --replace). */
static void write_run(FILE *f, int i, int shift)
{
	static const char *const backends[] = {"e2b", "modal", "DaytonaSandboxClient"};
	static const char *const customers[] = {"acme", "beta", "(untagged)", "zeta"};
	int k = i + shift;
	int day = 1 + k % 5, hour = (k * 7) % 24, minute = (k * 13) % 60;
	long d1 = 1000 + (k * 37) % 90000, d2 = 500 + (k * 11) % 7000;

	fprintf(f, "{\"run_id\": \"r%d\", \"backend\": \"%s\", \"session_id\": \"s%d\", "
	        "\"started_at\": \"2026-11-%02dT%02d:%02d:00Z\"", i, backends[k % 3], k % 40, day, hour,
	        minute);
	if (k % 5 != 4) {
		fprintf(f, ", \"tags\": {\"customer\": \"%s\"", customers[k % 4]);
		if (k % 3 == 0)
			fprintf(f, ", \"team\": \"t%d\"", k % 2);
		fputc('}', f);
	}
	if (k % 4 != 3)
		fprintf(f, ", \"token_usage\": {\"model\": \"m%d\", \"input_tokens\": %d, \"output_tokens\": %d}",
		        1 + k % 2, 1000 + k * 17, 100 + k * 3);
	/* each execution costs a microdollar per millisecond; memory peaks
	 * of a few values, so that groups share their largest, and a billed
	 * cost now and then */
	fprintf(f, ", \"sandbox_usage\": {\"exec_count\": 2, \"computed_cost_usd\": 0.%09ld, "
	        "\"memory_peak_mb\": %d, \"cpu_ms\": %d, \"bytes_read\": %d, \"bytes_written\": %d, "
	        "\"billed_cost_usd\": %s, "
	        "\"executions\": [{\"command\": \"a\", \"duration_ms\": %ld, \"cost_usd\": 0.%09ld, "
	        "\"memory_peak_mb\": %d, \"cpu_ms\": %d, \"bytes_read\": %d}, "
	        "{\"command\": \"b\", \"duration_ms\": %ld, \"cost_usd\": 0.%09ld, "
	        "\"memory_peak_mb\": %d, \"cpu_ms\": 1, \"bytes_written\": %d}], "
	        "\"total_duration_ms\": %ld}}\n",
	        (d1 + d2) * 1000, 512 * (1 + k % 7), 1 + k % 11, k, 3 * k,
	        k % 6 == 1 ? "0.25" : "null", d1, d1 * 1000, 512 * (1 + k % 7), k % 11, k,
	        d2, d2 * 1000, 128 * (1 + k % 3), 3 * k, d1 + d2);
}

/* Write runs [from, to) to the input, each moved by shift. */
static void write_input(struct ctx *c, int from, int to, int shift)
{
	FILE *f = fopen(c->input, "w");

	assert_non_null(f);
	for (int i = from; i < to; i++)
		write_run(f, i, shift);
	assert_int_equal(fclose(f), 0);
}

/* Import the input with opts (threads 1 unless set); returns the code. */
static int import(struct ctx *c, sb_import_opts o, sb_err *e)
{
	sb_import_result r;

	sb_err_clear(e);
	o.force = true;
	if (o.threads == 0)
		o.threads = 1;
	return sb_import_runs(c->db, c->input, &o, &r, e);
}

/* The rows of the check sql/checks/NAME.sql lists: none when the rollups
 * are right. */
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
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		print_error("%s\n", (const char *)sqlite3_column_text(st, 0));
		n++;
	}
	assert_int_equal(rc, SQLITE_DONE);
	sqlite3_finalize(st);
	return n;
}

/* Both rollups agree with the runs. */
static void assert_rollups_exact(sb_db *db)
{
	assert_int_equal(check_rows(db, "checks/06_run_rollups"), 0);
}

static void direct_text(sb_db *db, const char *period, const char *tag, FILE *out);

/* Append the lines of the invoices of period by tag, one per line
 * ("customer|C|backend|runs|exec_ms|computed" or
 * "customer|T|model|input|output"), to out. */
static void invoice_text(sb_db *db, const char *period, const char *tag, FILE *out)
{
	sb_invoice_opts o = {{0}, tag, NULL, SB_BASIS_COMPUTED, NULL};
	sb_invoice_set *set = NULL;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_period_parse(period, 0, &o.period, &e));
	rc = sb_invoice_build(db, &o, &set, &e);
	if (rc == SB_EDATA && strstr(e.msg, "no runs") != NULL)
		return;
	if (rc == SB_EDATA && strstr(e.msg, "has a tag") != NULL) {
		/* refused: no run of the period has the tag; then every line is
		 * (untagged), as the sums straight from the runs say */
		assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM run r JOIN run_tag t ON t.rid = r.rid"
		                                 " WHERE t.name = '%s' AND r.started_ms >= %lld AND r.started_ms < %lld",
		                             tag, (long long)o.period.from_ms, (long long)o.period.to_ms), 0);
		direct_text(db, period, tag, out);
		return;
	}
	assert_sb_ok(&e, rc);
	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		for (size_t k = 0; k < inv->n_lines; k++) {
			const sb_invoice_line *l = &inv->lines[k];
			if (l->kind == SB_INV_COMPUTE)
				fprintf(out, "%s|C|%s|%lld|%lld|%lld\n", inv->customer, l->backend,
				        (long long)l->runs, (long long)l->exec_ms, (long long)l->computed_nanos);
			else
				fprintf(out, "%s|T|%s|%lld|%lld\n", inv->customer, l->model,
				        (long long)l->input_tokens, (long long)l->output_tokens);
		}
	}
	sb_invoice_set_free(set);
}

/* The same lines summed straight from run and run_tag (the invoice's
 * queries before the rollups), in the invoice's order. */
static void direct_text(sb_db *db, const char *period, const char *tag, FILE *out)
{
	static const char *const sql =
		"WITH r AS (SELECT COALESCE(t.value, '(untagged)') AS customer, r.* FROM run r"
		"             LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = ?1"
		"            WHERE r.started_ms >= ?2 AND r.started_ms < ?3)"
		" SELECT customer, 0, backend, COUNT(*) || '|' || SUM(total_duration_ms) || '|' ||"
		"        SUM(computed_nanos) FROM r GROUP BY customer, backend"
		" UNION ALL"
		" SELECT customer, 1, model, SUM(input_tokens) || '|' || SUM(output_tokens)"
		"   FROM r WHERE model IS NOT NULL GROUP BY customer, model"
		" ORDER BY 1, 2, 3";
	sqlite3_stmt *st = NULL;
	sb_period p;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_period_parse(period, 0, &p, &e));
	rc = sqlite3_prepare_v2(sb_db_sqlite(db), sql, -1, &st, NULL);
	assert_sqlite_ok(sb_db_sqlite(db), rc);
	sqlite3_bind_text(st, 1, tag, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, p.from_ms);
	sqlite3_bind_int64(st, 3, p.to_ms);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fprintf(out, "%s|%s|%s|%s\n", (const char *)sqlite3_column_text(st, 0),
		        sqlite3_column_int(st, 1) ? "T" : "C", (const char *)sqlite3_column_text(st, 2),
		        (const char *)sqlite3_column_text(st, 3));
	assert_int_equal(rc, SQLITE_DONE);
	sqlite3_finalize(st);
}

/* For every kind of period and both tags, the invoice's lines equal the
 * sums straight from the runs. */
static void assert_invoices_exact(sb_db *db)
{
	static const char *const periods[] = {
		"2026-11", "2026-11-02", "2026-11-02..2026-11-04", "2026-11-01..2026-11-06",
		"2026-11-01T05:00:00Z..2026-11-03T07:30:00Z", "2026-11-02T01:00:00Z..2026-11-02T23:00:00Z",
		"2026-11-03T00:00:00Z..2026-11-03T12:00:00Z", "2026-11-02T12:00:00Z..2026-11-04T00:00:00Z",
		"2026-11-04T00:00:00Z..2026-11-05T00:00:01Z", "2026-10", "2026"};
	static const char *const tags[] = {"customer", "team", "nobody"};

	for (size_t p = 0; p < sizeof periods / sizeof periods[0]; p++) {
		for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++) {
			char *got = NULL, *want = NULL;
			size_t got_len = 0, want_len = 0;
			FILE *g = open_memstream(&got, &got_len), *w = open_memstream(&want, &want_len);
			assert_non_null(g);
			assert_non_null(w);
			invoice_text(db, periods[p], tags[t], g);
			direct_text(db, periods[p], tags[t], w);
			fclose(g);
			fclose(w);
			if (strcmp(got, want) != 0)
				print_error("period %s, tag %s:\ninvoice:\n%s\nfrom run:\n%s", periods[p], tags[t], got,
				            want);
			assert_string_equal(got, want);
			free(got);
			free(want);
		}
	}
}

/* The rows of report summary of period by `by`, one per line
 * ("key|runs|exec|duration|cpu|memory|read|written|computed|billed|card|
 * token"), billed and card "null" when unknown, token the group's token
 * cost x 10^6 before its rounding. */
static void summary_text(sb_db *db, const char *period, const char *by, FILE *out)
{
	sb_summary *s = NULL;
	sb_period p;
	sb_err e;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_period_parse(period, 0, &p, &e));
	assert_sb_ok(&e, sb_summary_build(db, &p, by, &s, &e));
	for (size_t i = 0; i < s->n_rows; i++) {
		const sb_usage *u = &s->rows[i].u;
		fprintf(out, "%s|%lld|%lld|%lld|%lld|%lld|%lld|%lld|%lld|", s->rows[i].key,
		        (long long)u->runs, (long long)u->exec_count, (long long)u->total_duration_ms,
		        (long long)u->cpu_ms, (long long)u->memory_peak_mb, (long long)u->bytes_read,
		        (long long)u->bytes_written, (long long)u->computed_nanos);
		if (u->has_billed)
			fprintf(out, "%lld|", (long long)u->billed_nanos);
		else
			fputs("null|", out);
		if (u->has_card)
			fprintf(out, "%lld|", (long long)u->card_nanos);
		else
			fputs("null|", out);
		fprintf(out, "%lld\n", (long long)u->token_raw);
	}
	sb_summary_free(s);
}

/* The same rows summed straight from run and run_tag, every figure by the
 * SDK's addition rule (billed null when every run's is, card null when any
 * run's is), the token cost priced per run. */
static void summary_direct(sb_db *db, const char *period, const char *by, FILE *out)
{
	static const char *const sql =
		"WITH r AS (SELECT CASE ?4 WHEN 'backend' THEN r.backend WHEN 'day' THEN r.started_day"
		"                  WHEN 'model' THEN COALESCE(r.model, '(none)')"
		"                  ELSE COALESCE(t.value, '(untagged)') END AS k, r.*"
		"             FROM run r LEFT JOIN run_tag t ON t.rid = r.rid AND t.name = ?1"
		"            WHERE r.started_ms >= ?2 AND r.started_ms < ?3)"
		" SELECT k || '|' || COUNT(*) || '|' || SUM(exec_count) || '|' || SUM(total_duration_ms)"
		"        || '|' || SUM(cpu_ms) || '|' || MAX(memory_peak_mb) || '|' || SUM(bytes_read)"
		"        || '|' || SUM(bytes_written) || '|' || SUM(computed_nanos) || '|'"
		"        || COALESCE(SUM(billed_nanos), 'null') || '|'"
		"        || CASE WHEN COUNT(card_nanos) = COUNT(*) THEN SUM(card_nanos) ELSE 'null' END || '|'"
		"        || SUM(COALESCE(input_tokens * p.input_per_m_nanos + output_tokens * p.output_per_m_nanos, 0))"
		"   FROM r LEFT JOIN model_price p ON p.model = r.model"
		"  GROUP BY k ORDER BY k";
	bool tag = strncmp(by, "tag:", 4) == 0;
	sqlite3_stmt *st = NULL;
	sb_period p;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_period_parse(period, 0, &p, &e));
	rc = sqlite3_prepare_v2(sb_db_sqlite(db), sql, -1, &st, NULL);
	assert_sqlite_ok(sb_db_sqlite(db), rc);
	sqlite3_bind_text(st, 1, tag ? by + 4 : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, p.from_ms);
	sqlite3_bind_int64(st, 3, p.to_ms);
	sqlite3_bind_text(st, 4, tag ? "tag" : by, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fprintf(out, "%s\n", (const char *)sqlite3_column_text(st, 0));
	assert_int_equal(rc, SQLITE_DONE);
	sqlite3_finalize(st);
}

/* For every kind of period and grouping, report summary (whole days from
 * the rollups, the part days from run) equals the sums straight from the
 * runs. */
static void assert_summaries_exact(sb_db *db)
{
	static const char *const periods[] = {
		"2026-11", "2026-11-02", "2026-11-02..2026-11-04", "2026-11-01..2026-11-06",
		"2026-11-01T05:00:00Z..2026-11-03T07:30:00Z", "2026-11-02T01:00:00Z..2026-11-02T23:00:00Z",
		"2026-11-03T00:00:00Z..2026-11-03T12:00:00Z", "2026-11-02T12:00:00Z..2026-11-04T00:00:00Z",
		"2026-11-04T00:00:00Z..2026-11-05T00:00:01Z", "2026-10", "2026"};
	static const char *const bys[] = {"backend", "day", "model", "tag:customer", "tag:team",
	                                  "tag:nobody"};

	for (size_t p = 0; p < sizeof periods / sizeof periods[0]; p++) {
		for (size_t b = 0; b < sizeof bys / sizeof bys[0]; b++) {
			char *got = NULL, *want = NULL;
			size_t got_len = 0, want_len = 0;
			FILE *g = open_memstream(&got, &got_len), *w = open_memstream(&want, &want_len);
			assert_non_null(g);
			assert_non_null(w);
			summary_text(db, periods[p], bys[b], g);
			summary_direct(db, periods[p], bys[b], w);
			fclose(g);
			fclose(w);
			if (strcmp(got, want) != 0)
				print_error("period %s, by %s:\nsummary:\n%s\nfrom run:\n%s", periods[p], bys[b], got,
				            want);
			assert_string_equal(got, want);
			free(got);
			free(want);
		}
	}
}

/* After each commit of an import (events.on_progress): what another
 * connection sees, what a kill would leave, has exact rollups. */
static void after_commit(void *ctx, const char *source, int64_t done, int64_t total)
{
	struct ctx *c = ctx;
	char *path = support_path(c->dir, "ledger.db");
	sb_db *reader = NULL;
	sb_err e;

	(void)source;
	(void)done;
	(void)total;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_open(path, 0, 1000, &reader, &e));
	assert_rollups_exact(reader);
	sb_db_close(reader);
	free(path);
}

/* Imports in chunks of 37, with one and with three threads, a repeat (all
 * duplicates), then runs on the same days; every commit exact. */
static void test_imports(void **state)
{
	struct ctx *c = *state;
	sb_import_opts o = {0};
	sb_err e;

	o.chunk = 37;
	o.events.on_progress = after_commit;
	o.events.ctx = c;
	write_input(c, 0, 400, 0);
	assert_sb_ok(&e, import(c, o, &e));
	assert_int_equal(support_i64(c->db, "SELECT SUM(runs) FROM run_day"), 400);
	assert_rollups_exact(c->db);
	assert_invoices_exact(c->db);
	assert_summaries_exact(c->db);
	/* the same file again: duplicates, the sums do not move */
	assert_sb_ok(&e, import(c, o, &e));
	assert_int_equal(support_i64(c->db, "SELECT SUM(runs) FROM run_day"), 400);
	write_input(c, 400, 1000, 0);
	o.threads = 3;
	assert_sb_ok(&e, import(c, o, &e));
	assert_int_equal(support_i64(c->db, "SELECT SUM(runs) FROM run_day"), 1000);
	assert_int_equal(support_i64(c->db, "SELECT SUM(runs) FROM run_day_tag WHERE name = 'customer'"),
	                 support_i64(c->db, "SELECT COUNT(*) FROM run_tag WHERE name = 'customer'"));
	assert_rollups_exact(c->db);
	assert_invoices_exact(c->db);
	assert_summaries_exact(c->db);
}

/* --replace takes the old version out of its day, backend, model and
 * tags, even when the old version came in the same chunk. */
static void test_replace(void **state)
{
	struct ctx *c = *state;
	sb_import_opts o = {0};
	FILE *f;
	sb_err e;

	o.chunk = 1000;
	write_input(c, 0, 300, 0);
	assert_sb_ok(&e, import(c, o, &e));
	/* runs 100..199 again, moved (another day, backend, customer, model);
	 * then 250 twice in one file: added and taken out before a commit */
	write_input(c, 100, 200, 1);
	o.replace = true;
	assert_sb_ok(&e, import(c, o, &e));
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_history"), 100);
	f = fopen(c->input, "w");
	assert_non_null(f);
	write_run(f, 250, 2);
	write_run(f, 250, 3);
	write_run(f, 300, 0);
	assert_int_equal(fclose(f), 0);
	assert_sb_ok(&e, import(c, o, &e));
	assert_int_equal(support_i64(c->db, "SELECT SUM(runs) FROM run_day"), 301);
	assert_rollups_exact(c->db);
	assert_invoices_exact(c->db);
	assert_summaries_exact(c->db);
}

/* A replace that takes out the run holding its groups' largest memory:
 * the groups' maximum is the next largest (found again among the runs
 * left), for a run replaced by a later batch and for one replaced in the
 * same chunk; each worked out by hand.  Day 2026-11-06, e2b, no model, no
 * tags: m1 4096 MB, m2 2048, m3 1024. */
static void test_replace_largest_memory(void **state)
{
	struct ctx *c = *state;
	sb_import_opts o = {0};
	FILE *f;
	sb_err e;

	f = fopen(c->input, "w");
	assert_non_null(f);
	for (int i = 1; i <= 3; i++)
		fprintf(f, "{\"run_id\": \"m%d\", \"backend\": \"e2b\", \"started_at\": \"2026-11-06T0%d:00:00Z\", "
		        "\"sandbox_usage\": {\"exec_count\": 1, \"memory_peak_mb\": %d}}\n", i, i, 8192 >> i);
	assert_int_equal(fclose(f), 0);
	assert_sb_ok(&e, import(c, o, &e));
	assert_int_equal(support_i64(c->db, "SELECT memory_peak_mb FROM run_day WHERE day = '2026-11-06'"), 4096);
	/* m1 again with 512 MB: the largest is m2's 2048 */
	f = fopen(c->input, "w");
	assert_non_null(f);
	fputs("{\"run_id\": \"m1\", \"backend\": \"e2b\", \"started_at\": \"2026-11-06T01:00:00Z\", "
	      "\"sandbox_usage\": {\"exec_count\": 1, \"memory_peak_mb\": 512}}\n", f);
	assert_int_equal(fclose(f), 0);
	o.replace = true;
	assert_sb_ok(&e, import(c, o, &e));
	assert_int_equal(support_i64(c->db, "SELECT memory_peak_mb FROM run_day WHERE day = '2026-11-06'"), 2048);
	assert_rollups_exact(c->db);
	/* m2 moved to the 7th, then m4 of 8000 MB added and replaced by 100 MB
	 * in the same chunk: the 6th keeps m3 1024 and m1 512; the 7th m2 2048 */
	f = fopen(c->input, "w");
	assert_non_null(f);
	fputs("{\"run_id\": \"m2\", \"backend\": \"e2b\", \"started_at\": \"2026-11-07T02:00:00Z\", "
	      "\"sandbox_usage\": {\"exec_count\": 1, \"memory_peak_mb\": 2048}}\n"
	      "{\"run_id\": \"m4\", \"backend\": \"e2b\", \"started_at\": \"2026-11-06T04:00:00Z\", "
	      "\"sandbox_usage\": {\"exec_count\": 1, \"memory_peak_mb\": 8000}}\n"
	      "{\"run_id\": \"m4\", \"backend\": \"e2b\", \"started_at\": \"2026-11-06T04:00:00Z\", "
	      "\"sandbox_usage\": {\"exec_count\": 1, \"memory_peak_mb\": 100}}\n", f);
	assert_int_equal(fclose(f), 0);
	assert_sb_ok(&e, import(c, o, &e));
	assert_int_equal(support_i64(c->db, "SELECT memory_peak_mb FROM run_day WHERE day = '2026-11-06'"), 1024);
	assert_int_equal(support_i64(c->db, "SELECT memory_peak_mb FROM run_day WHERE day = '2026-11-07'"), 2048);
	assert_rollups_exact(c->db);
	assert_summaries_exact(c->db);
}

/* Taking out a batch that replaced runs (its file changed while read):
 * the rollups are the runs' again, the largest memory of the groups it
 * left found again, and each run put back has its executions' row as it
 * was, byte for byte. */
static void test_take_out(void **state)
{
	struct ctx *c = *state;
	sb_import_opts o = {0};
	sb_batch b;
	char *before, *after;
	sb_err e;

	write_input(c, 0, 300, 0);
	assert_sb_ok(&e, import(c, o, &e));
	before = support_text(c->db, "SELECT group_concat(r.run_id || '=' || x.execs, ';') FROM"
	                              " (SELECT * FROM run ORDER BY run_id) r JOIN run_execs x ON x.rid = r.rid");
	write_input(c, 100, 200, 1);
	o.replace = true;
	assert_sb_ok(&e, import(c, o, &e));
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_history"), 100);
	assert_rollups_exact(c->db);
	memset(&b, 0, sizeof b);
	b.id = support_i64(c->db, "SELECT MAX(batch_id) FROM batch");
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_begin(c->db, &e));
	assert_sb_ok(&e, sb_batch_take_out(c->db, &b, "test", &e));
	assert_sb_ok(&e, sb_db_commit(c->db, &e));
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run"), 300);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_history"), 0);
	after = support_text(c->db, "SELECT group_concat(r.run_id || '=' || x.execs, ';') FROM"
	                             " (SELECT * FROM run ORDER BY run_id) r JOIN run_execs x ON x.rid = r.rid");
	assert_string_equal(before, after);
	free(before);
	free(after);
	assert_rollups_exact(c->db);
	assert_invoices_exact(c->db);
	assert_summaries_exact(c->db);
}

/* A new card reprices the runs of its backend since its day: the card
 * columns of every rollup of that backend are the runs' again. */
static void test_reprice(void **state)
{
	struct ctx *c = *state;
	sb_import_opts o = {0};
	sb_card card;
	sb_err e;

	write_input(c, 0, 300, 0);
	assert_sb_ok(&e, import(c, o, &e));
	memset(&card, 0, sizeof card);
	snprintf(card.backend, sizeof card.backend, "e2b");
	card.effective_ms = support_i64(c->db, "SELECT unixepoch('2026-11-03T12:00:00Z') * 1000");
	card.per_minute_nanos = 240000000;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_begin(c->db, &e));
	assert_sb_ok(&e, sb_rates_store(c->db, &card, "set", &e));
	assert_sb_ok(&e, sb_db_commit(c->db, &e));
	/* the card changed something: e2b's runs of the 4th cost 4x more */
	assert_true(support_i64(c->db, "SELECT SUM(card_nanos) FROM run_day WHERE backend = 'e2b' AND day = '2026-11-04'") ==
	            4 * support_i64(c->db, "SELECT SUM(total_duration_ms) * 1000 FROM run WHERE backend = 'e2b' AND started_day = '2026-11-04'"));
	assert_rollups_exact(c->db);
	assert_summaries_exact(c->db);
}

/* The untagged rollups: a tag name first seen after other runs starts
 * with them untagged; the first 32 names are tracked, a 33rd is not, and
 * a summary by it reads the runs (both right, against the runs). */
static void test_tag_names(void **state)
{
	struct ctx *c = *state;
	sb_import_opts o = {0};
	FILE *f;
	sb_err e;

	write_input(c, 0, 100, 0);
	o.chunk = 30;
	assert_sb_ok(&e, import(c, o, &e));
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_tag_name"), 2);
	f = fopen(c->input, "w");
	assert_non_null(f);
	/* names n00..n31 on the 2nd, one run each with all before it; the
	 * last run carries n32 too */
	for (int i = 0; i < 33; i++) {
		fprintf(f, "{\"run_id\": \"n%d\", \"backend\": \"modal\", \"started_at\": \"2026-11-02T%02d:00:00Z\", "
		        "\"tags\": {", i, i % 24);
		for (int t = 0; t <= i; t++)
			fprintf(f, "%s\"n%02d\": \"v%d\"", t ? ", " : "", t, t % 3);
		fputs("}, \"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": 10, \"memory_peak_mb\": 7}}\n", f);
	}
	assert_int_equal(fclose(f), 0);
	assert_sb_ok(&e, import(c, o, &e));
	/* customer, team, n00..n29: 32; n30, n31, n32 are not tracked */
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_tag_name"), 32);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_tag_name WHERE name = 'n29'"), 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_tag_name WHERE name = 'n30'"), 0);
	/* n00's untagged: the 100 runs before it (on the 2nd: 20 of them) */
	assert_int_equal(support_i64(c->db, "SELECT SUM(runs) FROM run_day_untagged WHERE name = 'n00'"), 100);
	assert_int_equal(support_i64(c->db, "SELECT SUM(runs) FROM run_day_untagged WHERE name = 'n29'"), 129);
	assert_rollups_exact(c->db);
	{
		static const char *const bys[] = {"tag:n00", "tag:n29", "tag:n30", "tag:n32"};
		for (size_t b = 0; b < 4; b++) {
			char *got = NULL, *want = NULL;
			size_t gl = 0, wl = 0;
			FILE *g = open_memstream(&got, &gl), *w = open_memstream(&want, &wl);
			summary_text(c->db, "2026-11-01T12:00:00Z..2026-11-30", bys[b], g);
			summary_direct(c->db, "2026-11-01T12:00:00Z..2026-11-30", bys[b], w);
			fclose(g);
			fclose(w);
			assert_string_equal(got, want);
			free(got);
			free(want);
		}
	}
	assert_summaries_exact(c->db);
}

/* A strict import with a bad line keeps nothing, rollups included; a
 * failed import of a sum past 64 bits is refused by the invoice, and the
 * check still tells right from wrong. */
static void test_strict_and_overflow(void **state)
{
	struct ctx *c = *state;
	sb_import_opts o = {0};
	FILE *f;
	sb_err e;
	int rc;

	write_input(c, 0, 50, 0);
	f = fopen(c->input, "a");
	assert_non_null(f);
	fputs("not json\n", f);
	assert_int_equal(fclose(f), 0);
	o.strict = true;
	rc = import(c, o, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "rejected");
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_day"), 0);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_day_tag"), 0);
	/* two runs of 9 billion USD on one day and backend: each fits, their
	 * sum does not; the rollup holds a REAL, the invoice refuses it */
	f = fopen(c->input, "w");
	assert_non_null(f);
	for (int i = 0; i < 2; i++)
		fprintf(f, "{\"run_id\": \"big%d\", \"backend\": \"e2b\", \"started_at\": \"2026-11-02T10:00:00Z\", "
		        "\"tags\": {\"customer\": \"acme\"}, \"sandbox_usage\": {\"exec_count\": 1, "
		        "\"total_duration_ms\": 1000, \"computed_cost_usd\": 9000000000}}\n", i);
	assert_int_equal(fclose(f), 0);
	o.strict = false;
	o.chunk = 1; /* the second run overflows in the ledger */
	assert_sb_ok(&e, import(c, o, &e));
	assert_rollups_exact(c->db);
	{
		char *type = support_text(c->db, "SELECT typeof(computed_nanos) FROM run_day");
		assert_string_equal(type, "real");
		free(type);
	}
	{
		sb_invoice_opts io = {{0}, "customer", NULL, SB_BASIS_COMPUTED, NULL};
		sb_invoice_set *set = NULL;
		sb_err_clear(&e);
		assert_sb_ok(&e, sb_period_parse("2026-11", 0, &io.period, &e));
		rc = sb_invoice_build(c->db, &io, &set, &e);
		assert_sb_fails(&e, rc, SB_EDATA, "a sum of the invoice overflows 64-bit nanodollars");
		assert_null(set);
	}
	{
		/* and so does the summary, by every key the rollups serve */
		static const char *const bys[] = {"backend", "day", "model", "tag:customer"};
		for (size_t b = 0; b < 4; b++) {
			sb_summary *sum = NULL;
			sb_period p;
			sb_err_clear(&e);
			assert_sb_ok(&e, sb_period_parse("2026-11", 0, &p, &e));
			rc = sb_summary_build(c->db, &p, bys[b], &sum, &e);
			assert_sb_fails(&e, rc, SB_EDATA, "overflows 64 bits");
			assert_null(sum);
		}
	}
	/* both in one chunk: the sum passes 64 bits in memory first */
	support_exec(c->db, "DELETE FROM run; DELETE FROM run_day; DELETE FROM run_day_tag");
	o.chunk = 100;
	assert_sb_ok(&e, import(c, o, &e));
	assert_rollups_exact(c->db);
	/* a wrong rollup is found, a REAL where the sum fits too */
	support_exec(c->db, "UPDATE run_day_tag SET exec_ms = exec_ms + 1");
	assert_int_equal(check_rows(c->db, "checks/06_run_rollups"), 1);
	support_exec(c->db, "UPDATE run_day SET exec_ms = 2000.5");
	assert_int_equal(check_rows(c->db, "checks/06_run_rollups"), 2);
}

/* More groups in one chunk than the rollup gathers before it writes them
 * out (every run its own customer). */
static void test_many_groups(void **state)
{
	struct ctx *c = *state;
	sb_import_opts o = {0};
	FILE *f = fopen(c->input, "w");
	sb_err e;

	assert_non_null(f);
	/* 1,000 runs of 20 tags each: 20,000 tag groups */
	for (int i = 0; i < 1000; i++) {
		fprintf(f, "{\"run_id\": \"g%d\", \"backend\": \"e2b\", \"started_at\": \"2026-11-%02dT10:00:00Z\", "
		        "\"tags\": {", i, 1 + i % 3);
		for (int t = 0; t < 20; t++)
			fprintf(f, "%s\"%s%d\": \"c%d\"", t ? ", " : "", t ? "t" : "customer", t, i);
		fprintf(f, "}, \"sandbox_usage\": {\"exec_count\": 1, \"total_duration_ms\": %d}}\n", 1000 + i);
	}
	assert_int_equal(fclose(f), 0);
	o.chunk = 100000;
	assert_sb_ok(&e, import(c, o, &e));
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM run_day_tag"), 20000);
	assert_rollups_exact(c->db);
	assert_invoices_exact(c->db);
	assert_summaries_exact(c->db);
}

/* A ledger made before the rollups gets them, exact, when opened. */
static void test_migration(void **state)
{
	struct ctx *c = *state;
	sb_import_opts o = {0};
	char *path = support_path(c->dir, "ledger.db");
	sb_err e;

	write_input(c, 0, 500, 0);
	assert_sb_ok(&e, import(c, o, &e));
	/* as a ledger of schema version 4: without the rollups, and without
	 * what later versions added (sql/schema/006_batch_integrity.sql,
	 * 007_invoice_once.sql, 008_recon_windows.sql, 009_billing_charge.sql,
	 * 010_scale.sql),
	 * which run again */
	support_undo_010(c->db);
	support_exec(c->db, "DROP TABLE run_day; DROP TABLE run_day_tag; "
	             "ALTER TABLE batch DROP COLUMN path; ALTER TABLE batch DROP COLUMN prefix_length; "
	             "ALTER TABLE batch DROP COLUMN prefix_sha256; ALTER TABLE batch DROP COLUMN reason; "
	             "DROP INDEX invoice_run_once; DROP TRIGGER invoice_run_no_duplicate; "
	             "DROP TRIGGER invoice_run_replaced_add; ALTER TABLE invoice_run DROP COLUMN duplicate; "
	             "ALTER TABLE invoice_run DROP COLUMN fingerprint; DROP TABLE invoice_run_replaced; "
	             "DROP INDEX billing_line_account_by_start; "
	             "ALTER TABLE reconciliation DROP COLUMN judged_ms; "
	             "ALTER TABLE reconciliation DROP COLUMN billing_lag_ms; "
	             "ALTER TABLE reconciliation DROP COLUMN flagged_backends; "
	             "ALTER TABLE reconciliation DROP COLUMN flagged_sessions; "
	             "ALTER TABLE reconciliation_backend DROP COLUMN window_from_ms; "
	             "ALTER TABLE reconciliation_backend DROP COLUMN window_to_ms; "
	             "ALTER TABLE reconciliation_backend DROP COLUMN flagged; "
	             "ALTER TABLE reconciliation_backend DROP COLUMN sessions_flagged; "
	             "ALTER TABLE reconciliation_session DROP COLUMN flagged; "
	             "DROP INDEX billing_line_charge; ALTER TABLE billing_line DROP COLUMN charge_identity; "
	             "DROP TABLE billing_line_pending; DROP TABLE billing_supersede; DROP TABLE billing_row_seen; "
	             "PRAGMA user_version = 4");
	sb_db_close(c->db);
	c->db = NULL;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_open(path, SB_DB_WRITE, 1000, &c->db, &e));
	free(path);
	assert_int_equal(support_i64(c->db, "PRAGMA user_version"), sb_db_schema_latest());
	assert_int_equal(support_i64(c->db, "SELECT SUM(runs) FROM run_day"), 500);
	assert_rollups_exact(c->db);
	assert_invoices_exact(c->db);
	assert_summaries_exact(c->db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_imports, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replace, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replace_largest_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_take_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reprice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tag_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_strict_and_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migration, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
