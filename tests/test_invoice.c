/* test_invoice.c: invoices (reconcile/invoice.c), their JSON and HTML, and
 * the FOCUS export (report/export_focus.c), on an in-memory ledger.
 *
 * The samples (examples/samples/runs.jsonl, 40 runs of November 2026)
 * with prices set here: gpt-5.6-terra 2.50 in / 10.00 out USD per million
 * tokens, claude-x-mini 1.00 / 4.00.  Worked out by hand per customer
 * (amounts: computed_cost_usd in nanodollars, half to even to the cent;
 * minutes: exec ms / 60000 to 3 decimals):
 *
 *   acme
 *     cloudflare  run 37: 260960 ms = 4.349 min, 217,466,667 -> 0.22
 *     daytona     run 21: 132671 ms = 2.211 min, 176,894,667 -> 0.18
 *     docker      run 01: 384602 ms = 6.410 min, 0 (free)    -> 0.00
 *     e2b         run 24: 370672 ms = 6.178 min, 370,672,000 -> 0.37
 *     local       runs 00, 10: 79401 + 67069 = 146470 ms = 2.441 min -> 0.00
 *     modal       run 17: 74855 ms = 1.248 min, 124,758,333 -> 0.12
 *     runloop     run 08: 81728 ms = 1.362 min, 136,213,333 -> 0.14
 *     claude-x-mini runs 01 10 17 21 24 37:
 *                 in 51497+57116+1994+10748+6900+56469 = 184724
 *                 out 3368+2119+6445+5295+178+7024 = 24429
 *                 184724 x 1 + 24429 x 4 = 282,440 micro-USD = 0.282440 -> 0.28
 *     gpt-5.6-terra runs 00 08: in 2667+45700 = 48367, out 8970+7418 = 16388
 *                 48367 x 2.5 + 16388 x 10 = 284,797.5 micro-USD -> 0.28
 *     total 0.22+0.18+0.37+0.12+0.14+0.28+0.28 = 1.59
 *   (untagged)  runs 18 26 39: docker 0.00, runloop 82,901,667 -> 0.08,
 *               claude 45862 x 1 + 4667 x 4 = 64,530 -> 0.06,
 *               gpt 89240 x 2.5 + 6774 x 10 = 290,840 -> 0.29; total 0.43
 *   globex      blaxel 341,151,000 -> 0.34, daytona 283,526,667 -> 0.28,
 *               e2b 349,117,000 -> 0.35, k8s 0.00, vercel 563,200,000 -> 0.56,
 *               claude 80792 + 9192 x 4 = 117,560 -> 0.12,
 *               gpt 225933 x 2.5 + 26453 x 10 = 829,362.5 -> 0.83; total 2.48
 *   initech     cloudflare 134,201,667 -> 0.13, docker 0.00, e2b 367,983,000
 *               -> 0.37, k8s 0.00, modal 800,373,333 -> 0.80, vercel
 *               622,046,000 -> 0.62, claude 161266 + 23763 x 4 = 256,318 ->
 *               0.26, gpt 62354 x 2.5 + 15939 x 10 = 315,275 -> 0.32; total 2.50
 *   umbrella    blaxel 2,007,205,500 -> 2.01, cloudflare 64,943,333 -> 0.06,
 *               daytona 600,154,666 -> 0.60, k8s 0.00, local 0.00, modal
 *               217,166,667 -> 0.22, vercel 269,948,000 -> 0.27, claude
 *               161621 + 34777 x 4 = 300,729 -> 0.30, gpt 113091 x 2.5 +
 *               21109 x 10 = 493,817.5 -> 0.49; total 3.95
 *
 * On a billed basis with the sample bills (billing-record.jsonl,
 * billing-focus.csv), see test_samples_billed.
 */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "importers/import.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "reconcile/invoice.h"
#include "reconcile/reconcile.h"
#include "report/export_focus.h"
#include "report/html.h"
#include "report/invoice_out.h"

#define SAMPLES "examples/samples/"
/* An amount in cents as nanodollars. */
#define CENTS(c) ((int64_t)(c) * INT64_C(10000000))

/* The ledger of each test. */
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

/* The period named by text ("2026-11"). */
static sb_period period_of(const char *text)
{
	sb_period p;
	sb_err e;

	sb_err_clear(&e);
	assert_int_equal(sb_period_parse(text, 0, &p, &e), SB_OK);
	return p;
}

/* Import a runs file through the importer. */
static void import_runs(sb_db *db, const char *path)
{
	sb_import_opts o;
	sb_import_result r;
	sb_err e;
	int rc;

	memset(&o, 0, sizeof o);
	sb_err_clear(&e);
	rc = sb_import_runs(db, path, &o, &r, &e);
	assert_sb_ok(&e, rc);
}

/* Import a billing file through the importer. */
static void import_billing(sb_db *db, const char *format, const char *path)
{
	sb_import_opts o;
	sb_import_result r;
	sb_err e;
	int rc;

	memset(&o, 0, sizeof o);
	sb_err_clear(&e);
	rc = sb_import_billing(db, format, path, &o, &r, &e);
	assert_sb_ok(&e, rc);
}

/* The sample runs and the test's prices. */
static void load_samples(sb_db *db)
{
	import_runs(db, SAMPLES "runs.jsonl");
	support_exec(db, "INSERT INTO model_price VALUES ('gpt-5.6-terra', 2500000000, 10000000000, 0),"
	                 " ('claude-x-mini', 1000000000, 4000000000, 0)");
}

/* The start of 2026-11-01 and of 2026-11-30 UTC in ms since the epoch
 * (Python: datetime(2026, 11, 1, tzinfo=timezone.utc).timestamp() * 1000;
 * by hand: 20758 and 20787 days of 86,400,000 ms), written as integers so
 * that the fixture's SQL is the same on every engine. */
#define NOV_1_MS INT64_C(1793491200000)
#define NOV_30_MS INT64_C(1795996800000)

/* True when db is a PostgreSQL ledger (support_memory_ledger with
 * SBLEDGER_TEST_PG_DIR set), for the few fixture statements whose SQL
 * differs between the engines. */
static bool on_pg(const sb_db *db)
{
	return strcmp(sb_db_engine(db), "PostgreSQL") == 0;
}

/* sql is refused by the ledger's own rules (a trigger or a constraint,
 * whatever writes it): running it fails, with part in the message (the
 * engine's words for a constraint when the two engines differ). */
static void assert_refused(sb_db *db, const char *sql, const char *part)
{
	sb_err e;

	sb_err_clear(&e);
	assert_sb_fails(&e, sb_db_exec(db, sql, &e), SB_EINTERNAL, part);
}

/* An account-level (or session) billed line of backend, from start_ms to
 * end_ms. */
static void add_line(sb_db *db, const char *backend, const char *session, int64_t start_ms,
                     int64_t end_ms, int64_t nanos)
{
	static int n;
	char sql[1024];

	if (support_i64(db, "SELECT COUNT(*) FROM batch WHERE batch_id = 9000") == 0)
		support_exec(db, "INSERT INTO batch (batch_id, kind, format, source, status, started_ms)"
		                 " VALUES (9000, 'billing', 'focus', 'test', 'complete', 0)");
	n++;
	snprintf(sql, sizeof sql,
	         "INSERT INTO billing_line (format, line_key, batch_id, line_no, backend, session_id, start_ms,"
	         " end_ms, kind, amount_nanos, currency, correction, source_row) VALUES ('focus', 'k%d', 9000, %d,"
	         " '%s', %s%s%s, %lld, %lld, 'billed', %lld, 'USD', 0, 'x')",
	         n, n, backend, session ? "'" : "", session ? session : "NULL", session ? "'" : "",
	         (long long)start_ms, (long long)end_ms, (long long)nanos);
	support_exec(db, sql);
}

