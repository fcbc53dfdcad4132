/* test_billing.c: billing imports (importers/billing*.c through
 * sb_import_billing) into an in-memory ledger: every sample of
 * examples/samples/ with its count and
 * a total summed by hand, second imports (all duplicates), reissued
 * exports with --supersede, resume, strict, and bad input for every
 * format, the good records kept.  After each test the ledger's checks
 * (every sql/checks/ file) must all pass.
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
#include "ledger/fx.h"
#include "ledger/lines.h"
#include "ledger/sqlfiles.h"
#include "ledger/timefmt.h"
#include "tests/support/support.h"

#define SAMPLES "examples/samples/"

/* The fixtures' SQL runs on both engines (support_memory_ledger gives a
 * PostgreSQL ledger when SBLEDGER_TEST_PG_DIR is set).  "col holds the
 * text t" is written replace(col, t, '') <> col (and "does not" as =):
 * case-sensitive like SQLite's instr(), which PostgreSQL lacks (its
 * strpos SQLite lacks), where LIKE would be case-blind on SQLite and read
 * '_' as any character. */
static bool on_pg(const sb_db *db)
{
	return strcmp(sb_db_engine(db), "PostgreSQL") == 0;
}

struct ctx {
	sb_db *db;     /* the ledger, in memory */
	char *dir;     /* a temporary directory for fixtures */
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

/* Write text to a fixture file name in the test's directory; allocated. */
static char *fixture(struct ctx *c, const char *name, const char *text)
{
	char *path = support_path(c->dir, name);

	support_write_file(path, text);
	return path;
}

/* Import path as format with opts (NULL: defaults). */
static int import(struct ctx *c, const char *format, const char *path, const sb_import_opts *opts,
                  sb_import_result *r, sb_err *e)
{
	sb_import_opts none;

	memset(&none, 0, sizeof none);
	sb_err_clear(e);
	return sb_import_billing(c->db, format, path, opts != NULL ? opts : &none, r, e);
}

/* Import with --force (a second read of a file). */
static int import_force(struct ctx *c, const char *format, const char *path, sb_import_result *r,
                        sb_err *e)
{
	sb_import_opts o;

	memset(&o, 0, sizeof o);
	o.force = true;
	return import(c, format, path, &o, r, e);
}

/* Import with --supersede. */
static int import_supersede(struct ctx *c, const char *format, const char *path,
                            sb_import_result *r, sb_err *e)
{
	sb_import_opts o;

	memset(&o, 0, sizeof o);
	o.supersede = true;
	return import(c, format, path, &o, r, e);
}

/* Sum of the live amounts of format. */
static int64_t live_sum(struct ctx *c, const char *format)
{
	return support_i64(c->db, "SELECT COALESCE(SUM(amount_nanos), 0) FROM billing_line "
	                          "WHERE format = %Q AND superseded_by IS NULL", format);
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

/* Import a sample, check its count and total, then a second read of it:
 * not read again without --force, all duplicates with it. */
static void sample_twice(struct ctx *c, const char *format, const char *name, int64_t count,
                         int64_t skipped, int64_t total)
{
	sb_import_result r;
	sb_err e;
	int rc = import(c, format, name, NULL, &r, &e);

	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, count);
	assert_int_equal(r.batch.skipped, skipped);
	assert_int_equal(r.batch.rejected, 0);
	assert_int_equal(live_count(c, format), count);
	assert_int_equal(live_sum(c, format), total);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch WHERE batch_id = %lld AND kind = 'billing' "
	                                    "AND format = %Q AND status = 'complete'", (long long)r.batch.id, format), 1);

	rc = import(c, format, name, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.already, 1);

	rc = import_force(c, format, name, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 0);
	assert_int_equal(r.batch.duplicates, count);
	assert_int_equal(r.batch.skipped, skipped);
	assert_int_equal(live_count(c, format), count);
	assert_int_equal(live_sum(c, format), total);
}

static void test_record_sample(void **state)
{
	struct ctx *c = *state;

	/* cost_usd: 0.064943333 + 0.217466667 + 0.004 + 0.25 = 0.536410000 */
	sample_twice(c, "record", SAMPLES "billing-record.jsonl", 4, 0, 536410000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE line_key = 'cf-orphan' "
	                                    "AND backend = 'cloudflare' AND session_id = 'clo-orphan00001' "
	                                    "AND unit IS NULL AND extra IS NULL AND kind = 'billed'"), 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE line_key = 'cf-clo-1958d07674' "
	                                    "AND unit = 'compute-seconds' AND extra = '{\"raw\":{\"id\":\"clo-1958d07674\"}}' "
	                                    "AND start_ms = 1793755379436 AND end_ms = 1793755507392"), 1);
	assert_int_equal(support_i64(c->db, "SELECT SUM(amount_nanos) FROM billing_line WHERE backend = 'docker'"),
	                 250000000);
}

static void test_focus_sample(void **state)
{
	struct ctx *c = *state;

	/* BilledCost: 0.0475880000 + 0.0095 + 0.7855600000 + 0.1571 + 0.6220460000
	 * + 0.1244 + 0.2454088000 = 1.9916028 */
	sample_twice(c, "focus", SAMPLES "billing-focus.csv", 7, 0, 1991602800);
	/* Tax: 0.0095 + 0.1571 + 0.1244 = 0.291 */
	assert_int_equal(support_i64(c->db, "SELECT SUM(amount_nanos) FROM billing_line WHERE category = 'Tax'"),
	                 291000000);
	/* vercel: 0.047588 + 0.0095 + 0.78556 + 0.1571 + 0.622046 + 0.1244 = 1.746194 */
	assert_int_equal(support_i64(c->db, "SELECT SUM(amount_nanos) FROM billing_line WHERE backend = 'vercel'"),
	                 1746194000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE backend = 'runloop'"), 1);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id IS NOT NULL"), 0);
	/* NULL is an empty cell, never 0 */
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE category = 'Tax' AND "
	                                    "list_cost_nanos IS NULL AND effective_cost_nanos IS NULL AND "
	                                    "quantity IS NULL AND unit IS NULL AND tags IS NULL"), 3);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE category = 'Usage' AND "
	                                    "list_cost_nanos = amount_nanos AND quantity = '1' AND unit = 'Minutes' "
	                                    "AND tags = '{\"env\":\"prod, eu\"}' AND replace(extra, 'x_Note', '') = extra "
	                                    "AND replace(extra, '\"PricingUnit\":\"Minutes\"', '') <> extra"), 4);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE start_ms = %lld AND end_ms = %lld",
	                             (long long)sb_days_from_civil_ms(2026, 11, 2),
	                             (long long)sb_days_from_civil_ms(2026, 11, 3)), 3);
}

static void test_modal_sample(void **state)
{
	struct ctx *c = *state;

	/* cost: 1.019045 + 0.368652 + 0.325750 = 1.713447 */
	sample_twice(c, "modal", SAMPLES "billing-modal.json", 3, 0, 1713447000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE backend = 'modal' "
	                                    "AND end_ms - start_ms = 86400000 AND session_id LIKE 'mod-%%'"), 3);
	assert_int_equal(support_i64(c->db, "SELECT start_ms FROM billing_line WHERE session_id = 'mod-83b59641d2'"),
	                 sb_days_from_civil_ms(2026, 11, 4));
}

