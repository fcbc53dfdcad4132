/* test_reconcile.c: the reconciler (reconcile/reconcile.c) on the sample
 * inputs, every figure worked out by hand below (and cross-checked by the
 * independent model tests/ref/recon_model.py), plus one test per status,
 * precedence and edge case of docs/reconcile.md.
 *
 * The samples (examples/samples), period 2026-11, default tolerance
 * (0.01 USD, 5% of computed).  Amounts in nanodollars.
 *
 * cloudflare: runs 4, 14, 37 computed 64,943,333 + 134,201,667 +
 *   217,466,667 = 416,611,667.  Lines (record): clo-1958d07674 64,943,333,
 *   clo-13181230ae 217,466,667, the orphan 4,000,000; run 14's session has
 *   no line, so its own billed 134,201,667 fills in.  Billed 420,611,667,
 *   drift 4,000,000 <= max(10,000,000, 20,830,583): ok.  The orphan
 *   session has no run: unexpected.
 * daytona: six lines 386,019,000 + 337,789,000 + 273,716,000 + 166,328,000
 *   + 294,349,000 + 161,156,000 = 1,619,357,000; computed 1,060,576,000;
 *   drift 558,781,000: over_billed.  Lifetime at 0.08/min, per run:
 *   1,619,357,333; |billed - lifetime| = 333: verdict lifetime.  Each
 *   session is over by its idle time: over_billed.
 * deepinfra: the November month, 41,877 cents = 418,770,000,000; no runs:
 *   unexpected (the October month is outside the period).
 * docker: record line 250,000,000 on a free backend: unexpected, and so is
 *   its session doc-802b28fef0.
 * e2b: four metered lines; the seeded card has no per-second rates:
 *   no_rate, and each session no_rate.  Computed 1,087,772,000.
 * modal: lines 1,019,045,000 + 368,652,000 + 325,750,000 = 1,713,447,000;
 *   computed 554,605,000 + 124,758,333 + 245,768,333 + 217,166,667 =
 *   1,142,298,333; drift 571,148,667: over_billed.  Lifetime 922,358 ms
 *   at 0.10 is 1,537,263,333, off by 176,183,667 > tolerance; implied rate
 *   1,713,447,000 x 60000 / 922,358 = 111,461,... > 0.10 by more than 5%:
 *   verdict rate.  Three sessions over_billed.
 * runloop: FOCUS line 245,408,800 (account level); computed 136,213,333 +
 *   82,901,667 = 219,115,000; drift 26,293,800 > max(10,000,000,
 *   10,955,750): over_billed; implied 73,889,... per minute against the
 *   card's 100,000,000: verdict rate.
 * vercel: usage 47,588,000 + 785,560,000 + 622,046,000 = 1,455,194,000 =
 *   computed (622,046,000 + 515,612,000 + 269,948,000 + 47,588,000): ok;
 *   Tax 9,500,000 + 157,100,000 + 124,400,000 = 291,000,000 apart.
 * blaxel: no lines, computed 2,348,356,500: unbilled.  k8s, local: free,
 *   no billing: ok.
 * Flagged: daytona, deepinfra, docker, modal, runloop (5) + sessions: the
 *   orphan, 6 daytona, doc-802b28fef0, 3 modal (11) = 16.
 */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/import.h"
#include "ledger/fx.h"
#include "ledger/period.h"
#include "ledger/rates.h"
#include "ledger/timefmt.h"
#include "reconcile/reconcile.h"

#define SAMPLES "examples/samples/"

/* Import a sample file into db (runs when format is NULL). */
static void import(sb_db *db, const char *format, const char *file)
{
	sb_import_opts o = {0};
	sb_import_result r;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = format == NULL ? sb_import_runs(db, file, &o, &r, &e)
	                    : sb_import_billing(db, format, file, &o, &r, &e);
	assert_sb_ok(&e, rc);
}

