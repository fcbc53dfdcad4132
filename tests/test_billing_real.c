/* test_billing_real.c: what providers really send (docs/formats-billing.md,
 * "Real-world variations"), and each charge counted once.
 *
 * Fixtures are written here in the real shapes (the FOCUS 1.0 sample's
 * NULL cells, naive times and 11-decimal amounts; Modal's display-name
 * CSV header and tags as a JSON string; E2B's "eventData": null and its
 * pretty-printed webhook body; Daytona rows without times or sandbox;
 * DeepInfra's YYYY.MM), with values of our own.  Expected amounts are
 * worked out by hand in the comments.  Then the counting rules: identical
 * rows of one file, key conflicts, the same charge in another batch,
 * corrections, Modal's breakdown against its total, and --supersede: the
 * period covered, lines of several lengths, a monthly fee in a daily
 * statement, resuming as begun.  After each test every check of
 * sql/checks must pass.  On both engines (support_memory_ledger), but
 * for test_migration_009, which makes a SQLite file of schema 8.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/billing.h"
#include "importers/import.h"
#include "ledger/lines.h"
#include "ledger/sqlfiles.h"
#include "ledger/timefmt.h"
#include "tests/support/support.h"

struct ctx {
	sb_db *db;     /* the ledger, in memory */
	char *dir;     /* a temporary directory for fixtures */
	int n;         /* fixtures written */
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof *c);

	assert_non_null(c);
	c->db = support_memory_ledger();
	c->dir = support_tmpdir();
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	assert_checks_pass(c->db);
	sb_db_close(c->db);
	support_rmtree(c->dir);
	free(c);
	return 0;
}

/* Write text to a new fixture file; its path is kept in a static ring
 * (the tests use a handful at a time), so callers free nothing. */
static const char *fixture(struct ctx *c, const char *text)
{
	static char *paths[16];
	char name[32];
	int i = c->n++ % 16;

	free(paths[i]);
	snprintf(name, sizeof name, "f%d", c->n);
	paths[i] = support_path(c->dir, name);
	support_write_file(paths[i], text);
	return paths[i];
}

/* Options: none, or --supersede, or --period FROM..TO (ms), or both. */
static sb_import_opts opts(bool supersede, int64_t from_ms, int64_t to_ms)
{
	sb_import_opts o;

	memset(&o, 0, sizeof o);
	o.supersede = supersede;
	o.has_period = to_ms > from_ms;
	o.period_from_ms = from_ms;
	o.period_to_ms = to_ms;
	o.force = true;
	return o;
}

/* Import text as format with o (NULL: defaults, with --force). */
static int import(struct ctx *c, const char *format, const char *text, const sb_import_opts *o,
                  sb_import_result *r, sb_err *e)
{
	sb_import_opts none = opts(false, 0, 0);

	sb_err_clear(e);
	return sb_import_billing(c->db, format, fixture(c, text), o != NULL ? o : &none, r, e);
}

/* Sum of the live amounts of format (and backend, unless NULL). */
static int64_t live_sum(struct ctx *c, const char *format, const char *backend)
{
	return support_i64(c->db, "SELECT COALESCE(SUM(amount_nanos), 0) FROM billing_line WHERE format = %Q "
	                          "AND superseded_by IS NULL AND (%Q IS NULL OR backend = %Q)",
	                   format, backend, backend);
}

/* Number of live lines of format. */
static int64_t live_count(struct ctx *c, const char *format)
{
	return support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE format = %Q AND superseded_by IS NULL",
	                   format);
}

/* Fail unless batch holds a reject at line_no whose reason contains part. */
static void assert_reject(struct ctx *c, int64_t batch, int64_t line_no, const char *part)
{
	char *reason = support_text(c->db, "SELECT reason FROM reject WHERE batch_id = %lld AND line_no = %lld",
	                            (long long)batch, (long long)line_no);

	if (reason == NULL || strstr(reason, part) == NULL)
		print_error("batch %lld line %lld: reason '%s' lacks '%s'\n", (long long)batch,
		            (long long)line_no, reason != NULL ? reason : "(no reject)", part);
	assert_non_null(reason);
	assert_non_null(strstr(reason, part));
	free(reason);
}

/* The UTC instant y-m-d h:00. */
static int64_t at(int y, int m, int d, int h)
{
	return sb_days_from_civil_ms(y, m, d) + (int64_t)h * 3600000;
}

/* ---- FOCUS ------------------------------------------------------------- */

/* The FOCUS 1.0 sample's header (44 columns, ProviderName, no
 * ServiceProviderName), and rows in its style. */
#define FOCUS10_HEADER \
	"\"AvailabilityZone\",\"BilledCost\",\"BillingAccountId\",\"BillingAccountName\",\"BillingCurrency\"," \
	"\"BillingPeriodEnd\",\"BillingPeriodStart\",\"ChargeCategory\",\"ChargeClass\",\"ChargeDescription\"," \
	"\"ChargeFrequency\",\"ChargePeriodEnd\",\"ChargePeriodStart\",\"CommitmentDiscountCategory\"," \
	"\"CommitmentDiscountId\",\"CommitmentDiscountName\",\"CommitmentDiscountStatus\",\"CommitmentDiscountType\"," \
	"\"ConsumedQuantity\",\"ConsumedUnit\",\"ContractedCost\",\"ContractedUnitPrice\",\"EffectiveCost\"," \
	"\"InvoiceIssuerName\",\"ListCost\",\"ListUnitPrice\",\"PricingCategory\",\"PricingQuantity\",\"PricingUnit\"," \
	"\"ProviderName\",\"PublisherName\",\"RegionId\",\"RegionName\",\"ResourceId\",\"ResourceName\",\"ResourceType\"," \
	"\"ServiceCategory\",\"Id\",\"ServiceName\",\"SkuId\",\"SkuPriceId\",\"SubAccountId\",\"SubAccountName\",\"Tags\"\n"

/* One row: cost, period end and start, resource id (a quoted value or
 * NULL), tags (a quoted value or NULL), SKU. */
