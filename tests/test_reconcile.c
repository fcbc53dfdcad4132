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
 *   10,955,750): over_billed.  The line states 1 minute consumed: Q x
 *   card = 100,000,000, price = 145,408,800 > 5% of it, in the drift's
 *   direction: verdict rate (explain's parts; the implied 73,889,... per
 *   minute of session life, below the card's, no longer decides).
 * vercel: usage 47,588,000 + 785,560,000 + 622,046,000 = 1,455,194,000 =
 *   computed (622,046,000 + 515,612,000 + 269,948,000 + 47,588,000): ok;
 *   Tax 9,500,000 + 157,100,000 + 124,400,000 = 291,000,000 apart.
 * blaxel: no lines, computed 2,348,356,500: unbilled, flagged (judged on
 *   2026-12-05, more than 72 h after the month ended).  k8s, local: free,
 *   no billing: ok.
 * Flagged: blaxel, daytona, deepinfra, docker, e2b, modal, runloop (7) +
 *   sessions: the orphan, 6 daytona, doc-802b28fef0, 4 e2b, 3 modal (15)
 *   = 22.
 *
 * Then the rules of docs/reconcile.md one by one, on small ledgers built
 * here: the precedence of the statuses (every adjacent pair), the exact
 * tolerance (at it, a nanodollar under and over, both branches), the
 * billing lag and pending at their edges, windows (Pacific days, a DST
 * change each way, hours, gaps, grids that are not one), partial, the
 * words of the verdicts.
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
#include "report/recon_json.h"
#include "report/recon_words.h"

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

/* An RFC 3339 timestamp in ms. */
static int64_t T(const char *text)
{
	int64_t ms = 0;

	assert_int_equal(sb_time_parse(text, strlen(text), 0, &ms), SB_TIME_OK);
	return ms;
}

/* The samples' reconciliations are judged at this time: every window of
 * November 2026 ended, and more than 72 h ago. */
#define SAMPLES_NOW "2026-12-05T00:00:00Z"

/* Reconcile period text with tolerances abs/rel, judged at now (an RFC
 * 3339 timestamp) with billing lag lag_ms; the caller frees. */
static sb_recon *run_at(sb_db *db, const char *period, const char *now, int64_t lag_ms)
{
	sb_recon_opts o = {{0, 0}, SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB, false, true, 0, true, lag_ms};
	sb_recon *r = NULL;
	sb_err e;

	o.now_ms = T(now);
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_period_parse(period, 0, &o.period, &e));
	assert_sb_ok(&e, sb_reconcile(db, &o, &r, &e));
	return r;
}

/* Reconcile period text with tolerances abs/rel at SAMPLES_NOW. */
static sb_recon *run(sb_db *db, const char *period, int64_t abs_nanos, int64_t rel_ppb)
{
	sb_recon_opts o = {{0, 0}, abs_nanos, rel_ppb, false, true, 0, false, 0};
	sb_recon *r = NULL;
	sb_err e;

	o.now_ms = T(SAMPLES_NOW);
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

	assert_string_equal(sb_recon_status_name(b->status), status);
	if (basis == NULL)
		assert_int_equal(b->basis, SB_RBASIS_NONE);
	else
		assert_string_equal(sb_recon_basis_name(b->basis), basis);
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
	/* no grid off the UTC edges in the samples: every window is the period */
	for (size_t i = 0; i < r->n_backends; i++) {
		assert_int_equal(r->backends[i].window.from_ms, T("2026-11-01T00:00:00Z"));
		assert_int_equal(r->backends[i].window.to_ms, T("2026-12-01T00:00:00Z"));
		assert_int_equal(r->backends[i].grid_ms, 0);
	}
	assert_true(backend(r, "blaxel")->flagged);
	assert_true(backend(r, "e2b")->flagged);
	assert_false(backend(r, "cloudflare")->flagged);
	assert_int_equal(backend(r, "cloudflare")->sessions_flagged, 1);
	assert_int_equal(backend(r, "daytona")->sessions_flagged, 6);
	assert_int_equal(backend(r, "e2b")->sessions_flagged, 4);

	b = backend(r, "vercel");
	assert_true(b->has_tax);
	assert_int_equal(b->tax_nanos, 291000000);
	b = backend(r, "daytona");
	assert_int_equal(b->explain.verdict, SB_VERDICT_LIFETIME);
	assert_int_equal(b->explain.lifetime_nanos, 1619357333);
	assert_int_equal(b->explain.card_rate_nanos, 80000000);
	assert_int_equal(backend(r, "modal")->explain.verdict, SB_VERDICT_RATE);
	/* runloop's line states the minute it billed: price = 0.2454088 - 1 x
	 * 0.10 is beyond 5% of 0.10 (explain's parts) */
	assert_int_equal(backend(r, "runloop")->explain.verdict, SB_VERDICT_RATE);
	assert_int_equal(backend(r, "cloudflare")->explain.verdict, SB_VERDICT_NONE);

	assert_int_equal(r->flagged, 22);
	assert_int_equal(r->flagged_backends, 7);
	assert_int_equal(r->flagged_sessions, 15);
	assert_int_equal(r->pending, 0);
	assert_int_equal(r->n_sessions, 15);
	assert_int_equal(session(r, "cloudflare", "clo-orphan00001")->status, SB_STATUS_UNEXPECTED);
	assert_null(session(r, "cloudflare", "clo-42ca2e3611"));
	assert_int_equal(session(r, "docker", "doc-802b28fef0")->status, SB_STATUS_UNEXPECTED);
	assert_int_equal(session(r, "daytona", "day-3c4a8d15d8")->status, SB_STATUS_OVER_BILLED);
	assert_int_equal(session(r, "daytona", "day-3c4a8d15d8")->billed_nanos, 386019000);
	assert_int_equal(session(r, "e2b", "e2b-964dfaa797")->status, SB_STATUS_NO_RATE);
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
	assert_int_equal(json_integer_value(json_object_get(j, "flagged")), 22);
	assert_int_equal(json_integer_value(json_object_get(j, "flagged_backends")), 7);
	assert_int_equal(json_integer_value(json_object_get(j, "flagged_sessions")), 15);
	assert_string_equal(json_string_value(json_object_get(j, "billing_lag")), "72h");
	assert_string_equal(json_string_value(json_object_get(j, "judged_at")), SAMPLES_NOW);
	assert_string_equal(json_string_value(json_object_get(json_object_get(day, "window"), "from")),
	                    "2026-11-01T00:00:00Z");
	assert_string_equal(json_string_value(json_object_get(json_object_get(day, "window"), "to")),
	                    "2026-12-01T00:00:00Z");
	assert_true(json_is_true(json_object_get(day, "flagged")));
	assert_int_equal(json_integer_value(json_object_get(day, "flagged_sessions")), 6);
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
	    "INSERT INTO billing_line (lid, format, line_key, batch_id, line_no, backend, session_id, start_ms,"
	    " end_ms, kind, amount_nanos, currency, category, correction, source_row)"
	    " VALUES ((SELECT COALESCE(MAX(lid), 0) + 1 FROM billing_line), 'record', '%q-%lld', 2, 99, '%q', %Q, %lld, %lld, 'billed', %lld, '%q', %Q, 0, 'x')",
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
	assert_true(backend(r, "blaxel")->flagged);
	assert_int_equal(backend(r, "blaxel")->currency_lines, 1);
	assert_string_equal(backend(r, "blaxel")->currency, "EUR");
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
	assert_int_equal(b->status, SB_STATUS_UNDER_BILLED);
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

/* Store a default card of backend from at_ms: per_minute_nanos, or free. */
static void card_from(sb_db *db, const char *backend, int64_t at_ms, int64_t per_minute_nanos, bool free)
{
	sb_card card;
	sb_err e;

	memset(&card, 0, sizeof card);
	snprintf(card.backend, sizeof card.backend, "%s", backend);
	card.effective_ms = at_ms;
	card.per_minute_nanos = per_minute_nanos;
	card.free = free;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_rates_store(db, &card, "test", &e));
}