static void test_modal_csv_hourly(void **state)
{
	struct ctx *c = *state;
	char *path = fixture(c, "modal.csv",
		"Object_ID,description,environment,interval_start,resource,cost,tags\n"
		"mod-1,sandbox mod-1,main,2026-11-04T01:00:00,CPU,0.25,\n"
		"mod-1,sandbox mod-1,main,2026-11-04T01:00:00,Memory,1.5E-3,\"{\"\"team\"\":\"\"a\"\"}\"\n"
		"mod-2,sandbox mod-2,main,2026-11-04T02:00:00,CPU,-0.01,\n");
	sb_import_opts o;
	sb_import_result r;
	sb_err e;
	int rc;

	memset(&o, 0, sizeof o);
	o.interval_ms = 3600000;
	rc = import(c, "modal", path, &o, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 3);
	/* 0.25 + 0.0015 - 0.01 = 0.2415 */
	assert_int_equal(live_sum(c, "modal"), 241500000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE end_ms - start_ms = 3600000"), 3);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE tags = '{\"team\":\"a\"}' "
	                                    "AND replace(extra, '\"resource\":\"Memory\"', '') <> extra "
	                                    "AND replace(extra, 'Object_ID', '') = extra"), 1);

	/* the same report read as daily: not at midnight, so rejected */
	rc = import_force(c, "modal", path, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "3 records rejected");
	assert_reject(c, r.batch.id, 2, "interval_start is not at midnight UTC");
	free(path);
}

static void test_daytona_sample(void **state)
{
	struct ctx *c = *state;

	/* totalPrice: 0.386019 + 0.337789 + 0.273716 + 0.166328 + 0.294349
	 * + 0.161156 = 1.619357 */
	sample_twice(c, "daytona", SAMPLES "billing-daytona.json", 6, 0, 1619357000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id = 'day-3c4a8d15d8' "
	                                    "AND replace(extra, '\"totalCPUSeconds\":579.028', '') <> extra "
	                                    "AND replace(extra, '\"totalRAMGBSeconds\":1158.056', '') <> extra "
	                                    "AND end_ms - start_ms = 289514"), 1);
}

static void test_e2b_sample(void **state)
{
	struct ctx *c = *state;

	/* four killed events (metered, no amount), four created events skipped */
	sample_twice(c, "e2b-events", SAMPLES "billing-e2b-events.json", 4, 4, 0);
	/* execution_time: 309678 + 455899 + 482575 + 256353 = 1504505 ms, 2 vCPU, 1024 MB */
	assert_int_equal(support_i64(c->db, "SELECT SUM(vcpu_ms) FROM billing_line"), 3009010);
	assert_int_equal(support_i64(c->db, "SELECT SUM(memory_mb_ms) FROM billing_line"), 1540613120);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE kind = 'metered' "
	                                    "AND amount_nanos IS NULL AND backend = 'e2b' AND line_key LIKE 'evt-%%-k'"), 4);
	assert_int_equal(support_i64(c->db, "SELECT end_ms - start_ms FROM billing_line WHERE line_key = 'evt-3-k'"),
	                 309678);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id = 'e2b-2565b675cd'"), 1);
}

static void test_e2b_webhook_camel_case(void **state)
{
	struct ctx *c = *state;
	char *path = fixture(c, "events.jsonl",
		"{\"id\": \"e1\", \"type\": \"sandbox.lifecycle.paused\", \"sandboxId\": \"sbx-1\", "
		"\"eventData\": {\"execution\": {\"startedAt\": \"2026-11-04T10:00:00Z\", \"vcpuCount\": 4, "
		"\"memoryMB\": 2048, \"executionTime\": 1500}}}\n"
		"{\"id\": \"e2\", \"type\": \"sandbox.lifecycle.resumed\", \"sandboxId\": \"sbx-1\"}\n"
		"{\"id\": \"e3\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"sbx-1\", "
		"\"event_data\": {\"execution\": {\"started_at\": \"2026-11-04T10:01:00.000+01:00\", \"vcpu_count\": 4, "
		"\"memory_mb\": 2048, \"execution_time\": 500}}}\n");
	sb_import_result r;
	sb_err e;
	int rc = import(c, "e2b-events", path, NULL, &r, &e);

	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 2);
	assert_int_equal(r.batch.skipped, 1);
	assert_int_equal(support_i64(c->db, "SELECT vcpu_ms FROM billing_line WHERE line_key = 'e1'"), 6000);
	assert_int_equal(support_i64(c->db, "SELECT memory_mb_ms FROM billing_line WHERE line_key = 'e1'"), 3072000);
	assert_int_equal(support_i64(c->db, "SELECT start_ms FROM billing_line WHERE line_key = 'e3'"),
	                 sb_days_from_civil_ms(2026, 11, 4) + 9 * 3600000 + 60000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id = 'sbx-1'"), 2);
	free(path);
}

static void test_deepinfra_sample(void **state)
{
	struct ctx *c = *state;

	/* total_cost in cents: 90210 + 41877 = 132087 cents = 1320.87 USD */
	sample_twice(c, "deepinfra-usage", SAMPLES "deepinfra-usage.json", 2, 0, 1320870000000);
	assert_int_equal(support_i64(c->db, "SELECT amount_nanos FROM billing_line WHERE start_ms = %lld AND end_ms = %lld "
	                                    "AND session_id IS NULL AND backend = 'deepinfra'",
	                             (long long)sb_days_from_civil_ms(2026, 11, 1),
	                             (long long)sb_days_from_civil_ms(2026, 12, 1)), 418770000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE start_ms = %lld AND end_ms = %lld",
	                             (long long)sb_days_from_civil_ms(2026, 10, 1),
	                             (long long)sb_days_from_civil_ms(2026, 11, 1)), 1);
}

