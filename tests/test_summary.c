/* test_summary.c: report summary (reconcile/summary.c, reconcile/usage.c)
 * on a fixture whose every figure is worked out by hand below, to the
 * nanodollar: the SandboxUsage addition rule (counters sum,
 * memory_peak_mb is the maximum, billed_cost_usd null only when every run's
 * is), card cost with the seeded card, token cost with the model price
 * table rounded half to even once per group, and each grouping key.
 *
 * The runs (period 2026-11 = [2026-11-01T00:00Z, 2026-12-01T00:00Z)):
 *
 *   R1 e2b (the id)   s1  2026-11-02T10:00:00Z  customer=acme team=search
 *      gpt-a 12000 in / 3000 out; executions 1000 ms + 500 ms
 *      exec 2, dur 1500, cpu 900, mem 512, read 10, written 4096
 *      computed 0.0015 = 1,500,000; billed null
 *      card (e2b 0.06/min): 1000 ms -> 1,000,000; 500 ms -> 500,000 = 1,500,000
 *      tokens: 12000 x 1.25 + 3000 x 10 USD/M = 45,000,000,000,000 / 10^6
 *              = 45,000,000 nanos
 *   R2 E2bSandboxClient -> e2b  s2  2026-11-02T23:59:59.999Z  customer=globex
 *      gpt-a 1,000,000 in; one execution of 1 ms
 *      exec 1, dur 1, cpu 1, mem 64; computed 0.000001 = 1,000; billed 0.5
 *      card: 0.06 x 1/60000 min = 60,000,000 / 60,000 = 1,000
 *      tokens: 1,000,000 x 1.25 = 1,250,000,000,000,000 / 10^6 = 1,250,000,000
 *   R3 daytona  s3  2026-11-03T00:00:00Z  customer=acme  summary-only
 *      mini 500 in; exec 3, dur 6000, cpu 100, mem 2048
 *      computed 0.008 = 8,000,000; billed 0.01 = 10,000,000
 *      card (0.08/min, total duration): 80,000,000 x 6000 / 60000 = 8,000,000
 *      tokens: 500 x 1000 nanos/M = 500,000 / 10^6 = 0.5 nanos (not rounded
 *              alone: the group rounds once)
 *   R4 daytona  s3  2026-11-04T01:00:00+02:00 (= 2026-11-03T23:00Z)  no tags
 *      mini 500 in; one execution of 2500 ms
 *      exec 1, dur 2500, cpu 2000, mem 1024, read 5, written 7
 *      computed 0.003333333 = 3,333,333; billed 0.002 = 2,000,000
 *      card: 80,000,000 x 2500 / 60000 = 3,333,333.3 -> 3,333,333
 *      tokens: 500,000 / 10^6 = 0.5
 *   R5 LocalSubprocessSandboxClient -> local  no session  2026-11-30T23:59:59Z
 *      customer=acme; no token_usage (adds 0)
 *      exec 1, dur 10000, cpu 9000, mem 4096, read 100, written 200
 *      computed 0; billed null; card 0 (free)
 *   R6 acme-cloud (custom, no card)  s6  2026-11-01T00:00:00Z  customer=initech
 *      unknown-m (no price) 100 in / 100 out; one execution of 60000 ms
 *      exec 1, dur 60000, cpu 1, mem 1; computed 0.05 = 50,000,000; billed null
 *      card null; tokens null
 *   R7 e2b 2026-12-01T00:00:00Z and R8 e2b 2026-10-31T23:59:59.999Z: outside.
 *
 * Prices: gpt-a 1.25 in / 10 out USD per million (1,250,000,000 and
 * 10,000,000,000 nanos); mini 0.000001 in / 0.000003 out (1000 and 3000).
 */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/period.h"
#include "reconcile/summary.h"
#include "reconcile/usage.h"

