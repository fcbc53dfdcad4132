/* test_rates.c: rate cards (ledger/rates.c) and reading them from text
 * and JSON (importers/rates_json.c): lookup by backend, plan and
 * effective date, cost_for_ms and its rounding, rate_key, storing a card
 * and repricing the runs it covers. */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/rates_json.h"
#include "ledger/money.h"
#include "ledger/rates.h"
#include "ledger/timefmt.h"

/* UTC milliseconds of an RFC 3339 timestamp (the test's own constants). */
static int64_t at(const char *ts)
{
	int64_t ms = 0;

	assert_int_equal(sb_time_parse(ts, strlen(ts), 0, &ms), SB_TIME_OK);
	return ms;
}

/* A card for backend/plan from `from` at per_minute_nanos (free when < 0). */
static sb_card card_of(const char *backend, const char *plan, const char *from,
                       int64_t per_minute_nanos)
{
	sb_card c;

	memset(&c, 0, sizeof c);
	snprintf(c.backend, sizeof c.backend, "%s", backend);
	snprintf(c.plan, sizeof c.plan, "%s", plan);
	c.effective_ms = from != NULL ? at(from) : 0;
	c.free = per_minute_nanos < 0;
	c.per_minute_nanos = c.free ? 0 : per_minute_nanos;
	return c;
}

/* Store card in db in its own transaction (as 'rates set' does); returns
 * how many stored runs it prices (sb_rates_store_counted). */
static int64_t store(sb_db *db, sb_card card)
{
	int64_t priced = 0;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_db_begin(db, &e);
	assert_sb_ok(&e, rc);
	rc = sb_rates_store_counted(db, &card, "test", &priced, &e);
	assert_sb_ok(&e, rc);
	rc = sb_db_commit(db, &e);
	assert_sb_ok(&e, rc);
	return priced;
}

/* The cards of db, loaded. */
static sb_rates *load(sb_db *db)
{
	sb_rates *rates = NULL;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_rates_load(db, &rates, &e);
	assert_sb_ok(&e, rc);
	assert_non_null(rates);
	return rates;
}

/* The usd_per_minute in nanodollars of the card found, or -1 for none. */
static int64_t found(const sb_rates *rates, const char *backend, const char *plan, const char *when)
{
	const sb_card *c = sb_rates_find(rates, backend, plan, at(when));

	return c != NULL ? c->per_minute_nanos : -1;
}

/* cost_for_ms of a card at per_minute nanos (free when < 0). */
static int64_t cost(int64_t per_minute_nanos, int64_t ms)
{
	sb_card c = card_of("x", "", NULL, per_minute_nanos);
	int64_t nanos = -777;

	assert_int_equal(sb_card_cost_for_ms(&c, ms, &nanos), SB_MONEY_OK);
	return nanos;
}

/* Group fixture: a fresh in-memory ledger per test. */
static int ledger_setup(void **state)
{
	*state = support_memory_ledger();
	return 0;
}

static int ledger_teardown(void **state)
{
	sb_db_close(*state);
	return 0;
}

static void test_seeded_card(void **state)
{
	sb_rates *rates = load(*state);
	const sb_card *c;

	assert_int_equal(found(rates, "e2b", NULL, "1970-01-01T00:00:00Z"), 60000000);
	assert_int_equal(found(rates, "e2b", NULL, "2026-11-29T02:00:00Z"), 60000000);
	assert_int_equal(found(rates, "cloudflare", NULL, "2026-11-29T02:00:00Z"), 50000000);
	assert_int_equal(found(rates, "daytona", NULL, "2026-11-29T02:00:00Z"), 80000000);
	assert_int_equal(found(rates, "blaxel", NULL, "2026-11-29T02:00:00Z"), 90000000);
	assert_int_equal(found(rates, "modal", NULL, "2026-11-29T02:00:00Z"), 100000000);
	assert_int_equal(found(rates, "runloop", NULL, "2026-11-29T02:00:00Z"), 100000000);
	assert_int_equal(found(rates, "vercel", NULL, "2026-11-29T02:00:00Z"), 120000000);
	c = sb_rates_find(rates, "docker", NULL, at("2026-11-29T02:00:00Z"));
	assert_non_null(c);
	assert_true(c->free);
	assert_false(c->has_per_cpu_second);
	/* before the epoch nothing is in force; a custom backend has no card */
	assert_int_equal(found(rates, "e2b", NULL, "1969-12-31T23:59:59.999Z"), -1);
	assert_int_equal(found(rates, "my-cloud", NULL, "2026-11-29T02:00:00Z"), -1);
	sb_rates_free(rates);
}