#define FOCUS10_ROW(cost, end, start, resource, tags, sku) \
	"NULL," cost ",\"100200300400\",\"Acme\",\"USD\",\"2024-10-01 00:00:00\",\"2024-09-01 00:00:00\"," \
	"\"Usage\",NULL,\"$0.01 per GB\",\"Usage-Based\",\"" end "\",\"" start "\",NULL,NULL,NULL,NULL,NULL," \
	"1.000000000000000,\"GB\",0.00000000000,0.00000000000,0.00000000000,\"Amazon Web Services, Inc.\"," \
	cost ",\"0.01\",\"Standard\",1.00000000000,\"GB\",\"AWS\",\"Amazon Web Services, Inc.\",\"us-west-2\"," \
	"\"US West (Oregon)\"," resource ",NULL,NULL,\"Storage\",4711,\"Amazon Simple Storage Service\",\"" sku "\"," \
	"\"" sku ".X\",\"555\",\"Team A\"," tags "\n"

static void test_focus10_sample_traits(void **state)
{
	struct ctx *c = *state;
	const char *text =
		FOCUS10_HEADER
		/* 0.00000080000: 800 nanodollars exactly */
		FOCUS10_ROW("0.00000080000", "2024-09-18 23:00:00", "2024-09-18 22:00:00",
		            "\"arn:bucket-1\"", "\"{\"\"env\"\": \"\"dev\"\"}\"", "SKU1")
		/* 0.00001605990 is 16059.9 nanodollars: 16060 */
		FOCUS10_ROW("0.00001605990", "2024-09-30T23:00:00", "2024-09-30T22:00:00",
		            "NULL", "NULL", "SKU2")
		/* 0.00000000050 is half a nanodollar: to even, 0 */
		FOCUS10_ROW("0.00000000050", "2024-09-02 01:00:00", "2024-09-02 00:00:00",
		            "NULL", "NULL", "SKU3")
		/* 0.00000000150: 1.5 to even, 2; 0.00000000250: 2.5 to even, 2;
		 * 0.00000000251: past the half, 3 */
		FOCUS10_ROW("0.00000000150", "2024-09-03 01:00:00", "2024-09-03 00:00:00", "NULL", "NULL", "SKU4")
		FOCUS10_ROW("0.00000000250", "2024-09-04 01:00:00", "2024-09-04 00:00:00", "NULL", "NULL", "SKU5")
		FOCUS10_ROW("0.00000000251", "2024-09-05 01:00:00", "2024-09-05 00:00:00", "NULL", "NULL", "SKU6")
		/* a quoted "NULL" is text, only the unquoted word is null */
		FOCUS10_ROW("1.00000000000", "2024-09-06 01:00:00", "2024-09-06 00:00:00",
		            "\"NULL\"", "NULL", "SKU7");
	sb_import_result r;
	sb_err e;
	int rc = import(c, "focus", text, NULL, &r, &e);

	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 7);
	/* 800 + 16060 + 0 + 2 + 2 + 3 + 1000000000 */
	assert_int_equal(live_sum(c, "focus", "aws"), 1000016867);
	assert_int_equal(support_i64(c->db, "SELECT amount_nanos FROM billing_line WHERE session_id = 'arn:bucket-1'"), 800);
	/* naive times are UTC, with a space or a T */
	assert_int_equal(support_i64(c->db, "SELECT start_ms FROM billing_line WHERE session_id = 'arn:bucket-1'"),
	                 at(2024, 9, 18, 22));
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE start_ms = %lld AND end_ms = %lld",
	                             (long long)at(2024, 9, 30, 22), (long long)at(2024, 9, 30, 23)), 1);
	/* NULL cells are null: no session, category or tags called NULL, no 0 */
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id IS NULL"), 5);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id = 'NULL'"), 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE correction = 0 AND tags IS NULL"), 6);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE tags = '{\"env\":\"dev\"}'"), 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE replace(extra, 'NULL', '') <> extra "
	                                    "OR replace(extra, 'AvailabilityZone', '') <> extra"), 0);
	/* ProviderName names the backend; the identity is kept */
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE backend = 'aws' AND charge_identity = "
	                                    "'[\"Amazon Simple Storage Service\",\"SKU2\",\"$0.01 per GB\",\"Standard\",null,\"us-west-2\",null]'"), 1);
	/* a second read: all duplicates */
	rc = import(c, "focus", text, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.duplicates, 7);
	assert_int_equal(live_count(c, "focus"), 7);
}