static const char fixture[] =
	"{\"run_id\":\"R1\",\"backend\":\"e2b\",\"session_id\":\"s1\",\"started_at\":\"2026-11-02T10:00:00Z\","
	"\"ended_at\":\"2026-11-02T10:08:13Z\",\"tags\":{\"customer\":\"acme\",\"team\":\"search\"},"
	"\"token_usage\":{\"model\":\"gpt-a\",\"input_tokens\":12000,\"output_tokens\":3000},"
	"\"sandbox_usage\":{\"exec_count\":2,\"total_duration_ms\":1500,\"cpu_ms\":900,\"memory_peak_mb\":512,"
	"\"bytes_read\":10,\"bytes_written\":4096,\"computed_cost_usd\":0.0015,\"billed_cost_usd\":null,"
	"\"executions\":[{\"command\":\"pytest -q\",\"exit_code\":0,\"duration_ms\":1000,\"cpu_ms\":600,"
	"\"memory_peak_mb\":512,\"bytes_read\":0,\"bytes_written\":4096,\"cost_usd\":0.001},"
	"{\"command\":\"ls\",\"exit_code\":0,\"duration_ms\":500,\"cpu_ms\":300,\"memory_peak_mb\":128,"
	"\"bytes_read\":10,\"bytes_written\":0,\"cost_usd\":0.0005}]}}\n"
	"{\"run_id\":\"R2\",\"backend\":\"E2bSandboxClient\",\"session_id\":\"s2\",\"started_at\":\"2026-11-02T23:59:59.999Z\","
	"\"tags\":{\"customer\":\"globex\"},\"token_usage\":{\"model\":\"gpt-a\",\"input_tokens\":1000000,\"output_tokens\":0},"
	"\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":1,\"cpu_ms\":1,\"memory_peak_mb\":64,"
	"\"computed_cost_usd\":0.000001,\"billed_cost_usd\":0.5,\"executions\":[{\"command\":\"true\","
	"\"duration_ms\":1,\"cpu_ms\":1,\"memory_peak_mb\":64,\"cost_usd\":0.000001}]}}\n"
	"{\"run_id\":\"R3\",\"backend\":\"daytona\",\"session_id\":\"s3\",\"started_at\":\"2026-11-03T00:00:00Z\","
	"\"tags\":{\"customer\":\"acme\"},\"token_usage\":{\"model\":\"mini\",\"input_tokens\":500},"
	"\"sandbox_usage\":{\"exec_count\":3,\"total_duration_ms\":6000,\"cpu_ms\":100,\"memory_peak_mb\":2048,"
	"\"computed_cost_usd\":0.008,\"billed_cost_usd\":0.01}}\n"
	"{\"run_id\":\"R4\",\"backend\":\"daytona\",\"session_id\":\"s3\",\"started_at\":\"2026-11-04T01:00:00+02:00\","
	"\"token_usage\":{\"model\":\"mini\",\"input_tokens\":500,\"output_tokens\":0},"
	"\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":2500,\"cpu_ms\":2000,\"memory_peak_mb\":1024,"
	"\"bytes_read\":5,\"bytes_written\":7,\"computed_cost_usd\":0.003333333,\"billed_cost_usd\":0.002,"
	"\"executions\":[{\"duration_ms\":2500,\"cpu_ms\":2000,\"memory_peak_mb\":1024,\"bytes_read\":5,"
	"\"bytes_written\":7,\"cost_usd\":0.003333333}]}}\n"
	"{\"run_id\":\"R5\",\"backend\":\"LocalSubprocessSandboxClient\",\"started_at\":\"2026-11-30T23:59:59Z\","
	"\"tags\":{\"customer\":\"acme\"},\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":10000,"
	"\"cpu_ms\":9000,\"memory_peak_mb\":4096,\"bytes_read\":100,\"bytes_written\":200,\"computed_cost_usd\":0.0,"
	"\"executions\":[{\"command\":\"make\",\"duration_ms\":10000,\"cpu_ms\":9000,\"memory_peak_mb\":4096,"
	"\"bytes_read\":100,\"bytes_written\":200,\"cost_usd\":0.0}]}}\n"
	"{\"run_id\":\"R6\",\"backend\":\"acme-cloud\",\"session_id\":\"s6\",\"started_at\":\"2026-11-01T00:00:00Z\","
	"\"tags\":{\"customer\":\"initech\"},\"token_usage\":{\"model\":\"unknown-m\",\"input_tokens\":100,"
	"\"output_tokens\":100},\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"cpu_ms\":1,"
	"\"memory_peak_mb\":1,\"computed_cost_usd\":0.05,\"executions\":[{\"duration_ms\":60000,\"cpu_ms\":1,"
	"\"memory_peak_mb\":1,\"cost_usd\":0.05}]}}\n"
	"{\"run_id\":\"R7\",\"backend\":\"e2b\",\"session_id\":\"s1\",\"started_at\":\"2026-12-01T00:00:00Z\","
	"\"tags\":{\"customer\":\"acme\"},\"token_usage\":{\"model\":\"gpt-a\",\"input_tokens\":7,\"output_tokens\":7},"
	"\"sandbox_usage\":{\"exec_count\":9,\"total_duration_ms\":999999,\"memory_peak_mb\":99999,"
	"\"computed_cost_usd\":9,\"billed_cost_usd\":9}}\n"
	"{\"run_id\":\"R8\",\"backend\":\"e2b\",\"session_id\":\"s1\",\"started_at\":\"2026-10-31T23:59:59.999Z\","
	"\"tags\":{\"customer\":\"acme\"},\"token_usage\":{\"model\":\"gpt-a\",\"input_tokens\":7,\"output_tokens\":7},"
	"\"sandbox_usage\":{\"exec_count\":9,\"total_duration_ms\":999999,\"memory_peak_mb\":99999,"
	"\"computed_cost_usd\":9,\"billed_cost_usd\":9}}";

