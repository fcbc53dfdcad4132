/* test_budget.c: report budget (reconcile/budget.c) on a fixture worked
 * out by hand.  Prices: m1 1.00 in / 2.00 out USD per million tokens; mx
 * has none.  Cards: the seeded ones (e2b 0.06/min, modal 0.10/min, local
 * free).  Limit: 30 minutes.
 *
 *   R1 e2b s1 10:00-10:40 (40 min), budget 2.00, m1 1,000,000 in / 100,000 out
 *      token  1,000,000 x 1 + 100,000 x 2 = 1,200,000 micro-USD = 1.200000000
 *      compute lifetime 40 x 0.06 = 2.400000000 (no bill, no own billed)
 *      total 3.60 > 2.00: over by 1.600000000; past 30 min: a cap saves
 *      10 x 0.06 = 0.600000000
 *   R2 e2b s2 5 min, own billed 0.25, budget 1.00, no tokens
 *      compute billed 0.250000000, total 0.25: within budget
 *   R3, R4 modal s3: 1 min and 2 min; the provider billed s3 1.00
 *      split 1 : 2 by lifetime: quotas 333,333,333.3 and 666,666,666.7
 *      nanodollars -> floors 333,333,333 + 666,666,666, one left to the
 *      larger remainder (R4): 0.333333333 and 0.666666667 (basis billed)
 *   R5 daytona s5, no ended_at, computed 0.05, budget 0.01, mx 10 in (no
 *      price): token unknown; compute computed 0.050000000; the known part
 *      0.05 > 0.01: over by 0.040000000
 *   R6 local s6 45 min, free: compute lifetime 0; past 30 min, a cap saves 0
 *
 *   totals: token (known) 1.200000000, unknown overall; compute 2.40 + 0.25
 *   + 0.333333333 + 0.666666667 + 0.05 + 0 = 3.700000000; savings 0.60;
 *   over budget R1, R5; past the limit R1, R6; budgets 2.00 + 1.00 + 0.01.
 */
#include "tests/support/support.h"

#include <string.h>

#include "ledger/period.h"
#include "reconcile/budget.h"
#include "report/budget_out.h"

static const char fixture[] =
	"{\"run_id\":\"R1\",\"backend\":\"e2b\",\"session_id\":\"s1\",\"started_at\":\"2026-11-05T10:00:00Z\","
	"\"ended_at\":\"2026-11-05T10:40:00Z\",\"budget_usd\":2.0,"
	"\"token_usage\":{\"model\":\"m1\",\"input_tokens\":1000000,\"output_tokens\":100000},"
	"\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06}}\n"
	"{\"run_id\":\"R2\",\"backend\":\"e2b\",\"session_id\":\"s2\",\"started_at\":\"2026-11-05T11:00:00Z\","
	"\"ended_at\":\"2026-11-05T11:05:00Z\",\"budget_usd\":1.0,"
	"\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06,"
	"\"billed_cost_usd\":0.25}}\n"
	"{\"run_id\":\"R3\",\"backend\":\"modal\",\"session_id\":\"s3\",\"started_at\":\"2026-11-06T10:00:00Z\","
	"\"ended_at\":\"2026-11-06T10:01:00Z\",\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":30000,"
	"\"computed_cost_usd\":0.05}}\n"
	"{\"run_id\":\"R4\",\"backend\":\"modal\",\"session_id\":\"s3\",\"started_at\":\"2026-11-06T11:00:00Z\","
	"\"ended_at\":\"2026-11-06T11:02:00Z\",\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":30000,"
	"\"computed_cost_usd\":0.05}}\n"
	"{\"run_id\":\"R5\",\"backend\":\"daytona\",\"session_id\":\"s5\",\"started_at\":\"2026-11-07T10:00:00Z\","
	"\"budget_usd\":0.01,\"token_usage\":{\"model\":\"mx\",\"input_tokens\":10,\"output_tokens\":0},"
	"\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":37500,\"computed_cost_usd\":0.05}}\n"
	"{\"run_id\":\"R6\",\"backend\":\"local\",\"session_id\":\"s6\",\"started_at\":\"2026-11-08T10:00:00Z\","
	"\"ended_at\":\"2026-11-08T10:45:00Z\",\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":1000,"
	"\"computed_cost_usd\":0}}";