static void test_effective_dates(void **state)
{
	sb_db *db = *state;
	sb_rates *rates;

	store(db, card_of("e2b", "", "2026-11-03T00:00:00Z", 30000000));
	store(db, card_of("e2b", "", "2026-11-02T00:00:00Z", 120000000));
	rates = load(db);
	assert_int_equal(found(rates, "e2b", NULL, "2026-11-01T23:59:59.999Z"), 60000000);
	assert_int_equal(found(rates, "e2b", NULL, "2026-11-02T00:00:00Z"), 120000000);
	assert_int_equal(found(rates, "e2b", NULL, "2026-11-02T23:59:59.999Z"), 120000000);
	assert_int_equal(found(rates, "e2b", NULL, "2026-11-03T00:00:00Z"), 30000000);
	assert_int_equal(found(rates, "e2b", NULL, "2030-01-01T00:00:00Z"), 30000000);
	/* other backends are not affected */
	assert_int_equal(found(rates, "modal", NULL, "2026-11-03T00:00:00Z"), 100000000);
	sb_rates_free(rates);

	/* a card of the same backend, plan and instant replaces the old one */
	store(db, card_of("e2b", "", "2026-11-02T00:00:00Z", 200000000));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM rate_card WHERE backend = 'e2b'"), 3);
	rates = load(db);
	assert_int_equal(found(rates, "e2b", NULL, "2026-11-02T12:00:00Z"), 200000000);
	sb_rates_free(rates);
}

static void test_plan_with_fallback(void **state)
{
	sb_db *db = *state;
	sb_rates *rates;

	store(db, card_of("e2b", "gpu", "2026-11-02T00:00:00Z", 600000000));
	store(db, card_of("solo", "x", "2026-11-02T00:00:00Z", 1000000000));
	rates = load(db);
	/* the plan's card once it is in force ... */
	assert_int_equal(found(rates, "e2b", "gpu", "2026-11-02T00:00:00Z"), 600000000);
	/* ... the default card before, and for other or no plans */
	assert_int_equal(found(rates, "e2b", "gpu", "2026-11-01T23:59:59.999Z"), 60000000);
	assert_int_equal(found(rates, "e2b", "cpu", "2026-11-05T00:00:00Z"), 60000000);
	assert_int_equal(found(rates, "e2b", NULL, "2026-11-05T00:00:00Z"), 60000000);
	assert_int_equal(found(rates, "e2b", "", "2026-11-05T00:00:00Z"), 60000000);
	/* a backend with plan cards only: nothing for another plan */
	assert_int_equal(found(rates, "solo", "x", "2026-11-05T00:00:00Z"), 1000000000);
	assert_int_equal(found(rates, "solo", NULL, "2026-11-05T00:00:00Z"), -1);
	assert_int_equal(found(rates, "solo", "y", "2026-11-05T00:00:00Z"), -1);
	sb_rates_free(rates);
	/* a new backend is added to the capability table, capabilities unknown */
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM backend WHERE backend = 'solo' AND network IS NULL"), 1);
}