static void test_focus_json_lines(void **state)
{
	struct ctx *c = *state;
	char *path = fixture(c, "focus.jsonl",
		"{\"BilledCost\": \"0.0475880000\", \"BillingCurrency\": \"usd\", \"ChargePeriodStart\": \"2026-11-02T00:00:00Z\", "
		"\"ChargePeriodEnd\": \"2026-11-03T00:00:00Z\", \"ProviderName\": \"Deep Infra\", \"ChargeCategory\": \"usage\", "
		"\"ResourceId\": \"sbx-9\", \"Tags\": {\"b\": 1, \"a\": \"x\"}, \"x_Internal\": 7}\n"
		"{\"BilledCost\": 0.047588, \"BillingCurrency\": \"USD\", \"ChargePeriodStart\": \"2026-11-02T01:00:00+01:00\", "
		"\"ChargePeriodEnd\": \"2026-11-03T00:00:00Z\", \"ProviderName\": \"DeepInfra\", \"ChargeCategory\": \"Usage\", "
		"\"ResourceId\": \"sbx-9\", \"Tags\": \"{\\\"a\\\": \\\"x\\\", \\\"b\\\": 1}\"}\n"
		"{\"BilledCost\": \"-2.5\", \"BillingCurrency\": \"EUR\", \"ChargePeriodStart\": \"2026-11-02T00:00:00Z\", "
		"\"ChargePeriodEnd\": \"2026-11-03T00:00:00Z\", \"ServiceProviderName\": \"Vercel\", \"ChargeCategory\": \"Credit\", "
		"\"ChargeClass\": \"Correction\", \"InvoiceId\": \"INV-7\", \"ConsumedQuantity\": 12.5, \"ConsumedUnit\": \"GB\"}\n");
	sb_import_result r;
	sb_err e;
	int rc = import(c, "focus", path, NULL, &r, &e);

	assert_sb_ok(&e, rc);
	/* the second row is the first spelt differently: an identical row of
	 * the same file, so a second charge (its ordinal makes its key) */
	assert_int_equal(r.batch.accepted, 3);
	assert_int_equal(r.batch.duplicates, 0);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(DISTINCT line_key) FROM billing_line WHERE backend = 'deepinfra'"), 2);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE backend = 'deepinfra' "
	                                    "AND session_id = 'sbx-9' AND category = 'Usage' AND currency = 'USD' "
	                                    "AND tags = '{\"a\":\"x\",\"b\":1}' AND extra IS NULL"), 2);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE backend = 'vercel' "
	                                    "AND amount_nanos = -2500000000 AND currency = 'EUR' AND correction = 1 "
	                                    "AND category = 'Credit' AND invoice_id = 'INV-7' AND quantity = '12.5' "
	                                    "AND unit = 'GB'"), 1);
	free(path);
}

/* A FOCUS export of vercel and runloop charges, as issued (v1) and as
 * reissued with late usage (v2). */
static const char focus_v1[] =
	"BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ServiceProviderName\r\n"
	"1.00,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,Vercel\r\n"
	"0.10,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Tax,Vercel\r\n"
	"2.00,USD,2026-11-03T00:00:00Z,2026-11-04T00:00:00Z,Usage,Vercel\r\n"
	"5.00,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,Runloop\r\n";
static const char focus_later[] =
	"BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ServiceProviderName\r\n"
	"3.00,USD,2026-11-05T00:00:00Z,2026-11-06T00:00:00Z,Usage,Vercel\r\n";
static const char focus_v2[] =
	"ServiceProviderName,ChargeCategory,BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd\r\n"
	"Vercel,Usage,1.00,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z\r\n"
	"Vercel,Tax,0.12,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z\r\n"
	"Vercel,Usage,2.40,USD,2026-11-03T00:00:00Z,2026-11-04T00:00:00Z\r\n"
	"Runloop,Usage,5.50,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z\r\n";

static void test_supersede_focus(void **state)
{
	struct ctx *c = *state;
	char *v1 = fixture(c, "v1.csv", focus_v1);
	char *later = fixture(c, "later.csv", focus_later);
	char *v2 = fixture(c, "v2.csv", focus_v2);
	sb_import_result r;
	sb_err e;
	int rc;

	rc = import(c, "focus", v1, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	rc = import(c, "focus", later, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	/* 1.00 + 0.10 + 2.00 + 5.00 + 3.00 */
	assert_int_equal(live_sum(c, "focus"), 11100000000);

	/* without --supersede the reissue's changed lines are the same charges
	 * as batch 1's: rejected naming it, and the unchanged one a duplicate */
	rc = import(c, "focus", v2, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "3 records rejected");
	assert_int_equal(r.batch.accepted, 0);
	assert_int_equal(r.batch.duplicates, 1);
	assert_reject(c, r.batch.id, 3, "already billed by batch 1; a superseding import replaces it");
	assert_reject(c, r.batch.id, 4, "already billed by batch 1; a superseding import replaces it");
	assert_reject(c, r.batch.id, 5, "already billed by batch 1; a superseding import replaces it");
	assert_int_equal(live_count(c, "focus"), 5);
	assert_int_equal(live_sum(c, "focus"), 11100000000);

	/* with it: vercel's lines of Nov 2-4 and runloop's of Nov 2 from
	 * earlier batches are superseded; vercel's Nov 5 (outside the span)
	 * stays */
	{
		sb_import_opts o;
		memset(&o, 0, sizeof o);
		o.supersede = true;
		o.force = true;
		rc = import(c, "focus", v2, &o, &r, &e);
	}
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 4);
	assert_int_equal(r.superseded, 4);
	assert_int_equal(live_count(c, "focus"), 5);
	/* v2's 1.00 + 0.12 + 2.40 + 5.50, and Nov 5's 3.00 */
	assert_int_equal(live_sum(c, "focus"), 12020000000);
	/* exactly one live copy of each charge */
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM (SELECT backend, start_ms, category FROM billing_line "
	                                    "WHERE superseded_by IS NULL GROUP BY backend, start_ms, category "
	                                    "HAVING COUNT(*) > 1) AS twice"), 0);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE superseded_by = %lld",
	                             (long long)r.batch.id), 4);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE backend = 'runloop' "
	                                    "AND superseded_by IS NULL"), 1);
	free(v1);
	free(later);
	free(v2);
}

/* The span of a reissue (--supersede --period 2026-11-02..2026-11-04):
 * of the live lines of other batches, it replaces those of its backends
 * lying inside the span (charge start in it, charge end by its end), and
 * nothing else.  The reissue bills vercel's CPU of Nov 2 only, so that
 * the lines below are replaced, or not, by the span alone (another
 * ServiceName: not the same charge as the reissued line):
 *   A   vercel CPU     Nov 2 - Nov 3          1.00  same charge: replaced
 *   E   vercel storage Nov 3 - Nov 4 00:00    0.40  inside, ends at the span's end: replaced
 *   S1  vercel storage Nov 1 12h - Nov 2 12h  0.20  straddles the start: stays
 *   S2  vercel storage Nov 3 12h - Nov 4 12h  0.30  straddles the end: stays
 *   N4  vercel storage Nov 4 - Nov 5          0.50  starts at the span's end: outside, stays
 *   O   vercel CPU     Nov 5 - Nov 6          3.00  outside: stays
 *   R   runloop CPU    Nov 2 - Nov 3          5.00  inside, another backend: stays
 * Live after: 1.10 (the reissue) + 0.20 + 0.30 + 0.50 + 3.00 + 5.00 =
 * 10.10; two superseded.  Overlapping instead of inside would replace S1
 * and S2 too (4); without the backend filter R too (3). */
static const char span_v1[] =
	"BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ServiceProviderName,ServiceName\r\n"
	"1.00,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,Vercel,CPU\r\n"
	"0.40,USD,2026-11-03T00:00:00Z,2026-11-04T00:00:00Z,Usage,Vercel,Storage\r\n"
	"0.20,USD,2026-11-01T12:00:00Z,2026-11-02T12:00:00Z,Usage,Vercel,Storage\r\n"
	"0.30,USD,2026-11-03T12:00:00Z,2026-11-04T12:00:00Z,Usage,Vercel,Storage\r\n"
	"0.50,USD,2026-11-04T00:00:00Z,2026-11-05T00:00:00Z,Usage,Vercel,Storage\r\n"
	"3.00,USD,2026-11-05T00:00:00Z,2026-11-06T00:00:00Z,Usage,Vercel,CPU\r\n"
	"5.00,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,Runloop,CPU\r\n";
