/* test_names.c: the one table of names of each enum the ledger stores as
 * text (ledger/names.c and its users): every name reads back as itself,
 * an unknown or missing one is SB_EDATA that names it and the names
 * known, never a default; and a billing line of a kind this sbledger does
 * not know stops a reconcile instead of being counted as billed. */
#include "tests/support/support.h"

#include <string.h>

#include "ledger/batch.h"
#include "ledger/lines.h"
#include "ledger/names.h"
#include "reconcile/budget.h"
#include "reconcile/reconcile.h"

/* The lookup itself: first match, NULL entries and a NULL name never
 * match, an exact byte match only. */
static void test_lookup(void **state)
{
	static const char *const names[] = {NULL, "alpha", "beta"};
	int i = 7;
	sb_err e;

	(void)state;
	assert_int_equal(sb_name_index(names, 3, "alpha"), 1);
	assert_int_equal(sb_name_index(names, 3, "beta"), 2);
	assert_int_equal(sb_name_index(names, 3, "Beta"), -1);
	assert_int_equal(sb_name_index(names, 3, "bet"), -1);
	assert_int_equal(sb_name_index(names, 3, ""), -1);
	assert_int_equal(sb_name_index(names, 3, NULL), -1);
	assert_int_equal(sb_name_index(names, 2, "beta"), -1);   /* past n */
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_name_parse(names, 3, "a letter", "beta", &i, &e));
	assert_int_equal(i, 2);
	assert_sb_fails(&e, sb_name_parse(names, 3, "a letter", "gamma", &i, &e), SB_EDATA,
	                "'gamma' is not a letter this sbledger knows (alpha, beta)");
	assert_int_equal(i, 2);
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_name_parse(names, 3, "a letter", NULL, &i, &e), SB_EDATA,
	                "a value is missing where a letter was expected (alpha, beta)");
	assert_int_equal(i, 2);
}

/* Batch statuses: the four names, each back to itself; 'rejected' (which
 * an old comment of the schema named, and nothing ever wrote) is none. */
static void test_batch_status(void **state)
{
	static const char *const want[] = {"running", "interrupted", "complete", "failed"};
	sb_batch_status s = SB_BATCH_RUNNING;
	sb_err e;

	(void)state;
	for (int i = SB_BATCH_RUNNING; i <= SB_BATCH_FAILED; i++) {
		sb_err_clear(&e);
		assert_string_equal(sb_batch_status_name((sb_batch_status)i), want[i]);
		assert_sb_ok(&e, sb_batch_status_parse(want[i], &s, &e));
		assert_int_equal(s, i);
	}
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_batch_status_parse("rejected", &s, &e), SB_EDATA,
	                "'rejected' is not a batch status this sbledger knows (running, interrupted, complete, failed)");
	assert_int_equal(s, SB_BATCH_FAILED);
}

/* A batch ends complete or failed only: ending one running or
 * interrupted is a bug, refused before anything is written. */
static void test_batch_end_refuses(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_batch b;
	sb_err e;

	(void)state;
	memset(&b, 0, sizeof b);
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_batch_begin(db, "runs", "runs-jsonl", "test", NULL, "", &b, &e));
	assert_sb_fails(&e, sb_batch_end(db, &b, SB_BATCH_INTERRUPTED, NULL, &e), SB_EINTERNAL,
	                "a batch ends complete or failed, not interrupted");
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM batch WHERE status = 'running'"), 1);
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_db_begin(db, &e));
	assert_sb_ok(&e, sb_batch_end(db, &b, SB_BATCH_COMPLETE, NULL, &e));
	assert_sb_ok(&e, sb_db_commit(db, &e));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM batch WHERE status = 'complete'"), 1);
	sb_db_close(db);
}

/* Billing line kinds and the budget's compute bases. */
static void test_kinds_and_bases(void **state)
{
	sb_line_kind k = SB_LINE_BILLED;
	sb_err e;

	(void)state;
	assert_string_equal(sb_line_kind_name(SB_LINE_BILLED), "billed");
	assert_string_equal(sb_line_kind_name(SB_LINE_METERED), "metered");
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_line_kind_parse("metered", &k, &e));
	assert_int_equal(k, SB_LINE_METERED);
	assert_sb_fails(&e, sb_line_kind_parse("Metered", &k, &e), SB_EDATA,
	                "'Metered' is not a billing line kind this sbledger knows (billed, metered)");
	assert_int_equal(k, SB_LINE_METERED);
	assert_string_equal(sb_compute_basis_name(SB_COMPUTE_BILLED), "billed");
	assert_string_equal(sb_compute_basis_name(SB_COMPUTE_LIFETIME), "lifetime");
	assert_string_equal(sb_compute_basis_name(SB_COMPUTE_COMPUTED), "computed");
}

/* A live line of a kind this sbledger does not know stops the reconcile
 * (65, naming it) instead of being summed as dollars billed. */
static void test_reconcile_unknown_kind(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_recon_opts o;
	sb_recon *r = NULL;
	sb_err e;
	int rc;

	(void)state;
	support_exec(db, "INSERT INTO batch (batch_id, kind, format, source, status, started_ms)"
	                 " VALUES (1000, 'billing', 'focus', 'test', 'complete', 0);"
	                 "INSERT INTO billing_line (format, line_key, batch_id, line_no, backend, start_ms, end_ms,"
	                 " kind, amount_nanos, currency, category, correction, source_row)"
	                 " VALUES ('focus', 'k1', 1000, 1, 'modal', 1798761600000, 1798848000000, 'credit',"
	                 " 1000000000, 'USD', 'Usage', 0, 'x')");
	memset(&o, 0, sizeof o);
	o.period.from_ms = INT64_C(1798761600000);   /* 2027-01-01 */
	o.period.to_ms = INT64_C(1798848000000);
	o.has_now = true;
	o.now_ms = INT64_C(1801440000000);           /* 2027-02-01 */
	o.abs_nanos = SB_DEFAULT_ABS_NANOS;
	o.rel_ppb = SB_DEFAULT_REL_PPB;
	sb_err_clear(&e);
	rc = sb_reconcile(db, &o, &r, &e);
	assert_sb_fails(&e, rc, SB_EDATA, "'credit' is not a billing line kind this sbledger knows");
	assert_null(r);
	/* the same line as billed: 1.00 USD billed, unexpected (no runs) */
	support_exec(db, "UPDATE billing_line SET kind = 'billed'");
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_reconcile(db, &o, &r, &e));
	assert_int_equal(r->n_backends, 1);
	assert_int_equal(r->backends[0].billed_nanos, INT64_C(1000000000));
	assert_int_equal(r->backends[0].status, SB_STATUS_UNEXPECTED);
	sb_recon_free(r);
	sb_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_batch_status),
		cmocka_unit_test(test_batch_end_refuses),
		cmocka_unit_test(test_kinds_and_bases),
		cmocka_unit_test(test_reconcile_unknown_kind),
	};

	return cmocka_run_group_tests_name("names", tests, NULL, NULL);
}