/* Build the invoices of opts; fails the test on error. */
static sb_invoice_set *build(sb_db *db, const char *period, const char *tag, const char *customer,
                             sb_basis basis)
{
	sb_invoice_opts o = {period_of(period), tag, customer, basis, NULL};
	sb_invoice_set *set = NULL;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_invoice_build(db, &o, &set, &e);
	assert_sb_ok(&e, rc);
	assert_non_null(set);
	return set;
}

/* The invoice of customer in set (fails when missing). */
static const sb_invoice *invoice_of(const sb_invoice_set *set, const char *customer)
{
	for (size_t i = 0; i < set->n_invoices; i++)
		if (strcmp(set->invoices[i].customer, customer) == 0)
			return &set->invoices[i];
	fail_msg("no invoice for %s", customer);
	return NULL;
}

/* The line of inv for a backend or model (fails when missing). */
static const sb_invoice_line *line_of(const sb_invoice *inv, const char *name)
{
	for (size_t k = 0; k < inv->n_lines; k++) {
		const sb_invoice_line *l = &inv->lines[k];
		if (strcmp(l->kind == SB_INV_COMPUTE ? l->backend : l->model, name) == 0)
			return l;
	}
	fail_msg("no line %s on %s", name, inv->customer);
	return NULL;
}

/* The total equals the sum of the lines, each whole cents. */
static void assert_sums(const sb_invoice *inv)
{
	int64_t sum = 0;

	for (size_t k = 0; k < inv->n_lines; k++) {
		assert_int_equal(inv->lines[k].amount_nanos % 10000000, 0);
		sum += inv->lines[k].amount_nanos;
	}
	assert_int_equal(sum, inv->total_nanos);
}

/* Is some note of inv containing part there? */
static bool has_note(char **notes, size_t n, const char *part)
{
	for (size_t k = 0; k < n; k++)
		if (strstr(notes[k], part) != NULL)
			return true;
	return false;
}

/* The samples on a computed basis, against the hand calculation above. */
static void test_samples_computed(void **state)
{
	sb_db *db = *state;
	sb_invoice_set *set;
	const sb_invoice *acme;
	static const char *const order[] = {"cloudflare", "daytona", "docker", "e2b", "local",
	                                    "modal", "runloop", "claude-x-mini", "gpt-5.6-terra"};
	static const int64_t cents[] = {22, 18, 0, 37, 0, 12, 14, 28, 28};

	load_samples(db);
	set = build(db, "2026-11", "customer", NULL, SB_BASIS_COMPUTED);
	assert_int_equal(set->n_invoices, 5);
	assert_string_equal(set->invoices[0].customer, "(untagged)");
	assert_string_equal(set->invoices[1].customer, "acme");
	assert_string_equal(set->invoices[4].customer, "umbrella");
	acme = invoice_of(set, "acme");
	assert_null(acme->number);
	assert_int_equal(acme->n_lines, 9);
	for (size_t k = 0; k < 9; k++) {
		const sb_invoice_line *l = &acme->lines[k];
		assert_string_equal(k < 7 ? l->backend : l->model, order[k]);
		assert_int_equal(l->amount_nanos, cents[k] * 10000000);
	}
	assert_int_equal(line_of(acme, "cloudflare")->quantity_milli, 4349);
	assert_int_equal(line_of(acme, "local")->quantity_milli, 2441);
	assert_int_equal(line_of(acme, "e2b")->rate_nanos, 60000000);
	assert_int_equal(line_of(acme, "claude-x-mini")->input_tokens, 184724);
	assert_int_equal(line_of(acme, "claude-x-mini")->output_tokens, 24429);
	assert_int_equal(line_of(acme, "gpt-5.6-terra")->input_tokens, 48367);
	assert_int_equal(acme->total_nanos, CENTS(159));
	assert_int_equal(invoice_of(set, "(untagged)")->total_nanos, CENTS(43));
	assert_int_equal(invoice_of(set, "globex")->total_nanos, CENTS(248));
	assert_int_equal(invoice_of(set, "initech")->total_nanos, CENTS(250));
	assert_int_equal(invoice_of(set, "umbrella")->total_nanos, CENTS(395));
	assert_int_equal(line_of(invoice_of(set, "umbrella"), "blaxel")->amount_nanos, CENTS(201));
	for (size_t i = 0; i < set->n_invoices; i++)
		assert_sums(&set->invoices[i]);
	sb_invoice_set_free(set);

	/* one customer alone is the same invoice */
	set = build(db, "2026-11", "customer", "acme", SB_BASIS_COMPUTED);
	assert_int_equal(set->n_invoices, 1);
	assert_int_equal(set->invoices[0].total_nanos, CENTS(159));
	sb_invoice_set_free(set);
}

/* The samples on a billed basis with the sample bills:
 *
 *   cloudflare  lines name sessions: clo-13181230ae 0.217466667 (acme, run
 *               37) -> 0.22; clo-1958d07674 0.064943333 (umbrella) -> 0.06;
 *               clo-42ca2e3611 has no line: its run's own billed
 *               0.134201667 (initech) -> 0.13; clo-orphan00001 0.004 has no
 *               run anywhere: on no invoice, said in a note
 *   docker      session doc-802b28fef0 billed 0.25 -> acme 0.25 (a free
 *               backend billed: reconcile calls it unexpected)
 *   runloop     one account-level FOCUS line 0.2454088 -> 0.25 = 25 cents,
 *               by computed: acme 136,213,333, (untagged) 82,901,667
 *               (sum 219,115,000): quotas 15.541 and 9.459 -> floors 15 + 9
 *               = 24, one cent left to the larger remainder (.541, acme):
 *               acme 0.16, (untagged) 0.09
 *   vercel      account-level lines 0.047588 + 0.785560 + 0.622046 =
 *               1.455194 -> 1.46 = 146 cents (Tax lines apart), by computed:
 *               globex 563,200,000, initech 622,046,000, umbrella 269,948,000
 *               (sum 1,455,194,000): quotas 56.506, 62.411, 27.084 -> 56 +
 *               62 + 27 = 145, one cent to the largest remainder (.506,
 *               globex): 0.57, 0.62, 0.27
 *   others      nothing billed: 0.00, with a note
 *   acme total  0.22 + 0.25 + 0.16 + tokens 0.28 + 0.28 = 1.19
 */
static void test_samples_billed(void **state)
{
	sb_db *db = *state;
	sb_invoice_set *set;
	const sb_invoice *acme;

	load_samples(db);
	import_billing(db, "record", SAMPLES "billing-record.jsonl");
	import_billing(db, "focus", SAMPLES "billing-focus.csv");
	set = build(db, "2026-11", "customer", NULL, SB_BASIS_BILLED);
	acme = invoice_of(set, "acme");
	assert_int_equal(line_of(acme, "cloudflare")->amount_nanos, CENTS(22));
	assert_int_equal(line_of(acme, "docker")->amount_nanos, CENTS(25));
	assert_int_equal(line_of(acme, "runloop")->amount_nanos, CENTS(16));
	assert_int_equal(line_of(acme, "e2b")->amount_nanos, 0);
	assert_int_equal(line_of(acme, "e2b")->quantity_milli, 6178);
	assert_int_equal(acme->total_nanos, CENTS(119));
	assert_true(has_note(acme->notes, acme->n_notes, "e2b: nothing is billed"));
	assert_true(has_note(acme->notes, acme->n_notes, "runloop: 0.16 of the 0.25 USD"));
	assert_int_equal(line_of(invoice_of(set, "(untagged)"), "runloop")->amount_nanos, CENTS(9));
	assert_int_equal(line_of(invoice_of(set, "umbrella"), "cloudflare")->amount_nanos, CENTS(6));
	assert_int_equal(line_of(invoice_of(set, "initech"), "cloudflare")->amount_nanos, CENTS(13));
	assert_int_equal(line_of(invoice_of(set, "globex"), "vercel")->amount_nanos, CENTS(57));
	assert_int_equal(line_of(invoice_of(set, "initech"), "vercel")->amount_nanos, CENTS(62));
	assert_int_equal(line_of(invoice_of(set, "umbrella"), "vercel")->amount_nanos, CENTS(27));
	assert_true(has_note(set->notes, set->n_notes, "clo-orphan00001"));
	for (size_t i = 0; i < set->n_invoices; i++)
		assert_sums(&set->invoices[i]);
	sb_invoice_set_free(set);
}