/* A run with no card in force at its start has an unknown card cost,
 * never 0: its backend is no_rate (flagged), whatever the SDK computed,
 * and the words name both ways out from the run's day.  A card from a
 * later instant than the run leaves it so; one in force from the run's
 * very start prices it; only a free card makes it cost nothing (ok). */
static void test_backend_without_card(void **state)
{
	const int64_t nov5 = INT64_C(1793836800000), nov5_10h = INT64_C(1793872800000);
	sb_db *db = support_memory_ledger();
	sb_recon *r;
	const sb_recon_backend *b;
	char text[2048];

	(void)state;
	support_add_runs(db,
	    "{\"run_id\":\"c1\",\"backend\":\"acme-cloud\",\"session_id\":\"x\",\"started_at\":\"2026-11-05T00:00:00Z\","
	    "\"ended_at\":\"2026-11-05T00:01:00Z\",\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":30000,"
	    "\"computed_cost_usd\":0.05,\"executions\":[{\"duration_ms\":30000,\"cost_usd\":0.05}]}}\n"
	    "{\"run_id\":\"g1\",\"backend\":\"acme-gpu\",\"session_id\":\"y\",\"started_at\":\"2026-11-05T10:00:00Z\","
	    "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,"
	    "\"computed_cost_usd\":0.0,\"executions\":[{\"duration_ms\":60000,\"cost_usd\":null}]}}\n");
	r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	b = backend(r, "acme-cloud");
	assert_int_equal(b->status, SB_STATUS_NO_RATE);
	assert_true(b->flagged);
	assert_int_equal(b->unpriced_runs, 1);
	assert_int_equal(b->unpriced_from_ms, nov5);
	assert_true(b->explain.has);
	assert_false(b->explain.has_card_rate);
	assert_false(b->explain.has_lifetime_cost);
	/* computed 0 and nothing billed was "ok": now no_rate, never free */
	b = backend(r, "acme-gpu");
	assert_int_equal(b->status, SB_STATUS_NO_RATE);
	assert_true(b->flagged);
	assert_int_equal(b->unpriced_from_ms, nov5_10h);
	assert_true(sb_recon_words(r, b, NULL, text, sizeof text));
	assert_non_null(strstr(text, "the card cost of 1 run is unknown, never 0"));
	assert_non_null(strstr(text, "sbledger rates set acme-gpu --usd-per-minute X --from 2026-11-05"));
	assert_non_null(strstr(text, "sbledger rates set acme-gpu --free --from 2026-11-05"));
	assert_int_equal(r->flagged_backends, 2);
	sb_recon_free(r);

	/* cards from one ms after each run's start: still none in force */
	card_from(db, "acme-cloud", nov5 + 1, 60000000, false);
	card_from(db, "acme-gpu", nov5_10h + 1, 0, true);
	r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	assert_int_equal(backend(r, "acme-cloud")->status, SB_STATUS_NO_RATE);
	assert_int_equal(backend(r, "acme-gpu")->status, SB_STATUS_NO_RATE);
	sb_recon_free(r);

	/* in force from the very start: priced (acme-cloud computed 0.05,
	 * nothing billed: unbilled), free (acme-gpu: ok at 0) */
	card_from(db, "acme-cloud", nov5, 60000000, false);
	card_from(db, "acme-gpu", nov5_10h, 0, true);
	r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	b = backend(r, "acme-cloud");
	assert_int_equal(b->status, SB_STATUS_UNBILLED);
	assert_int_equal(b->unpriced_runs, 0);
	b = backend(r, "acme-gpu");
	assert_int_equal(b->status, SB_STATUS_OK);
	assert_false(b->flagged);
	assert_true(b->free);
	assert_int_equal(b->computed_nanos, 0);
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
	assert_int_equal(session(r, "modal", "mod-83b59641d2")->status, SB_STATUS_UNBILLED);
	assert_int_equal(session(r, "modal", "mod-83b59641d2")->computed_nanos, 124758333);
	sb_recon_free(r);
	/* 2026-11-04: the line 1,019,045,000 against run 7 only, 554,605,000 */
	r = run(db, "2026-11-04", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	assert_int_equal(session(r, "modal", "mod-83b59641d2")->status, SB_STATUS_OVER_BILLED);
	assert_int_equal(session(r, "modal", "mod-83b59641d2")->computed_nanos, 554605000);
	assert_int_equal(session(r, "modal", "mod-83b59641d2")->billed_nanos, 1019045000);
	sb_recon_free(r);
	sb_db_close(db);
}

static void test_store(void **state)
{
	sb_db *db = samples_ledger();
	sb_recon *r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	char *text = sb_recon_json_text(r, JSON_COMPACT), *stored;
	sb_err e;

	(void)state;
	/* no text (out of memory while rendering it): refused, nothing stored */
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_recon_store(db, r, NULL, NULL, &e), SB_EINTERNAL, "out of memory");
	assert_int_equal(r->recon_id, 0);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM reconciliation"), 0);
	sb_err_clear(&e);
	assert_non_null(text);
	assert_sb_ok(&e, sb_recon_store(db, r, text, NULL, &e));
	assert_int_equal(r->recon_id, 1);
	/* the result is kept as the text it was given */
	stored = support_text(db, "SELECT result FROM reconciliation WHERE recon_id = 1");
	assert_string_equal(stored, text);
	free(stored);
	free(text);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM reconciliation_backend WHERE recon_id = 1"), 11);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM reconciliation_session WHERE recon_id = 1"), 15);
	assert_int_equal(support_i64(db, "SELECT flagged FROM reconciliation WHERE recon_id = 1"), 22);
	assert_int_equal(support_i64(db, "SELECT flagged_backends FROM reconciliation WHERE recon_id = 1"), 7);
	assert_int_equal(support_i64(db, "SELECT flagged_sessions FROM reconciliation WHERE recon_id = 1"), 15);
	assert_int_equal(support_i64(db, "SELECT billing_lag_ms FROM reconciliation WHERE recon_id = 1"), 259200000);
	assert_int_equal(support_i64(db, "SELECT judged_ms FROM reconciliation WHERE recon_id = 1"), T(SAMPLES_NOW));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM reconciliation_backend WHERE flagged = 1"), 7);
	assert_int_equal(support_i64(db, "SELECT sessions_flagged FROM reconciliation_backend WHERE backend = 'daytona'"), 6);
	assert_int_equal(support_i64(db, "SELECT window_to_ms FROM reconciliation_backend WHERE backend = 'daytona'"),
	                 T("2026-12-01T00:00:00Z"));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM reconciliation_session WHERE flagged = 1"), 15);
	assert_int_equal(support_i64(db, "SELECT drift_nanos FROM reconciliation_backend WHERE backend = 'daytona'"),
	                 558781000);
	sb_recon_free(r);
	sb_db_close(db);
}

/* ---- small ledgers ------------------------------------------------------ */