/* null, for the expected money figures */
#define NUL INT64_MIN

/* What one row should hold. */
struct want {
	const char *key;
	int64_t runs, exec_count, total_duration_ms, cpu_ms, memory_peak_mb, bytes_read, bytes_written;
	int64_t computed, billed, card, token;   /* nanodollars, NUL for null */
};

/* The figures of the groups that recur under several keys. */
#define E2B_ROW 2, 3, 1501, 901, 512, 10, 4096, 1501000, 500000000, 1501000, 1295000000
#define DAYTONA_ROW 2, 4, 8500, 2100, 2048, 5, 7, 11333333, 12000000, 11333333, 1
#define LOCAL_ROW 1, 1, 10000, 9000, 4096, 100, 200, 0, NUL, 0, 0
#define CUSTOM_ROW 1, 1, 60000, 1, 1, 0, 0, 50000000, NUL, NUL, NUL
/* over all six runs: card and token null because of R6 */
#define TOTAL_ROW 6, 9, 80001, 12002, 4096, 115, 4303, 62834333, 512000000, NUL, NUL

/* Fail at file:line unless u holds w's figures. */
static void check_usage(const sb_usage *u, const struct want *w, const char *file, int line)
{
	int64_t token = 0;
	bool has_token = sb_usage_token_nanos(u, &token);
	int64_t got[11] = {
		u->runs, u->exec_count, u->total_duration_ms, u->cpu_ms, u->memory_peak_mb, u->bytes_read,
		u->bytes_written, u->computed_nanos, u->has_billed ? u->billed_nanos : NUL,
		u->has_card ? u->card_nanos : NUL, has_token ? token : NUL,
	};
	int64_t want[11] = {
		w->runs, w->exec_count, w->total_duration_ms, w->cpu_ms, w->memory_peak_mb, w->bytes_read,
		w->bytes_written, w->computed, w->billed, w->card, w->token,
	};
	static const char *const names[11] = {
		"runs", "exec_count", "total_duration_ms", "cpu_ms", "memory_peak_mb", "bytes_read",
		"bytes_written", "computed_cost_usd", "billed_cost_usd", "card_cost_usd", "token_cost_usd",
	};
	bool ok = true;

	for (int i = 0; i < 11; i++) {
		if (got[i] != want[i]) {
			print_error("%s: %s is %lld, want %lld (%lld is null)\n", w->key != NULL ? w->key : "total",
			            names[i], (long long)got[i], (long long)want[i], (long long)NUL);
			ok = false;
		}
	}
	if (!ok)
		_fail(file, line);
}

/* Fail unless s has exactly the rows of w (n of them), in order. */
static void check_rows(const sb_summary *s, const struct want *w, size_t n, const char *file, int line)
{
	if (s->n_rows != n) {
		for (size_t i = 0; i < s->n_rows; i++)
			print_error("row %zu: %s\n", i, s->rows[i].key);
		print_error("%zu rows, want %zu\n", s->n_rows, n);
		_fail(file, line);
	}
	for (size_t i = 0; i < n; i++) {
		if (strcmp(s->rows[i].key, w[i].key) != 0) {
			print_error("row %zu is '%s', want '%s'\n", i, s->rows[i].key, w[i].key);
			_fail(file, line);
		}
		check_usage(&s->rows[i].u, &w[i], file, line);
	}
}
#define assert_rows(s, w) check_rows((s), (w), sizeof (w) / sizeof (w)[0], __FILE__, __LINE__)
#define assert_total(s, ...) do { \
		const struct want total_ = {NULL, __VA_ARGS__}; \
		check_usage(&(s)->total, &total_, __FILE__, __LINE__); \
	} while (0)