/* The ledger with the fixture, the prices and the bill of s3. */
static int ledger_setup(void **state)
{
	sb_db *db = support_memory_ledger();

	support_add_runs(db, fixture);
	support_exec(db, "INSERT INTO model_price VALUES ('m1', 1000000000, 2000000000, 0)");
	support_exec(db, "INSERT INTO batch (batch_id, kind, format, source, status, started_ms)"
	                 " VALUES (9000, 'billing', 'record', 'test', 'complete', 0)");
	support_exec(db, "INSERT INTO billing_line (format, line_key, batch_id, line_no, backend, session_id,"
	                 " start_ms, end_ms, kind, amount_nanos, currency, correction, source_row)"
	                 " VALUES ('record', 'b1', 9000, 1, 'modal', 's3', 1793959200000, 1793966400000,"
	                 " 'billed', 1000000000, 'USD', 0, 'x')");
	*state = db;
	return 0;
}

static int ledger_teardown(void **state)
{
	sb_db_close(*state);
	return 0;
}

/* The run of b with run_id. */
static const sb_budget_run *run_of(const sb_budget *b, const char *run_id)
{
	for (size_t i = 0; i < b->n_runs; i++)
		if (strcmp(b->runs[i].run_id, run_id) == 0)
			return &b->runs[i];
	fail_msg("no run %s", run_id);
	return NULL;
}

/* The budget of period on db, built with a 30-minute limit (fails the
 * test on error); the caller frees it. */
static sb_budget *budget_of(sb_db *db, const char *period)
{
	sb_budget *b = NULL;
	sb_period p;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	assert_int_equal(sb_period_parse(period, 0, &p, &e), SB_OK);
	rc = sb_budget_build(db, &p, 30 * 60000, &b, &e);
	assert_sb_ok(&e, rc);
	return b;
}