/* A fresh ledger with a billing batch (1000) for the lines added below. */
static sb_db *fresh(void)
{
	sb_db *db = support_memory_ledger();

	support_exec(db, "INSERT INTO batch (batch_id, kind, format, source, status, started_ms)"
	                 " VALUES (1000, 'billing', 'focus', 'test', 'complete', 0)");
	return db;
}

/* A live line of kind billed (amount in nanos of currency) or, when kind
 * is "metered", of vcpu_ms vCPU-milliseconds and no memory. */
static void line_of(sb_db *db, const char *backend, const char *session_id, const char *start,
                    const char *end, const char *kind, int64_t amount, const char *currency)
{
	static int n;
	bool metered = strcmp(kind, "metered") == 0;
	char amount_text[32], vcpu_text[32];
	char *sql;

	n++;
	snprintf(amount_text, sizeof amount_text, "%lld", (long long)amount);
	snprintf(vcpu_text, sizeof vcpu_text, "%lld", (long long)amount);
	sql = sqlite3_mprintf(
	    "INSERT INTO billing_line (lid, format, line_key, batch_id, line_no, backend, session_id, start_ms,"
	    " end_ms, kind, amount_nanos, currency, category, correction, vcpu_ms, memory_mb_ms, source_row)"
	    " VALUES ((SELECT COALESCE(MAX(lid), 0) + 1 FROM billing_line), 'focus', 'k%d', 1000, %d, '%q', %Q, %lld, %lld, '%q', %s, '%q', 'Usage', 0, %s, %s, 'x')",
	    n, n, backend, session_id, (long long)T(start), (long long)T(end), kind,
	    metered ? "NULL" : amount_text, currency, metered ? vcpu_text : "NULL", metered ? "0" : "NULL");
	support_exec(db, sql);
	sqlite3_free(sql);
}

/* An account-level billed USD line. */
static void acct(sb_db *db, const char *backend, const char *start, const char *end, int64_t amount)
{
	line_of(db, backend, NULL, start, end, "billed", amount, "USD");
}

/* A run of backend started at start, its one command lasting secs
 * seconds (ended_at right after), computed cost as decimal text. */
static void run_of(sb_db *db, const char *id, const char *backend, const char *start, int secs,
                   const char *cost)
{
	char json[1024], end[SB_TIME_BUFSZ];

	sb_time_format(T(start) + secs * INT64_C(1000), end);
	snprintf(json, sizeof json,
	         "{\"run_id\":\"%s\",\"backend\":\"%s\",\"session_id\":\"s-%s\",\"started_at\":\"%s\","
	         "\"ended_at\":\"%s\",\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":%d,"
	         "\"cpu_ms\":0,\"memory_peak_mb\":0,\"bytes_read\":0,\"bytes_written\":0,"
	         "\"computed_cost_usd\":%s,\"billed_cost_usd\":null,\"executions\":[{\"command\":\"t\","
	         "\"exit_code\":0,\"duration_ms\":%d,\"cost_usd\":%s}]}}\n",
	         id, backend, id, start, end, secs * 1000, cost, secs * 1000, cost);
	support_add_runs(db, json);
}

/* Check b's window. */
static void expect_window(const sb_recon_backend *b, const char *from, const char *to)
{
	char got_from[SB_TIME_BUFSZ], got_to[SB_TIME_BUFSZ];

	sb_time_format(b->window.from_ms, got_from);
	sb_time_format(b->window.to_ms, got_to);
	if (strcmp(got_from, from) != 0 || strcmp(got_to, to) != 0)
		fail_msg("%s: window %s .. %s, want %s .. %s", b->backend, got_from, got_to, from, to);
}

/* ---- statuses: precedence, flags, tolerance ----------------------------- */

/* The precedence table: each status alone, then every adjacent pair (both
 * conditions hold: the higher wins), over and under sharing one rank. */
static void test_precedence_table(void **state)
{
	static const struct { unsigned cond; sb_recon_status status; } order[] = {
		{SB_COND_PENDING, SB_STATUS_PENDING}, {SB_COND_CURRENCY, SB_STATUS_CURRENCY},
		{SB_COND_NO_RATE, SB_STATUS_NO_RATE}, {SB_COND_PARTIAL, SB_STATUS_PARTIAL},
		{SB_COND_UNEXPECTED, SB_STATUS_UNEXPECTED}, {SB_COND_UNBILLED, SB_STATUS_UNBILLED},
		{SB_COND_OVER, SB_STATUS_OVER_BILLED},
	};
	size_t n = sizeof order / sizeof order[0];

	(void)state;
	assert_int_equal(sb_recon_status_of(0), SB_STATUS_OK);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(sb_recon_status_of(order[i].cond), order[i].status);
	assert_int_equal(sb_recon_status_of(SB_COND_UNDER), SB_STATUS_UNDER_BILLED);
	for (size_t i = 0; i + 1 < n; i++)
		assert_int_equal(sb_recon_status_of(order[i].cond | order[i + 1].cond), order[i].status);
	assert_int_equal(sb_recon_status_of(SB_COND_UNBILLED | SB_COND_UNDER), SB_STATUS_UNBILLED);
	/* and the first wins over everything below it */
	assert_int_equal(sb_recon_status_of(0xffu), SB_STATUS_PENDING);
	assert_int_equal(sb_recon_status_of(0xffu & ~(unsigned)SB_COND_PENDING), SB_STATUS_CURRENCY);
}

/* The names: each status, basis and verdict reads back as itself through
 * its parse function; an unknown name (a ledger of a newer sbledger) and
 * a missing one are SB_EDATA naming it, and leave the value alone. */
static void test_status_names(void **state)
{
	static const char *const status_names[] = {
		"ok", "pending", "currency", "no_rate", "partial", "unexpected", "unbilled", "over_billed",
		"under_billed",
	};
	sb_recon_status s = SB_STATUS_OK;
	sb_recon_basis b = SB_RBASIS_NONE;
	sb_verdict v = SB_VERDICT_NONE;
	sb_err e;

	(void)state;
	/* every status has its own name, and only one */
	for (int i = 0; i <= SB_STATUS_UNDER_BILLED; i++) {
		sb_err_clear(&e);
		assert_string_equal(sb_recon_status_name((sb_recon_status)i), status_names[i]);
		assert_int_equal(sb_recon_status_parse(status_names[i], &s, &e), SB_OK);
		assert_int_equal(s, i);
	}
	for (int i = SB_RBASIS_BILLED; i <= SB_RBASIS_RUN; i++) {
		sb_err_clear(&e);
		assert_int_equal(sb_recon_basis_parse(sb_recon_basis_name((sb_recon_basis)i), &b, &e), SB_OK);
		assert_int_equal(b, i);
	}
	for (int i = SB_VERDICT_LIFETIME; i <= SB_VERDICT_UNEXPLAINED; i++) {
		sb_err_clear(&e);
		assert_int_equal(sb_verdict_parse(sb_verdict_name((sb_verdict)i), &v, &e), SB_OK);
		assert_int_equal(v, i);
	}
	assert_null(sb_recon_basis_name(SB_RBASIS_NONE));
	assert_null(sb_verdict_name(SB_VERDICT_NONE));
	assert_string_equal(sb_recon_basis_name(SB_RBASIS_METERED), "metered");
	assert_string_equal(sb_verdict_name(SB_VERDICT_RATE), "rate");
	/* an unknown name fails loudly: no default, the value untouched */
	s = SB_STATUS_PARTIAL;
	sb_err_clear(&e);
	assert_int_equal(sb_recon_status_parse("overbilled", &s, &e), SB_EDATA);
	assert_int_equal(s, SB_STATUS_PARTIAL);
	assert_non_null(strstr(e.msg, "'overbilled' is not a reconciliation status"));
	assert_non_null(strstr(e.msg, "under_billed"));
	sb_err_clear(&e);
	assert_int_equal(sb_recon_status_parse("OK", &s, &e), SB_EDATA);
	sb_err_clear(&e);
	assert_int_equal(sb_recon_status_parse(NULL, &s, &e), SB_EDATA);
	sb_err_clear(&e);
	assert_int_equal(sb_recon_basis_parse("computed", &b, &e), SB_EDATA);
	sb_err_clear(&e);
	assert_int_equal(sb_verdict_parse("", &v, &e), SB_EDATA);
}