/* The summary of db for period text grouped by `by`. */
static sb_summary *summary(sb_db *db, const char *period, const char *by)
{
	sb_summary *s = NULL;
	sb_period p;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_period_parse(period, 0, &p, &e);
	assert_sb_ok(&e, rc);
	assert_true(sb_summary_by_valid(by));
	rc = sb_summary_build(db, &p, by, &s, &e);
	assert_sb_ok(&e, rc);
	assert_non_null(s);
	assert_int_equal(s->period.from_ms, p.from_ms);
	assert_int_equal(s->period.to_ms, p.to_ms);
	assert_string_equal(s->by, by);
	return s;
}

/* Group fixture: one in-memory ledger with the fixture and the prices. */
static int fixture_setup(void **state)
{
	sb_db *db = support_memory_ledger();

	support_add_runs(db, fixture);
	support_exec(db, "INSERT INTO model_price VALUES ('gpt-a', 1250000000, 10000000000, 0), "
	                 "('mini', 1000, 3000, 0)");
	*state = db;
	return 0;
}

static int fixture_teardown(void **state)
{
	sb_db_close(*state);
	return 0;
}

/* The unpriced models of s are exactly "unknown-m". */
static void assert_unknown_m_unpriced(const sb_summary *s)
{
	assert_int_equal(s->n_unpriced, 1);
	assert_string_equal(s->unpriced[0], "unknown-m");
	assert_false(s->unpriced_no_model);
}

static void test_by_backend(void **state)
{
	/* card and billed per backend: see the file's comment; e2b's billed is
	 * R1 null + R2 0.5 = 0.5 (null as 0, as one operand is known);
	 * daytona's tokens are 0.5 + 0.5 = 1 nano (each alone would be 0) */
	static const struct want rows[] = {
		{"acme-cloud", CUSTOM_ROW},
		{"daytona", DAYTONA_ROW},
		{"e2b", E2B_ROW},
		{"local", LOCAL_ROW},
	};
	sb_summary *s = summary(*state, "2026-11", "backend");

	assert_rows(s, rows);
	assert_total(s, TOTAL_ROW);
	assert_unknown_m_unpriced(s);
	sb_summary_free(s);
}

static void test_by_day(void **state)
{
	/* R6 on the 1st, R1 and R2 on the 2nd (R2 at its last millisecond),
	 * R3 and R4 on the 3rd (R4 in UTC), R5 on the 30th */
	static const struct want rows[] = {
		{"2026-11-01", CUSTOM_ROW},
		{"2026-11-02", E2B_ROW},
		{"2026-11-03", DAYTONA_ROW},
		{"2026-11-30", LOCAL_ROW},
	};
	sb_summary *s = summary(*state, "2026-11", "day");

	assert_rows(s, rows);
	assert_total(s, TOTAL_ROW);
	sb_summary_free(s);
}

static void test_by_model(void **state)
{
	/* R5 has no token_usage: (none), token cost 0 */
	static const struct want rows[] = {
		{"(none)", LOCAL_ROW},
		{"gpt-a", E2B_ROW},
		{"mini", DAYTONA_ROW},
		{"unknown-m", CUSTOM_ROW},
	};
	sb_summary *s = summary(*state, "2026-11", "model");

	assert_rows(s, rows);
	assert_total(s, TOTAL_ROW);
	assert_unknown_m_unpriced(s);
	sb_summary_free(s);
}

static void test_by_session(void **state)
{
	/* R5 has no session: (none) */
	static const struct want rows[] = {
		{"(none)", LOCAL_ROW},
		{"s1", 1, 2, 1500, 900, 512, 10, 4096, 1500000, NUL, 1500000, 45000000},
		{"s2", 1, 1, 1, 1, 64, 0, 0, 1000, 500000000, 1000, 1250000000},
		{"s3", DAYTONA_ROW},
		{"s6", CUSTOM_ROW},
	};
	sb_summary *s = summary(*state, "2026-11", "session");

	assert_rows(s, rows);
	assert_total(s, TOTAL_ROW);
	sb_summary_free(s);
}

