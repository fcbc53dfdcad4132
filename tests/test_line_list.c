/* test_line_list.c: the billing lines read back by name
 * (ledger/line_list.c) for 'lines': every field of every row equal to
 * what the ledger holds in that column (read here by its own SQL, by
 * name), absent values absent, metered lines (E2B's sample) with their
 * vCPU and memory time, a superseded line with its batch, and the
 * filter at its edges (a charge starting exactly at the period's start is
 * in, one starting at its end is out; backend, session, batch).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "importers/billing.h"
#include "importers/import.h"
#include "ledger/line_list.h"
#include "ledger/timefmt.h"
#include "tests/support/support.h"

#define H "BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ServiceProviderName," \
          "ResourceId,ListCost,ConsumedQuantity,ConsumedUnit,ServiceName,Tags\n"

/* Import text (FOCUS CSV) as a file of dir; supersede the lines of the
 * batches before it when asked. */
static void import_focus(sb_db *db, const char *dir, const char *name, const char *text, bool supersede)
{
	char *path = support_path(dir, name);
	sb_import_opts o;
	sb_import_result r;
	sb_err e;

	support_write_file(path, text);
	memset(&o, 0, sizeof o);
	o.supersede = supersede;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_import_billing(db, "focus", path, &o, &r, &e));
	free(path);
}

/* Text equal to the column of the line with this batch and line number,
 * NULL as NULL. */
static void assert_col_text(sb_db *db, const sb_line_row *r, const char *col, const char *got)
{
	char *want = support_text(db, "SELECT %s FROM billing_line WHERE batch_id = %lld AND line_no = %lld", col,
	                          (long long)r->batch_id, (long long)r->line_no);

	if (want == NULL)
		assert_null(got);
	else
		assert_string_equal(got, want);
	free(want);
}

/* An integer field equal to its column, has false exactly when NULL. */
static void assert_col_i64(sb_db *db, const sb_line_row *r, const char *col, bool has, int64_t got)
{
	bool null = support_is_null(db, "SELECT %s FROM billing_line WHERE batch_id = %lld AND line_no = %lld", col,
	                            (long long)r->batch_id, (long long)r->line_no);

	assert_int_equal(has, !null);
	if (!null)
		assert_int_equal(got, support_i64(db, "SELECT %s FROM billing_line WHERE batch_id = %lld AND line_no = %lld",
		                                  col, (long long)r->batch_id, (long long)r->line_no));
}

/* Every line of f, each field checked against its column; how many. */
static int list_checked(sb_db *db, const sb_line_filter *f)
{
	sb_err e;
	sb_line_row r;
	sb_stmt *st;
	int n = 0, rc;

	sb_err_clear(&e);
	st = sb_line_list_open(db, f, &e);
	assert_non_null(st);
	while ((rc = sb_line_list_next(db, st, &r, &e)) > 0) {
		n++;
		assert_col_text(db, &r, "format", r.format);
		assert_col_text(db, &r, "line_key", r.line_key);
		assert_col_text(db, &r, "backend", r.backend);
		assert_col_text(db, &r, "session_id", r.session_id);
		assert_col_i64(db, &r, "start_ms", true, r.start_ms);
		assert_col_i64(db, &r, "end_ms", true, r.end_ms);
		assert_col_text(db, &r, "kind", r.kind);
		assert_col_i64(db, &r, "amount_nanos", r.has_amount, r.amount_nanos);
		assert_col_text(db, &r, "currency", r.currency);
		assert_col_text(db, &r, "category", r.category);
		assert_col_i64(db, &r, "correction", true, r.correction ? 1 : 0);
		assert_col_text(db, &r, "quantity", r.quantity);
		assert_col_text(db, &r, "unit", r.unit);
		assert_col_i64(db, &r, "vcpu_ms", r.has_vcpu_ms, r.vcpu_ms);
		assert_col_i64(db, &r, "memory_mb_ms", r.has_memory_mb_ms, r.memory_mb_ms);
		assert_col_i64(db, &r, "list_cost_nanos", r.has_list_cost, r.list_cost_nanos);
		assert_col_i64(db, &r, "effective_cost_nanos", r.has_effective_cost, r.effective_cost_nanos);
		assert_col_text(db, &r, "invoice_id", r.invoice_id);
		assert_col_text(db, &r, "tags", r.tags);
		assert_col_text(db, &r, "extra", r.extra);
		assert_col_i64(db, &r, "superseded_by", r.superseded, r.superseded_by);
		assert_true(r.start_ms >= f->period.from_ms && r.start_ms < f->period.to_ms);
	}
	assert_int_equal(rc, 0);
	assert_int_equal(e.code, SB_OK);
	return n;
}