/* The adjacent pairs that can hold at once on real lines and runs, each
 * on its own backend of one ledger (day 2027-01-12, judged 2027-01-20):
 *   pending > currency:   a EUR line without a rate, judged inside the day
 *   currency > no_rate:   a EUR line and a metered line, no per-second rate
 *   no_rate > partial:    a metered line and an account-level line ending
 *                         after the day
 *   partial > unexpected: an account-level line ending after the day, no run
 *   unexpected > over_billed: a free backend (docker) billed 0.25 with a run
 *                         computed 0 (drift 0.25 is beyond the tolerance too)
 *   over_billed > ok:     billed 0.30 for computed 0.20
 * unexpected/unbilled and unbilled/over_billed never hold together (one
 * needs billing, the other none): the table test covers them. */
static void test_precedence_scenarios(void **state)
{
	sb_db *db = fresh();
	sb_recon *r;

	(void)state;
	line_of(db, "cloudflare", NULL, "2027-01-12T01:00:00Z", "2027-01-12T02:00:00Z", "billed", 2000000000, "EUR");
	line_of(db, "e2b", NULL, "2027-01-12T01:00:00Z", "2027-01-12T02:00:00Z", "billed", 1000000000, "EUR");
	line_of(db, "e2b", NULL, "2027-01-12T03:00:00Z", "2027-01-12T03:10:00Z", "metered", 600000, "USD");
	line_of(db, "daytona", NULL, "2027-01-12T03:00:00Z", "2027-01-12T03:10:00Z", "metered", 600000, "USD");
	acct(db, "daytona", "2027-01-12T00:00:00Z", "2027-02-01T00:00:00Z", 5000000000);
	acct(db, "runloop", "2027-01-12T00:00:00Z", "2027-02-01T00:00:00Z", 5000000000);
	acct(db, "docker", "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z", 250000000);
	acct(db, "modal", "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z", 300000000);
	run_of(db, "c1", "cloudflare", "2027-01-12T05:00:00Z", 60, "0.05");
	run_of(db, "e1", "e2b", "2027-01-12T05:00:00Z", 60, "0.06");
	run_of(db, "d1", "daytona", "2027-01-12T05:00:00Z", 60, "0.08");
	run_of(db, "k1", "docker", "2027-01-12T05:00:00Z", 60, "0");
	run_of(db, "m1", "modal", "2027-01-12T05:00:00Z", 120, "0.20");

	r = run_at(db, "2027-01-12", "2027-01-12T23:00:00Z", SB_DEFAULT_LAG_MS);
	assert_int_equal(backend(r, "cloudflare")->status, SB_STATUS_PENDING);
	assert_false(backend(r, "cloudflare")->flagged);
	sb_recon_free(r);
	r = run_at(db, "2027-01-12", "2027-01-20T00:00:00Z", SB_DEFAULT_LAG_MS);
	assert_int_equal(backend(r, "cloudflare")->status, SB_STATUS_CURRENCY);
	assert_int_equal(backend(r, "e2b")->status, SB_STATUS_CURRENCY);
	assert_int_equal(backend(r, "daytona")->status, SB_STATUS_NO_RATE);
	assert_int_equal(backend(r, "runloop")->status, SB_STATUS_PARTIAL);
	assert_int_equal(backend(r, "docker")->status, SB_STATUS_UNEXPECTED);
	assert_int_equal(backend(r, "modal")->status, SB_STATUS_OVER_BILLED);
	for (size_t i = 0; i < r->n_backends; i++)
		assert_true(r->backends[i].flagged);
	assert_int_equal(r->flagged_backends, 6);
	sb_recon_free(r);
	sb_db_close(db);
}

/* |drift| > max(abs, rel x computed), exact: at the tolerance not
 * flagged, a nanodollar over flagged, on each branch. */
static void test_tolerance_exact(void **state)
{
	(void)state;
	/* abs branch: computed 100,000,000 (0.10): rel x computed = 5,000,000 <
	 * abs 10,000,000 */
	assert_false(sb_recon_beyond(10000000, 100000000, 10000000, 50000000));
	assert_false(sb_recon_beyond(9999999, 100000000, 10000000, 50000000));
	assert_true(sb_recon_beyond(10000001, 100000000, 10000000, 50000000));
	assert_false(sb_recon_beyond(-10000000, 100000000, 10000000, 50000000));
	assert_true(sb_recon_beyond(-10000001, 100000000, 10000000, 50000000));
	/* rel branch: computed 1,000,000,000: 0.05 x computed = 50,000,000 */
	assert_false(sb_recon_beyond(50000000, 1000000000, 10000000, 50000000));
	assert_false(sb_recon_beyond(49999999, 1000000000, 10000000, 50000000));
	assert_true(sb_recon_beyond(50000001, 1000000000, 10000000, 50000000));
	assert_false(sb_recon_beyond(-50000000, 1000000000, 10000000, 50000000));
	assert_true(sb_recon_beyond(-50000001, 1000000000, 10000000, 50000000));
	/* no rounding before the comparison: 0.05 x 1,000,000,030 =
	 * 50,000,001.5, which half to even would make 50,000,002 (and leave
	 * 50,000,002 unflagged) */
	assert_true(sb_recon_beyond(50000002, 1000000030, 10000000, 50000000));
	assert_false(sb_recon_beyond(50000001, 1000000030, 10000000, 50000000));
	/* 0.05 x 1,000,000,010 = 50,000,000.5: rounding it up would leave
	 * 50,000,001 unflagged */
	assert_true(sb_recon_beyond(50000001, 1000000010, 10000000, 50000000));
	/* the extremes fit in 128 bits: |drift| 2^64 - 1 against 2 x
	 * (2^63 - 1) = 2^64 - 2 (rel 2, computed INT64_MAX) is beyond it by one
	 * nanodollar; against rel 2.000000001 it is not */
	assert_true(sb_recon_beyond((__int128)INT64_MAX - INT64_MIN, INT64_MAX, 0, 1));
	assert_true(sb_recon_beyond((__int128)INT64_MAX - INT64_MIN, INT64_MAX, 0, 2000000000));
	assert_false(sb_recon_beyond((__int128)INT64_MAX - INT64_MIN, INT64_MAX, 0, 2000000001));
	assert_false(sb_recon_beyond(0, INT64_MAX, 0, INT64_MAX));
}

/* The same edges through the reconciler: modal computed 0.10 (abs branch)
 * and runloop computed 1.00 (rel branch), billed at, a nanodollar under
 * and a nanodollar over the tolerance, each way. */