static void test_cost_for_ms(void **state)
{
	sb_card huge = card_of("x", "", NULL, INT64_MAX);
	int64_t nanos = 0;

	(void)state;
	/* e2b, 0.06 USD a minute: 60,000,000 nanos x ms / 60,000 */
	assert_int_equal(cost(60000000, 1000), 1000000);     /* 1 s = 0.001 USD */
	assert_int_equal(cost(60000000, 1), 1000);           /* 0.06 x 1/60000 min */
	assert_int_equal(cost(60000000, 60000), 60000000);   /* one minute */
	assert_int_equal(cost(60000000, 0), 0);
	assert_int_equal(cost(60000000, -5), 0);             /* max(0, ms) */
	/* half to even on the exact quotient */
	assert_int_equal(cost(30000, 1), 0);                 /* 0.5 -> 0 */
	assert_int_equal(cost(90000, 1), 2);                 /* 1.5 -> 2 */
	assert_int_equal(cost(90000, 3), 4);                 /* 4.5 -> 4 */
	assert_int_equal(cost(90000, 5), 8);                 /* 7.5 -> 8 */
	assert_int_equal(cost(90001, 1), 2);                 /* 1.500016 -> 2 */
	assert_int_equal(cost(89999, 1), 1);                 /* 1.499983 -> 1 */
	assert_int_equal(cost(50000000, 7), 5833);           /* 5833.33 */
	assert_int_equal(cost(50000000, 11), 9167);          /* 9166.67 */
	/* free: nothing, whatever the rate says */
	assert_int_equal(cost(-1, 123456), 0);
	/* overflow is an error, not a wrap */
	assert_int_equal(sb_card_cost_for_ms(&huge, INT64_MAX, &nanos), SB_MONEY_RANGE);
}

static void test_rate_key(void **state)
{
	sb_card paid = card_of("e2b", "", NULL, 60000000);
	sb_card free_card = card_of("local", "", NULL, -1);

	(void)state;
	assert_int_equal(sb_card_rate_key(&paid), 60000000);
	assert_int_equal(sb_card_rate_key(&free_card), 0);
	free_card.per_minute_nanos = 5;
	assert_int_equal(sb_card_rate_key(&free_card), 0);
}

/* The card cost of run_id, or -1 when NULL. */
static int64_t card_cost(sb_db *db, const char *run_id)
{
	if (support_is_null(db, "SELECT card_nanos FROM run WHERE run_id = %Q", run_id))
		return -1;
	return support_i64(db, "SELECT card_nanos FROM run WHERE run_id = %Q", run_id);
}