/* A ledger holding every sample. */
static sb_db *samples_ledger(void)
{
	sb_db *db = support_memory_ledger();

	import(db, NULL, SAMPLES "runs.jsonl");
	import(db, "record", SAMPLES "billing-record.jsonl");
	import(db, "focus", SAMPLES "billing-focus.csv");
	import(db, "modal", SAMPLES "billing-modal.json");
	import(db, "daytona", SAMPLES "billing-daytona.json");
	import(db, "e2b-events", SAMPLES "billing-e2b-events.json");
	import(db, "deepinfra-usage", SAMPLES "deepinfra-usage.json");
	return db;
}

/* Reconcile period text with tolerances abs/rel; the caller frees. */
static sb_recon *run(sb_db *db, const char *period, int64_t abs_nanos, int64_t rel_ppb)
{
	sb_recon_opts o = {{0, 0}, abs_nanos, rel_ppb, false};
	sb_recon *r = NULL;
	sb_err e;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_period_parse(period, 0, &o.period, &e));
	assert_sb_ok(&e, sb_reconcile(db, &o, &r, &e));
	return r;
}

/* The result of backend in r (fails when absent). */
static const sb_recon_backend *backend(const sb_recon *r, const char *name)
{
	for (size_t i = 0; i < r->n_backends; i++)
		if (strcmp(r->backends[i].backend, name) == 0)
			return &r->backends[i];
	fail_msg("backend %s not in the result", name);
	return NULL;
}

/* The listed session of backend in r, or NULL. */
static const sb_recon_session *session(const sb_recon *r, const char *name, const char *sid)
{
	for (size_t i = 0; i < r->n_sessions; i++)
		if (strcmp(r->sessions[i].backend, name) == 0 && r->sessions[i].session_id != NULL &&
		    strcmp(r->sessions[i].session_id, sid) == 0)
			return &r->sessions[i];
	return NULL;
}

/* Check one backend's status, basis, computed and billed (-1: null). */
static void expect(const sb_recon *r, const char *name, const char *status, const char *basis,
                   int64_t runs, int64_t computed, int64_t billed)
{
	const sb_recon_backend *b = backend(r, name);

	assert_string_equal(b->status, status);
	if (basis == NULL)
		assert_null(b->basis);
	else
		assert_string_equal(b->basis, basis);
	assert_int_equal(b->runs, runs);
	assert_int_equal(b->computed_nanos, computed);
	assert_int_equal(b->has_billed, billed >= 0 || (b->has_billed && b->billed_nanos < 0));
	if (billed >= 0)
		assert_int_equal(b->billed_nanos, billed);
}

static void test_samples(void **state)
{
	sb_db *db = samples_ledger();
	sb_recon *r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	const sb_recon_backend *b;

	(void)state;
	assert_int_equal(r->n_backends, 11);
	expect(r, "blaxel", "unbilled", NULL, 5, 2348356500, -1);
	expect(r, "cloudflare", "ok", "billed", 3, 416611667, 420611667);
	expect(r, "daytona", "over_billed", "billed", 6, 1060576000, 1619357000);
	expect(r, "deepinfra", "unexpected", "billed", 0, 0, 418770000000);
	expect(r, "docker", "unexpected", "billed", 4, 0, 250000000);
	expect(r, "e2b", "no_rate", NULL, 4, 1087772000, -1);
	expect(r, "k8s", "ok", NULL, 5, 0, -1);
	expect(r, "local", "ok", NULL, 3, 0, -1);
	expect(r, "modal", "over_billed", "billed", 4, 1142298333, 1713447000);
	expect(r, "runloop", "over_billed", "billed", 2, 219115000, 245408800);
	expect(r, "vercel", "ok", "billed", 4, 1455194000, 1455194000);

	b = backend(r, "vercel");
	assert_true(b->has_tax);
	assert_int_equal(b->tax_nanos, 291000000);
	b = backend(r, "daytona");
	assert_string_equal(b->explain.verdict, "lifetime");
	assert_int_equal(b->explain.lifetime_nanos, 1619357333);
	assert_int_equal(b->explain.card_rate_nanos, 80000000);
	assert_string_equal(backend(r, "modal")->explain.verdict, "rate");
	assert_string_equal(backend(r, "runloop")->explain.verdict, "rate");
	assert_null(backend(r, "cloudflare")->explain.verdict);

	assert_int_equal(r->flagged, 16);
	assert_int_equal(r->n_sessions, 15);
	assert_string_equal(session(r, "cloudflare", "clo-orphan00001")->status, "unexpected");
	assert_null(session(r, "cloudflare", "clo-42ca2e3611"));
	assert_string_equal(session(r, "docker", "doc-802b28fef0")->status, "unexpected");
	assert_string_equal(session(r, "daytona", "day-3c4a8d15d8")->status, "over_billed");
	assert_int_equal(session(r, "daytona", "day-3c4a8d15d8")->billed_nanos, 386019000);
	assert_string_equal(session(r, "e2b", "e2b-964dfaa797")->status, "no_rate");
	/* a session shared by two runs: 554,605,000 + 124,758,333 */
	assert_int_equal(session(r, "modal", "mod-83b59641d2")->runs, 2);
	assert_int_equal(session(r, "modal", "mod-83b59641d2")->computed_nanos, 679363333);
	sb_recon_free(r);
	sb_db_close(db);
}