static void test_by_tag(void **state)
{
	/* (untagged): R4 alone; its 0.5 nano of tokens rounds to even, 0.
	 * acme: R1 + R3 + R5: exec 2+3+1, dur 1500+6000+10000, cpu 900+100+9000,
	 * mem max(512, 2048, 4096), read 10+0+100, written 4096+0+200,
	 * computed 1,500,000 + 8,000,000 + 0, billed null + 10,000,000 + null,
	 * card 1,500,000 + 8,000,000 + 0, tokens (45,000,000,000,000 + 500,000)
	 * / 10^6 = 45,000,000.5 -> 45,000,000 (half to even, once for the group) */
	static const struct want rows[] = {
		{"(untagged)", 1, 1, 2500, 2000, 1024, 5, 7, 3333333, 2000000, 3333333, 0},
		{"acme", 3, 6, 17500, 10000, 4096, 110, 4296, 9500000, 10000000, 9500000, 45000000},
		{"globex", 1, 1, 1, 1, 64, 0, 0, 1000, 500000000, 1000, 1250000000},
		{"initech", CUSTOM_ROW},
	};
	sb_summary *s = summary(*state, "2026-11", "tag:customer");

	assert_rows(s, rows);
	assert_total(s, TOTAL_ROW);
	sb_summary_free(s);
}

static void test_by_other_tag(void **state)
{
	/* only R1 has a team */
	static const struct want rows[] = {
		{"(untagged)", 5, 7, 78501, 11102, 4096, 105, 207, 61334333, 512000000, NUL, NUL},
		{"search", 1, 2, 1500, 900, 512, 10, 4096, 1500000, NUL, 1500000, 45000000},
	};
	sb_summary *s = summary(*state, "2026-11", "tag:team");

	assert_rows(s, rows);
	assert_total(s, TOTAL_ROW);
	sb_summary_free(s);
}

static void test_period_bounds(void **state)
{
	/* from the 2nd: R6 (the 1st) drops out, so card and token are known:
	 * card 1,501,000 + 11,333,333 + 0; tokens 1,295,000,000,000,000 +
	 * 1,000,000 + 0 = 1,295,000,001,000,000 / 10^6 = 1,295,000,001 */
	static const struct want rows[] = {
		{"daytona", DAYTONA_ROW},
		{"e2b", E2B_ROW},
		{"local", LOCAL_ROW},
	};
	sb_summary *s = summary(*state, "2026-11-02..2026-12-01", "backend");

	assert_rows(s, rows);
	assert_total(s, 5, 8, 20001, 12001, 4096, 115, 4303, 12834333, 512000000, 12834333, 1295000001);
	assert_int_equal(s->n_unpriced, 0);
	sb_summary_free(s);

	/* one day: only the runs started in it */
	s = summary(*state, "2026-11-03", "backend");
	assert_int_equal(s->n_rows, 1);
	assert_string_equal(s->rows[0].key, "daytona");
	sb_summary_free(s);

	/* nothing: no rows, zero counters, billed null, card and token 0 */
	s = summary(*state, "2027", "backend");
	assert_int_equal(s->n_rows, 0);
	assert_total(s, 0, 0, 0, 0, 0, 0, 0, 0, NUL, 0, 0);
	sb_summary_free(s);
}