static const char span_v2[] =
	"BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ServiceProviderName,ServiceName\r\n"
	"1.10,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,Vercel,CPU\r\n";

static void test_supersede_span_edges(void **state)
{
	struct ctx *c = *state;
	char *v1 = fixture(c, "span1.csv", span_v1);
	char *v2 = fixture(c, "span2.csv", span_v2);
	sb_import_opts o;
	sb_import_result r;
	sb_err e;
	int rc;

	rc = import(c, "focus", v1, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	/* 1.00 + 0.40 + 0.20 + 0.30 + 0.50 + 3.00 + 5.00 */
	assert_int_equal(live_sum(c, "focus"), 10400000000);
	memset(&o, 0, sizeof o);
	o.supersede = true;
	o.has_period = true;
	o.period_from_ms = 1793577600000;  /* 2026-11-02T00:00:00Z */
	o.period_to_ms = 1793750400000;    /* 2026-11-04T00:00:00Z */
	rc = import(c, "focus", v2, &o, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.superseded, 2);
	assert_int_equal(live_count(c, "focus"), 6);
	assert_int_equal(live_sum(c, "focus"), 10100000000);
	/* the two replaced are A (1.00) and E (0.40) */
	assert_int_equal(support_i64(c->db, "SELECT SUM(amount_nanos) FROM billing_line WHERE superseded_by = %lld",
	                             (long long)r.batch.id), 1400000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE backend = 'runloop' "
	                                    "AND superseded_by IS NULL"), 1);
	free(v1);
	free(v2);
}