static void test_json_shape(void **state)
{
	sb_db *db = samples_ledger();
	sb_recon *r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	json_t *j = sb_recon_json(r);
	json_t *day = NULL;
	size_t i;
	json_t *v;

	(void)state;
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "period"), "from")),
	                    "2026-11-01T00:00:00Z");
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "tolerance"), "abs_usd")),
	                    "0.010000000");
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "tolerance"), "rel")), "0.05");
	json_array_foreach(json_object_get(j, "backends"), i, v)
		if (strcmp(json_string_value(json_object_get(v, "backend")), "daytona") == 0)
			day = v;
	assert_non_null(day);
	assert_string_equal(json_string_value(json_object_get(day, "drift_usd")), "0.558781000");
	/* 558,781,000 / 1,060,576,000 = 0.5268657... */
	assert_string_equal(json_string_value(json_object_get(day, "drift_rel")), "0.526866");
	assert_string_equal(json_string_value(json_object_get(json_object_get(day, "explain"), "lifetime_cost_usd")),
	                    "1.619357333");
	/* 1,214,518 ms = 20.241966... minutes */
	assert_string_equal(json_string_value(json_object_get(json_object_get(day, "explain"), "lifetime_minutes")),
	                    "20.242");
	assert_int_equal(json_integer_value(json_object_get(j, "flagged")), 16);
	json_decref(j);
	sb_recon_free(r);
	sb_db_close(db);
}

static void test_metered_priced(void **state)
{
	sb_db *db = samples_ledger();
	sb_card card;
	sb_recon *r;
	sb_err e;

	(void)state;
	/* e2b from the epoch: 0.06/min, 0.000014 per vCPU-second, 0.0000045 per
	 * GiB-second.  evt-3-k: 2 vCPU x 309,678 ms = 619,356 vCPU-ms; 1024 MB x
	 * 309,678 ms = 317,110,272 MB-ms: (619,356 x 14,000 x 1024 + 317,110,272 x
	 * 4,500) / 1,024,000 = 10,064,535; likewise 14,816,718 + 15,683,688 +
	 * 8,331,472: billed 48,896,413 against 1,087,772,000: under_billed. */
	memset(&card, 0, sizeof card);
	strcpy(card.backend, "e2b");
	card.per_minute_nanos = 60000000;
	card.has_per_cpu_second = true;
	card.per_cpu_second_nanos = 14000;
	card.has_per_gb_second = true;
	card.per_gb_second_nanos = 4500;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_rates_store(db, &card, "test", &e));
	r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	expect(r, "e2b", "under_billed", "metered", 4, 1087772000, 48896413);
	assert_int_equal(session(r, "e2b", "e2b-2565b675cd")->billed_nanos, 10064535);
	sb_recon_free(r);
	sb_db_close(db);
}