static void test_reprice(void **state)
{
	sb_db *db = *state;

	store(db, card_of("tiny", "", "1970-01-01T00:00:00Z", 90000));
	support_add_runs(db,
		/* A: e2b before the new card: 1000 + 500 ms at 0.06 */
		"{\"run_id\":\"A\",\"backend\":\"e2b\",\"started_at\":\"2026-11-01T10:00:00Z\","
		"\"sandbox_usage\":{\"exec_count\":2,\"total_duration_ms\":1500,\"executions\":["
		"{\"duration_ms\":1000},{\"duration_ms\":500}]}}\n"
		/* B: e2b after it: 2000 ms */
		"{\"run_id\":\"B\",\"backend\":\"E2bSandboxClient\",\"started_at\":\"2026-11-05T10:00:00Z\","
		"\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":2000,\"executions\":["
		"{\"duration_ms\":2000}]}}\n"
		/* C: e2b plan gpu, summary-only: its total duration, 3000 ms */
		"{\"run_id\":\"C\",\"backend\":\"e2b\",\"plan\":\"gpu\",\"started_at\":\"2026-11-05T10:00:00Z\","
		"\"sandbox_usage\":{\"exec_count\":2,\"total_duration_ms\":3000}}\n"
		/* D: modal, one minute at 0.10 */
		"{\"run_id\":\"D\",\"backend\":\"modal\",\"started_at\":\"2026-11-05T10:00:00Z\","
		"\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"executions\":["
		"{\"duration_ms\":60000}]}}\n"
		/* E: a custom backend with no card yet */
		"{\"run_id\":\"E\",\"backend\":\"acme-cloud\",\"started_at\":\"2026-11-05T10:00:00Z\","
		"\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":1500,\"executions\":["
		"{\"duration_ms\":1500}]}}\n"
		/* F: two 1 ms executions at 0.00009 a minute: each 1.5 nanos,
		 * rounded per execution to 2, so 4 (not round(3.0) = 3) */
		"{\"run_id\":\"F\",\"backend\":\"tiny\",\"started_at\":\"2026-11-05T10:00:00Z\","
		"\"sandbox_usage\":{\"exec_count\":2,\"total_duration_ms\":2,\"executions\":["
		"{\"duration_ms\":1},{\"duration_ms\":1}]}}");
	assert_int_equal(card_cost(db, "A"), 1500000);
	assert_int_equal(card_cost(db, "B"), 2000000);
	assert_int_equal(card_cost(db, "C"), 3000000);
	assert_int_equal(card_cost(db, "D"), 100000000);
	assert_int_equal(card_cost(db, "E"), -1);
	assert_int_equal(card_cost(db, "F"), 4);

	/* e2b at 0.12 from 2026-11-03: B and C double (C's plan has no card of
	 * its own yet), A keeps its card: 2 runs priced by it */
	assert_int_equal(store(db, card_of("e2b", "", "2026-11-03T00:00:00Z", 120000000)), 2);
	assert_int_equal(card_cost(db, "A"), 1500000);
	assert_int_equal(card_cost(db, "B"), 4000000);
	assert_int_equal(card_cost(db, "C"), 6000000);
	assert_int_equal(card_cost(db, "D"), 100000000);

	/* plan gpu at 0.60 from 2026-11-04: only C, 0.6 x 3000/60000 = 0.03 */
	assert_int_equal(store(db, card_of("e2b", "gpu", "2026-11-04T00:00:00Z", 600000000)), 1);
	assert_int_equal(card_cost(db, "B"), 4000000);
	assert_int_equal(card_cost(db, "C"), 30000000);

	/* a card for the custom backend prices E: 1 USD x 1500/60000 */
	assert_int_equal(store(db, card_of("acme-cloud", "", "1970-01-01T00:00:00Z", 1000000000)), 1);
	assert_int_equal(card_cost(db, "E"), 25000000);

	/* free from before A: A and later e2b runs keep their newer cards, so
	 * it prices A alone (up to the newer card of 2026-11-03) */
	assert_int_equal(store(db, card_of("e2b", "", "2026-10-01T00:00:00Z", -1)), 1);
	assert_int_equal(card_cost(db, "A"), 0);
	assert_int_equal(card_cost(db, "B"), 4000000);

	/* storing tiny's card again changes nothing: still per execution */
	assert_int_equal(store(db, card_of("tiny", "", "1970-01-01T00:00:00Z", 90000)), 1);
	assert_int_equal(card_cost(db, "F"), 4);
}

/* Card cost of the SDK's other records, at import and when repriced: a
 * partly detailed record (its listed executions, plus cost_for_ms of
 * what they leave of total_duration_ms), negative durations (priced as
 * 0 each, as cost_for_ms does), no sandbox.  By hand, e2b 0.06/min =
 * 1000 nanos a ms, tiny 0.00009/min = 1.5 nanos a ms (half to even):
 *   G tiny, exec_count 3, total 3, listed 1 + 1 ms: 2 + 2 + cost(1 ms
 *     left) 2 = 6 (cost_for_ms(3) alone would be 4.5 -> 4)
 *   H e2b, -1 + 0 + 1000 ms, total 999: 0 + 0 + 1,000,000 = 1,000,000
 *     (cost_for_ms(999) would be 999,000)
 *   I e2b, exec_count 3, total 800, listed -200: 0 + cost(1000 left)
 *     = 1,000,000
 *   J e2b, exec_count 4, total 3500, listed 500: 500,000 + cost(3000)
 *     3,000,000 = 3,500,000
 *   K e2b, "sandbox_usage": null: 0
 *   L e2b, summary-only, total 1500: 1,500,000 */