/* A period from an RFC 3339 start to an end. */
static sb_period span(const char *from, const char *to)
{
	sb_period p;

	assert_int_equal(sb_time_parse(from, strlen(from), 0, &p.from_ms), SB_TIME_OK);
	assert_int_equal(sb_time_parse(to, strlen(to), 0, &p.to_ms), SB_TIME_OK);
	return p;
}

static void test_fields_and_filters(void **state)
{
	sb_db *db = support_memory_ledger();
	char *dir = support_tmpdir();
	sb_line_filter f;

	(void)state;
	/* batch 1: three days of one backend, one with a session, one with
	 * no list cost, quantity or tags; batch 2 reissues Nov 2 */
	import_focus(db, dir, "v1.csv",
	             H "1.25,USD,2026-11-01T00:00:00Z,2026-11-02T00:00:00Z,Usage,Modal,sess-a,1.30,8.544,Hours,Sandbox,"
	               "\"{\"\"env\"\":\"\"prod\"\"}\"\n"
	               "2.00,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,Modal,,,,,Sandbox,\n"
	               "3.00,USD,2026-11-03T00:00:00Z,2026-11-04T00:00:00Z,Tax,Vercel,,,,,Sandbox,\n", false);
	import_focus(db, dir, "v2.csv",
	             H "2.50,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,Modal,,,,,Sandbox,\n", true);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM billing_line WHERE superseded_by = 2"), 1);

	memset(&f, 0, sizeof f);
	f.period = span("2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z");
	assert_int_equal(list_checked(db, &f), 4);
	/* a charge starting at the start is in, one starting at the end out */
	f.period = span("2026-11-02T00:00:00Z", "2026-11-03T00:00:00Z");
	assert_int_equal(list_checked(db, &f), 2);
	f.period = span("2026-11-01T00:00:00.001Z", "2026-11-02T00:00:00Z");
	assert_int_equal(list_checked(db, &f), 0);
	f.period = span("2026-11-01T00:00:00Z", "2026-11-01T00:00:00.001Z");
	assert_int_equal(list_checked(db, &f), 1);
	/* narrowed */
	f.period = span("2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z");
	f.backend = "vercel";
	assert_int_equal(list_checked(db, &f), 1);
	f.backend = NULL;
	f.session_id = "sess-a";
	assert_int_equal(list_checked(db, &f), 1);
	f.session_id = NULL;
	f.has_batch = true;
	f.batch_id = 2;
	assert_int_equal(list_checked(db, &f), 1);
	f.batch_id = 3;
	assert_int_equal(list_checked(db, &f), 0);
	/* batch 3: metered lines (vCPU- and MB-milliseconds, no amount) */
	{
		sb_import_opts o;
		sb_import_result r;
		sb_err e;
		memset(&o, 0, sizeof o);
		sb_err_clear(&e);
		assert_sb_ok(&e, sb_import_billing(db, "e2b-events", "examples/samples/billing-e2b-events.json", &o, &r, &e));
		assert_true(support_i64(db, "SELECT COUNT(*) FROM billing_line WHERE batch_id = 3 AND vcpu_ms > 0 "
		                            "AND amount_nanos IS NULL") > 0);
	}
	assert_int_equal(list_checked(db, &f), (int)support_i64(db, "SELECT COUNT(*) FROM billing_line WHERE batch_id = 3"));
	f.has_batch = false;
	f.backend = "e2b";
	assert_int_equal(list_checked(db, &f), (int)support_i64(db, "SELECT COUNT(*) FROM billing_line WHERE batch_id = 3"));
	support_rmtree(dir);
	sb_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields_and_filters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