static void test_zero_tolerance_and_override(void **state)
{
	sb_db *db = samples_ledger();
	sb_recon *r = run(db, "2026-11", 0, 0);
	sb_err e;

	(void)state;
	/* drift 4,000,000 > 0: flagged; vercel's drift is 0: still ok */
	expect(r, "cloudflare", "over_billed", "billed", 3, 416611667, 420611667);
	expect(r, "vercel", "ok", "billed", 4, 1455194000, 1455194000);
	sb_recon_free(r);
	/* a per-backend tolerance wins over the defaults */
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_tolerance_set(db, "cloudflare", 1000000, 0, &e));
	assert_sb_ok(&e, sb_tolerance_set(db, "runloop", 30000000, 0, &e));
	r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	expect(r, "cloudflare", "over_billed", "billed", 3, 416611667, 420611667);
	expect(r, "runloop", "ok", "billed", 2, 219115000, 245408800);
	sb_recon_free(r);
	sb_db_close(db);
}

static void test_partial_wins_over_drift(void **state)
{
	sb_db *db = samples_ledger();
	sb_recon *r;

	(void)state;
	/* the runloop line covers 2026-11-02 whole; reconciling its first half
	 * leaves it ending after the period: partial, though over_billed too */
	r = run(db, "2026-11-02T00:00:00Z..2026-11-02T12:00:00Z", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	expect(r, "runloop", "partial", "billed", 2, 219115000, 245408800);
	sb_recon_free(r);
	sb_db_close(db);
}

/* Add a billing line by hand (batch 2 exists in the samples ledger). */
static void add_line(sb_db *db, const char *backend, const char *session_id, const char *start,
                     const char *end, int64_t amount, const char *currency, const char *category)
{
	int64_t s = 0, t = 0;
	char *sql;

	assert_int_equal(sb_time_parse(start, strlen(start), 0, &s), SB_TIME_OK);
	assert_int_equal(sb_time_parse(end, strlen(end), 0, &t), SB_TIME_OK);
	sql = sqlite3_mprintf(
	    "INSERT INTO billing_line (format, line_key, batch_id, line_no, backend, session_id, start_ms,"
	    " end_ms, kind, amount_nanos, currency, category, correction, source_row)"
	    " VALUES ('record', '%q-%lld', 2, 99, '%q', %Q, %lld, %lld, 'billed', %lld, '%q', %Q, 0, 'x')",
	    backend, (long long)s, backend, session_id, (long long)s, (long long)t, (long long)amount,
	    currency, category);
	support_exec(db, sql);
	sqlite3_free(sql);
}

static void test_currency(void **state)
{
	sb_db *db = samples_ledger();
	sb_recon *r;
	sb_err e;

	(void)state;
	/* blaxel billed 2.00 EUR: no rate, the line is left out: currency */
	add_line(db, "blaxel", NULL, "2026-11-03T00:00:00Z", "2026-11-04T00:00:00Z", 2000000000, "EUR", NULL);
	r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	expect(r, "blaxel", "currency", NULL, 5, 2348356500, -1);
	assert_true(sb_recon_status_flagged("currency"));
	sb_recon_free(r);
	/* at 1.174178 USD per EUR: 2.348356 USD; drift -500 nanos: ok */
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_fx_set(db, "EUR", 1174178000, 0, &e));
	r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	expect(r, "blaxel", "ok", "billed", 5, 2348356500, 2348356000);
	sb_recon_free(r);
	sb_db_close(db);
}