static void test_card_cost_sdk_records(void **state)
{
	sb_db *db = *state;

	store(db, card_of("tiny", "", "1970-01-01T00:00:00Z", 90000));
	support_add_runs(db,
		"{\"run_id\":\"G\",\"backend\":\"tiny\",\"started_at\":\"2026-11-05T10:00:00Z\","
		"\"sandbox_usage\":{\"exec_count\":3,\"total_duration_ms\":3,\"executions\":["
		"{\"duration_ms\":1},{\"duration_ms\":1}]}}\n"
		"{\"run_id\":\"H\",\"backend\":\"e2b\",\"started_at\":\"2026-11-05T10:00:00Z\","
		"\"sandbox_usage\":{\"exec_count\":3,\"total_duration_ms\":999,\"executions\":["
		"{\"duration_ms\":-1},{\"duration_ms\":0},{\"duration_ms\":1000}]}}\n"
		"{\"run_id\":\"I\",\"backend\":\"e2b\",\"started_at\":1793959200,"
		"\"sandbox_usage\":{\"exec_count\":3,\"total_duration_ms\":800,\"executions\":["
		"{\"duration_ms\":-200}]}}\n"
		"{\"run_id\":\"J\",\"backend\":\"e2b\",\"started_at\":\"2026-11-05T10:00:00Z\","
		"\"sandbox_usage\":{\"exec_count\":4,\"total_duration_ms\":3500,\"executions\":["
		"{\"duration_ms\":500}]}}\n"
		"{\"run_id\":\"K\",\"backend\":\"e2b\",\"started_at\":\"2026-11-05T10:00:00Z\","
		"\"token_usage\":{\"input_tokens\":5},\"sandbox_usage\":null}\n"
		"{\"run_id\":\"L\",\"backend\":\"e2b\",\"started_at\":\"2026-11-05T10:00:00Z\","
		"\"sandbox_usage\":{\"exec_count\":2,\"total_duration_ms\":1500}}");
	assert_int_equal(card_cost(db, "G"), 6);
	assert_int_equal(card_cost(db, "H"), 1000000);
	assert_int_equal(card_cost(db, "I"), 1000000);
	assert_int_equal(card_cost(db, "J"), 3500000);
	assert_int_equal(card_cost(db, "K"), 0);
	assert_int_equal(card_cost(db, "L"), 1500000);

	/* repriced by a new card (e2b 0.12 from 2026-11-03): the same rule,
	 * from the ledger's rows: each e2b figure doubles */
	store(db, card_of("e2b", "", "2026-11-03T00:00:00Z", 120000000));
	assert_int_equal(card_cost(db, "H"), 2000000);
	assert_int_equal(card_cost(db, "I"), 2000000);
	assert_int_equal(card_cost(db, "J"), 7000000);
	assert_int_equal(card_cost(db, "K"), 0);
	assert_int_equal(card_cost(db, "L"), 3000000);
	store(db, card_of("tiny", "", "1970-01-01T00:00:00Z", 90000));
	assert_int_equal(card_cost(db, "G"), 6);
}