static void test_tolerance_edges_reconciled(void **state)
{
	static const struct { int64_t billed; const char *modal; int64_t billed_rel; const char *runloop; } cases[] = {
		{110000000, "ok", 1050000000, "ok"},
		{109999999, "ok", 1049999999, "ok"},
		{110000001, "over_billed", 1050000001, "over_billed"},
		{90000000, "ok", 950000000, "ok"},
		{89999999, "under_billed", 949999999, "under_billed"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sb_db *db = fresh();
		sb_recon *r;
		run_of(db, "m", "modal", "2027-01-12T05:00:00Z", 60, "0.10");
		run_of(db, "r", "runloop", "2027-01-12T05:00:00Z", 600, "1.00");
		acct(db, "modal", "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z", cases[i].billed);
		acct(db, "runloop", "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z", cases[i].billed_rel);
		r = run_at(db, "2027-01-12", "2027-01-20T00:00:00Z", SB_DEFAULT_LAG_MS);
		assert_string_equal(sb_recon_status_name(backend(r, "modal")->status), cases[i].modal);
		assert_string_equal(sb_recon_status_name(backend(r, "runloop")->status), cases[i].runloop);
		sb_recon_free(r);
		sb_db_close(db);
	}
}

/* Flags: unbilled once the window ended more than the lag ago (exactly
 * the lag: not yet), pending never, the others always. */
static void test_flags_and_lag(void **state)
{
	sb_db *db = fresh();
	sb_recon *r;

	(void)state;
	assert_false(sb_recon_flags(SB_STATUS_UNBILLED, 1000, 1000 + SB_DEFAULT_LAG_MS, SB_DEFAULT_LAG_MS));
	assert_true(sb_recon_flags(SB_STATUS_UNBILLED, 1000, 1001 + SB_DEFAULT_LAG_MS, SB_DEFAULT_LAG_MS));
	assert_false(sb_recon_flags(SB_STATUS_UNBILLED, 1000, 500, SB_DEFAULT_LAG_MS));
	assert_false(sb_recon_flags(SB_STATUS_PENDING, 0, INT64_MAX, 0));
	assert_false(sb_recon_flags(SB_STATUS_OK, 0, INT64_MAX, 0));
	assert_true(sb_recon_flags(SB_STATUS_CURRENCY, INT64_MAX, INT64_MIN, INT64_MAX));
	assert_true(sb_recon_flags(SB_STATUS_NO_RATE, 0, 0, 0));
	assert_true(sb_recon_flags(SB_STATUS_PARTIAL, 0, 0, 0));
	assert_true(sb_recon_flags(SB_STATUS_UNEXPECTED, 0, 0, 0));
	assert_true(sb_recon_flags(SB_STATUS_OVER_BILLED, 0, 0, 0));
	assert_true(sb_recon_flags(SB_STATUS_UNDER_BILLED, 0, 0, 0));
	assert_true(sb_recon_flags(SB_STATUS_UNBILLED, INT64_MIN, INT64_MAX, INT64_MAX));

	/* blaxel computed 0.09 on 2027-01-12, no bill: the day ended
	 * 2027-01-13T00:00Z; with the default 72 h, flagged after 01-16T00:00Z */
	run_of(db, "b", "blaxel", "2027-01-12T05:00:00Z", 60, "0.09");
	r = run_at(db, "2027-01-12", "2027-01-16T00:00:00Z", SB_DEFAULT_LAG_MS);
	assert_int_equal(backend(r, "blaxel")->status, SB_STATUS_UNBILLED);
	assert_false(backend(r, "blaxel")->flagged);
	assert_int_equal(r->flagged, 0);
	sb_recon_free(r);
	r = run_at(db, "2027-01-12", "2027-01-16T00:00:00.001Z", SB_DEFAULT_LAG_MS);
	assert_true(backend(r, "blaxel")->flagged);
	assert_int_equal(r->flagged_backends, 1);
	sb_recon_free(r);
	/* --billing-lag 0: flagged as soon as the window ended */
	r = run_at(db, "2027-01-12", "2027-01-13T00:00:00Z", 0);
	assert_false(backend(r, "blaxel")->flagged);
	sb_recon_free(r);
	r = run_at(db, "2027-01-12", "2027-01-13T00:00:00.001Z", 0);
	assert_true(backend(r, "blaxel")->flagged);
	sb_recon_free(r);
	sb_db_close(db);
}

/* Pending while the window has not ended: one millisecond before its end
 * pending, at its end judged. */
static void test_pending_edge(void **state)
{
	sb_db *db = fresh();
	sb_recon *r;

	(void)state;
	run_of(db, "m", "modal", "2027-01-12T05:00:00Z", 60, "0.10");
	acct(db, "modal", "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z", 500000000);
	r = run_at(db, "2027-01-12", "2027-01-12T23:59:59.999Z", SB_DEFAULT_LAG_MS);
	assert_int_equal(backend(r, "modal")->status, SB_STATUS_PENDING);
	assert_false(backend(r, "modal")->flagged);
	assert_int_equal(r->pending, 1);
	assert_int_equal(r->flagged, 0);
	sb_recon_free(r);
	r = run_at(db, "2027-01-12", "2027-01-13T00:00:00Z", SB_DEFAULT_LAG_MS);
	assert_int_equal(backend(r, "modal")->status, SB_STATUS_OVER_BILLED);
	assert_int_equal(r->pending, 0);
	sb_recon_free(r);
	sb_db_close(db);
}

/* Windows are half open: a line starting exactly at the end of the day
 * belongs to the next day, one starting at its first millisecond to it.
 * Modal 2027-01-12: run 0.10, line [01-12, 01-13) 0.10: billed 0.10, ok;
 * the line [01-13, 01-14) 0.50 is the next day's (unexpected there: no
 * run).  Counted in both, 01-12 would be billed 0.60, over_billed. */
static void test_line_at_window_end(void **state)
{
	sb_db *db = fresh();
	sb_recon *r;

	(void)state;
	run_of(db, "m", "modal", "2027-01-12T05:00:00Z", 60, "0.10");
	acct(db, "modal", "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z", 100000000);
	acct(db, "modal", "2027-01-13T00:00:00Z", "2027-01-14T00:00:00Z", 500000000);
	r = run_at(db, "2027-01-12", "2027-01-20T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect(r, "modal", "ok", "billed", 1, 100000000, 100000000);
	sb_recon_free(r);
	r = run_at(db, "2027-01-13", "2027-01-20T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect(r, "modal", "unexpected", "billed", 0, 0, 500000000);
	sb_recon_free(r);
	/* the two days together: both lines, the run */
	r = run_at(db, "2027-01-12..2027-01-14", "2027-01-20T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect(r, "modal", "over_billed", "billed", 1, 100000000, 600000000);
	sb_recon_free(r);
	sb_db_close(db);
}

/* The period's end is excluded for a line naming a session too, where
 * the lines are read past the period because a grid window (Vercel's
 * Pacific day, to 2027-01-13T08:00Z) reaches past it: session s-b's line
 * starting exactly at 2027-01-13T00:00Z is the next day's.  Judged
 * 2027-01-12: s-a's line 0.10 against run a's 0.10, ok, and nothing of
 * s-b.  Counted, the day would be billed 0.60, over_billed. */
static void test_session_line_at_period_end(void **state)
{
	sb_db *db = fresh();
	sb_recon *r;

	(void)state;
	/* the grid: Pacific days around (none starting in the judged day) */
	acct(db, "vercel", "2027-01-11T08:00:00Z", "2027-01-12T08:00:00Z", 0);
	acct(db, "vercel", "2027-01-13T08:00:00Z", "2027-01-14T08:00:00Z", 0);
	run_of(db, "a", "vercel", "2027-01-12T05:00:00Z", 60, "0.10");
	line_of(db, "vercel", "s-a", "2027-01-12T05:00:00Z", "2027-01-12T05:01:00Z", "billed", 100000000, "USD");
	line_of(db, "vercel", "s-b", "2027-01-13T00:00:00Z", "2027-01-13T00:01:00Z", "billed", 500000000, "USD");
	r = run_at(db, "2027-01-12", "2027-01-20T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect(r, "vercel", "ok", "billed", 1, 100000000, 100000000);
	assert_int_equal(r->flagged_sessions, 0);
	sb_recon_free(r);
	/* the next day has it (partial there: the grid's line of 01-13T08:00Z
	 * ends after the day) */
	r = run_at(db, "2027-01-13", "2027-01-20T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect(r, "vercel", "partial", "billed", 0, 0, 500000000);
	sb_recon_free(r);
	sb_db_close(db);
}

/* ---- windows ------------------------------------------------------------ */

/* Vercel's Pacific days (winter: 08:00Z to 08:00Z), two services a day.
 * UTC 2027-01-12 is judged over [01-12T08:00Z, 01-13T08:00Z): the run at
 * 01-12T03:00Z (0.05) belongs to the day before, the one at 01-13T03:00Z
 * (0.07) to this one.  Consecutive days tile: 01-11 + 01-12 = 01-11..01-13. */
static void test_window_pacific_days(void **state)
{
	sb_db *db = fresh();
	sb_recon *r, *r2;
	const sb_recon_backend *b;

	(void)state;
	for (int d = 9; d <= 14; d++) {
		char s[40], e[40];
		snprintf(s, sizeof s, "2027-01-%02dT08:00:00.000Z", d);
		snprintf(e, sizeof e, "2027-01-%02dT08:00:00.000Z", d + 1);
		acct(db, "vercel", s, e, 100000000 + d);
		acct(db, "vercel", s, e, 10000000);
	}
	run_of(db, "a", "vercel", "2027-01-11T12:00:00Z", 60, "0.10");
	run_of(db, "b", "vercel", "2027-01-12T03:00:00Z", 25, "0.05");
	run_of(db, "c", "vercel", "2027-01-12T20:00:00Z", 50, "0.11");
	run_of(db, "d", "vercel", "2027-01-13T03:00:00Z", 35, "0.07");
	r = run_at(db, "2027-01-12", "2027-01-20T00:00:00Z", SB_DEFAULT_LAG_MS);
	b = backend(r, "vercel");
	expect_window(b, "2027-01-12T08:00:00Z", "2027-01-13T08:00:00Z");
	assert_int_equal(b->grid_ms, SB_GRID_DAY_MS);
	/* runs c and d: 110,000,000 + 70,000,000; lines 100,000,012 + 10,000,000 */
	assert_int_equal(b->runs, 2);
	assert_int_equal(b->computed_nanos, 180000000);
	assert_int_equal(b->billed_nanos, 110000012);
	sb_recon_free(r);
	/* the day before: runs a and b, 150,000,000; lines 110,000,011 */
	r = run_at(db, "2027-01-11", "2027-01-20T00:00:00Z", SB_DEFAULT_LAG_MS);
	b = backend(r, "vercel");
	expect_window(b, "2027-01-11T08:00:00Z", "2027-01-12T08:00:00Z");
	assert_int_equal(b->computed_nanos, 150000000);
	assert_int_equal(b->billed_nanos, 110000011);
	r2 = run_at(db, "2027-01-11..2027-01-13", "2027-01-20T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r2, "vercel"), "2027-01-11T08:00:00Z", "2027-01-13T08:00:00Z");
	assert_int_equal(backend(r2, "vercel")->computed_nanos, 150000000 + 180000000);
	assert_int_equal(backend(r2, "vercel")->billed_nanos, 110000011 + 110000012);
	sb_recon_free(r2);
	sb_recon_free(r);
	/* the window not ended at the time of the reconcile: pending */
	r = run_at(db, "2027-01-12", "2027-01-13T07:59:59Z", SB_DEFAULT_LAG_MS);
	assert_int_equal(backend(r, "vercel")->status, SB_STATUS_PENDING);
	sb_recon_free(r);
	sb_db_close(db);
}

/* A DST change each way: Pacific days are 23 h on 2027-03-14 (08:00Z to
 * 07:00Z) and 25 h on 2027-11-07 (07:00Z to 08:00Z); the starts have two
 * phases an hour apart.  Still one grid: the windows follow the lines'
 * own edges and tile. */
static void test_window_dst(void **state)
{
	sb_db *db = fresh();
	sb_recon *r;

	(void)state;
	acct(db, "vercel", "2027-03-12T08:00:00Z", "2027-03-13T08:00:00Z", 1);
	acct(db, "vercel", "2027-03-13T08:00:00Z", "2027-03-14T08:00:00Z", 2);
	acct(db, "vercel", "2027-03-14T08:00:00Z", "2027-03-15T07:00:00Z", 4);
	acct(db, "vercel", "2027-03-15T07:00:00Z", "2027-03-16T07:00:00Z", 8);
	acct(db, "vercel", "2027-03-16T07:00:00Z", "2027-03-17T07:00:00Z", 16);
	r = run_at(db, "2027-03-13", "2027-04-01T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-03-13T08:00:00Z", "2027-03-14T08:00:00Z");
	sb_recon_free(r);
	r = run_at(db, "2027-03-14", "2027-04-01T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-03-14T08:00:00Z", "2027-03-15T07:00:00Z");
	assert_int_equal(backend(r, "vercel")->billed_nanos, 4);
	assert_int_equal(backend(r, "vercel")->status, SB_STATUS_UNEXPECTED);
	sb_recon_free(r);
	r = run_at(db, "2027-03-15", "2027-04-01T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-03-15T07:00:00Z", "2027-03-16T07:00:00Z");
	assert_int_equal(backend(r, "vercel")->billed_nanos, 8);
	sb_recon_free(r);
	/* the 23-hour day's line not there yet (nor any after it): the window's
	 * end is one step past the last edge known, 08:00Z, and the window has
	 * not ended: pending; once the line is there, the window ends on its
	 * end, 07:00Z */
	support_exec(db, "DELETE FROM billing_line WHERE amount_nanos >= 4");
	run_of(db, "x", "vercel", "2027-03-14T12:00:00Z", 60, "0.12");
	r = run_at(db, "2027-03-14", "2027-03-14T20:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-03-14T08:00:00Z", "2027-03-15T08:00:00Z");
	assert_int_equal(backend(r, "vercel")->status, SB_STATUS_PENDING);
	sb_recon_free(r);
	acct(db, "vercel", "2027-03-14T08:00:00Z", "2027-03-15T07:00:00Z", 120000000);
	r = run_at(db, "2027-03-14", "2027-04-01T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-03-14T08:00:00Z", "2027-03-15T07:00:00Z");
	assert_int_equal(backend(r, "vercel")->status, SB_STATUS_OK);
	sb_recon_free(r);

	/* autumn: the 25-hour day */
	acct(db, "vercel", "2027-11-05T07:00:00Z", "2027-11-06T07:00:00Z", 1);
	acct(db, "vercel", "2027-11-06T07:00:00Z", "2027-11-07T07:00:00Z", 2);
	acct(db, "vercel", "2027-11-07T07:00:00Z", "2027-11-08T08:00:00Z", 4);
	acct(db, "vercel", "2027-11-08T08:00:00Z", "2027-11-09T08:00:00Z", 8);
	r = run_at(db, "2027-11-07", "2027-12-01T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-11-07T07:00:00Z", "2027-11-08T08:00:00Z");
	assert_int_equal(backend(r, "vercel")->billed_nanos, 4);
	sb_recon_free(r);
	r = run_at(db, "2027-11-08", "2027-12-01T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-11-08T08:00:00Z", "2027-11-09T08:00:00Z");
	sb_recon_free(r);
	sb_db_close(db);
}

/* Where the grid's edges come from when lines are missing: between two
 * lines a week apart, whole days from the earlier; past the last one, whole
 * days from it; before the first, whole days back from it. */
static void test_window_gaps(void **state)
{
	sb_db *db = fresh();
	sb_recon *r;

	(void)state;
	acct(db, "vercel", "2027-01-10T08:00:00Z", "2027-01-11T08:00:00Z", 1);
	acct(db, "vercel", "2027-01-17T08:00:00Z", "2027-01-18T08:00:00Z", 2);
	run_of(db, "g1", "vercel", "2027-01-14T12:00:00Z", 60, "0.12");
	run_of(db, "g2", "vercel", "2027-01-05T12:00:00Z", 60, "0.12");
	run_of(db, "g3", "vercel", "2027-01-21T12:00:00Z", 60, "0.12");
	r = run_at(db, "2027-01-14", "2027-02-01T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-01-14T08:00:00Z", "2027-01-15T08:00:00Z");
	assert_int_equal(backend(r, "vercel")->status, SB_STATUS_UNBILLED);
	sb_recon_free(r);
	r = run_at(db, "2027-01-05", "2027-02-01T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-01-05T08:00:00Z", "2027-01-06T08:00:00Z");
	sb_recon_free(r);
	r = run_at(db, "2027-01-21", "2027-02-01T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-01-21T08:00:00Z", "2027-01-22T08:00:00Z");
	sb_recon_free(r);
	/* more than a week from any line: no grid seen, the period itself */
	r = run_at(db, "2027-01-28", "2027-02-10T00:00:00Z", SB_DEFAULT_LAG_MS);
	assert_int_equal(r->n_backends, 0);
	sb_recon_free(r);
	sb_db_close(db);
}

/* Hours off the UTC edges (a half-hour zone) are a grid too; hours and
 * days on the UTC edges are not windows (the period itself). */
static void test_window_hours_and_utc(void **state)
{
	sb_db *db = fresh();
	sb_recon *r;

	(void)state;
	for (int h = 20; h < 24; h++) {
		char s[40], e[40];
		snprintf(s, sizeof s, "2027-01-11T%02d:30:00Z", h);
		if (h < 23)
			snprintf(e, sizeof e, "2027-01-11T%02d:30:00Z", h + 1);
		else
			snprintf(e, sizeof e, "2027-01-12T00:30:00Z");
		acct(db, "runloop", s, e, 1);
	}
	acct(db, "runloop", "2027-01-12T00:30:00Z", "2027-01-12T01:30:00Z", 1);
	acct(db, "modal", "2027-01-11T00:00:00Z", "2027-01-12T00:00:00Z", 1);
	acct(db, "modal", "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z", 2);
	acct(db, "daytona", "2027-01-12T05:00:00Z", "2027-01-12T06:00:00Z", 1);
	r = run_at(db, "2027-01-12", "2027-02-01T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "runloop"), "2027-01-12T00:30:00Z", "2027-01-13T00:30:00Z");
	assert_int_equal(backend(r, "runloop")->grid_ms, SB_GRID_HOUR_MS);
	expect_window(backend(r, "modal"), "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z");
	assert_int_equal(backend(r, "modal")->grid_ms, 0);
	expect_window(backend(r, "daytona"), "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z");
	sb_recon_free(r);
	sb_db_close(db);
}

/* Lines that are not one grid: Pacific days with a monthly line among
 * them, days of two phases hours apart, overlapping days.  Each backend
 * is then judged over the period itself, and a day line crossing its end
 * is partial. */
static void test_window_not_one_grid(void **state)
{
	sb_db *db = fresh();
	sb_recon *r;

	(void)state;
	acct(db, "vercel", "2027-01-11T08:00:00Z", "2027-01-12T08:00:00Z", 1);
	acct(db, "vercel", "2027-01-12T08:00:00Z", "2027-01-13T08:00:00Z", 1);
	acct(db, "vercel", "2027-01-01T08:00:00Z", "2027-02-01T08:00:00Z", 1);
	acct(db, "runloop", "2027-01-11T08:00:00Z", "2027-01-12T08:00:00Z", 1);
	acct(db, "runloop", "2027-01-12T05:00:00Z", "2027-01-13T05:00:00Z", 1);
	acct(db, "modal", "2027-01-11T08:00:00Z", "2027-01-12T08:00:00Z", 1);
	acct(db, "modal", "2027-01-12T07:00:00Z", "2027-01-13T07:00:00Z", 1);
	r = run_at(db, "2027-01-12", "2027-02-10T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z");
	assert_int_equal(backend(r, "vercel")->status, SB_STATUS_PARTIAL);
	assert_int_equal(backend(r, "vercel")->partial_end_ms, T("2027-01-13T08:00:00Z"));
	expect_window(backend(r, "runloop"), "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z");
	expect_window(backend(r, "modal"), "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z");
	sb_recon_free(r);
	sb_db_close(db);
}

/* A backend whose lines name sessions in the period is judged over the
 * period, its account-level Pacific days too; a session's line running
 * past the period's end is never partial (it belongs to the period holding
 * its start, as its runs do). */
static void test_window_session_lines(void **state)
{
	sb_db *db = fresh();
	sb_recon *r;

	(void)state;
	acct(db, "vercel", "2027-01-11T08:00:00Z", "2027-01-12T08:00:00Z", 1);
	acct(db, "vercel", "2027-01-12T08:00:00Z", "2027-01-13T08:00:00Z", 1);
	line_of(db, "vercel", "s-v", "2027-01-12T23:00:00Z", "2027-01-13T02:00:00Z", "billed", 120000000, "USD");
	line_of(db, "modal", "s-m", "2027-01-12T23:00:00Z", "2027-01-13T02:00:00Z", "billed", 120000000, "USD");
	run_of(db, "v", "vercel", "2027-01-12T23:00:00Z", 60, "0.12");
	run_of(db, "m", "modal", "2027-01-12T23:00:00Z", 60, "0.12");
	r = run_at(db, "2027-01-12", "2027-02-10T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z");
	assert_int_equal(backend(r, "vercel")->status, SB_STATUS_PARTIAL);
	assert_int_equal(backend(r, "modal")->status, SB_STATUS_OK);
	assert_int_equal(backend(r, "modal")->billed_nanos, 120000000);
	sb_recon_free(r);
	sb_db_close(db);
}

/* A line of no length (the charges API has them, at a day's first
 * instant) leaves the grid alone and counts in the window holding its
 * start, never partial; a period shorter than one step of the grid is
 * judged as given. */
static void test_window_instant_line_and_short_period(void **state)
{
	sb_db *db = fresh();
	sb_recon *r;

	(void)state;
	acct(db, "vercel", "2027-01-11T08:00:00Z", "2027-01-12T08:00:00Z", 100000000);
	acct(db, "vercel", "2027-01-12T08:00:00Z", "2027-01-13T08:00:00Z", 60000000);
	acct(db, "vercel", "2027-01-12T08:00:00Z", "2027-01-12T08:00:00Z", 20000000);
	acct(db, "vercel", "2027-01-13T08:00:00Z", "2027-01-13T08:00:00Z", 5000000);
	run_of(db, "v", "vercel", "2027-01-12T10:00:00Z", 40, "0.08");
	r = run_at(db, "2027-01-12", "2027-02-10T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-01-12T08:00:00Z", "2027-01-13T08:00:00Z");
	assert_int_equal(backend(r, "vercel")->billed_nanos, 80000000);
	assert_int_equal(backend(r, "vercel")->status, SB_STATUS_OK);
	sb_recon_free(r);
	/* six hours, no edge inside: the period itself; nothing starts in it */
	r = run_at(db, "2027-01-12T00:00:00Z..2027-01-12T06:00:00Z", "2027-02-10T00:00:00Z", SB_DEFAULT_LAG_MS);
	assert_int_equal(r->n_backends, 0);
	sb_recon_free(r);
	/* ten hours, across the 08:00Z edge: [08:00Z, 08:00Z next day) */
	r = run_at(db, "2027-01-12T00:00:00Z..2027-01-12T10:00:00Z", "2027-02-10T00:00:00Z", SB_DEFAULT_LAG_MS);
	expect_window(backend(r, "vercel"), "2027-01-12T08:00:00Z", "2027-01-13T08:00:00Z");
	sb_recon_free(r);
	sb_db_close(db);
}

/* A drift past 64 bits is an error, never a wrap. */
static void test_drift_overflow(void **state)
{
	sb_db *db = fresh();
	sb_recon_opts o = {{0, 0}, SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB, false, true, 0, false, 0};
	sb_recon *r = NULL;
	sb_err e;

	(void)state;
	acct(db, "modal", "2027-01-12T00:00:00Z", "2027-01-13T00:00:00Z", -INT64_MAX);
	run_of(db, "m", "modal", "2027-01-12T05:00:00Z", 60, "0.10");
	o.now_ms = T("2027-02-01T00:00:00Z");
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_period_parse("2027-01-12", 0, &o.period, &e));
	assert_sb_fails(&e, sb_reconcile(db, &o, &r, &e), SB_EDATA, "drift of modal overflows");
	assert_null(r);
	sb_db_close(db);
}

/* ---- words -------------------------------------------------------------- */

/* The words agree with the figures: no "rate" verdict against the drift's
 * direction, the card's error with its direction and size, no_rate with
 * the command that sets the missing rates keeping the per-minute one. */
static void test_words(void **state)
{
	sb_db *db = samples_ledger();
	sb_recon *r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	char text[2048];
	sb_card card;
	sb_err e;

	(void)state;
	/* runloop: over-billed; its FOCUS line states 1 minute consumed, so
	 * the rate verdict reads the provider's rate per minute billed
	 * (0.2454088 / 1), never the lower one per minute of session life;
	 * never "too high"; rates with 9 decimals */
	assert_true(sb_recon_words(r, backend(r, "runloop"), NULL, text, sizeof text));
	assert_null(strstr(text, "too high"));
	assert_null(strstr(text, "session life"));
	assert_non_null(strstr(text, "the provider bills 0.245408800 per minute billed (1.000 minutes on its lines) "
	                             "and the card says 0.100000000: the card is too low by 0.145408800 per minute"));
	/* modal: over-billed at 1,713,447,000 x 60000 / 922,358 = 111,460,864.4
	 * per minute, half to even 111,460,864; 11,460,864 above the card's
	 * 100,000,000: 11.46% */
	assert_true(sb_recon_words(r, backend(r, "modal"), NULL, text, sizeof text));
	assert_non_null(strstr(text, "the card is too low by 0.011460864 per minute (11.46% of the card's rate)"));
	assert_true(sb_recon_words(r, backend(r, "daytona"), NULL, text, sizeof text));
	assert_non_null(strstr(text, "billed 1.619357 is the session lifetime at the card rate (1.619357; "
	                             "boot and idle are 0.558781 of it)"));
	/* its command begins as sbledger was run: program and ledger */
	assert_true(sb_recon_words(r, backend(r, "e2b"), &(sb_invocation){"./sbledger", "my ledger.db"}, text,
	                           sizeof text));
	assert_non_null(strstr(text, ": ./sbledger --db 'my ledger.db' rates set e2b --usd-per-minute 0.060000000 "
	                             "--usd-per-cpu-second Y --usd-per-gb-second Z --from 1970-01-01"));
	assert_true(sb_recon_words(r, backend(r, "blaxel"), NULL, text, sizeof text));
	assert_non_null(strstr(text, "the bill is missing"));
	assert_false(sb_recon_words(r, backend(r, "vercel"), NULL, text, sizeof text));
	assert_string_equal(text, "");
	sb_recon_free(r);

	/* the fix the docs give (E2B's per-second prices, keeping 0.06/min):
	 * under_billed at 48,896,413 for 25.075 minutes of life: 1,950,000 per
	 * minute, 58,050,000 (96.75%) below the card: the card is too high */
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
	assert_int_equal(backend(r, "e2b")->explain.verdict, SB_VERDICT_RATE);
	assert_true(sb_recon_words(r, backend(r, "e2b"), NULL, text, sizeof text));
	assert_non_null(strstr(text, "the card is too high by 0.058050000 per minute (96.75% of the card's rate)"));
	sb_recon_free(r);

	/* a card that has the vCPU rate only: the command keeps it */
	card.has_per_gb_second = false;
	card.per_gb_second_nanos = 0;
	assert_sb_ok(&e, sb_rates_store(db, &card, "test", &e));
	r = run(db, "2026-11", SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB);
	assert_int_equal(backend(r, "e2b")->status, SB_STATUS_NO_RATE);
	assert_true(sb_recon_words(r, backend(r, "e2b"), NULL, text, sizeof text));
	assert_non_null(strstr(text, "has no price per GiB-second"));
	assert_non_null(strstr(text, "sbledger rates set e2b --usd-per-minute 0.060000000 --usd-per-cpu-second "
	                             "0.000014000 --usd-per-gb-second Z --from 1970-01-01"));
	sb_recon_free(r);

	/* pending and unbilled not flagged yet */
	r = run_at(db, "2026-11", "2026-11-30T12:00:00Z", SB_DEFAULT_LAG_MS);
	assert_true(sb_recon_words(r, backend(r, "modal"), NULL, text, sizeof text));
	assert_non_null(strstr(text, "its window ends at 2026-12-01T00:00:00Z, after the time of this reconcile"));
	sb_recon_free(r);
	r = run_at(db, "2026-11", "2026-12-02T00:00:00Z", SB_DEFAULT_LAG_MS);
	assert_true(sb_recon_words(r, backend(r, "blaxel"), NULL, text, sizeof text));
	assert_non_null(strstr(text, "flagged if none has come 72 h after the window's end, after 2026-12-04T00:00:00Z"));
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
		cmocka_unit_test(test_precedence_table),
		cmocka_unit_test(test_status_names),
		cmocka_unit_test(test_precedence_scenarios),
		cmocka_unit_test(test_tolerance_exact),
		cmocka_unit_test(test_tolerance_edges_reconciled),
		cmocka_unit_test(test_flags_and_lag),
		cmocka_unit_test(test_pending_edge),
		cmocka_unit_test(test_line_at_window_end),
		cmocka_unit_test(test_session_line_at_period_end),
		cmocka_unit_test(test_window_pacific_days),
		cmocka_unit_test(test_window_dst),
		cmocka_unit_test(test_window_gaps),
		cmocka_unit_test(test_window_hours_and_utc),
		cmocka_unit_test(test_window_not_one_grid),
		cmocka_unit_test(test_window_session_lines),
		cmocka_unit_test(test_window_instant_line_and_short_period),
		cmocka_unit_test(test_drift_overflow),
		cmocka_unit_test(test_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