static void test_token_rounding_and_no_model(void **state)
{
	sb_db *db = support_memory_ledger();
	static const struct want rows[] = {
		/* 3 runs of 500 mini tokens: 1.5 -> 2 */
		{"blaxel", 3, 0, 0, 0, 0, 0, 0, 0, NUL, 0, 2},
		/* 500 mini + 500 mini2 tokens: 0.5 + 0.5 nanos, rounded once for
		 * the group (not per model): 1 */
		{"cloudflare", 2, 0, 0, 0, 0, 0, 0, 0, NUL, 0, 1},
		/* tokens but no model: the cost is unknown */
		{"e2b", 1, 0, 0, 0, 0, 0, 0, 0, NUL, 0, NUL},
		/* 5 runs of 500 mini tokens: 2.5 -> 2 */
		{"modal", 5, 0, 0, 0, 0, 0, 0, 0, NUL, 0, 2},
	};
	char line[256];
	char *text = calloc(1, 12 * sizeof line);
	sb_summary *s;

	(void)state;
	assert_non_null(text);
	for (int i = 0; i < 8; i++) {
		snprintf(line, sizeof line, "%s{\"run_id\":\"t%d\",\"backend\":\"%s\",\"started_at\":"
		         "\"2026-11-05T00:00:00Z\",\"token_usage\":{\"model\":\"mini\",\"input_tokens\":500},"
		         "\"sandbox_usage\":{}}", i > 0 ? "\n" : "", i, i < 3 ? "blaxel" : "modal");
		strcat(text, line);
	}
	strcat(text, "\n{\"run_id\":\"n\",\"backend\":\"e2b\",\"started_at\":\"2026-11-05T00:00:00Z\","
	             "\"token_usage\":{\"input_tokens\":10},\"sandbox_usage\":{}}"
	             "\n{\"run_id\":\"c1\",\"backend\":\"cloudflare\",\"started_at\":\"2026-11-05T00:00:00Z\","
	             "\"token_usage\":{\"model\":\"mini\",\"input_tokens\":500},\"sandbox_usage\":{}}"
	             "\n{\"run_id\":\"c2\",\"backend\":\"cloudflare\",\"started_at\":\"2026-11-05T00:00:00Z\","
	             "\"token_usage\":{\"model\":\"mini2\",\"input_tokens\":500},\"sandbox_usage\":{}}");
	support_add_runs(db, text);
	support_exec(db, "INSERT INTO model_price VALUES ('mini', 1000, 3000, 0), ('mini2', 1000, 3000, 0)");
	s = summary(db, "2026-11", "backend");
	assert_rows(s, rows);
	/* the e2b run makes the total unknown */
	assert_total(s, 11, 0, 0, 0, 0, 0, 0, 0, NUL, 0, NUL);
	assert_true(s->unpriced_no_model);
	assert_int_equal(s->n_unpriced, 0);
	sb_summary_free(s);
	free(text);
	sb_db_close(db);
}

/* Runs with tokens but no model (the SDK's LLMUsage names none): the
 * group's token cost is null and the summary counts them and names the
 * first SB_SUMMARY_NAMED by run_id; a run with no model and no tokens
 * adds 0.  12 such runs on e2b (q00..q11, 10 in each), one on modal
 * with 0 tokens (its group's token cost 0), one outside the period. */
static void test_no_model_runs_named(void **state)
{
	sb_db *db = support_memory_ledger();
	char line[256];
	char *text = calloc(16, sizeof line);
	sb_summary *s;

	(void)state;
	assert_non_null(text);
	for (int i = 11; i >= 0; i--) {
		snprintf(line, sizeof line, "{\"run_id\":\"q%02d\",\"backend\":\"e2b\",\"started_at\":"
		         "\"2026-11-05T00:00:00Z\",\"token_usage\":{\"requests\":1,\"input_tokens\":10,"
		         "\"output_tokens\":0,\"total_tokens\":10},\"sandbox_usage\":null}\n", i);
		strcat(text, line);
	}
	strcat(text, "{\"run_id\":\"z\",\"backend\":\"modal\",\"started_at\":\"2026-11-05T00:00:00Z\","
	             "\"token_usage\":{\"input_tokens\":0,\"output_tokens\":0},\"sandbox_usage\":null}\n"
	             "{\"run_id\":\"a-late\",\"backend\":\"e2b\",\"started_at\":\"2026-12-01T00:00:00Z\","
	             "\"token_usage\":{\"input_tokens\":10},\"sandbox_usage\":null}");
	support_add_runs(db, text);
	s = summary(db, "2026-11", "backend");
	assert_int_equal(s->n_rows, 2);
	assert_string_equal(s->rows[0].key, "e2b");
	assert_false(s->rows[0].u.has_token);
	assert_string_equal(s->rows[1].key, "modal");
	assert_true(s->rows[1].u.has_token);
	assert_true(s->rows[1].u.token_raw == 0);
	assert_false(s->total.has_token);
	assert_true(s->unpriced_no_model);
	assert_int_equal(s->no_model_runs, 12);
	assert_int_equal(s->n_no_model_named, SB_SUMMARY_NAMED);
	for (int i = 0; i < SB_SUMMARY_NAMED; i++) {
		snprintf(line, sizeof line, "q%02d", i);
		assert_string_equal(s->no_model_named[i], line);
	}
	sb_summary_free(s);
	free(text);
	sb_db_close(db);
}