static void test_credit_turns_billed_negative(void **state)
{
	sb_db *db = samples_ledger();
	sb_recon *r;
	const sb_recon_backend *b;

	(void)state;
	/* a 5.00 credit: 1,455,194,000 - 5,000,000,000 = -3,544,806,000 */
	add_line(db, "vercel", NULL, "2026-11-10T00:00:00Z", "2026-11-11T00:00:00Z", -5000000000, "USD", "Credit");
	r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	b = backend(r, "vercel");
	assert_string_equal(b->status, "under_billed");
	assert_true(b->has_billed);
	assert_int_equal(b->billed_nanos, -3544806000);
	sb_recon_free(r);
	sb_db_close(db);
}

static void test_empty_and_future_periods(void **state)
{
	sb_db *db = samples_ledger();
	sb_recon *r = run(db, "2031-01", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);

	(void)state;
	assert_int_equal(r->n_backends, 0);
	assert_int_equal(r->n_sessions, 0);
	assert_int_equal(r->flagged, 0);
	sb_recon_free(r);
	sb_db_close(db);
}

static void test_backend_without_card(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_recon *r;
	const sb_recon_backend *b;

	(void)state;
	support_add_runs(db,
	    "{\"run_id\":\"c1\",\"backend\":\"acme-cloud\",\"session_id\":\"x\",\"started_at\":\"2026-11-05T00:00:00Z\","
	    "\"ended_at\":\"2026-11-05T00:01:00Z\",\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":30000,"
	    "\"computed_cost_usd\":0.05,\"executions\":[{\"duration_ms\":30000,\"cost_usd\":0.05}]}}\n");
	r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	b = backend(r, "acme-cloud");
	assert_string_equal(b->status, "unbilled");
	assert_true(b->explain.has);
	assert_false(b->explain.has_card_rate);
	assert_false(b->explain.has_lifetime_cost);
	sb_recon_free(r);
	sb_db_close(db);
}

static void test_session_billed_in_another_period(void **state)
{
	sb_db *db = samples_ledger();
	sb_recon *r;

	(void)state;
	/* 2026-11-03: run 17 of mod-83b59641d2 started that day, its line is on
	 * 2026-11-04: no line in the period: unbilled (124,758,333) */
	r = run(db, "2026-11-03", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	assert_string_equal(session(r, "modal", "mod-83b59641d2")->status, "unbilled");
	assert_int_equal(session(r, "modal", "mod-83b59641d2")->computed_nanos, 124758333);
	sb_recon_free(r);
	/* 2026-11-04: the line 1,019,045,000 against run 7 only, 554,605,000 */
	r = run(db, "2026-11-04", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	assert_string_equal(session(r, "modal", "mod-83b59641d2")->status, "over_billed");
	assert_int_equal(session(r, "modal", "mod-83b59641d2")->computed_nanos, 554605000);
	assert_int_equal(session(r, "modal", "mod-83b59641d2")->billed_nanos, 1019045000);
	sb_recon_free(r);
	sb_db_close(db);
}

static void test_store(void **state)
{
	sb_db *db = samples_ledger();
	sb_recon *r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_recon_store(db, r, &e));
	assert_int_equal(r->recon_id, 1);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM reconciliation_backend WHERE recon_id = 1"), 11);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM reconciliation_session WHERE recon_id = 1"), 15);
	assert_int_equal(support_i64(db, "SELECT flagged FROM reconciliation WHERE recon_id = 1"), 16);
	assert_int_equal(support_i64(db, "SELECT drift_nanos FROM reconciliation_backend WHERE backend = 'daytona'"),
	                 558781000);
	sb_recon_free(r);
	sb_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_json_shape),
		cmocka_unit_test(test_metered_priced),
		cmocka_unit_test(test_zero_tolerance_and_override),
		cmocka_unit_test(test_partial_wins_over_drift),
		cmocka_unit_test(test_currency),
		cmocka_unit_test(test_credit_turns_billed_negative),
		cmocka_unit_test(test_empty_and_future_periods),
		cmocka_unit_test(test_backend_without_card),
		cmocka_unit_test(test_session_billed_in_another_period),
		cmocka_unit_test(test_store),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