/* Three customers on one backend billed per account, weights 1 : 2 : 4. */
static const char three_customers[] =
	"{\"run_id\":\"a1\",\"backend\":\"vercel\",\"session_id\":\"s-a\",\"started_at\":\"2026-11-05T10:00:00Z\","
	"\"tags\":{\"customer\":\"a\"},\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":50000,"
	"\"computed_cost_usd\":0.1}}\n"
	"{\"run_id\":\"b1\",\"backend\":\"vercel\",\"session_id\":\"s-b\",\"started_at\":\"2026-11-06T10:00:00Z\","
	"\"tags\":{\"customer\":\"b\"},\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":100000,"
	"\"computed_cost_usd\":0.2}}\n"
	"{\"run_id\":\"c1\",\"backend\":\"vercel\",\"session_id\":\"s-c\",\"started_at\":\"2026-11-07T10:00:00Z\","
	"\"tags\":{\"customer\":\"c\"},\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":200000,"
	"\"computed_cost_usd\":0.4}}";

/* An allocation whose remainders must be distributed:
 *   the account billed 1.00 = 100 cents; computed a 0.10, b 0.20, c 0.40
 *   (sum 0.70): quotas 14.2857, 28.5714, 57.1429 -> floors 14 + 28 + 57 =
 *   99; one cent left, to the largest remainder (.5714, b):
 *   a 0.14, b 0.29, c 0.57 (sum 1.00).
 * And a bill of 0.05 (5 cents): quotas 0.714, 1.429, 2.857 -> 0 + 1 + 2 =
 * 3, two left: remainders .714 (a), .429 (b), .857 (c) -> c then a:
 *   a 0.01, b 0.01, c 0.03. */
static void test_allocation_remainders(void **state)
{
	sb_db *db = *state;
	sb_invoice_set *set;

	support_add_runs(db, three_customers);
	add_line(db, "vercel", NULL, NOV_1_MS, NOV_30_MS, 1000000000);
	set = build(db, "2026-11", "customer", NULL, SB_BASIS_BILLED);
	assert_int_equal(set->n_invoices, 3);
	assert_int_equal(set->invoices[0].total_nanos, CENTS(14));
	assert_int_equal(set->invoices[1].total_nanos, CENTS(29));
	assert_int_equal(set->invoices[2].total_nanos, CENTS(57));
	assert_true(has_note(set->invoices[1].notes, set->invoices[1].n_notes,
	                     "0.29 of the 1.00 USD billed to the account, allocated to 3 customers by computed cost"));
	/* the computed basis ignores the bill: 0.10, 0.20, 0.40 */
	sb_invoice_set_free(set);
	set = build(db, "2026-11", "customer", NULL, SB_BASIS_COMPUTED);
	assert_int_equal(set->invoices[1].total_nanos, CENTS(20));
	sb_invoice_set_free(set);

	/* a 5-cent bill over the same weights */
	support_exec(db, "UPDATE billing_line SET amount_nanos = 50000000");
	set = build(db, "2026-11", "customer", NULL, SB_BASIS_BILLED);
	assert_int_equal(set->invoices[0].total_nanos, CENTS(1));
	assert_int_equal(set->invoices[1].total_nanos, CENTS(1));
	assert_int_equal(set->invoices[2].total_nanos, CENTS(3));
	sb_invoice_set_free(set);
}

/* A backend billed but with no computed cost to allocate by: its runs
 * (a custom backend with computed 0) are weighed by exec minutes instead,
 * and the invoice says so.  1.00 over 50000 : 150000 ms (1 : 3) -> 0.25,
 * 0.75.  A backend billed with no runs at all is on no invoice, and the
 * set says so. */
static void test_billed_without_computed(void **state)
{
	sb_db *db = *state;
	sb_invoice_set *set;

	support_add_runs(db,
	                 "{\"run_id\":\"x1\",\"backend\":\"mycloud\",\"started_at\":\"2026-11-05T10:00:00Z\","
	                 "\"tags\":{\"customer\":\"x\"},\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":50000,"
	                 "\"computed_cost_usd\":0}}\n"
	                 "{\"run_id\":\"y1\",\"backend\":\"mycloud\",\"started_at\":\"2026-11-06T10:00:00Z\","
	                 "\"tags\":{\"customer\":\"y\"},\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":150000,"
	                 "\"computed_cost_usd\":0}}");
	add_line(db, "mycloud", NULL, NOV_1_MS, NOV_30_MS, 1000000000);
	add_line(db, "ghostcloud", NULL, NOV_1_MS, NOV_30_MS, 330000000);
	set = build(db, "2026-11", "customer", NULL, SB_BASIS_BILLED);
	assert_int_equal(set->n_invoices, 2);
	assert_int_equal(invoice_of(set, "x")->total_nanos, CENTS(25));
	assert_int_equal(invoice_of(set, "y")->total_nanos, CENTS(75));
	assert_true(has_note(invoice_of(set, "x")->notes, invoice_of(set, "x")->n_notes,
	                     "by exec minutes (largest remainder, to the cent): its runs have no computed cost"));
	assert_true(has_note(set->notes, set->n_notes, "ghostcloud: 0.33 USD billed to the account has no runs"));
	sb_invoice_set_free(set);
}

/* A period with no runs: no invoices, and nothing to finalize. */
static void test_no_runs(void **state)
{
	sb_db *db = *state;
	sb_invoice_set *set;
	sb_invoice_opts o = {period_of("2026-12"), "customer", NULL, SB_BASIS_COMPUTED, NULL};
	sb_err e;
	int rc;

	load_samples(db);
	set = build(db, "2026-12", "customer", NULL, SB_BASIS_COMPUTED);
	assert_int_equal(set->n_invoices, 0);
	sb_invoice_set_free(set);
	set = build(db, "2026-12", "customer", NULL, SB_BASIS_BILLED);
	assert_int_equal(set->n_invoices, 0);
	sb_invoice_set_free(set);
	sb_err_clear(&e);
	set = NULL;
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "no runs in 2026-12: nothing to finalize");
	assert_null(set);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice"), 0);
	/* a known customer with no runs in the period: an empty invoice */
	set = build(db, "2026-12", "customer", "acme", SB_BASIS_COMPUTED);
	assert_int_equal(set->n_invoices, 1);
	assert_int_equal(set->invoices[0].n_lines, 0);
	assert_int_equal(set->invoices[0].total_nanos, 0);
	assert_true(has_note(set->invoices[0].notes, set->invoices[0].n_notes, "acme has no runs in 2026-12"));
	sb_invoice_set_free(set);
}