static void test_focus_provider_names(void **state)
{
	struct ctx *c = *state;
	sb_import_result r;
	sb_err e;
	int rc = import(c, "focus",
		"BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ServiceProviderName,ProviderName,x_Secret,X_Other\n"
		"1,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Vercel,AWS,abc,def\n"
		"2,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,,Deep Infra,,\n"
		"4,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,NULL,NULL,,\n", NULL, &r, &e);

	/* ServiceProviderName first, then ProviderName; x_ columns (any case)
	 * are not kept; NULL in both is no backend */
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	assert_int_equal(live_sum(c, "focus", "vercel"), 1000000000);
	assert_int_equal(live_sum(c, "focus", "deepinfra"), 2000000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE extra IS NOT NULL"), 0);
	assert_reject(c, r.batch.id, 4, "ServiceProviderName and ProviderName are both empty");
}

static void test_focus_semicolons(void **state)
{
	struct ctx *c = *state;
	const char *text =
		"BilledCost;BillingCurrency;ChargePeriodStart;ChargePeriodEnd;ProviderName;ChargeDescription\n"
		"1,5;EUR;2026-11-02 00:00:00;2026-11-03 00:00:00;AWS;\"a; b, c\"\n";
	const char *plain =
		"BilledCost;BillingCurrency;ChargePeriodStart;ChargePeriodEnd;ProviderName\n"
		"1.5;EUR;2026-11-02 00:00:00;2026-11-03 00:00:00;AWS\n";
	sb_import_opts o = opts(false, 0, 0);
	sb_import_result r;
	sb_err e;
	int rc;

	/* told from the header: ';' */
	rc = import(c, "focus", plain, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(live_sum(c, "focus", "aws"), 1500000000);
	/* named: the same; a decimal comma is not a number */
	o.delimiter = ';';
	rc = import(c, "focus", text, &o, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	assert_reject(c, r.batch.id, 2, "BilledCost '1,5' is not a number");
	/* a ';' file read as ',': the header did not split, and says so */
	o.delimiter = ',';
	rc = import(c, "focus", plain, &o, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	assert_reject(c, r.batch.id, 1, "the header did not split into columns at ',': it is the one column "
	                                "'BilledCost;BillingCurrency;ChargePeriodStart;ChargePeriodEnd'...; "
	                                "if the file is separated by ';', give the delimiter ';'");
}

static void test_focus_own_export(void **state)
{
	struct ctx *c = *state;
	sb_import_result r;
	sb_err e;
	int rc = import(c, "focus",
		"BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ResourceId,ServiceProviderName,ChargeDescription,Tags,x_BilledBasis\n"
		"0.5,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,s1,modal,x,{},computed\n"
		"0.7,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,s2,modal,x,{},Computed\n"
		"0.25,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,'-s3,modal,'=HYPERLINK(1),{},billed\n"
		"0.125,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,'x4,modal,\"'@a\",{},mixed\n"
		"bad,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,s5,modal,x,{},computed\n", NULL, &r, &e);

	/* estimates (computed, any case) are skipped before anything is read
	 * of them; billed and mixed rows are bills; the guard's quote comes
	 * off (-s3, =HYPERLINK(1), @a), a quote before anything else stays */
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 2);
	assert_int_equal(r.batch.skipped, 3);
	assert_int_equal(live_sum(c, "focus", "modal"), 375000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id = '-s3' "
	                                    "AND replace(charge_identity, '\"=HYPERLINK(1)\"', '') <> charge_identity"), 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id = '''x4' "
	                                    "AND replace(charge_identity, '\"@a\"', '') <> charge_identity"), 1);
}

/* ---- Modal -------------------------------------------------------------- */

static void test_modal_display_names(void **state)
{
	struct ctx *c = *state;
	const char *csv =
		"Object ID,Description,Environment,Interval Start,Cost,Tags\n"
		"ap-1,app1,main,2025-01-01T00:00:00,100.123456,\"{\"\"team\"\": \"\"eng\"\", \"\"project\"\": \"\"p7\"\"}\"\n"
		"ap-1,app1,test,2025-01-02T00:00:00,0.5,\"{}\"\n";
	const char *json =
		"[\n"
		"  {\n"
		"    \"object_id\": \"ap-1\",\n"
		"    \"description\": \"app1\",\n"
		"    \"environment\": \"main\",\n"
		"    \"interval_start\": \"2025-01-01T00:00:00\",\n"
		"    \"cost\": \"100.123456\",\n"
		"    \"tags\": \"{\\\"team\\\": \\\"eng\\\", \\\"project\\\": \\\"p7\\\"}\"\n"
		"  }\n"
		"]\n";
	sb_import_result r;
	sb_err e;
	int rc = import(c, "modal", csv, NULL, &r, &e);

	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 2);
	/* 100.123456 + 0.5 */
	assert_int_equal(live_sum(c, "modal", NULL), 100623456000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id = 'ap-1' "
	                                    "AND tags = '{\"project\":\"p7\",\"team\":\"eng\"}' "
	                                    "AND extra = '{\"description\":\"app1\",\"environment\":\"main\"}'"), 1);
	/* the --json report of the same day, tags a string: the same line
	 * spelt otherwise, a duplicate */
	rc = import(c, "modal", json, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.duplicates, 1);
	/* any case and spacing of the display names */
	rc = import(c, "modal", "OBJECT ID, interval start ,COST\nap-2,2025-01-03T00:00:00,1\n", NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(live_count(c, "modal"), 3);
}

/* The plain report of ap-1's day, and the --show-resources one. */
static const char modal_total[] =
	"Object ID,Description,Environment,Interval Start,Cost\n"
	"ap-1,app1,main,2025-01-01T00:00:00,3.00\n"
	"ap-2,app2,main,2025-01-01T00:00:00,7.00\n";
static const char modal_resources[] =
	"Object ID,Description,Environment,Interval Start,Resource,Cost\n"
	"ap-1,app1,main,2025-01-01T00:00:00,CPU,1.25\n"
	"ap-1,app1,main,2025-01-01T00:00:00,Memory,1.75\n"
	"ap-1,app1,main,2025-01-02T00:00:00,CPU,0.5\n";

static void test_modal_breakdown_then_total(void **state)
{
	struct ctx *c = *state;
	sb_import_opts sup = opts(true, 0, 0);
	sb_import_result r;
	sb_err e;
	int rc = import(c, "modal", modal_resources, NULL, &r, &e);

	assert_sb_ok(&e, rc);
	/* the total of the same object and day is the same charge as each
	 * resource: refused naming batch 1; ap-2 is new */
	rc = import(c, "modal", modal_total, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	assert_reject(c, r.batch.id, 2, "already billed by batch 1; a superseding import replaces it");
	/* 1.25 + 1.75 + 0.5 + 7.00 */
	assert_int_equal(live_sum(c, "modal", NULL), 10500000000);
	/* with --supersede the total replaces the two resources of its day
	 * (the same charge) and ap-2's line of batch 2 (the same key); Jan 2
	 * is outside the file's span (one day, Jan 1) */
	rc = import(c, "modal", modal_total, &sup, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.superseded, 3);
	/* 3.00 + 7.00 + 0.5 */
	assert_int_equal(live_sum(c, "modal", NULL), 10500000000);
	assert_int_equal(live_count(c, "modal"), 3);
}

static void test_modal_total_then_breakdown(void **state)
{
	struct ctx *c = *state;
	sb_import_opts sup = opts(true, 0, 0);
	sb_import_result r;
	sb_err e;
	int rc = import(c, "modal", modal_total, NULL, &r, &e);

	assert_sb_ok(&e, rc);
	rc = import(c, "modal", modal_resources, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "2 records rejected");
	assert_reject(c, r.batch.id, 2, "already billed by batch 1");
	assert_reject(c, r.batch.id, 3, "already billed by batch 1");
	/* 3.00 + 7.00, and Jan 2's CPU 0.5 (no total that day) */
	assert_int_equal(live_sum(c, "modal", NULL), 10500000000);
	/* the breakdown's lines are of one length (a day): it covers Jan 1-2;
	 * ap-1's total is superseded (the same charge, and inside), and so
	 * is ap-2's: a reissue covering Jan 1 without ap-2 drops it */
	rc = import(c, "modal", modal_resources, &sup, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.superseded, 3);
	/* 1.25 + 1.75 + 0.5 */
	assert_int_equal(live_sum(c, "modal", NULL), 3500000000);
	/* two resources of one interval are two charges, never one */
	assert_int_equal(live_count(c, "modal"), 3);
}

/* ---- E2B -------------------------------------------------------------- */

static void test_e2b_real_shapes(void **state)
{
	struct ctx *c = *state;
	/* the events API (v1): a killed event without data, others without
	 * execution */
	const char *api =
		"[\n"
		"  {\n"
		"    \"version\": \"v1\",\n"
		"    \"id\": \"ev-1\",\n"
		"    \"type\": \"sandbox.lifecycle.killed\",\n"
		"    \"eventData\": null,\n"
		"    \"sandboxId\": \"sbx-1\",\n"
		"    \"timestamp\": \"2026-11-04T10:00:00Z\"\n"
		"  },\n"
		"  {\n"
		"    \"version\": \"v1\",\n"
		"    \"id\": \"ev-2\",\n"
		"    \"type\": \"sandbox.lifecycle.updated\",\n"
		"    \"eventData\": {\"set_timeout\": \"2026-11-04T10:00:30Z\"},\n"
		"    \"sandboxId\": \"sbx-1\"\n"
		"  },\n"
		"  {\"id\": \"ev-3\", \"type\": \"sandbox.lifecycle.paused\", \"sandboxId\": \"sbx-1\", \"eventData\": {\"sandbox_metadata\": {}}}\n"
		"]\n";
	/* a saved webhook body (v2): pretty-printed, camelCase envelope,
	 * snake_case execution; then a second one, and a line of JSON Lines */
	const char *webhook =
		"{\n"
		"  \"version\": \"v2\",\n"
		"  \"id\": \"ev-4\",\n"
		"  \"type\": \"sandbox.lifecycle.killed\",\n"
		"  \"eventData\": {\n"
		"    \"sandbox_metadata\": {\n"
		"      \"team\": \"a\"\n"
		"    },\n"
		"    \"execution\": {\n"
		"      \"started_at\": \"2026-11-04T10:00:00Z\",\n"
		"      \"vcpu_count\": 2,\n"
		"      \"memory_mb\": 512,\n"
		"      \"execution_time\": 1000\n"
		"    }\n"
		"  },\n"
		"  \"sandboxExecutionId\": \"x-1\",\n"
		"  \"sandboxId\": \"sbx-1\",\n"
		"  \"timestamp\": \"2026-11-04T10:00:01Z\"\n"
		"}\n"
		"{\n"
		"  \"id\": \"ev-5\",\n"
		"  \"type\": \"sandbox.lifecycle.paused\",\n"
		"  \"sandbox_id\": \"sbx-2\",\n"
		"  \"event_data\": {\"execution\": {\"started_at\": \"2026-11-04T11:00:00Z\", \"vcpu_count\": 1, \"memory_mb\": 1024, \"execution_time\": 250}}\n"
		"}\n"
		"{\"id\": \"ev-6\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"sbx-2\", \"event_data\": null}\n";
	sb_import_result r;
	sb_err e;
	int rc = import(c, "e2b-events", api, NULL, &r, &e);

	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.skipped, 3);
	assert_int_equal(r.batch.accepted, 0);
	rc = import(c, "e2b-events", webhook, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	/* one record per body, not one per line */
	assert_int_equal(r.batch.accepted, 2);
	assert_int_equal(r.batch.skipped, 1);
	assert_int_equal(r.batch.rejected, 0);
	/* 2 vCPU x 1000 ms; 512 MB x 1000 ms; 1 x 250; 1024 x 250 */
	assert_int_equal(support_i64(c->db, "SELECT vcpu_ms FROM billing_line WHERE line_key = 'ev-4'"), 2000);
	assert_int_equal(support_i64(c->db, "SELECT memory_mb_ms FROM billing_line WHERE line_key = 'ev-4'"), 512000);
	assert_int_equal(support_i64(c->db, "SELECT memory_mb_ms FROM billing_line WHERE line_key = 'ev-5'"), 256000);
	assert_int_equal(support_i64(c->db, "SELECT line_no FROM billing_line WHERE line_key = 'ev-5'"), 20);
	/* an execution that is not an object is an error, not a skip */
	rc = import(c, "e2b-events", "{\"id\": \"ev-7\", \"type\": \"sandbox.lifecycle.killed\", \"sandboxId\": \"s\", \"eventData\": [1]}\n",
	            NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	assert_reject(c, r.batch.id, 1, "eventData must be an object, not an array");
}

/* ---- Daytona ------------------------------------------------------------ */

static void test_daytona_optional_fields(void **state)
{
	struct ctx *c = *state;
	const char *text =
		"[{\"sandboxId\": \"sb-1\", \"totalCPUSeconds\": 100, \"totalPrice\": 0.1},\n"
		" {\"sandboxId\": \"sb-2\", \"firstStart\": \"2026-11-20T06:00:00Z\", \"totalCPUSeconds\": 5, \"totalPrice\": 0.2},\n"
		" {\"sandboxId\": \"sb-3\", \"lastEnd\": \"2026-11-02T06:00:00Z\", \"totalPrice\": 0.4},\n"
		" {\"totalCPUSeconds\": 50, \"totalPrice\": 0.8},\n"
		" {\"sandboxId\": \"sb-5\", \"totalCPUSeconds\": 9},\n"
		" {\"sandboxId\": \"sb-6\", \"totalCPUSeconds\": 0, \"totalRAMGBSeconds\": 0},\n"
		" {},\n"
		" {\"sandboxId\": \"sb-8\", \"firstStart\": \"2026-12-01T00:00:00Z\", \"totalPrice\": 1}]\n";
	sb_import_opts nov = opts(false, at(2026, 11, 1, 0), at(2026, 12, 1, 0));
	sb_import_result r;
	sb_err e;
	int rc;

	/* without --period every row lacking a time is rejected naming it */
	rc = import(c, "daytona", text, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "6 records rejected");
	assert_reject(c, r.batch.id, 1, "firstStart and lastEnd are missing: give the import the period the usage report covers");
	assert_reject(c, r.batch.id, 2, "lastEnd is missing (the sandbox is still running): give the import the period the usage report covers");
	assert_reject(c, r.batch.id, 3, "firstStart is missing: give the import the period the usage report covers");
	assert_reject(c, r.batch.id, 5, "totalPrice is missing, and the row has usage (totalCPUSeconds)");
	assert_int_equal(r.batch.skipped, 2);
	assert_int_equal(live_count(c, "daytona"), 0);

	/* with --period 2026-11 */
	rc = import(c, "daytona", text, &nov, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "2 records rejected");
	assert_int_equal(r.batch.accepted, 4);
	assert_int_equal(r.batch.skipped, 2);
	/* usage and no price, and a running sandbox started at the end of
	 * the period */
	assert_reject(c, r.batch.id, 5, "totalPrice is missing, and the row has usage");
	assert_reject(c, r.batch.id, 8, "firstStart is not before the end of the period given");
	/* 0.1 + 0.2 + 0.4 + 0.8 */
	assert_int_equal(live_sum(c, "daytona", NULL), 1500000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id = 'sb-1' AND start_ms = %lld AND end_ms = %lld",
	                             (long long)at(2026, 11, 1, 0), (long long)at(2026, 12, 1, 0)), 1);
	/* still running: from firstStart to the end of the period */
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id = 'sb-2' AND start_ms = %lld AND end_ms = %lld",
	                             (long long)at(2026, 11, 20, 6), (long long)at(2026, 12, 1, 0)), 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id = 'sb-3' AND start_ms = %lld AND end_ms = %lld",
	                             (long long)at(2026, 11, 1, 0), (long long)at(2026, 11, 2, 6)), 1);
	/* no sandboxId: account-level */
	assert_int_equal(support_i64(c->db, "SELECT amount_nanos FROM billing_line WHERE session_id IS NULL"), 800000000);
}

static void test_daytona_one_line(void **state)
{
	struct ctx *c = *state;
	/* the API's answer as it comes: one line, rows without times */
	const char *text = "[{\"sandboxId\":\"sb-1\",\"totalCPUSeconds\":100,\"totalPrice\":0.1},"
	                   "{\"sandboxId\":\"sb-2\",\"totalCPUSeconds\":200,\"totalPrice\":0.2}]";
	sb_import_opts nov = opts(false, at(2026, 11, 1, 0), at(2026, 12, 1, 0));
	sb_import_result r;
	sb_err e;
	int rc = import(c, "daytona", text, NULL, &r, &e);

	/* two rejects on one line: both kept */
	assert_sb_fails(&e, rc, SB_EDATA, "2 records rejected");
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM reject WHERE batch_id = %lld AND line_no = 1 "
	                                    "AND replace(reason, 'the period the usage report covers', '') <> reason", (long long)r.batch.id), 2);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(DISTINCT CAST(content AS TEXT)) FROM reject"), 2);
	rc = import(c, "daytona", text, &nov, &r, &e);
	assert_sb_ok(&e, rc);
	/* 0.1 + 0.2 */
	assert_int_equal(live_sum(c, "daytona", NULL), 300000000);
}

/* ---- DeepInfra ---------------------------------------------------------- */

static void test_deepinfra_dotted(void **state)
{
	struct ctx *c = *state;
	sb_import_result r;
	sb_err e;
	int rc = import(c, "deepinfra-usage",
		"{\"initial_month\": \"2026.01\", \"months\": [{\"period\": \"2026.06\", \"total_cost\": 90210}, "
		"{\"period\": \"2026.07\", \"total_cost\": 41877.5}, {\"period\": \"2026.7\", \"total_cost\": 1}, "
		"{\"period\": \"2026/08\", \"total_cost\": 1}]}", NULL, &r, &e);

	assert_sb_fails(&e, rc, SB_EDATA, "2 records rejected");
	/* 902.10 + 418.775 (41877.5 cents) */
	assert_int_equal(live_sum(c, "deepinfra-usage", NULL), 1320875000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE start_ms = %lld AND end_ms = %lld",
	                             (long long)at(2026, 6, 1, 0), (long long)at(2026, 7, 1, 0)), 1);
}

/* ---- counted once ------------------------------------------------------- */

/* A record line of backend cf, session s, cost, period [a, b). */
#define REC(s, cost, a, b) \
	"{\"backend\": \"cf\", \"session_id\": \"" s "\", \"cost_usd\": " cost ", " \
	"\"period_start\": \"" a "\", \"period_end\": \"" b "\"}\n"

static void test_identical_rows_are_two_charges(void **state)
{
	struct ctx *c = *state;
	const char *two = REC("s1", "0.5", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z")
	                  REC("s1", "0.5", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z");
	const char *three = REC("s1", "0.5", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z")
	                    REC("s1", "0.5", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z")
	                    REC("s1", "0.5", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z");
	sb_import_result r;
	sb_err e;
	int rc = import(c, "record", two, NULL, &r, &e);

	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 2);
	assert_int_equal(live_sum(c, "record", NULL), 1000000000);
	/* read again: both duplicates */
	rc = import(c, "record", two, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.duplicates, 2);
	/* a file with a third copy: two duplicates, and the third is the same
	 * charge as batch 1's (a new key, an overlapping period) */
	rc = import(c, "record", three, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	assert_int_equal(r.batch.duplicates, 2);
	assert_reject(c, r.batch.id, 3, "already billed by batch 1; a superseding import replaces it");
	assert_int_equal(live_sum(c, "record", NULL), 1000000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_row_seen"), 0);
}

static void test_same_charge_edges(void **state)
{
	struct ctx *c = *state;
	sb_import_result r;
	sb_err e;
	int rc = import(c, "record",
		REC("s1", "1", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z")
		"{\"backend\": \"cf\", \"session_id\": \"s9\", \"cost_usd\": 1, \"unit\": \"gb\", "
		"\"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T00:00:00Z\"}\n", NULL, &r, &e);

	assert_sb_ok(&e, rc);
	rc = import(c, "record",
		/* ends where batch 1's starts, starts where it ends: adjacent,
		 * not overlapping */
		REC("s1", "2", "2026-11-01T23:00:00Z", "2026-11-02T00:00:00Z")
		REC("s1", "3", "2026-11-02T01:00:00Z", "2026-11-02T02:00:00Z")
		/* one millisecond of overlap at either end */
		REC("s1", "4", "2026-11-02T00:59:59.999Z", "2026-11-02T02:00:00Z")
		REC("s1", "5", "2026-11-01T23:00:00Z", "2026-11-02T00:00:00.001Z")
		/* another session, another backend */
		REC("s2", "6", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z")
		"{\"backend\": \"cf2\", \"session_id\": \"s1\", \"cost_usd\": 7, \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T01:00:00Z\"}\n"
		/* a zero-length line at an instant inside batch 1's hour */
		REC("s1", "8", "2026-11-02T00:30:00Z", "2026-11-02T00:30:00Z")
		/* the zero-length s9 line of unit gb: the same instant and unit
		 * again, then another unit (another charge) */
		"{\"backend\": \"cf\", \"session_id\": \"s9\", \"cost_usd\": 9, \"unit\": \"gb\", "
		"\"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T00:00:00Z\"}\n"
		"{\"backend\": \"cf\", \"session_id\": \"s9\", \"cost_usd\": 10, \"unit\": \"cpu\", "
		"\"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T00:00:00Z\"}\n", NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "4 records rejected");
	assert_reject(c, r.batch.id, 3, "already billed by batch 1");
	assert_reject(c, r.batch.id, 4, "already billed by batch 1");
	assert_reject(c, r.batch.id, 7, "already billed by batch 1");
	assert_reject(c, r.batch.id, 8, "already billed by batch 1");
	/* 1 + 1, then 2 + 3 + 6 + 7 + 10 */
	assert_int_equal(live_sum(c, "record", NULL), 30000000000);
}

static void test_corrections_add(void **state)
{
	struct ctx *c = *state;
	const char *hdr = "BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId,ChargeClass,ChargeCategory\n";
	char first[512], second[512];
	sb_import_result r;
	sb_err e;
	int rc;

	snprintf(first, sizeof first, "%s%s", hdr, "10,USD,2026-11-02 00:00:00,2026-11-03 00:00:00,AWS,i-1,NULL,Usage\n");
	snprintf(second, sizeof second, "%s%s%s", hdr,
	         "-2,USD,2026-11-02 00:00:00,2026-11-03 00:00:00,AWS,i-1,Correction,Usage\n",
	         "-1,USD,2026-11-02 00:00:00,2026-11-03 00:00:00,AWS,i-1,correction,Usage\n");
	rc = import(c, "focus", first, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	/* a correction of the same charge adds to it; so does a second one in
	 * another file */
	rc = import(c, "focus", second, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 2);
	/* 10 - 2 - 1 */
	assert_int_equal(live_sum(c, "focus", NULL), 7000000000);
	snprintf(second, sizeof second, "%s%s", hdr, "-4,USD,2026-11-02 00:00:00,2026-11-03 00:00:00,AWS,i-1,Correction,Usage\n");
	rc = import(c, "focus", second, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(live_sum(c, "focus", NULL), 3000000000);
}

static void test_key_conflict(void **state)
{
	struct ctx *c = *state;
	sb_import_opts sup = opts(true, 0, 0);
	sb_import_result r;
	sb_err e;
	int rc = import(c, "e2b-events",
		"{\"id\": \"k1\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s1\", \"event_data\": {\"execution\": {\"started_at\": \"2026-11-04T10:00:00Z\", \"vcpu_count\": 2, \"memory_mb\": 512, \"execution_time\": 1000}}}\n"
		"{\"id\": \"k1\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s1\", \"event_data\": {\"execution\": {\"started_at\": \"2026-11-04T10:00:00Z\", \"vcpu_count\": 2, \"memory_mb\": 512, \"execution_time\": 1000}}}\n"
		"{\"id\": \"k1\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s1\", \"event_data\": {\"execution\": {\"started_at\": \"2026-11-04T10:00:00Z\", \"vcpu_count\": 4, \"memory_mb\": 512, \"execution_time\": 1000}}}\n",
		NULL, &r, &e);
	const char *changed =
		"{\"id\": \"k1\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s1\", \"event_data\": {\"execution\": {\"started_at\": \"2026-11-04T10:00:00Z\", \"vcpu_count\": 8, \"memory_mb\": 512, \"execution_time\": 1000}}}\n";

	/* the same id again in one file: a duplicate, then a conflict */
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	assert_int_equal(r.batch.duplicates, 1);
	assert_reject(c, r.batch.id, 3, "line key 'k1' is already billed by batch 1 with other content; a superseding import replaces it");
	/* another file: a conflict naming batch 1 (exit 65), until --supersede */
	rc = import(c, "e2b-events", changed, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	assert_reject(c, r.batch.id, 1, "already billed by batch 1 with other content");
	rc = import(c, "e2b-events", changed, &sup, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.superseded, 1);
	assert_int_equal(support_i64(c->db, "SELECT vcpu_ms FROM billing_line WHERE superseded_by IS NULL"), 8000);
	/* within a superseding file, keys are compared among its own lines */
	rc = import(c, "e2b-events",
		"{\"id\": \"k2\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s2\", \"event_data\": {\"execution\": {\"started_at\": \"2026-11-05T10:00:00Z\", \"vcpu_count\": 2, \"memory_mb\": 512, \"execution_time\": 1000}}}\n"
		"{\"id\": \"k2\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s2\", \"event_data\": {\"execution\": {\"started_at\": \"2026-11-05T10:00:00Z\", \"vcpu_count\": 2, \"memory_mb\": 512, \"execution_time\": 1000}}}\n"
		"{\"id\": \"k2\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s2\", \"event_data\": {\"execution\": {\"started_at\": \"2026-11-05T10:00:00Z\", \"vcpu_count\": 3, \"memory_mb\": 512, \"execution_time\": 1000}}}\n",
		&sup, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	assert_int_equal(r.batch.duplicates, 1);
	assert_reject(c, r.batch.id, 3, "line key 'k2' is already used with other content by line 1 of this file");
}

/* ---- supersede ---------------------------------------------------------- */

/* A FOCUS JSON line of Vercel: service, cost, start, end. */
#define VLINE(service, cost, a, b) \
	"{\"ServiceName\": \"" service "\", \"BilledCost\": " cost ", \"BillingCurrency\": \"USD\", " \
	"\"ChargePeriodStart\": \"" a "\", \"ChargePeriodEnd\": \"" b "\", \"ChargeCategory\": \"Usage\", " \
	"\"ServiceProviderName\": \"Vercel\", \"Tags\": {}}\n"

static void test_monthly_fee_in_daily_statements(void **state)
{
	struct ctx *c = *state;
	/* each day's statement: that day's usage and the month's fee so far */
	const char *day1 = VLINE("Functions", "10", "2025-12-01T08:00:00.000Z", "2025-12-02T08:00:00.000Z")
	                   VLINE("Pro plan", "20", "2025-12-01T08:00:00.000Z", "2026-01-01T08:00:00.000Z");
	const char *day2 = VLINE("Functions", "11", "2025-12-02T08:00:00.000Z", "2025-12-03T08:00:00.000Z")
	                   VLINE("Pro plan", "20", "2025-12-01T08:00:00.000Z", "2026-01-01T08:00:00.000Z");
	const char *day3 = VLINE("Functions", "12", "2025-12-03T08:00:00.000Z", "2025-12-04T08:00:00.000Z")
	                   VLINE("Pro plan", "25", "2025-12-01T08:00:00.000Z", "2026-01-01T08:00:00.000Z");
	sb_import_opts p1 = opts(true, at(2025, 12, 1, 8), at(2025, 12, 2, 8));
	sb_import_opts p2 = opts(true, at(2025, 12, 2, 8), at(2025, 12, 3, 8));
	sb_import_opts p3 = opts(true, at(2025, 12, 3, 8), at(2025, 12, 4, 8));
	sb_import_opts nop = opts(true, 0, 0);
	sb_import_result r;
	sb_err e;
	int rc = import(c, "focus", day1, &p1, &r, &e);

	assert_sb_ok(&e, rc);
	rc = import(c, "focus", day2, &p2, &r, &e);
	assert_sb_ok(&e, rc);
	/* day 2 replaces the fee (the same key), nothing of day 1 */
	assert_int_equal(r.superseded, 1);
	rc = import(c, "focus", day3, &p3, &r, &e);
	assert_sb_ok(&e, rc);
	/* a changed fee: the same charge, replaced; day 1 and day 2 stay */
	assert_int_equal(r.superseded, 1);
	/* 10 + 11 + 12 + 25 */
	assert_int_equal(live_sum(c, "focus", "vercel"), 58000000000);
	assert_int_equal(live_count(c, "focus"), 4);
	/* without the covered period, the day's statement (a day and a month)
	 * is refused naming --period, and nothing changes */
	rc = import(c, "focus", day3, &nop, &r, &e);
	assert_sb_fails(&e, rc, SB_EUSAGE, "the lines of backend vercel are of several lengths (1 day and 31 days), "
	                                   "so the period this file covers is not their span: give the period the reissued statement covers");
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch WHERE batch_id = %lld AND status = 'failed' "
	                                    "AND accepted = 0", (long long)r.batch.id), 1);
	assert_int_equal(r.superseded, 0);
	assert_int_equal(live_sum(c, "focus", "vercel"), 58000000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line_pending"), 0);
}

static void test_span_of_one_length(void **state)
{
	struct ctx *c = *state;
	sb_import_opts sup = opts(true, 0, 0);
	sb_import_result r;
	sb_err e;
	int rc = import(c, "deepinfra-usage",
		"{\"months\": [{\"period\": \"2026-01\", \"total_cost\": 100}, {\"period\": \"2026-02\", \"total_cost\": 200}, "
		"{\"period\": \"2026-03\", \"total_cost\": 300}, {\"period\": \"2026-04\", \"total_cost\": 400}]}", NULL, &r, &e);

	assert_sb_ok(&e, rc);
	/* February (28 days) and March (31): calendar months, one length; the
	 * span Feb 1 .. Apr 1 replaces February and March, not January or
	 * April */
	rc = import(c, "deepinfra-usage",
		"{\"months\": [{\"period\": \"2026.02\", \"total_cost\": 250}, {\"period\": \"2026.03\", \"total_cost\": 350}]}",
		&sup, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.superseded, 2);
	/* 1.00 + 2.50 + 3.50 + 4.00 */
	assert_int_equal(live_sum(c, "deepinfra-usage", NULL), 11000000000);
	/* a line starting inside the span but ending after it is not inside:
	 * a daily FOCUS file of Nov 2-3 leaves a line of Nov 3 00:00-Nov 4 12:00 */
	rc = import(c, "focus",
		"BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId\n"
		"1,USD,2026-11-03 00:00:00,2026-11-04 12:00:00,AWS,i-1\n"
		"2,USD,2026-11-01 00:00:00,2026-11-02 00:00:00,AWS,i-2\n", NULL, &r, &e);
	assert_sb_ok(&e, rc);
	rc = import(c, "focus",
		"BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ResourceId\n"
		"5,USD,2026-11-02 00:00:00,2026-11-03 00:00:00,AWS,i-3\n"
		"6,USD,2026-11-03 00:00:00,2026-11-04 00:00:00,AWS,i-4\n", &sup, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.superseded, 0);
	assert_int_equal(live_sum(c, "focus", NULL), 14000000000);
}

static void test_period_given(void **state)
{
	struct ctx *c = *state;
	sb_import_opts nov2 = opts(true, at(2026, 11, 2, 0), at(2026, 11, 3, 0));
	sb_import_result r;
	sb_err e;
	int rc = import(c, "record",
		REC("a", "1", "2026-11-01T23:00:00Z", "2026-11-02T00:00:00Z")
		REC("b", "2", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z")
		REC("c", "4", "2026-11-02T23:00:00Z", "2026-11-03T00:00:00Z")
		REC("d", "8", "2026-11-02T23:00:00Z", "2026-11-03T00:00:00.001Z")
		REC("e", "16", "2026-11-03T00:00:00Z", "2026-11-03T00:00:00Z"), NULL, &r, &e);

	assert_sb_ok(&e, rc);
	/* a reissue of Nov 2 with one line of another session: inside [Nov 2,
	 * Nov 3) are b and c; a ends before, d ends after, e starts at the end */
	rc = import(c, "record", REC("z", "32", "2026-11-02T05:00:00Z", "2026-11-02T06:00:00Z"), &nov2, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.superseded, 2);
	/* 1 + 8 + 16 + 32 */
	assert_int_equal(live_sum(c, "record", NULL), 57000000000);
	/* and another backend's lines are left alone */
	rc = import(c, "record",
		"{\"backend\": \"other\", \"cost_usd\": 64, \"period_start\": \"2026-11-02T05:00:00Z\", \"period_end\": \"2026-11-02T06:00:00Z\"}\n",
		&nov2, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.superseded, 0);
}

static void test_resume_as_begun(void **state)
{
	struct ctx *c = *state;
	const char *text = REC("a", "1", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z")
	                   REC("b", "2", "2026-11-02T01:00:00Z", "2026-11-02T02:00:00Z");
	sb_import_opts sup = opts(true, 0, 0), nov2 = opts(true, at(2026, 11, 2, 0), at(2026, 11, 3, 0));
	sb_import_opts plain = opts(false, 0, 0);
	const char *path = fixture(c, text);
	sb_import_result r;
	sb_err e;
	int rc;

	sup.chunk = nov2.chunk = plain.chunk = 1;
	sup.force = nov2.force = plain.force = false;
	sb_err_clear(&e);
	rc = sb_import_billing(c->db, "record", path, &sup, &r, &e);
	assert_sb_ok(&e, rc);
	/* as if killed after the first chunk: its line pending again, the
	 * batch running from line 2 */
	support_exec(c->db, "INSERT INTO billing_line_pending (format, line_key, batch_id, line_no, backend, session_id, start_ms, "
	                    "end_ms, kind, amount_nanos, currency, correction, source_row) "
	                    "SELECT format, line_key, batch_id, line_no, backend, session_id, start_ms, end_ms, kind, "
	                    "amount_nanos, currency, correction, source_row FROM billing_line WHERE line_no = 1;"
	                    "DELETE FROM billing_line;");
	/* (a blob's bytes: length of it as a BLOB on SQLite, octet_length on PostgreSQL) */
	support_exec(c->db, strcmp(sb_db_engine(c->db), "PostgreSQL") == 0 ?
	             "UPDATE batch SET status = 'running', ended_ms = NULL, accepted = 1, resume_line = 2, "
	             "resume_offset = (SELECT octet_length(source_row) + 1 FROM billing_line_pending);" :
	             "UPDATE batch SET status = 'running', ended_ms = NULL, accepted = 1, resume_line = 2, "
	             "resume_offset = (SELECT length(CAST(source_row AS BLOB)) + 1 FROM billing_line_pending);");
	/* the pending line is seen by no reader */
	assert_int_equal(live_count(c, "record"), 0);
	/* resumed otherwise than begun: refused, nothing changes */
	sb_err_clear(&e);
	rc = sb_import_billing(c->db, "record", path, &plain, &r, &e);
	assert_sb_fails(&e, rc, SB_EUSAGE, "was begun superseding: run it again superseding (and with no period given)");
	sb_err_clear(&e);
	rc = sb_import_billing(c->db, "record", path, &nov2, &r, &e);
	assert_sb_fails(&e, rc, SB_EUSAGE, "was begun with no period given, not the period 2026-11-02T00:00:00Z..2026-11-03T00:00:00Z given");
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line_pending"), 1);
	/* as begun: completed */
	sb_err_clear(&e);
	rc = sb_import_billing(c->db, "record", path, &sup, &r, &e);
	assert_sb_ok(&e, rc);
	assert_true(r.batch.resumed);
	assert_int_equal(r.batch.accepted, 2);
	assert_int_equal(live_sum(c, "record", NULL), 3000000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line_pending"), 0);

	/* a plain import interrupted, run again with --supersede: refused */
	path = fixture(c, REC("c", "4", "2026-11-03T00:00:00Z", "2026-11-03T01:00:00Z")
	                  REC("d", "8", "2026-11-03T01:00:00Z", "2026-11-03T02:00:00Z"));
	sb_err_clear(&e);
	rc = sb_import_billing(c->db, "record", path, &plain, &r, &e);
	assert_sb_ok(&e, rc);
	support_exec(c->db, "DELETE FROM billing_line WHERE session_id = 'd';"
	                    "UPDATE batch SET status = 'running', ended_ms = NULL, accepted = 1, resume_line = 2 "
	                    "WHERE batch_id = 2;");
	sb_err_clear(&e);
	rc = sb_import_billing(c->db, "record", path, &sup, &r, &e);
	assert_sb_fails(&e, rc, SB_EUSAGE, "was begun without superseding: run it again without superseding to complete it");
	support_exec(c->db, "UPDATE batch SET status = 'complete', accepted = 1 WHERE batch_id = 2");
}

/* A ledger of schema 8 (lines, rejects keyed by their line) takes 009:
 * every line and reject kept, checks passing, the new rules in force. */
static void test_migration_009(void **state)
{
	struct ctx *c = *state;
	char *path = support_path(c->dir, "v8.db");
	sb_import_opts o = opts(false, 0, 0);
	sb_import_result r;
	sb_db *db = NULL;
	sb_err e;
	int rc;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_open(path, SB_DB_CREATE | SB_DB_WRITE, 1000, &db, &e));
	rc = sb_import_billing(db, "record", fixture(c,
		REC("a", "1", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z")
		REC("b", "oops", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z")), &o, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	/* back to schema 8, its reject table keyed by line */
	support_undo_010(db);
	support_exec(db, "DROP INDEX billing_line_charge; ALTER TABLE billing_line DROP COLUMN charge_identity;"
	                 "DROP TABLE billing_line_pending; DROP TABLE billing_supersede; DROP TABLE billing_row_seen;"
	                 "CREATE TABLE r5 (batch_id INTEGER NOT NULL REFERENCES batch (batch_id), line_no INTEGER NOT NULL, "
	                 "reason TEXT NOT NULL, content BLOB NOT NULL, full_length INTEGER NOT NULL, PRIMARY KEY (batch_id, line_no));"
	                 "INSERT INTO r5 SELECT * FROM reject; DROP TABLE reject; ALTER TABLE r5 RENAME TO reject;"
	                 "PRAGMA user_version = 8");
	sb_db_close(db);
	db = NULL;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_open(path, SB_DB_WRITE, 1000, &db, &e));
	assert_int_equal(support_i64(db, "PRAGMA user_version"), sb_db_schema_latest());
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM billing_line WHERE charge_identity IS NULL"), 1);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM reject WHERE line_no = 2 AND replace(reason, 'oops', '') <> reason"), 1);
	assert_checks_pass(db);
	/* the old line is the same charge as a changed one */
	sb_err_clear(&e);
	rc = sb_import_billing(db, "record", fixture(c, REC("a", "2", "2026-11-02T00:00:00Z", "2026-11-02T01:00:00Z")),
	                       &o, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	sb_db_close(db);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_focus10_sample_traits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_focus_provider_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_focus_semicolons, setup, teardown),
		cmocka_unit_test_setup_teardown(test_focus_own_export, setup, teardown),
		cmocka_unit_test_setup_teardown(test_modal_display_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_modal_breakdown_then_total, setup, teardown),
		cmocka_unit_test_setup_teardown(test_modal_total_then_breakdown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_e2b_real_shapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_daytona_optional_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_daytona_one_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deepinfra_dotted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_identical_rows_are_two_charges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_charge_edges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrections_add, setup, teardown),
		cmocka_unit_test_setup_teardown(test_key_conflict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_monthly_fee_in_daily_statements, setup, teardown),
		cmocka_unit_test_setup_teardown(test_span_of_one_length, setup, teardown),
		cmocka_unit_test_setup_teardown(test_period_given, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume_as_begun, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migration_009, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