/* A run with no rate card in force at its start (a custom backend never
 * given rates set) has an unknown card cost, never 0: its group and the
 * total are null, from the rollups (by day) as from the runs, and its
 * backend is named with the earliest such start; a free backend's card
 * cost is a known 0, and a run outside the period is not named. */
static void test_no_card_unknown(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_summary *s;

	(void)state;
	support_add_runs(db,
	    "{\"run_id\":\"g1\",\"backend\":\"acme-gpu\",\"started_at\":\"2026-11-05T10:00:00Z\","
	    "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.0,"
	    "\"executions\":[{\"duration_ms\":60000,\"cost_usd\":null}]}}\n"
	    "{\"run_id\":\"l1\",\"backend\":\"local\",\"started_at\":\"2026-11-05T11:00:00Z\","
	    "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.0,"
	    "\"executions\":[{\"duration_ms\":60000,\"cost_usd\":null}]}}\n"
	    "{\"run_id\":\"x1\",\"backend\":\"other-gpu\",\"started_at\":\"2026-12-01T00:00:00Z\","
	    "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000}}\n");
	s = summary(db, "2026-11", "backend");
	assert_int_equal(s->n_rows, 2);
	assert_string_equal(s->rows[0].key, "acme-gpu");
	assert_false(s->rows[0].u.has_card);
	assert_string_equal(s->rows[1].key, "local");
	assert_true(s->rows[1].u.has_card);
	assert_int_equal(s->rows[1].u.card_nanos, 0);
	assert_false(s->total.has_card);
	assert_int_equal(s->n_no_card, 1);
	assert_string_equal(s->no_card[0].backend, "acme-gpu");
	assert_int_equal(s->no_card[0].runs, 1);
	assert_int_equal(s->no_card[0].first_ms, INT64_C(1793872800000));
	sb_summary_free(s);
	s = summary(db, "2026-11", "day");
	assert_int_equal(s->n_rows, 1);
	assert_false(s->rows[0].u.has_card);
	assert_int_equal(s->n_no_card, 1);
	sb_summary_free(s);
	/* every run priced: nothing named */
	s = summary(db, "2026-11-05T11:00:00Z..2026-11-06T00:00:00Z", "backend");
	assert_true(s->total.has_card);
	assert_int_equal(s->n_no_card, 0);
	sb_summary_free(s);
	sb_db_close(db);
}

static void test_usage_addition_rule(void **state)
{
	sb_usage acc, x;

	(void)state;
	sb_usage_zero(&acc);
	assert_false(acc.has_billed);
	assert_true(acc.has_card);
	assert_true(acc.has_token);
	/* billed null + null = null */
	sb_usage_zero(&x);
	x.runs = 1;
	x.memory_peak_mb = 300;
	assert_true(sb_usage_add(&acc, &x));
	assert_false(acc.has_billed);
	/* null + 0 = 0 (known) */
	x.has_billed = true;
	x.billed_nanos = 0;
	x.memory_peak_mb = 100;
	assert_true(sb_usage_add(&acc, &x));
	assert_true(acc.has_billed);
	assert_int_equal(acc.billed_nanos, 0);
	assert_int_equal(acc.memory_peak_mb, 300);
	assert_int_equal(acc.runs, 2);
	/* card: null when any operand is */
	x.has_card = false;
	assert_true(sb_usage_add(&acc, &x));
	assert_false(acc.has_card);
	/* overflow is an error, not a wrap */
	sb_usage_zero(&acc);
	sb_usage_zero(&x);
	acc.computed_nanos = INT64_MAX;
	x.computed_nanos = 1;
	assert_false(sb_usage_add(&acc, &x));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_backend),
		cmocka_unit_test(test_by_day),
		cmocka_unit_test(test_by_model),
		cmocka_unit_test(test_by_session),
		cmocka_unit_test(test_by_tag),
		cmocka_unit_test(test_by_other_tag),
		cmocka_unit_test(test_period_bounds),
		cmocka_unit_test(test_token_rounding_and_no_model),
		cmocka_unit_test(test_no_model_runs_named),
		cmocka_unit_test(test_no_card_unknown),
		cmocka_unit_test(test_usage_addition_rule),
	};

	return cmocka_run_group_tests_name("summary", tests, fixture_setup, fixture_teardown);
}