/* A finalized invoice is read back through the names of its basis and
 * its line kinds: a stored name this sbledger does not know (a ledger of
 * a newer one, or edited by hand) is SB_EDATA naming it, never read as
 * the computed basis or a compute line. */
static void test_stored_names(void **state)
{
	sb_db *db = *state;
	sb_invoice_opts o = {period_of("2026-11"), "customer", "acme", SB_BASIS_BILLED, NULL};
	sb_invoice_set *set = NULL;
	sb_basis basis = SB_BASIS_COMPUTED;
	sb_inv_kind kind = SB_INV_COMPUTE;
	sb_err e;
	int rc;

	assert_string_equal(sb_basis_name(SB_BASIS_COMPUTED), "computed");
	assert_string_equal(sb_basis_name(SB_BASIS_BILLED), "billed");
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_basis_parse("billed", &basis, &e));
	assert_int_equal(basis, SB_BASIS_BILLED);
	assert_sb_ok(&e, sb_inv_kind_parse(sb_inv_kind_name(SB_INV_TOKENS), &kind, &e));
	assert_int_equal(kind, SB_INV_TOKENS);
	rc = sb_basis_parse("Billed", &basis, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "'Billed' is not an invoice basis this sbledger knows (computed, billed)");
	assert_int_equal(basis, SB_BASIS_BILLED);

	load_samples(db);
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_ok(&e, rc);
	sb_invoice_set_free(set);
	o.basis = SB_BASIS_COMPUTED;
	/* read back as stored: its own basis */
	set = build(db, "2026-11", "customer", "acme", SB_BASIS_COMPUTED);
	assert_int_equal(set->invoices[0].basis, SB_BASIS_BILLED);
	sb_invoice_set_free(set);
	/* the triggers that keep a finalized invoice as it is dropped, to edit
	 * it by hand (PostgreSQL names a trigger's table in DROP TRIGGER,
	 * SQLite does not) */
	support_exec(db, on_pg(db) ? "DROP TRIGGER invoice_no_update ON invoice;"
	                             " DROP TRIGGER invoice_line_no_update ON invoice_line;"
	                           : "DROP TRIGGER invoice_no_update; DROP TRIGGER invoice_line_no_update;");
	support_exec(db, "UPDATE invoice SET basis = 'estimated'");
	set = NULL;
	sb_err_clear(&e);
	rc = sb_invoice_build(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "'estimated' is not an invoice basis");
	assert_null(set);
	support_exec(db, "UPDATE invoice SET basis = 'billed'; UPDATE invoice_line SET kind = 'minutes' WHERE seq = 1");
	sb_err_clear(&e);
	rc = sb_invoice_build(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "'minutes' is not an invoice line kind");
	assert_null(set);
}

/* A customer on free backends only: compute lines at 0.00, tokens charged. */
static void test_free_backends_only(void **state)
{
	sb_db *db = *state;
	sb_invoice_set *set;
	const sb_invoice *inv;

	load_samples(db);
	/* (untagged) without its runloop run: docker only, and tokens */
	support_exec(db, "DELETE FROM run WHERE run_id = 'run-1-000018'");
	support_rollup_rebuild(db);
	set = build(db, "2026-11", "customer", "(untagged)", SB_BASIS_COMPUTED);
	inv = &set->invoices[0];
	assert_int_equal(inv->n_lines, 3);
	assert_string_equal(inv->lines[0].backend, "docker");
	assert_int_equal(inv->lines[0].amount_nanos, 0);
	/* docker runs 26 + 39: 28611 + 331263 = 359874 ms = 5.998 min */
	assert_int_equal(inv->lines[0].quantity_milli, 5998);
	/* claude 45862 + 4667 x 4 = 64,530 micro -> 0.06; gpt (run 39 only)
	 * 37070 x 2.5 + 4750 x 10 = 140,175 micro -> 0.14 */
	assert_int_equal(inv->total_nanos, CENTS(20));
	sb_invoice_set_free(set);
	/* no tokens either: a total of 0.00 */
	support_exec(db, "UPDATE run SET model = NULL, input_tokens = 0, output_tokens = 0");
	support_rollup_rebuild(db);
	set = build(db, "2026-11", "customer", "(untagged)", SB_BASIS_BILLED);
	assert_int_equal(set->invoices[0].n_lines, 1);
	assert_int_equal(set->invoices[0].total_nanos, 0);
	assert_int_equal(set->invoices[0].n_notes, 0);
	sb_invoice_set_free(set);
}

/* A customer that no run has: SB_EDATA naming the values there are. */
static void test_unknown_customer(void **state)
{
	sb_db *db = *state;
	sb_invoice_opts o = {period_of("2026-11"), "customer", "acne", SB_BASIS_COMPUTED, NULL};
	sb_invoice_set *set = NULL;
	sb_err e;
	int rc;

	load_samples(db);
	sb_err_clear(&e);
	rc = sb_invoice_build(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA,
	                "no customer 'acne': no run has tag customer = 'acne'; the values it has are 'acme', 'globex', 'initech', 'umbrella'");
	assert_null(set);
	/* a tag no run of the period has: refused before any customer */
	o.tag = "client";
	sb_err_clear(&e);
	rc = sb_invoice_build(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "no run of 2026-11 has a tag 'client'; the tag its runs have: 'customer'");
	/* a period with no runs at all: the customer check says it */
	o.period = period_of("2026-12");
	sb_err_clear(&e);
	rc = sb_invoice_build(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "no customer 'acne': no run has a tag 'client'");
}

/* A model with no price is refused, never priced as zero. */
static void test_unpriced_model(void **state)
{
	sb_db *db = *state;
	sb_invoice_opts o = {period_of("2026-11"), "customer", "acme", SB_BASIS_COMPUTED, NULL};
	sb_invoice_set *set = NULL;
	sb_err e;
	int rc;

	load_samples(db);
	support_exec(db, "DELETE FROM model_price WHERE model = 'claude-x-mini'");
	sb_err_clear(&e);
	rc = sb_invoice_build(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "model 'claude-x-mini' has no price");
	assert_null(set);
}

/* Finalize: a number, stored; a second and a third finalize refused; a
 * reprint is what was stored even when prices change; a late run is an
 * adjustment; the stored rows refuse to change. */