static void test_supersede_keyed(void **state)
{
	struct ctx *c = *state;
	char *v1 = fixture(c, "v1.jsonl",
		"{\"backend\": \"cloudflare\", \"session_id\": \"s1\", \"cost_usd\": 0.10, \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T01:00:00Z\", \"line_id\": \"L1\"}\n"
		"{\"backend\": \"cloudflare\", \"session_id\": \"s2\", \"cost_usd\": 0.20, \"period_start\": \"2026-11-02T02:00:00Z\", \"period_end\": \"2026-11-02T03:00:00Z\", \"line_id\": \"L2\"}\n");
	char *v2 = fixture(c, "v2.jsonl",
		"{\"backend\": \"cloudflare\", \"session_id\": \"s1\", \"cost_usd\": 0.15, \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T01:00:00Z\", \"line_id\": \"L1\"}\n"
		"{\"backend\": \"cloudflare\", \"session_id\": \"s2\", \"cost_usd\": 0.20, \"period_start\": \"2026-11-02T02:00:00Z\", \"period_end\": \"2026-11-02T03:00:00Z\", \"line_id\": \"L2\"}\n");
	sb_import_result r;
	sb_err e;
	int rc;

	rc = import(c, "record", v1, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	/* a known line_id with the same content is a duplicate; with other
	 * content (L1: 0.15, not 0.10) a conflict, rejected naming batch 1 */
	rc = import(c, "record", v2, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected");
	assert_int_equal(r.batch.duplicates, 1);
	assert_int_equal(r.batch.accepted, 0);
	assert_reject(c, r.batch.id, 1, "line key 'L1' is already billed by batch 1 with other content; a superseding import replaces it");
	assert_int_equal(live_sum(c, "record"), 300000000);
	free(v1);
	free(v2);
}

static void test_supersede_reissue_keyed(void **state)
{
	struct ctx *c = *state;
	char *v1 = fixture(c, "v1.jsonl",
		"{\"backend\": \"cloudflare\", \"session_id\": \"s1\", \"cost_usd\": 0.10, \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T01:00:00Z\", \"line_id\": \"L1\"}\n"
		"{\"backend\": \"cloudflare\", \"session_id\": \"s2\", \"cost_usd\": 0.20, \"period_start\": \"2026-11-02T02:00:00Z\", \"period_end\": \"2026-11-02T03:00:00Z\", \"line_id\": \"L2\"}\n");
	char *v2 = fixture(c, "v2.jsonl",
		"{\"backend\": \"cloudflare\", \"session_id\": \"s1\", \"cost_usd\": 0.15, \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T01:00:00Z\", \"line_id\": \"L1\"}\n"
		"{\"backend\": \"cloudflare\", \"session_id\": \"s2\", \"cost_usd\": 0.20, \"period_start\": \"2026-11-02T02:00:00Z\", \"period_end\": \"2026-11-02T03:00:00Z\", \"line_id\": \"L2\"}\n");
	sb_import_result r;
	sb_err e;
	int rc;

	rc = import(c, "record", v1, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	rc = import_supersede(c, "record", v2, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 2);
	assert_int_equal(r.superseded, 2);
	assert_int_equal(live_count(c, "record"), 2);
	assert_int_equal(live_sum(c, "record"), 350000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE line_key = 'L1'"), 2);
	free(v1);
	free(v2);
}

static void test_supersede_deepinfra_month(void **state)
{
	struct ctx *c = *state;
	char *v2 = fixture(c, "usage.json", "{\"months\": [{\"period\": \"2026-11\", \"total_cost\": 52000}]}");
	sb_import_result r;
	sb_err e;
	int rc;

	rc = import(c, "deepinfra-usage", SAMPLES "deepinfra-usage.json", NULL, &r, &e);
	assert_sb_ok(&e, rc);
	rc = import_supersede(c, "deepinfra-usage", v2, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.superseded, 1);
	/* October 902.10 stays, November is now 520.00 */
	assert_int_equal(live_sum(c, "deepinfra-usage"), 1422100000000);
	assert_int_equal(live_count(c, "deepinfra-usage"), 2);
	free(v2);
}

static void test_supersede_strict(void **state)
{
	struct ctx *c = *state;
	char *bad = fixture(c, "v2.json",
		"[{\"object_id\": \"mod-5940950a03\", \"interval_start\": \"2026-11-02T00:00:00\", \"cost\": \"9\"},\n"
		" {\"object_id\": \"mod-x\", \"interval_start\": \"2026-11-03T00:00:00\", \"cost\": \"n/a\"}]\n");
	sb_import_opts o;
	sb_import_result r;
	sb_err e;
	int rc;

	rc = import(c, "modal", SAMPLES "billing-modal.json", NULL, &r, &e);
	assert_sb_ok(&e, rc);
	memset(&o, 0, sizeof o);
	o.supersede = true;
	o.strict = true;
	rc = import(c, "modal", bad, &o, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "nothing of the file was imported");
	assert_int_equal(r.superseded, 0);
	assert_int_equal(live_count(c, "modal"), 3);
	assert_int_equal(live_sum(c, "modal"), 1713447000);
	assert_reject(c, r.batch.id, 2, "cost 'n/a' is not a number");

	/* nothing of the failed batch is pending */
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line_pending"), 0);
	free(bad);
}

static void test_strict(void **state)
{
	struct ctx *c = *state;
	char *path = fixture(c, "day.json",
		"[{\"sandboxId\": \"a\", \"firstStart\": \"2026-11-04T00:00:00Z\", \"lastEnd\": \"2026-11-04T00:01:00Z\", \"totalPrice\": 0.5},\n"
		" {\"sandboxId\": \"b\", \"firstStart\": \"2026-11-04T00:00:00Z\", \"lastEnd\": \"2026-11-04T00:01:00Z\", \"totalCPUSeconds\": 60}]");
	sb_import_opts o;
	sb_import_result r;
	sb_err e;
	int rc;

	memset(&o, 0, sizeof o);
	o.strict = true;
	rc = import(c, "daytona", path, &o, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "1 record rejected (all or nothing");
	assert_int_equal(live_count(c, "daytona"), 0);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch WHERE status = 'failed'"), 1);
	assert_reject(c, r.batch.id, 2, "totalPrice is missing, and the row has usage (totalCPUSeconds)");
	free(path);
}

/* Leave the ledger's one batch as if killed after a commit: its lines past
 * line kept gone, accepted counted, and its resume point at byte offset,
 * line resume_line. */
static void as_if_killed(struct ctx *c, int64_t kept, int64_t accepted, ptrdiff_t offset,
                         int64_t resume_line)
{
	char sql[256];

	snprintf(sql, sizeof sql, "DELETE FROM billing_line WHERE line_no > %lld;"
	         "UPDATE batch SET status = 'running', ended_ms = NULL, accepted = %lld, resume_line = %lld, "
	         "resume_offset = %lld;", (long long)kept, (long long)accepted, (long long)resume_line,
	         (long long)offset);
	support_exec(c->db, sql);
}

static void test_resume(void **state)
{
	struct ctx *c = *state;
	const char *text =
		"[{\"object_id\": \"a\", \"interval_start\": \"2026-11-02T00:00:00\", \"cost\": \"1\"},\n"
		" {\"object_id\": \"b\", \"interval_start\": \"2026-11-02T00:00:00\", \"cost\": \"2\"},\n"
		" {\"object_id\": \"c\", \"interval_start\": \"2026-11-02T00:00:00\", \"cost\": \"4\"}]\n";
	char *path = fixture(c, "m.json", text);
	const char *second = strstr(text, "\n {\"object_id\": \"b\"");
	sb_import_opts o;
	sb_import_result r;
	sb_err e;
	int rc;

	memset(&o, 0, sizeof o);
	o.chunk = 1;
	rc = import(c, "modal", path, &o, &r, &e);
	assert_sb_ok(&e, rc);
	/* as if killed after the first element was committed */
	as_if_killed(c, 1, 1, second - text - 1, 1);
	rc = import(c, "modal", path, &o, &r, &e);
	assert_sb_ok(&e, rc);
	assert_true(r.batch.resumed);
	assert_int_equal(r.batch.accepted, 3);
	assert_int_equal(live_sum(c, "modal"), 7000000000);
	assert_int_equal(support_i64(c->db, "SELECT line_no FROM billing_line WHERE session_id = 'c'"), 3);
	free(path);
}

static void test_resume_csv(void **state)
{
	struct ctx *c = *state;
	char *path = fixture(c, "f.csv", focus_v1);
	const char *third = strstr(focus_v1, "2.00,");
	sb_import_opts o;
	sb_import_result r;
	sb_err e;
	int rc;

	memset(&o, 0, sizeof o);
	o.chunk = 1;
	rc = import(c, "focus", path, &o, &r, &e);
	assert_sb_ok(&e, rc);
	as_if_killed(c, 3, 2, third - focus_v1, 4);
	rc = import(c, "focus", path, &o, &r, &e);
	assert_sb_ok(&e, rc);
	assert_true(r.batch.resumed);
	assert_int_equal(r.batch.accepted, 4);
	assert_int_equal(live_sum(c, "focus"), 8100000000);
	assert_int_equal(support_i64(c->db, "SELECT line_no FROM billing_line WHERE backend = 'runloop'"), 5);
	free(path);
}

/* A row repeated word for word after a resume, its first before: the
 * writer knows the rows the batch counted before it was interrupted (its
 * filter is filled from the ledger), so the repeat is a second charge,
 * not taken for the first row (nor counted as one again). */
static void test_resume_repeated(void **state)
{
	struct ctx *c = *state;
#define REC(session) "{\"backend\": \"docker\", \"session_id\": \"" session "\", \"cost_usd\": 1, " \
	"\"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T00:10:00Z\"}\n"
	const char *text = REC("x") REC("y") REC("x");
#undef REC
	char *path = fixture(c, "r.jsonl", text);
	const char *third = strchr(strchr(text, '\n') + 1, '\n') + 1;
	sb_import_opts o;
	sb_import_result r;
	sb_err e;
	int rc;

	memset(&o, 0, sizeof o);
	o.chunk = 1;
	rc = import(c, "record", path, &o, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(r.batch.accepted, 3);
	/* as if killed after the second line was committed (what the third
	 * counted rolled back with it) */
	as_if_killed(c, 2, 2, third - text, 3);
	support_exec(c->db, "INSERT INTO billing_row_seen (batch_id, row_hash, seen) "
	                    "SELECT batch_id, line_key, 1 FROM billing_line");
	rc = import(c, "record", path, &o, &r, &e);
	assert_sb_ok(&e, rc);
	assert_true(r.batch.resumed);
	assert_int_equal(r.batch.accepted, 3);
	assert_int_equal(live_count(c, "record"), 3);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(DISTINCT line_key) FROM billing_line"), 3);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_row_seen"), 0);
	free(path);
}

static void test_empty_exports(void **state)
{
	struct ctx *c = *state;
	char *empty = fixture(c, "empty.json", " \n");
	char *array = fixture(c, "array.json", "[]\n");
	char *header = fixture(c, "header.csv",
		"BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName\r\n");
	sb_import_result r;
	sb_err e;
	int rc;

	rc = import(c, "daytona", empty, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "no records: the input is empty");
	rc = import(c, "daytona", array, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_false(r.empty);
	rc = import(c, "focus", header, NULL, &r, &e);
	assert_sb_ok(&e, rc);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch WHERE status = 'complete'"), 2);
	rc = import(c, "nonesuch", array, NULL, &r, &e);
	assert_sb_fails(&e, rc, SB_EUSAGE, "unknown billing format");
	free(empty);
	free(array);
	free(header);
}

/* Import path as format expecting `accepted` good records and the rejects
 * (line, part of the reason) listed, ended by a 0 line. */
struct want { int64_t line; const char *part; };
static void expect_rejects(struct ctx *c, const char *format, const char *path, int64_t accepted,
                           const struct want *w)
{
	sb_import_result r;
	sb_err e;
	int64_t n = 0, before = live_count(c, format);
	int rc = import(c, format, path, NULL, &r, &e);

	for (; w[n].line != 0; n++)
		;
	assert_int_equal(rc, SB_EDATA);
	assert_int_equal(r.batch.accepted, accepted);
	assert_int_equal(r.batch.rejected, n);
	assert_int_equal(live_count(c, format), before + accepted);
	for (int64_t i = 0; i < n; i++)
		assert_reject(c, r.batch.id, w[i].line, w[i].part);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM reject WHERE batch_id = %lld", (long long)r.batch.id), n);
}

static void test_record_bad(void **state)
{
	struct ctx *c = *state;
	char *path = fixture(c, "bad.jsonl",
		"{\"backend\": \"docker\", \"session_id\": \"d1\", \"cost_usd\": 0.25, \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T00:10:00Z\"}\n"
		"{\"backend\": \"docker\", \"session_id\": \"d2\", \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T00:10:00Z\"}\n"
		"{\"backend\": \"docker\", \"session_id\": \"d3\", \"cost_usd\": \"abc\", \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T00:10:00Z\"}\n"
		"{\"backend\": \"docker\", \"session_id\": \"d4\", \"cost_usd\": 1, \"period_start\": \"2026-11-02 00:00\", \"period_end\": \"2026-11-02T00:10:00Z\"}\n"
		"{\"backend\": \"docker\", \"session_id\": \"d5\", \"cost_usd\": 1, \"currency\": \"XYZ\", \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T00:10:00Z\"}\n"
		"{\"backend\": \"docker\", \"session_id\": \"d6\", \"cost_usd\": -1, \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T00:10:00Z\"}\n"
		"{\"backend\": \"docker\", \"session_id\": \"d7\", \"cost_usd\": 1, \"currency\": \"eur\", \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T00:10:00Z\"}\n"
		"{\"backend\": \"docker\", \"session_id\": \"d8\", \"cost_usd\": 1, \"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-01T00:10:00Z\"}\n"
		"{\"backend\": \"docker\", \"session_id\": \"d9\", \"cost_");
	static const struct want w[] = {
		{2, "cost_usd is missing (required)"},
		{3, "cost_usd 'abc' is not a number"},
		{4, "period_start '2026-11-02 00:00' is not an RFC 3339 timestamp"},
		{5, "currency 'XYZ' is not an ISO 4217 currency code"},
		{6, "cost_usd is negative"},
		{8, "period_end precedes period_start"},
		{9, "the file ends inside this element (truncated?)"},
		{0, NULL},
	};

	expect_rejects(c, "record", path, 2, w);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id = 'd7' AND currency = 'EUR'"), 1);
	free(path);
}

/* A line key or a repeated row seen again in one file, while the lines
 * before it may still be held unsent (PostgreSQL's COPY rows, which the
 * writer's look-ups step past: ledger/lines.c): the same key with the same
 * content is a duplicate, with other content a conflict; a row repeated
 * word for word is one more charge each time in the file, and in a later
 * file the same charges again (each its ordinal, counted sent or held),
 * one more being the same charge as theirs.  Imported in chunks of chunk
 * records (0: one transaction). */
static void keys_held(struct ctx *c, int64_t chunk)
{
#define REC(id, session, cost) "{\"backend\": \"docker\", \"session_id\": \"" session "\", \"cost_usd\": " cost ", " \
	"\"period_start\": \"2026-11-02T00:00:00Z\", \"period_end\": \"2026-11-02T00:10:00Z\"" id "}\n"
	char *first = fixture(c, "first.jsonl",
		REC(", \"line_id\": \"k1\"", "a", "1")
		REC(", \"line_id\": \"k2\"", "b", "2")
		REC(", \"line_id\": \"k1\"", "a", "1")
		REC(", \"line_id\": \"k2\"", "b", "3")
		REC("", "x", "10")
		REC("", "x", "10")
		REC("", "x", "10"));
	char *second = fixture(c, "second.jsonl",
		REC(", \"line_id\": \"k1\"", "a", "1")
		REC("", "x", "10")
		REC("", "x", "10")
		REC("", "x", "10")
		REC("", "x", "10")
		REC(", \"line_id\": \"k3\"", "c", "4")
		REC(", \"line_id\": \"k3\"", "c", "4"));
#undef REC
	sb_import_opts o;
	sb_import_result r;
	sb_err e;
	int rc;

	memset(&o, 0, sizeof o);
	o.chunk = chunk;
	rc = import(c, "record", first, &o, &r, &e);
	assert_int_equal(rc, SB_EDATA);   /* one record rejected */
	assert_int_equal(r.batch.accepted, 5);
	assert_int_equal(r.batch.duplicates, 1);
	assert_int_equal(r.batch.rejected, 1);
	assert_reject(c, r.batch.id, 4, "line key 'k2' is already billed by batch");
	assert_int_equal(live_sum(c, "record"), 33000000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(DISTINCT line_key) FROM billing_line WHERE session_id = 'x'"), 3);

	/* the fourth x is a charge the first file did not have, over the
	 * same period: the same charge as those of batch 1, refused */
	rc = import(c, "record", second, &o, &r, &e);
	assert_int_equal(rc, SB_EDATA);
	assert_int_equal(r.batch.accepted, 1);
	assert_int_equal(r.batch.duplicates, 5);
	assert_int_equal(r.batch.rejected, 1);
	assert_reject(c, r.batch.id, 5, "already billed by batch 1");
	assert_int_equal(live_count(c, "record"), 6);
	assert_int_equal(live_sum(c, "record"), 37000000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_row_seen"), 0);
	free(first);
	free(second);
}

static void test_keys_held_chunks(void **state)
{
	keys_held(*state, 2);
}

static void test_keys_held_one_commit(void **state)
{
	keys_held(*state, 0);
}

static void test_focus_bad(void **state)
{
	struct ctx *c = *state;
	char *path = fixture(c, "bad.csv",
		"ChargePeriodStart,ChargePeriodEnd,BilledCost,BillingCurrency,ServiceProviderName,ProviderName,ChargeClass\r\n"
		"2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,1.5,USD,Vercel,,\r\n"
		"2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,,USD,Vercel,,\r\n"
		"2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,n/a,USD,Vercel,,\r\n"
		"11/02/2026,2026-11-03T00:00:00Z,1,USD,Vercel,,\r\n"
		"2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,1,XYZ,Vercel,,\r\n"
		"2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,1,USD,,,\r\n"
		"2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,1,USD,,Runloop,Correction\r\n"
		"2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,1,USD,Vercel,,Regular\r\n"
		"2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,1,US");
	char *no_col = fixture(c, "nocol.csv",
		"BilledCost,ChargePeriodStart,ChargePeriodEnd,ProviderName\r\n1,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Vercel\r\n");
	static const struct want w[] = {
		{3, "BilledCost is empty (required)"},
		{4, "BilledCost 'n/a' is not a number"},
		{5, "ChargePeriodStart '11/02/2026' is not a date and time (RFC 3339, or YYYY-MM-DDThh:mm:ss in UTC)"},
		{6, "BillingCurrency 'XYZ' is not an ISO 4217 currency code"},
		{7, "ServiceProviderName and ProviderName are both empty"},
		{9, "ChargeClass 'Regular' is not Correction"},
		{10, "row has 4 fields, the header has 7"},
		{0, NULL},
	};
	static const struct want w_col[] = {
		{1, "the header has no column BillingCurrency (required by the format focus)"},
		{0, NULL},
	};

	expect_rejects(c, "focus", path, 2, w);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE backend = 'runloop' AND correction = 1"), 1);
	expect_rejects(c, "focus", no_col, 0, w_col);
	free(path);
	free(no_col);
}

static void test_modal_bad(void **state)
{
	struct ctx *c = *state;
	char *path = fixture(c, "bad.json",
		"[\n"
		" {\"object_id\": \"m1\", \"interval_start\": \"2026-11-04T00:00:00\", \"cost\": \"1.0\"},\n"
		" {\"interval_start\": \"2026-11-04T00:00:00\", \"cost\": \"1.0\"},\n"
		" {\"object_id\": \"m3\", \"interval_start\": \"2026-11-04T00:00:00\", \"cost\": \"1,05\"},\n"
		" {\"object_id\": \"m4\", \"interval_start\": \"2026-11-04\", \"cost\": \"1\"},\n"
		" {\"object_id\": \"m5\", \"interval_start\": \"2026-11-04T00:00:00Z\", \"cost\": \"1\"},\n"
		" {\"object_id\": \"m6\", \"interval_start\": \"2026-11-04T00:00:00\", \"cost\": \"1\"");
	static const struct want w[] = {
		{3, "object_id is missing (required); the record has interval_start, cost"},
		{4, "cost '1,05' is not a number"},
		{5, "interval_start '2026-11-04' is not a date and time (RFC 3339, or YYYY-MM-DDThh:mm:ss in UTC)"},
		{7, "the file ends inside this element (truncated?)"},
		{0, NULL},
	};

	expect_rejects(c, "modal", path, 2, w);
	free(path);
}

static void test_daytona_bad(void **state)
{
	struct ctx *c = *state;
	char *path = fixture(c, "bad.json",
		"[{\"sandboxId\": \"d1\", \"firstStart\": \"2026-11-04T00:00:00Z\", \"lastEnd\": \"2026-11-04T00:01:00Z\", \"totalPrice\": 0.5, \"totalCPUSeconds\": 60},\n"
		"{\"firstStart\": \"2026-11-04T00:00:00Z\", \"lastEnd\": \"2026-11-04T00:01:00Z\", \"totalPrice\": 0.5},\n"
		"{\"sandboxId\": \"d3\", \"firstStart\": \"2026-11-04T00:00:00Z\", \"lastEnd\": \"2026-11-04T00:01:00Z\", \"totalPrice\": \"abc\"},\n"
		"{\"sandboxId\": \"d4\", \"firstStart\": \"yesterday\", \"lastEnd\": \"2026-11-04T00:01:00Z\", \"totalPrice\": 0.5},\n"
		"{\"sandboxId\": \"d5\", \"firstStart\": \"2026-11-04T00:00:00Z\", \"lastEnd\": \"2026-11-04T00:01:00Z\", \"totalPrice\": 0.5, \"totalCPUSeconds\": \"60\"},\n"
		"{\"sandboxId\": \"d6\", \"firstStart\": \"2026-11-04T00:00:00Z\", \"lastEnd\": \"2026-11-04T00:01:00Z\", \"totalPrice\": 0.25}\n");
	static const struct want w[] = {
		{3, "totalPrice 'abc' is not a number"},
		{4, "firstStart 'yesterday' is not an RFC 3339 timestamp"},
		{5, "totalCPUSeconds must be a number"},
		{7, "the file ends before the JSON array is closed by ']' (truncated?)"},
		{0, NULL},
	};

	/* the row without sandboxId is account-level: 0.5 + 0.5 + 0.25 */
	expect_rejects(c, "daytona", path, 3, w);
	assert_int_equal(live_sum(c, "daytona"), 1250000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM billing_line WHERE session_id IS NULL"), 1);
	free(path);
}

static void test_e2b_bad(void **state)
{
	struct ctx *c = *state;
	char *path = fixture(c, "bad.jsonl",
		"{\"id\": \"k1\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s1\", \"event_data\": {\"execution\": {\"started_at\": \"2026-11-04T10:00:00Z\", \"vcpu_count\": 2, \"memory_mb\": 512, \"execution_time\": 1000}}}\n"
		"{\"id\": \"k2\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s2\", \"event_data\": {}}\n"
		"{\"id\": \"k3\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s3\", \"event_data\": {\"execution\": {\"started_at\": \"2026-11-04T10:00:00Z\", \"vcpu_count\": \"two\", \"memory_mb\": 512, \"execution_time\": 1000}}}\n"
		"{\"id\": \"k4\", \"type\": \"sandbox.lifecycle.paused\", \"sandbox_id\": \"s4\", \"event_data\": {\"execution\": {\"started_at\": \"2026-11-04T10:00:00\", \"vcpu_count\": 2, \"memory_mb\": 512, \"execution_time\": 1000}}}\n"
		"{\"id\": \"k5\", \"sandbox_id\": \"s5\"}\n"
		"{\"id\": \"c6\", \"type\": \"sandbox.lifecycle.created\", \"sandbox_id\": \"s6\"}\n"
		"{\"id\": \"k7\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s7\", \"event_data\": {\"execution\": {\"started_at\": \"2026-11-04T10:00:00Z\", \"vcpu_count\": 2, \"memory_mb\": 512, \"execution_time\": 1.5}}}\n"
		"{\"id\": \"k8\", \"type\": \"sandbox.lifecycle.killed\", \"sandbox_id\": \"s8\", \"event_data\": {\"execut");
	static const struct want w[] = {
		{3, "event_data.execution.vcpu_count must be a whole number, not a string"},
		{4, "event_data.execution.started_at '2026-11-04T10:00:00' has no UTC offset"},
		{5, "type is missing (required)"},
		{7, "execution_time must be a whole number"},
		{8, "the file ends inside this element (truncated?)"},
		{0, NULL},
	};

	/* k2 has no execution in its event_data: skipped, as c6 is */
	expect_rejects(c, "e2b-events", path, 1, w);
	assert_int_equal(support_i64(c->db, "SELECT skipped FROM batch WHERE format = 'e2b-events'"), 2);
	free(path);
}

static void test_deepinfra_bad(void **state)
{
	struct ctx *c = *state;
	char *path = fixture(c, "bad.json",
		"{\"initial_month\": \"2026-01\", \"months\": [\n"
		"  {\"period\": \"2026-12\", \"total_cost\": 100},\n"
		"  {\"period\": \"2026-10\"},\n"
		"  {\"period\": \"2026-09\", \"total_cost\": \"418.77\"},\n"
		"  {\"period\": \"2026-13\", \"total_cost\": 1},\n"
		"  {\"period\": \"2026-08\", \"total_cost\": 1");
	static const struct want w[] = {
		{3, "total_cost is missing (required)"},
		{4, "total_cost must be a number of cents"},
		{5, "period '2026-13' is not a month (YYYY-MM or YYYY.MM)"},
		{6, "the file ends inside this element (truncated?)"},
		{0, NULL},
	};

	expect_rejects(c, "deepinfra-usage", path, 1, w);
	/* December runs into January */
	assert_int_equal(support_i64(c->db, "SELECT end_ms FROM billing_line WHERE amount_nanos = 1000000000"),
	                 sb_days_from_civil_ms(2027, 1, 1));
	free(path);
}

static void test_wrong_format(void **state)
{
	struct ctx *c = *state;
	static const struct want csv_as_modal[] = {
		{1, "the header has no column object_id (required by the format modal); its columns are BilledCost, BillingCurrency"},
		{0, NULL},
	};
	static const struct want csv_as_daytona[] = {
		{1, "the file looks like CSV or plain text, but this format reads a JSON array"},
		{0, NULL},
	};
	static const struct want array_as_record[] = {
		{1, "the file looks like a JSON array, but this format reads JSON objects (JSON Lines, or pretty-printed one after another)"},
		{0, NULL},
	};
	static const struct want array_as_deepinfra[] = {
		{1, "this format reads a JSON object"},
		{0, NULL},
	};
	static const struct want daytona_as_modal[] = {
		{2, "object_id is missing (required); the record has sandboxId, firstStart"},
		{12, "object_id is missing (required)"}, {22, "object_id"}, {32, "object_id"},
		{42, "object_id"}, {52, "object_id"},
		{0, NULL},
	};
	static const struct want record_as_focus[] = {
		{1, "BilledCost is missing (required); the record has backend, session_id, cost_usd"},
		{2, "BilledCost"}, {3, "BilledCost"}, {4, "BilledCost"},
		{0, NULL},
	};
	static const struct want deepinfra_as_e2b[] = {
		{1, "type is missing (required); the record has initial_month, months"},
		{0, NULL},
	};

	expect_rejects(c, "modal", SAMPLES "billing-focus.csv", 0, csv_as_modal);
	expect_rejects(c, "daytona", SAMPLES "billing-focus.csv", 0, csv_as_daytona);
	expect_rejects(c, "record", SAMPLES "billing-daytona.json", 0, array_as_record);
	expect_rejects(c, "deepinfra-usage", SAMPLES "billing-modal.json", 0, array_as_deepinfra);
	expect_rejects(c, "modal", SAMPLES "billing-daytona.json", 0, daytona_as_modal);
	expect_rejects(c, "focus", SAMPLES "billing-record.jsonl", 0, record_as_focus);
	expect_rejects(c, "e2b-events", SAMPLES "deepinfra-usage.json", 0, deepinfra_as_e2b);
	/* a per-file fault fails the batch and keeps the file's first line */
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM batch WHERE status = 'failed'"), 4);
	/* reject.content is a BLOB on SQLite, a BYTEA on PostgreSQL: read as
	 * UTF-8 text */
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM reject WHERE batch_id = 1 AND "
	                                    "%s LIKE 'BilledCost,BillingCurrency,%%x_Note'",
	                             on_pg(c->db) ? "convert_from(content, 'UTF8')" : "CAST(content AS TEXT)"), 1);
}

static void test_line_hash(void **state)
{
	sb_bill_line a, b;
	char ka[SB_LINE_KEY_HEX], kb[SB_LINE_KEY_HEX];
	char backend[] = "vercel";

	(void)state;
	memset(&a, 0, sizeof a);
	a.backend = "vercel";
	a.currency = "USD";
	a.has_amount = true;
	a.amount_nanos = 47588000;
	a.start_ms = 1;
	a.end_ms = 2;
	b = a;
	b.backend = backend;
	sb_line_hash(&a, ka);
	sb_line_hash(&b, kb);
	assert_string_equal(ka, kb);
	assert_int_equal(strlen(ka), 64);
	b.amount_nanos++;
	sb_line_hash(&b, kb);
	assert_string_not_equal(ka, kb);
	b = a;
	b.session_id = "";
	sb_line_hash(&b, kb);
	assert_string_not_equal(ka, kb);
}

static void test_currencies_and_fx(void **state)
{
	struct ctx *c = *state;
	bool found = false;
	int64_t nanos = 0;
	sb_err e;

	assert_true(sb_currency_known("USD"));
	assert_true(sb_currency_known("EUR"));
	assert_true(sb_currency_known("JPY"));
	assert_true(sb_currency_known("ZWG"));
	assert_true(sb_currency_known("AED"));
	assert_false(sb_currency_known("XYZ"));
	assert_false(sb_currency_known("usd"));
	assert_false(sb_currency_known("XXX"));
	assert_false(sb_currency_known("EURO"));
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_fx_set(c->db, "EUR", 1080000000, sb_days_from_civil_ms(2026, 11, 1), &e));
	assert_sb_ok(&e, sb_fx_set(c->db, "EUR", 1100000000, sb_days_from_civil_ms(2026, 12, 1), &e));
	assert_sb_ok(&e, sb_fx_set(c->db, "EUR", 1090000000, sb_days_from_civil_ms(2026, 11, 1), &e));
	assert_sb_ok(&e, sb_fx_rate_at(c->db, "EUR", sb_days_from_civil_ms(2026, 11, 30), &found, &nanos, &e));
	assert_true(found);
	assert_int_equal(nanos, 1090000000);
	assert_sb_ok(&e, sb_fx_rate_at(c->db, "EUR", sb_days_from_civil_ms(2026, 12, 2), &found, &nanos, &e));
	assert_int_equal(nanos, 1100000000);
	assert_sb_ok(&e, sb_fx_rate_at(c->db, "EUR", sb_days_from_civil_ms(2026, 10, 31), &found, &nanos, &e));
	assert_false(found);
	assert_sb_ok(&e, sb_fx_rate_at(c->db, "USD", 0, &found, &nanos, &e));
	assert_true(found);
	assert_int_equal(nanos, 1000000000);
	assert_int_equal(support_i64(c->db, "SELECT COUNT(*) FROM fx_rate"), 2);
	assert_sb_fails(&e, sb_fx_set(c->db, "XYZ", 1, 0, &e), SB_EDATA, "ISO 4217");
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_fx_set(c->db, "USD", 1, 0, &e), SB_EDATA, "USD needs no rate");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_record_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_focus_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_modal_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_modal_csv_hourly, setup, teardown),
		cmocka_unit_test_setup_teardown(test_daytona_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_e2b_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_e2b_webhook_camel_case, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deepinfra_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_focus_json_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_supersede_focus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_supersede_span_edges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_supersede_keyed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_supersede_reissue_keyed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_supersede_deepinfra_month, setup, teardown),
		cmocka_unit_test_setup_teardown(test_supersede_strict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_strict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume_csv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume_repeated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_exports, setup, teardown),
		cmocka_unit_test_setup_teardown(test_record_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keys_held_chunks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keys_held_one_commit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_focus_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_modal_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_daytona_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_e2b_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deepinfra_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_format, setup, teardown),
		cmocka_unit_test(test_line_hash),
		cmocka_unit_test_setup_teardown(test_currencies_and_fx, setup, teardown),
	};

	return cmocka_run_group_tests_name("billing", tests, NULL, NULL);
}