static void test_card_from_text(void **state)
{
	int64_t now = at("2026-11-30T12:00:00Z");
	sb_card c;
	sb_err e;
	int rc;

	(void)state;
	sb_err_clear(&e);
	rc = sb_card_from_text(&c, "E2bSandboxClient", NULL, "0.06", false, "0.000014",
	                       NULL, "2026-11-02", now, &e);
	assert_sb_ok(&e, rc);
	assert_string_equal(c.backend, "e2b");
	assert_string_equal(c.plan, "");
	assert_int_equal(c.per_minute_nanos, 60000000);
	assert_true(c.has_per_cpu_second);
	assert_int_equal(c.per_cpu_second_nanos, 14000);
	assert_false(c.has_per_gb_second);
	assert_false(c.free);
	assert_int_equal(c.effective_ms, at("2026-11-02T00:00:00Z"));

	/* no from: now; exact decimal with E-notation, half to even */
	rc = sb_card_from_text(&c, "modal", "gpu", "1.5E-3", false, NULL, "0.0000000025", NULL, now, &e);
	assert_sb_ok(&e, rc);
	assert_string_equal(c.plan, "gpu");
	assert_int_equal(c.per_minute_nanos, 1500000);
	assert_int_equal(c.per_gb_second_nanos, 2);
	assert_int_equal(c.effective_ms, now);

	/* a timestamp, as 'rates --format json' prints effective_from */
	rc = sb_card_from_text(&c, "e2b", NULL, "0.06", false, NULL, NULL, "2026-11-02T10:30:00Z", now, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(c.effective_ms, at("2026-11-02T10:30:00Z"));
	rc = sb_card_from_text(&c, "e2b", NULL, "0.06", false, NULL, NULL, "1970-01-01T00:00:00Z", now, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(c.effective_ms, 0);
	rc = sb_card_from_text(&c, "local", NULL, NULL, true, NULL, NULL, "2026-11", now, &e);
	assert_sb_ok(&e, rc);
	assert_true(c.free);
	assert_int_equal(c.effective_ms, at("2026-11-01T00:00:00Z"));

	{
		static const struct {
			const char *backend, *plan, *per_minute;
			bool free;
			const char *from, *part;
		} bad[] = {
			{NULL, NULL, "1", false, NULL, "backend is missing"},
			{"Not An Id", NULL, "1", false, NULL, "not a backend id"},
			{"e2b", "", "1", false, NULL, "plan"},
			{"e2b", NULL, "-0.01", false, NULL, "negative"},
			{"e2b", NULL, "abc", false, NULL, "not a decimal"},
			{"e2b", NULL, NULL, false, NULL, "give usd_per_minute"},
			{"e2b", NULL, "0.06", true, NULL, "free card"},
			{"e2b", NULL, "0.06", false, "2026-11-02..2026-11-03", "not a date or timestamp"},
			{"e2b", NULL, "0.06", false, "2026-11-02T10:00:00", "not a date or timestamp"},
			{"e2b", NULL, "0.06", false, "soon", "not a date or timestamp"},
		};
		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			sb_err_clear(&e);
			rc = sb_card_from_text(&c, bad[i].backend, bad[i].plan, bad[i].per_minute, bad[i].free,
			                       NULL, NULL, bad[i].from, now, &e);
			assert_sb_fails(&e, rc, SB_EDATA, bad[i].part);
		}
	}
}

static void test_import_file(void **state)
{
	sb_db *db = *state;
	char *dir = support_tmpdir();
	char *good = support_path(dir, "good.json");
	char *bad = support_path(dir, "bad.json");
	size_t n = 99;
	int64_t priced = 99;
	sb_rates *rates;
	sb_err e;
	int rc;

	/* the shape 'rates --format json' prints, and that of 'rates set' */
	support_write_file(good,
		"[{\"backend\": \"e2b\", \"plan\": null, \"effective_from\": \"2026-11-02T00:00:00Z\",\n"
		"  \"usd_per_minute\": \"0.070000000\", \"usd_per_cpu_second\": null,\n"
		"  \"usd_per_gb_second\": null, \"free\": false},\n"
		" {\"backend\": \"modal\", \"plan\": \"gpu\", \"usd_per_minute\": 0.5, \"from\": \"2026-11-03\"},\n"
		" {\"backend\": \"local\", \"free\": true, \"from\": \"2026-11-03\"}]\n");
	sb_err_clear(&e);
	rc = sb_rates_import_file(db, good, &n, &priced, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(n, 3);
	assert_int_equal(priced, 0);   /* no runs in this ledger */
	rates = load(db);
	assert_int_equal(found(rates, "e2b", NULL, "2026-11-02T00:00:00Z"), 70000000);
	assert_int_equal(found(rates, "e2b", NULL, "2026-11-01T23:59:59Z"), 60000000);
	assert_int_equal(found(rates, "modal", "gpu", "2026-11-03T00:00:00Z"), 500000000);
	assert_true(sb_rates_find(rates, "local", NULL, at("2026-11-03T00:00:00Z"))->free);
	sb_rates_free(rates);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM rate_card WHERE source = 'import %q'", good), 3);

	/* one bad card: none of the file is stored */
	support_write_file(bad,
		"[{\"backend\": \"vercel\", \"usd_per_minute\": \"0.2\"},\n"
		" {\"backend\": \"daytona\", \"usd_per_minute\": \"-0.2\"}]\n");
	rc = sb_rates_import_file(db, bad, &n, &priced, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "[1]");
	assert_non_null(strstr(e.msg, "negative"));
	assert_int_equal(n, 0);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM rate_card WHERE backend = 'vercel'"), 1);

	/* a key that is no field of a card is refused, naming it and its card;
	 * one to two edits from a field suggests it, three do not */
	{
		static const struct {
			const char *json;   /* the file */
			const char *part;   /* in the message */
		} unknown[] = {
			{"[{\"backend\": \"vercel\", \"usd_per_minute\": \"0.2\", \"form\": \"2026-11-01\"}]",
			 "[0]: unknown key \"form\" (did you mean \"from\"?)"},
			{"[{\"backend\": \"vercel\", \"usd_per_minute\": \"0.2\"},\n"
			 " {\"backend\": \"vercel\", \"usd_per_minute\": \"0.3\", \"fr\": \"2026-11-01\"}]",
			 "[1]: unknown key \"fr\" (did you mean \"from\"?)"},
			{"[{\"backend\": \"vercel\", \"usd_per_minute\": \"0.2\", \"f\": \"2026-11-01\"}]",
			 "[0]: unknown key \"f\" (a card has backend, plan, usd_per_minute, free,"},
			{"[{\"backend\": \"vercel\", \"usd_per_minute\": \"0.2\", \"Free\": true}]",
			 "[0]: unknown key \"Free\" (did you mean \"free\"?)"},
			{"[{\"backend\": \"vercel\", \"usd_per_minute\": \"0.2\", \"note\": \"new card\"}]",
			 "[0]: unknown key \"note\" (a card has"},
		};
		for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
			support_write_file(bad, unknown[i].json);
			sb_err_clear(&e);
			rc = sb_rates_import_file(db, bad, &n, &priced, &e);
			assert_sb_fails(&e, rc, SB_EDATA, unknown[i].part);
			assert_int_equal(n, 0);
		}
		assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM rate_card WHERE backend = 'vercel'"), 1);
	}

	support_write_file(bad, "{\"backend\": \"vercel\"}\n");
	sb_err_clear(&e);
	rc = sb_rates_import_file(db, bad, &n, &priced, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "JSON array");

	support_write_file(bad, "[{\"backend\": \"vercel\", \"usd_per_minute\": 0.2,]\n");
	sb_err_clear(&e);
	rc = sb_rates_import_file(db, bad, &n, &priced, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "not valid JSON");

	sb_err_clear(&e);
	free(bad);
	bad = support_path(dir, "missing.json");
	rc = sb_rates_import_file(db, bad, &n, &priced, &e);
	assert_sb_fails(&e, rc, SB_ENOINPUT, "missing.json");

	free(good);
	free(bad);
	support_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_seeded_card, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_effective_dates, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_plan_with_fallback, ledger_setup, ledger_teardown),
		cmocka_unit_test(test_cost_for_ms),
		cmocka_unit_test(test_rate_key),
		cmocka_unit_test_setup_teardown(test_reprice, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_card_cost_sdk_records, ledger_setup, ledger_teardown),
		cmocka_unit_test(test_card_from_text),
		cmocka_unit_test_setup_teardown(test_import_file, ledger_setup, ledger_teardown),
	};

	return cmocka_run_group_tests_name("rates", tests, NULL, NULL);
}