static void test_finalize(void **state)
{
	sb_db *db = *state;
	sb_invoice_opts o = {period_of("2026-11"), "customer", "acme", SB_BASIS_COMPUTED, NULL};
	sb_invoice_set *set = NULL;
	const sb_invoice *inv;
	sb_err e;
	int rc;

	load_samples(db);
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(set->n_invoices, 1);
	inv = &set->invoices[0];
	assert_string_equal(inv->number, "INV-2026-11-acme-001");
	assert_int_equal(inv->total_nanos, CENTS(159));
	assert_int_equal(inv->n_lines, 9);
	assert_null(inv->adjust);
	sb_invoice_set_free(set);
	assert_int_equal(support_i64(db, "SELECT runs FROM invoice"), 8);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice_run"), 8);

	/* second and third attempts: refused, nothing stored */
	for (int attempt = 2; attempt <= 3; attempt++) {
		set = NULL;
		sb_err_clear(&e);
		rc = sb_invoice_finalize(db, &o, &set, &e);
		assert_sb_fails(&e, rc, SB_EDATA, "already finalized for 2026-11: INV-2026-11-acme-001 ('acme')");
		assert_null(set);
		assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice"), 1);
	}
	/* every customer at once: refused too, naming acme */
	o.customer = NULL;
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "one at a time, one customer each");
	/* an overlapping period: refused */
	o.customer = "acme";
	o.period = period_of("2026-11-02");
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "overlaps this period");

	/* a reprint after the prices changed: as stored */
	support_exec(db, "UPDATE model_price SET input_per_m_nanos = input_per_m_nanos * 10");
	set = build(db, "2026-11", "customer", "acme", SB_BASIS_COMPUTED);
	inv = &set->invoices[0];
	assert_string_equal(inv->number, "INV-2026-11-acme-001");
	assert_int_equal(inv->total_nanos, CENTS(159));
	assert_int_equal(line_of(inv, "claude-x-mini")->amount_nanos, CENTS(28));
	/* tokens are priced as on the invoice: a price change is no adjustment */
	assert_null(inv->adjust);
	sb_invoice_set_free(set);
	support_exec(db, "UPDATE model_price SET input_per_m_nanos = input_per_m_nanos / 10");

	/* a late run: 60000 ms on e2b, computed 0.06, no tokens */
	support_add_runs(db, "{\"run_id\":\"late-1\",\"backend\":\"e2b\",\"session_id\":\"e2b-late\","
	                     "\"started_at\":\"2026-11-20T10:00:00Z\",\"tags\":{\"customer\":\"acme\"},"
	                     "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06}}");
	set = build(db, "2026-11", "customer", "acme", SB_BASIS_COMPUTED);
	inv = &set->invoices[0];
	assert_int_equal(inv->total_nanos, CENTS(159));
	assert_non_null(inv->adjust);
	assert_int_equal(inv->adjust->n_runs, 1);
	assert_int_equal(inv->adjust->runs[0].kind, SB_ADJ_LATE);
	assert_string_equal(inv->adjust->runs[0].run_id, "late-1");
	assert_int_equal(inv->adjust->n_lines, 1);
	/* e2b: 370,672,000 + 60,000,000 = 430,672,000 -> 0.43, was 0.37: +0.06;
	 * 6.178 + 1.000 minutes */
	assert_string_equal(inv->adjust->lines[0].backend, "e2b");
	assert_int_equal(inv->adjust->lines[0].amount_nanos, CENTS(6));
	assert_int_equal(inv->adjust->lines[0].quantity_milli, 1000);
	assert_int_equal(inv->adjust->total_nanos, CENTS(6));
	sb_invoice_set_free(set);

	/* the stored rows never change */
	assert_refused(db, "UPDATE invoice SET total_nanos = 0", "a finalized invoice never changes");
	assert_refused(db, "DELETE FROM invoice_line", "a finalized invoice never changes");
	assert_refused(db, "DELETE FROM invoice_run", "a finalized invoice never changes");
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice WHERE total_nanos = %lld",
	                             (long long)CENTS(159)), 1);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice_line"), 9);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice_run"), 8);
}

/* Finalizing every customer at once; numbers never repeat, even when two
 * customers' names make the same slug. */
static void test_finalize_numbers(void **state)
{
	sb_db *db = *state;
	sb_invoice_opts o = {period_of("2026-11"), "customer", NULL, SB_BASIS_BILLED, NULL};
	sb_invoice_set *set = NULL;
	sb_err e;
	int rc;

	load_samples(db);
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(set->n_invoices, 5);
	assert_string_equal(set->invoices[0].number, "INV-2026-11-untagged-001");
	assert_string_equal(set->invoices[1].number, "INV-2026-11-acme-001");
	assert_int_equal(set->invoices[1].basis, SB_BASIS_BILLED);
	sb_invoice_set_free(set);
	/* the same customer value under another tag: the next number (on a run
	 * no invoice charged yet: a run is on one finalized invoice at most) */
	support_add_runs(db, "{\"run_id\":\"late-1\",\"backend\":\"e2b\",\"session_id\":\"e2b-late\","
	                     "\"started_at\":\"2026-11-20T10:00:00Z\",\"tags\":{\"team\":\"ACME!\"},"
	                     "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06}}");
	o.tag = "team";
	o.customer = "ACME!";
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_ok(&e, rc);
	assert_string_equal(set->invoices[0].number, "INV-2026-11-acme-002");
	sb_invoice_set_free(set);
	assert_int_equal(support_i64(db, "SELECT COUNT(DISTINCT number) FROM invoice"), 6);
}

/* The JSON has exactly section 7's shape. */
static void test_json_shape(void **state)
{
	sb_db *db = *state;
	sb_invoice_set *set;
	json_t *root, *inv, *line;
	const char *key;
	json_t *value;
	size_t n = 0;

	load_samples(db);
	set = build(db, "2026-11", "customer", "acme", SB_BASIS_COMPUTED);
	root = sb_invoice_json(set);
	assert_string_equal(json_string_value(json_object_get(json_object_get(root, "period"), "from")),
	                    "2026-11-01T00:00:00Z");
	assert_string_equal(json_string_value(json_object_get(root, "basis")), "computed");
	inv = json_array_get(json_object_get(root, "invoices"), 0);
	json_object_foreach(inv, key, value) n++;
	assert_int_equal(n, 6); /* customer, number, basis, currency, lines, total */
	assert_string_equal(json_string_value(json_object_get(inv, "basis")), "computed");
	assert_true(json_is_null(json_object_get(inv, "number")));
	assert_string_equal(json_string_value(json_object_get(inv, "total")), "1.59");
	line = json_array_get(json_object_get(inv, "lines"), 0);
	assert_string_equal(json_string_value(json_object_get(line, "description")), "Sandbox compute: cloudflare");
	assert_string_equal(json_string_value(json_object_get(line, "quantity")), "4.349");
	assert_string_equal(json_string_value(json_object_get(line, "unit")), "minutes");
	assert_string_equal(json_string_value(json_object_get(line, "amount")), "0.22");
	line = json_array_get(json_object_get(inv, "lines"), 7);
	assert_string_equal(json_string_value(json_object_get(line, "model")), "claude-x-mini");
	assert_int_equal(json_integer_value(json_object_get(line, "input_tokens")), 184724);
	assert_string_equal(json_string_value(json_object_get(line, "amount")), "0.28");
	json_decref(root);
	sb_invoice_set_free(set);
}

/* Text of a tag value with quotes, commas and markup is escaped in HTML. */
static void test_html_escaping(void **state)
{
	sb_db *db = *state;
	sb_invoice_set *set;
	char *page = NULL;
	size_t size = 0;
	FILE *f;
	sb_err e;

	support_add_runs(db, "{\"run_id\":\"q1\",\"backend\":\"e2b\",\"started_at\":\"2026-11-05T10:00:00Z\","
	                     "\"tags\":{\"customer\":\"Quote \\\"Co\\\", <b>&'Ltd'\"},"
	                     "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06}}");
	set = build(db, "2026-11", "customer", NULL, SB_BASIS_COMPUTED);
	assert_string_equal(set->invoices[0].customer, "Quote \"Co\", <b>&'Ltd'");
	f = open_memstream(&page, &size);
	assert_non_null(f);
	sb_err_clear(&e);
	assert_int_equal(sb_html_invoices(f, set, &e), SB_OK);
	fclose(f);
	assert_non_null(strstr(page, "Quote &quot;Co&quot;, &lt;b&gt;&amp;&#39;Ltd&#39;"));
	assert_null(strstr(page, "<b>&'"));
	assert_non_null(strstr(page, "<td>0.06</td>"));
	/* self-contained: nothing to fetch */
	assert_null(strstr(page, "src="));
	assert_null(strstr(page, "href="));
	assert_null(strstr(page, "url("));
	assert_null(strstr(page, "@import"));
	free(page);
	sb_invoice_set_free(set);
}