/* Every figure of the fixture, against the hand calculation above. */
static void test_meters(void **state)
{
	sb_period p;
	sb_budget *b = NULL;
	const sb_budget_run *r;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	assert_int_equal(sb_period_parse("2026-11", 0, &p, &e), SB_OK);
	rc = sb_budget_build(*state, &p, 30 * 60000, &b, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(b->n_runs, 6);

	r = run_of(b, "R1");
	assert_true(r->has_token);
	assert_int_equal(r->token_nanos, 1200000000);
	assert_int_equal(r->compute_basis, SB_COMPUTE_LIFETIME);
	assert_int_equal(r->compute_nanos, 2400000000);
	assert_int_equal(r->total_nanos, 3600000000);
	assert_true(r->over_budget);
	assert_int_equal(r->over_nanos, 1600000000);
	assert_true(r->over_lifetime);
	assert_true(r->has_savings);
	assert_int_equal(r->savings_nanos, 600000000);

	r = run_of(b, "R2");
	assert_int_equal(r->compute_basis, SB_COMPUTE_BILLED);
	assert_int_equal(r->compute_nanos, 250000000);
	assert_false(r->over_budget);
	assert_false(r->over_lifetime);

	r = run_of(b, "R3");
	assert_int_equal(r->compute_basis, SB_COMPUTE_BILLED);
	assert_int_equal(r->compute_nanos, 333333333);
	assert_false(r->has_budget);
	r = run_of(b, "R4");
	assert_int_equal(r->compute_basis, SB_COMPUTE_BILLED);
	assert_int_equal(r->compute_nanos, 666666667);

	r = run_of(b, "R5");
	assert_false(r->has_token);
	assert_false(r->has_lifetime);
	assert_int_equal(r->compute_basis, SB_COMPUTE_COMPUTED);
	assert_int_equal(r->compute_nanos, 50000000);
	assert_true(r->over_budget);
	assert_int_equal(r->over_nanos, 40000000);

	r = run_of(b, "R6");
	assert_int_equal(r->compute_basis, SB_COMPUTE_LIFETIME);
	assert_int_equal(r->compute_nanos, 0);
	assert_true(r->over_lifetime);
	assert_true(r->has_savings);
	assert_int_equal(r->savings_nanos, 0);

	assert_false(b->has_token);
	assert_int_equal(b->token_nanos, 1200000000);
	assert_int_equal(b->compute_nanos, 3700000000);
	assert_int_equal(b->savings_nanos, 600000000);
	assert_int_equal(b->budget_nanos, 3010000000);
	assert_int_equal(b->budgeted_runs, 3);
	assert_int_equal(b->over_budget, 2);
	assert_int_equal(b->over_lifetime, 2);
	assert_int_equal(b->n_unpriced, 1);
	assert_string_equal(b->unpriced[0], "mx");
	sb_budget_free(b);
}

/* A higher limit lists nobody; an empty period lists nothing. */
static void test_limits(void **state)
{
	sb_period p;
	sb_budget *b = NULL;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	assert_int_equal(sb_period_parse("2026-11", 0, &p, &e), SB_OK);
	rc = sb_budget_build(*state, &p, 60 * 60000, &b, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(b->over_lifetime, 0);
	assert_int_equal(b->savings_nanos, 0);
	sb_budget_free(b);
	assert_int_equal(sb_period_parse("2026-12", 0, &p, &e), SB_OK);
	rc = sb_budget_build(*state, &p, 30 * 60000, &b, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(b->n_runs, 0);
	assert_true(b->has_token);
	assert_int_equal(b->total_nanos, 0);
	sb_budget_free(b);
}

/* Tokens without a model (the SDK's LLMUsage names none): the token cost
 * is unknown (null), never 0, and the run is named; no tokens and no
 * model adds 0.  By hand, e2b 0.06/min, no bills:
 *   N1 e2b 10 min, LLMUsage 12000 in / 3000 out, no model: token null;
 *      compute lifetime 10 x 0.06 = 0.600000000; total null; budget 0.50:
 *      the known part 0.60 > 0.50, over by 0.100000000
 *   N2 e2b 5 min, token_usage with 0 tokens and no model: token 0;
 *      compute 0.300000000, total 0.300000000
 *   N3 e2b 1 min, no sandbox ("sandbox_usage": null), m1 1000 in / 0 out
 *      at 1.00 per million: token 0.001000000; compute lifetime
 *      0.060000000; total 0.061000000
 *   totals: token known part 0.001000000, unknown overall; compute
 *   0.960000000 */
static void test_tokens_without_model(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_budget *b;
	const sb_budget_run *r;
	json_t *root, *ids;

	(void)state;
	support_add_runs(db,
		"{\"run_id\":\"N1\",\"backend\":\"e2b\",\"started_at\":\"2026-11-05T10:00:00Z\","
		"\"ended_at\":\"2026-11-05T10:10:00Z\",\"budget_usd\":0.5,\"token_usage\":{\"requests\":2,"
		"\"tool_calls\":0,\"total_tokens\":15000,\"input_tokens\":12000,\"input_tokens_details\":"
		"{\"cached_tokens\":0,\"cache_creation_input_tokens\":0},\"output_tokens\":3000,"
		"\"output_tokens_details\":{\"reasoning_tokens\":0},\"usage\":[]},\"sandbox_usage\":null}\n"
		"{\"run_id\":\"N2\",\"backend\":\"e2b\",\"started_at\":\"2026-11-05T11:00:00Z\","
		"\"ended_at\":\"2026-11-05T11:05:00Z\",\"token_usage\":{\"input_tokens\":0,\"output_tokens\":0},"
		"\"sandbox_usage\":null}\n"
		"{\"run_id\":\"N3\",\"backend\":\"e2b\",\"started_at\":\"2026-11-05T12:00:00Z\","
		"\"ended_at\":\"2026-11-05T12:01:00Z\",\"token_usage\":{\"model\":\"m1\",\"input_tokens\":1000},"
		"\"sandbox_usage\":null}");
	support_exec(db, "INSERT INTO model_price VALUES ('m1', 1000000000, 2000000000, 0)");
	b = budget_of(db, "2026-11");

	r = run_of(b, "N1");
	assert_false(r->has_token);
	assert_true(r->tokens_without_model);
	assert_int_equal(r->compute_nanos, 600000000);
	assert_true(r->over_budget);
	assert_int_equal(r->over_nanos, 100000000);
	r = run_of(b, "N2");
	assert_true(r->has_token);
	assert_false(r->tokens_without_model);
	assert_int_equal(r->token_nanos, 0);
	assert_int_equal(r->total_nanos, 300000000);
	r = run_of(b, "N3");
	assert_true(r->has_token);
	assert_int_equal(r->token_nanos, 1000000);
	assert_int_equal(r->total_nanos, 61000000);

	assert_false(b->has_token);
	assert_int_equal(b->token_nanos, 1000000);
	assert_int_equal(b->compute_nanos, 960000000);
	assert_int_equal(b->tokens_without_model, 1);
	assert_int_equal(b->n_unpriced, 0);

	/* JSON: the run's and the total's token cost null, the run named */
	root = sb_budget_json(b);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(root, "runs"), 0), "token_cost_usd")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(root, "runs"), 0), "run_id")), "N1");
	assert_true(json_is_null(json_object_get(json_object_get(root, "total"), "token_cost_usd")));
	ids = json_object_get(root, "tokens_without_model");
	assert_int_equal(json_array_size(ids), 1);
	assert_string_equal(json_string_value(json_array_get(ids, 0)), "N1");
	json_decref(root);
	sb_budget_free(b);
	sb_db_close(db);
}