/* Export the runs of the samples as FOCUS and import the file into a
 * fresh ledger holding the same runs: the rows whose x_BilledBasis is
 * computed are the ledger's own estimates, skipped (never a bill); the one
 * row billed from a run's own billed cost (cloudflare session
 * clo-42ca2e3611, 0.134201667) becomes the only billing line, and its
 * session reconciles with zero drift. */
static void test_focus_round_trip(void **state)
{
	sb_db *db = *state, *fresh_db;
	char *dir = support_tmpdir(), *path = support_path(dir, "focus.csv");
	sb_period p = period_of("2026-11");
	sb_recon_opts ro = {.period = p, .abs_nanos = SB_DEFAULT_ABS_NANOS, .rel_ppb = SB_DEFAULT_REL_PPB, .all_sessions = true};
	sb_recon *r = NULL;
	bool seen = false;
	FILE *f;
	sb_err e;
	int rc;

	load_samples(db);
	f = fopen(path, "w");
	assert_non_null(f);
	sb_err_clear(&e);
	rc = sb_export_focus(db, &p, false, f, &e);
	assert_sb_ok(&e, rc);
	fclose(f);

	fresh_db = support_memory_ledger();
	import_runs(fresh_db, SAMPLES "runs.jsonl");
	import_billing(fresh_db, "focus", path);
	/* one row per session and day: the samples have 39 sessions, one of
	 * them (mod-83b59641d2) on two days; 39 rows are estimates */
	assert_int_equal(support_i64(fresh_db, "SELECT skipped FROM batch WHERE kind = 'billing'"), 39);
	assert_int_equal(support_i64(fresh_db, "SELECT COUNT(*) FROM billing_line"), 1);
	assert_int_equal(support_i64(fresh_db, "SELECT amount_nanos FROM billing_line WHERE backend = 'cloudflare' "
	                                       "AND session_id = 'clo-42ca2e3611'"), 134201667);
	sb_err_clear(&e);
	rc = sb_reconcile(fresh_db, &ro, &r, &e);
	assert_sb_ok(&e, rc);
	for (size_t i = 0; i < r->n_sessions; i++) {
		const char *id = r->sessions[i].session_id;
		if (id == NULL || strcmp(id, "clo-42ca2e3611") != 0)
			continue;
		seen = true;
		assert_int_equal(r->sessions[i].billed_nanos, 134201667);
	}
	assert_true(seen);
	sb_recon_free(r);
	sb_db_close(fresh_db);
	unlink(path);
	free(path);
	support_rmtree(dir);
}

/* Slugs for invoice numbers. */
static void test_slug(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(sb_invoice_slug("acme", false, buf), "acme");
	assert_string_equal(sb_invoice_slug("Acme, Inc.", false, buf), "acme-inc");
	assert_string_equal(sb_invoice_slug("  \"Q\" & <Co>  ", false, buf), "q-co");
	assert_string_equal(sb_invoice_slug("日本", false, buf), "x");
	assert_string_equal(sb_invoice_slug("2026-11-01..2026-11-15", true, buf), "2026-11-01..2026-11-15");
	assert_int_equal(strlen(sb_invoice_slug("a-very-long-customer-name-that-goes-on-and-on-and-on", false, buf)), 40);
}

/* The edit distance behind "did you mean": each insertion, deletion,
 * substitution and swap of two neighbours is 1. */
static void test_edit_distance(void **state)
{
	char long_name[200];

	(void)state;
	assert_int_equal(sb_edit_distance("customer", "customer"), 0);
	assert_int_equal(sb_edit_distance("cutsomer", "customer"), 1);   /* a swap */
	assert_int_equal(sb_edit_distance("custome", "customer"), 1);    /* a deletion */
	assert_int_equal(sb_edit_distance("kustomar", "customer"), 2);
	assert_int_equal(sb_edit_distance("kustamar", "customer"), 3);
	assert_int_equal(sb_edit_distance("", "team"), 4);
	assert_int_equal(sb_edit_distance("ab", "ba"), 1);
	assert_int_equal(sb_edit_distance("abc", "ca"), 3);              /* restricted: no edit twice */
	memset(long_name, 'a', sizeof long_name - 1);
	long_name[sizeof long_name - 1] = '\0';
	assert_int_equal(sb_edit_distance(long_name, "a"), SIZE_MAX);
	long_name[128] = '\0';
	assert_int_equal(sb_edit_distance(long_name, "a"), 127);
}

/* A tag that no run of the period has: refused with the tags there are,
 * the nearest suggested when 2 edits away at most; a tag whose only value
 * is the literal "(untagged)" is a tag all the same. */
static void test_unknown_tag(void **state)
{
	sb_db *db = *state;
	sb_invoice_opts o = {period_of("2026-11"), "cutsomer", NULL, SB_BASIS_COMPUTED, NULL};
	sb_invoice_set *set = NULL;
	sb_err e;
	int rc;

	load_samples(db);
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA,
	                "no run of 2026-11 has a tag 'cutsomer' (did you mean 'customer'?); the tag its runs have: 'customer'");
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice"), 0);
	/* two edits away: still suggested; three: not */
	o.tag = "kustomar";
	sb_err_clear(&e);
	rc = sb_invoice_build(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "has a tag 'kustomar' (did you mean 'customer'?)");
	o.tag = "kustamar";
	sb_err_clear(&e);
	rc = sb_invoice_build(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "no run of 2026-11 has a tag 'kustamar'; the tag its runs have: 'customer'");
	/* no tag at all on the runs of a day */
	support_add_runs(db, "{\"run_id\":\"bare\",\"backend\":\"e2b\",\"session_id\":\"s\","
	                     "\"started_at\":\"2026-12-02T10:00:00Z\","
	                     "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06}}");
	o.period = period_of("2026-12-02");
	o.tag = "customer";
	sb_err_clear(&e);
	rc = sb_invoice_build(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "no run of 2026-12-02 has a tag 'customer': its runs have no tags at all");
	/* the value "(untagged)" is the tag's value: invoiced */
	support_add_runs(db, "{\"run_id\":\"odd\",\"backend\":\"e2b\",\"session_id\":\"s\","
	                     "\"started_at\":\"2026-12-02T11:00:00Z\",\"tags\":{\"customer\":\"(untagged)\"},"
	                     "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06}}");
	set = build(db, "2026-12-02", "customer", NULL, SB_BASIS_COMPUTED);
	assert_int_equal(set->n_invoices, 1);
	assert_int_equal(set->invoices[0].runs, 2);
	sb_invoice_set_free(set);
}

/* Rows of invoice_run of a run charged by more than one invoice. */
static int64_t charged_twice(sb_db *db)
{
	return support_i64(db, "SELECT COUNT(*) FROM (SELECT run_id FROM invoice_run GROUP BY run_id"
	                       " HAVING COUNT(*) > 1) AS twice");
}

/* By customer, then by team: the second finalize is refused (every run is
 * charged already), and each run is in invoice_run once.  A late run is
 * the only one a later finalize by team takes.  The ledger refuses a
 * second row for a run, whatever writes it. */
static void test_one_invoice_per_run(void **state)
{
	sb_db *db = *state;
	sb_invoice_opts o = {period_of("2026-11"), "customer", NULL, SB_BASIS_COMPUTED, NULL};
	sb_invoice_set *set = NULL;
	sb_err e;
	int rc;

	load_samples(db);
	support_exec(db, "INSERT INTO run_tag SELECT rid, 'team', 't' || (rid % 2) FROM run");
	support_rollup_rebuild(db);
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_ok(&e, rc);
	sb_invoice_set_free(set);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice_run"), 40);
	o.tag = "team";
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "nothing new to finalize for 2026-11 by tag team: its 40 runs are already on finalized invoices (8 on INV-2026-11-acme-001, 8 on INV-2026-11-globex-001, 8 on INV-2026-11-initech-001, 13 on INV-2026-11-umbrella-001, 3 on INV-2026-11-untagged-001)");
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice"), 5);
	assert_int_equal(charged_twice(db), 0);
	/* the draft by team: no invoice, the 40 runs counted as left out */
	set = build(db, "2026-11", "team", NULL, SB_BASIS_COMPUTED);
	assert_int_equal(set->n_invoices, 0);
	assert_int_equal(set->claimed_runs, 40);
	assert_true(has_note(set->notices, set->n_notices, "40 runs of 2026-11 are left out"));
	sb_invoice_set_free(set);
	/* a late run of team t1: finalized alone (0.06, 1.000 minute) */
	support_add_runs(db, "{\"run_id\":\"late-1\",\"backend\":\"e2b\",\"session_id\":\"e2b-late\","
	                     "\"started_at\":\"2026-11-20T10:00:00Z\",\"tags\":{\"customer\":\"acme\",\"team\":\"t1\"},"
	                     "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06}}");
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(set->n_invoices, 1);
	assert_string_equal(set->invoices[0].number, "INV-2026-11-t1-001");
	assert_int_equal(set->invoices[0].runs, 1);
	assert_int_equal(set->invoices[0].total_nanos, CENTS(6));
	sb_invoice_set_free(set);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice_run"), 41);
	assert_int_equal(charged_twice(db), 0);
	/* acme's invoice no longer counts it late: it is charged */
	set = build(db, "2026-11", "customer", "acme", SB_BASIS_COMPUTED);
	assert_null(set->invoices[0].adjust);
	sb_invoice_set_free(set);
	/* no path around it */
	assert_refused(db, "INSERT INTO invoice_run (invoice_id, run_id) VALUES (1, 'late-1')",
	               on_pg(db) ? "violates unique constraint \"invoice_run_once\""
	                         : "UNIQUE constraint failed: invoice_run.run_id");
	assert_refused(db, "INSERT INTO invoice_run (invoice_id, run_id, duplicate) VALUES (1, 'late-1', 1)",
	               "a run is on one finalized invoice at most");
	assert_int_equal(charged_twice(db), 0);
}

/* On a billed basis, the share of a session's bill that belongs to runs
 * another finalized invoice charged is set aside, not charged again.
 * Session clo-1958d07674 is billed 0.064943333 (billing-record.jsonl); its
 * run run-1-000004 (computed 0.064943333) is on the customer invoice; a
 * late run of the same session and computed cost, of team t9, splits the
 * bill with it by computed cost: 64,943,333 / 2 = 32,471,666.5 each, the
 * floor 32,471,666 each and the one nanodollar left to the larger
 * remainder, a tie, so to the first by name: t9 (the runs left out sort
 * last).  t9's cloudflare line: 32,471,667 -> 0.03. */
static void test_billed_set_aside(void **state)
{
	sb_db *db = *state;
	sb_invoice_opts o = {period_of("2026-11"), "customer", NULL, SB_BASIS_BILLED, NULL};
	sb_invoice_set *set = NULL;
	const sb_invoice *inv;
	sb_err e;
	int rc;

	load_samples(db);
	import_billing(db, "record", SAMPLES "billing-record.jsonl");
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_ok(&e, rc);
	sb_invoice_set_free(set);
	support_add_runs(db, "{\"run_id\":\"late-cf\",\"backend\":\"cloudflare\",\"session_id\":\"clo-1958d07674\","
	                     "\"started_at\":\"2026-11-04T01:30:00Z\",\"tags\":{\"team\":\"t9\"},"
	                     "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":77932,"
	                     "\"computed_cost_usd\":0.064943333}}");
	set = build(db, "2026-11", "team", NULL, SB_BASIS_BILLED);
	inv = invoice_of(set, "t9");
	assert_int_equal(set->n_invoices, 1);
	assert_int_equal(inv->runs, 1);
	assert_int_equal(line_of(inv, "cloudflare")->amount_nanos, CENTS(3));
	/* 32,471,667 x 60000 / 77932 ms = 25,000,000.2 -> 0.025 per minute */
	assert_int_equal(line_of(inv, "cloudflare")->rate_nanos, 25000000);
	assert_true(has_note(set->notices, set->n_notices, "billed for runs that other finalized invoices charged is set aside"));
	assert_int_equal(set->claimed_runs, 40);
	sb_invoice_set_free(set);
}

/* Tokens without a model: a draft's line and total are unknown and name
 * the runs; the finalize is refused naming them; a run with no model and
 * no tokens adds nothing. */
static void test_unknown_tokens(void **state)
{
	sb_db *db = *state;
	sb_invoice_opts o = {period_of("2026-12"), "customer", NULL, SB_BASIS_COMPUTED, NULL};
	sb_invoice_set *set = NULL;
	const sb_invoice *inv;
	sb_err e;
	int rc;

	support_add_runs(db, "{\"run_id\":\"t1\",\"backend\":\"e2b\",\"session_id\":\"s\",\"started_at\":\"2026-12-02T10:00:00Z\","
	                     "\"tags\":{\"customer\":\"acme\"},\"token_usage\":{\"model\":null,\"input_tokens\":1000,\"output_tokens\":100},"
	                     "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06}}\n"
	                     "{\"run_id\":\"t0\",\"backend\":\"e2b\",\"session_id\":\"s\",\"started_at\":\"2026-12-03T10:00:00Z\","
	                     "\"tags\":{\"customer\":\"globex\"},\"token_usage\":{\"model\":null,\"input_tokens\":0,\"output_tokens\":0},"
	                     "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06}}");
	set = build(db, "2026-12", "customer", NULL, SB_BASIS_COMPUTED);
	inv = invoice_of(set, "acme");
	assert_true(inv->total_unknown);
	assert_int_equal(inv->n_lines, 2);
	assert_true(inv->lines[1].unknown);
	assert_null(inv->lines[1].model);
	assert_int_equal(inv->lines[1].input_tokens, 1000);
	assert_int_equal(inv->lines[1].output_tokens, 100);
	assert_int_equal(inv->n_unknown_runs, 1);
	assert_string_equal(inv->unknown_runs[0], "t1");
	assert_int_equal(inv->total_nanos, CENTS(6));   /* the known lines */
	inv = invoice_of(set, "globex");
	assert_false(inv->total_unknown);
	assert_int_equal(inv->n_lines, 1);
	sb_invoice_set_free(set);
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "the invoice of 'acme' cannot be finalized: the token cost of 1 run is unknown (tokens but no model, so no price): 't1'");
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice"), 0);
	o.customer = "globex";
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_ok(&e, rc);
	sb_invoice_set_free(set);
}

/* A backend with no rate card in force at its runs' start: on the
 * computed basis its compute line and the total are unknown, never 0,
 * from the day rollups as from the runs of a part of a day, the invoice
 * names the backend with the earliest such start; the finalize is
 * refused naming both ways out; a free backend's line is a known 0.00
 * and its customer's invoice finalizes. */