/* A run with no bill and no rate card in force at its start has an
 * unknown compute cost, never 0 (null in JSON, and so its total), and its
 * backend is named; a free backend's run costs a known 0. */
static void test_no_card_unknown(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_budget *b;
	const sb_budget_run *r;
	json_t *root, *run0;

	(void)state;
	support_add_runs(db,
	    "{\"run_id\":\"g1\",\"backend\":\"acme-gpu\",\"started_at\":\"2026-11-05T10:00:00Z\","
	    "\"ended_at\":\"2026-11-05T10:05:00Z\",\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,"
	    "\"computed_cost_usd\":0.0,\"executions\":[{\"duration_ms\":60000,\"cost_usd\":null}]}}\n"
	    "{\"run_id\":\"l1\",\"backend\":\"local\",\"started_at\":\"2026-11-05T11:00:00Z\","
	    "\"ended_at\":\"2026-11-05T11:05:00Z\",\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,"
	    "\"computed_cost_usd\":0.0,\"executions\":[{\"duration_ms\":60000,\"cost_usd\":null}]}}\n");
	b = budget_of(db, "2026-11");
	r = run_of(b, "g1");
	assert_false(r->has_compute);
	assert_int_equal(r->compute_nanos, 0);
	r = run_of(b, "l1");
	assert_true(r->has_compute);
	assert_int_equal(r->compute_nanos, 0);
	assert_int_equal(r->compute_basis, SB_COMPUTE_LIFETIME);
	assert_false(b->has_compute);
	assert_int_equal(b->compute_unknown, 1);
	assert_int_equal(b->by_basis[SB_COMPUTE_COMPUTED], 0);
	assert_int_equal(b->n_no_card, 1);
	assert_string_equal(b->no_card[0].backend, "acme-gpu");
	assert_int_equal(b->no_card[0].first_ms, INT64_C(1793872800000));
	root = sb_budget_json(b);
	run0 = json_array_get(json_object_get(root, "runs"), 0);
	assert_string_equal(json_string_value(json_object_get(run0, "run_id")), "g1");
	assert_true(json_is_null(json_object_get(run0, "compute_cost_usd")));
	assert_true(json_is_null(json_object_get(run0, "total_cost_usd")));
	assert_true(json_is_null(json_object_get(json_object_get(root, "total"), "compute_cost_usd")));
	json_decref(root);
	sb_budget_free(b);
	sb_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_meters, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_limits, ledger_setup, ledger_teardown),
		cmocka_unit_test(test_tokens_without_model),
		cmocka_unit_test(test_no_card_unknown),
	};

	return cmocka_run_group_tests_name("budget", tests, NULL, NULL);
}