static void test_no_card_unknown(void **state)
{
	sb_db *db = *state;
	sb_invoice_opts o = {period_of("2027-02"), "customer", NULL, SB_BASIS_COMPUTED, NULL};
	sb_invoice_set *set = NULL;
	const sb_invoice *inv;
	sb_err e;
	int rc;

	support_add_runs(db, "{\"run_id\":\"nc1\",\"backend\":\"acme-gpu\",\"started_at\":\"2027-02-03T10:00:00Z\","
	                     "\"tags\":{\"customer\":\"initech\"},\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,"
	                     "\"computed_cost_usd\":0.0,\"executions\":[{\"duration_ms\":60000,\"cost_usd\":null}]}}\n"
	                     "{\"run_id\":\"nc2\",\"backend\":\"e2b\",\"started_at\":\"2027-02-03T11:00:00Z\","
	                     "\"tags\":{\"customer\":\"initech\"},\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,"
	                     "\"computed_cost_usd\":0.06}}\n"
	                     "{\"run_id\":\"nc3\",\"backend\":\"local\",\"started_at\":\"2027-02-03T12:00:00Z\","
	                     "\"tags\":{\"customer\":\"hooli\"},\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,"
	                     "\"computed_cost_usd\":0.0,\"executions\":[{\"duration_ms\":60000,\"cost_usd\":null}]}}");
	for (int part = 0; part < 2; part++) {
		set = build(db, part == 0 ? "2027-02" : "2027-02-03T09:00:00Z..2027-02-03T13:00:00Z", "customer", NULL,
		            SB_BASIS_COMPUTED);
		inv = invoice_of(set, "initech");
		assert_true(inv->total_unknown);
		assert_int_equal(inv->n_lines, 2);
		assert_string_equal(inv->lines[0].backend, "acme-gpu");
		assert_true(inv->lines[0].unknown);
		assert_int_equal(inv->lines[0].no_card_runs, 1);
		assert_false(inv->lines[1].unknown);
		assert_int_equal(inv->total_nanos, CENTS(6));   /* the known line */
		assert_int_equal(inv->n_unknown_runs, 0);
		assert_int_equal(inv->n_no_card, 1);
		assert_string_equal(inv->no_card[0].backend, "acme-gpu");
		assert_int_equal(inv->no_card[0].first_ms, INT64_C(1801648800000));
		inv = invoice_of(set, "hooli");
		assert_false(inv->total_unknown);
		assert_false(inv->lines[0].unknown);
		assert_int_equal(inv->lines[0].amount_nanos, 0);
		sb_invoice_set_free(set);
	}
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "the invoice of 'initech' cannot be finalized: the compute cost of 1 run of "
	                "backend 'acme-gpu' is unknown (no rate card in force at its start, so no price, never 0); set its "
	                "price per minute of session life (sbledger rates set acme-gpu --usd-per-minute X --from 2027-02-03), "
	                "or, for a self-hosted backend that costs nothing, make it free (sbledger rates set acme-gpu --free "
	                "--from 2027-02-03)");
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice"), 0);
	o.customer = "hooli";
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_ok(&e, rc);
	sb_invoice_set_free(set);
}

/* A charged run replaced so that it starts in another period: the invoice
 * that charged it lists it as moved out of its period and credits it; the
 * other period leaves it out (it is still on that invoice), which it only
 * knows because the replace recorded it (invoice_run_replaced: no
 * finalized invoice overlaps December).  a1: e2b 60000 ms 0.06 on acme's
 * November invoice, moved to December 2. */
static void test_moved_out_of_period(void **state)
{
	sb_db *db = *state;
	sb_invoice_opts o = {period_of("2026-12"), "customer", NULL, SB_BASIS_COMPUTED, NULL};
	sb_invoice_set *set = NULL;
	const sb_invoice *inv;
	sb_err e;
	int rc;

	support_add_runs(db, "{\"run_id\":\"a1\",\"backend\":\"e2b\",\"session_id\":\"s\",\"started_at\":\"2026-11-10T10:00:00Z\","
	                     "\"tags\":{\"customer\":\"acme\"},"
	                     "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06}}\n"
	                     "{\"run_id\":\"a2\",\"backend\":\"e2b\",\"session_id\":\"s\",\"started_at\":\"2026-11-11T10:00:00Z\","
	                     "\"tags\":{\"customer\":\"acme\"},"
	                     "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"computed_cost_usd\":0.06}}");
	set = build(db, "2026-11", "customer", NULL, SB_BASIS_COMPUTED);
	sb_invoice_set_free(set);
	o.period = period_of("2026-11");
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_ok(&e, rc);
	sb_invoice_set_free(set);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice_run_replaced"), 0);
	/* the replace, as import runs --replace does it (history, then the new version) */
	support_exec(db, "INSERT INTO run_history (replaced_ms, replaced_by_batch, rid, run_id, batch_id, line_no, backend,"
	                 " session_id, plan, started_ms, started_day, ended_ms, model, input_tokens, output_tokens,"
	                 " budget_nanos, exec_count, total_duration_ms, cpu_ms, memory_peak_mb, bytes_read, bytes_written,"
	                 " computed_nanos, billed_nanos, card_nanos, lifetime_nanos, has_executions, fingerprint, tags, extra)"
	                 " SELECT 0, batch_id, rid, run_id, batch_id, line_no, backend, session_id, plan, started_ms,"
	                 " started_day, ended_ms, model, input_tokens, output_tokens, budget_nanos, exec_count,"
	                 " total_duration_ms, cpu_ms, memory_peak_mb, bytes_read, bytes_written, computed_nanos,"
	                 " billed_nanos, card_nanos, lifetime_nanos, has_executions, fingerprint, tags, extra"
	                 " FROM run WHERE run_id = 'a1';"
	                 " UPDATE run SET started_ms = started_ms + 22 * 86400000, started_day = '2026-12-02',"
	                 " fingerprint = 'moved' WHERE run_id = 'a1'");
	support_rollup_rebuild(db);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM invoice_run_replaced"), 1);
	/* November: a1 moved out, -1.000 minute, -0.06 */
	set = build(db, "2026-11", "customer", "acme", SB_BASIS_COMPUTED);
	inv = &set->invoices[0];
	assert_non_null(inv->adjust);
	assert_int_equal(inv->adjust->n_runs, 1);
	assert_int_equal(inv->adjust->runs[0].kind, SB_ADJ_MOVED_OUT);
	assert_null(inv->adjust->runs[0].to);
	assert_int_equal(inv->adjust->total_nanos, -CENTS(6));
	assert_int_equal(inv->adjust->lines[0].quantity_milli, -1000);
	sb_invoice_set_free(set);
	/* December: nothing new, a1 is on November's invoice */
	set = build(db, "2026-12", "customer", NULL, SB_BASIS_COMPUTED);
	assert_int_equal(set->n_invoices, 0);
	assert_int_equal(set->claimed_runs, 1);
	sb_invoice_set_free(set);
	o.period = period_of("2026-12");
	sb_err_clear(&e);
	rc = sb_invoice_finalize(db, &o, &set, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "nothing new to finalize for 2026-12 by tag customer: its 1 run is already on finalized invoices (1 on INV-2026-11-acme-001");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_samples_computed, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_samples_billed, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_allocation_remainders, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_billed_without_computed, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_no_runs, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_stored_names, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_free_backends_only, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_customer, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_unpriced_model, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_finalize, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_finalize_numbers, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_json_shape, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_html_escaping, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_focus_round_trip, ledger_setup, ledger_teardown),
		cmocka_unit_test(test_slug),
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test_setup_teardown(test_unknown_tag, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_one_invoice_per_run, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_billed_set_aside, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_tokens, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_no_card_unknown, ledger_setup, ledger_teardown),
		cmocka_unit_test_setup_teardown(test_moved_out_of_period, ledger_setup, ledger_teardown),
	};

	return cmocka_run_group_tests_name("invoice", tests, NULL, NULL);
}
