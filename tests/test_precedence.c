/* test_precedence.c: the precedence of the reconciliation statuses
 * (docs/reconcile.md, Statuses) on real lines and runs, pair by pair.
 *
 * Each case builds one backend on the day 2027-01-12 (UTC) meeting a set
 * of conditions, and is reconciled three times in three fresh ledgers:
 * with both conditions of the pair (the higher status wins), with the
 * lower one alone (it does hold: the lower status), with the higher one
 * alone.  So a case fails when the order of the two is swapped, and when
 * the scenario stops meeting one of its conditions.  The conditions, and
 * what makes each on modal (card 0.10 a minute, minutes only: no
 * per-second rate; not free):
 *   pending     judged at 2027-01-12T23:00Z, inside the day (else 01-20)
 *   currency    an account-level line of 2.00 EUR (no exchange rate)
 *   no_rate     a metered line (600 vCPU-ms; the card has no per-second rate)
 *   partial     an account-level line 01-12 .. 02-01 (ends after the day):
 *               billed 5.00, or a Tax line of 0.50 where nothing may be billed
 *   unexpected  billed with no run: an account-level line of 0.40
 *   unbilled    a run computed 0.20 and no billed line
 *   over        a run computed 0.20 billed 0.30 (drift 0.10 > max(0.01,
 *               0.01)); under: billed 0.10
 * Adjacent pairs of the table that no lines can produce together
 * (unexpected needs billing and unbilled none; so does a drift) are
 * checked on the table itself in test_reconcile.c (test_precedence_table),
 * and here across the gap: partial > unbilled (a Tax line past the end),
 * unexpected > over_billed (billed with no run drifts too).
 */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "reconcile/reconcile.h"

enum {
	C_PENDING = 1, C_CURRENCY = 2, C_NO_RATE = 4, C_PARTIAL = 8, C_PARTIAL_TAX = 16,
	C_UNEXPECTED = 32, C_UNBILLED = 64, C_OVER = 128, C_UNDER = 256, C_OK = 512,
	C_FREE = 1024
};

static int64_t T(const char *text)
{
	int64_t ms = 0;

	assert_int_equal(sb_time_parse(text, strlen(text), 0, &ms), SB_TIME_OK);
	return ms;
}

/* A live line: kind billed (amount in nanos of currency) or metered
 * (amount vCPU-ms), category Usage or Tax. */
static void line(sb_db *db, const char *backend, const char *start, const char *end, const char *kind,
                 int64_t amount, const char *currency, const char *category)
{
	static int n;
	bool metered = strcmp(kind, "metered") == 0;
	char num[32];
	char *sql;

	n++;
	snprintf(num, sizeof num, "%lld", (long long)amount);
	sql = sqlite3_mprintf(
	    "INSERT INTO billing_line (format, line_key, batch_id, line_no, backend, session_id, start_ms,"
	    " end_ms, kind, amount_nanos, currency, category, correction, vcpu_ms, memory_mb_ms, source_row)"
	    " VALUES ('focus', 'p%d', 1000, %d, '%q', NULL, %lld, %lld, '%q', %s, '%q', '%q', 0, %s, %s, 'x')",
	    n, n, backend, (long long)T(start), (long long)T(end), kind,
	    metered ? "NULL" : num, currency, category, metered ? num : "NULL", metered ? "0" : "NULL");
	support_exec(db, sql);
	sqlite3_free(sql);
}

/* A run of backend at 05:00Z on the day, one minute, computed cost text. */
static void run(sb_db *db, const char *backend, const char *cost)
{
	char json[1024];

	snprintf(json, sizeof json,
	         "{\"run_id\":\"r-%s\",\"backend\":\"%s\",\"session_id\":\"s-1\","
	         "\"started_at\":\"2027-01-12T05:00:00Z\",\"ended_at\":\"2027-01-12T05:01:00Z\","
	         "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,\"cpu_ms\":0,"
	         "\"memory_peak_mb\":0,\"bytes_read\":0,\"bytes_written\":0,\"computed_cost_usd\":%s,"
	         "\"billed_cost_usd\":null,\"executions\":[{\"command\":\"t\",\"exit_code\":0,"
	         "\"duration_ms\":60000,\"cost_usd\":%s}]}}\n",
	         backend, backend, cost, cost);
	support_add_runs(db, json);
}

/* The status of one backend meeting conds (C_*), and whether it is
 * flagged into *flagged. */
static sb_recon_status status_of(unsigned conds, bool *flagged)
{
	const char *b = (conds & C_FREE) ? "docker" : "modal";
	sb_db *db = support_memory_ledger();
	sb_recon_opts o = {{0, 0}, SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB, false, true, 0, true,
	                   SB_DEFAULT_LAG_MS};
	sb_recon *r = NULL;
	sb_recon_status s;
	sb_err e;

	support_exec(db, "INSERT INTO batch (batch_id, kind, format, source, status, started_ms)"
	                 " VALUES (1000, 'billing', 'focus', 'test', 'complete', 0)");
	if (conds & C_CURRENCY)
		line(db, b, "2027-01-12T01:00:00Z", "2027-01-12T02:00:00Z", "billed", 2000000000, "EUR", "Usage");
	if (conds & C_NO_RATE)
		line(db, b, "2027-01-12T03:00:00Z", "2027-01-12T03:10:00Z", "metered", 600, "USD", "Usage");
	if (conds & C_PARTIAL)
		line(db, b, "2027-01-12T00:00:00Z", "2027-02-01T00:00:00Z", "billed", 5000000000, "USD", "Usage");
	if (conds & C_PARTIAL_TAX)
		line(db, b, "2027-01-12T00:00:00Z", "2027-02-01T00:00:00Z", "billed", 500000000, "USD", "Tax");
	if (conds & C_UNEXPECTED)
		line(db, b, "2027-01-12T06:00:00Z", "2027-01-12T07:00:00Z", "billed", 400000000, "USD", "Usage");
	if (conds & (C_UNBILLED | C_OVER | C_UNDER | C_OK))
		run(db, b, (conds & C_FREE) ? "0" : "0.20");
	if (conds & C_OVER)
		line(db, b, "2027-01-12T06:00:00Z", "2027-01-12T07:00:00Z", "billed", 300000000, "USD", "Usage");
	if (conds & C_UNDER)
		line(db, b, "2027-01-12T06:00:00Z", "2027-01-12T07:00:00Z", "billed", 100000000, "USD", "Usage");
	if (conds & C_OK)
		line(db, b, "2027-01-12T06:00:00Z", "2027-01-12T07:00:00Z", "billed", 200000000, "USD", "Usage");
	o.now_ms = T((conds & C_PENDING) ? "2027-01-12T23:00:00Z" : "2027-01-20T00:00:00Z");
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_period_parse("2027-01-12", 0, &o.period, &e));
	assert_sb_ok(&e, sb_reconcile(db, &o, &r, &e));
	assert_int_equal(r->n_backends, 1);
	assert_string_equal(r->backends[0].backend, b);
	s = r->backends[0].status;
	*flagged = r->backends[0].flagged;
	sb_recon_free(r);
	sb_db_close(db);
	return s;
}

/* Check that conds gives status want (by name, for the message). */
static void expect(unsigned conds, const char *want, bool want_flagged)
{
	bool flagged = false;
	sb_recon_status s = status_of(conds, &flagged);

	if (strcmp(sb_recon_status_name(s), want) != 0)
		fail_msg("conditions 0x%x: status %s, want %s", conds, sb_recon_status_name(s), want);
	if (flagged != want_flagged)
		fail_msg("conditions 0x%x (%s): flagged %d, want %d", conds, want, flagged, want_flagged);
}

/* higher (hi, giving status h) over lower (lo, giving l): both, each
 * alone (pending alone is a time, not a backend: no line, no run). */
static void pair(unsigned hi, const char *h, bool h_flag, unsigned lo, const char *l, bool l_flag)
{
	expect(hi | lo, h, h_flag);
	expect(lo, l, l_flag);
	if (hi != C_PENDING)
		expect(hi, h, h_flag);
}

/* 1 > 2: a window not ended has no verdict, whatever its lines. */
static void test_pending_over_currency(void **state)
{
	(void)state;
	pair(C_PENDING, "pending", false, C_CURRENCY, "currency", true);
}

/* 2 > 3 */
static void test_currency_over_no_rate(void **state)
{
	(void)state;
	pair(C_CURRENCY, "currency", true, C_NO_RATE, "no_rate", true);
}

/* 3 > 4 */
static void test_no_rate_over_partial(void **state)
{
	(void)state;
	pair(C_NO_RATE, "no_rate", true, C_PARTIAL, "partial", true);
}

/* 4 > 5: the line past the end is billed with no run */
static void test_partial_over_unexpected(void **state)
{
	(void)state;
	pair(C_PARTIAL, "partial", true, C_UNEXPECTED, "unexpected", true);
}

/* 4 > 6, across the gap: a Tax line past the end bills nothing, so the
 * run's 0.20 is unbilled (flagged: the day ended more than 72 h before
 * 01-20) */
static void test_partial_over_unbilled(void **state)
{
	(void)state;
	pair(C_PARTIAL_TAX, "partial", true, C_UNBILLED, "unbilled", true);
}

/* 5 > 7: billed 0.40 with no run is also a drift of 0.40 */
static void test_unexpected_over_drift(void **state)
{
	bool flagged = false;

	(void)state;
	expect(C_UNEXPECTED, "unexpected", true);
	/* a free backend (docker, run computed 0) billed 0.30: unexpected,
	 * though it has a run; a paid one with the same figures: over_billed */
	expect(C_FREE | C_OVER, "unexpected", true);
	expect(C_OVER, "over_billed", true);
	assert_int_equal(status_of(C_FREE | C_OK, &flagged), SB_STATUS_UNEXPECTED);
}

/* 6: unbilled alone, flagged after the lag; pending over it */
static void test_pending_over_unbilled(void **state)
{
	(void)state;
	pair(C_PENDING, "pending", false, C_UNBILLED, "unbilled", true);
}

/* 7 > ok, each sign, and a drift inside the tolerance is ok */
static void test_drift_over_ok(void **state)
{
	(void)state;
	expect(C_OVER, "over_billed", true);
	expect(C_UNDER, "under_billed", true);
	expect(C_OK, "ok", false);
	/* and the drift under the others: currency over over_billed */
	pair(C_CURRENCY, "currency", true, C_OVER, "over_billed", true);
	pair(C_PARTIAL, "partial", true, C_UNDER, "under_billed", true);
}

/* Further down the table: each higher one over a lower one two or more
 * ranks below it. */
static void test_across_ranks(void **state)
{
	(void)state;
	pair(C_PENDING, "pending", false, C_NO_RATE | C_PARTIAL, "no_rate", true);
	pair(C_CURRENCY, "currency", true, C_PARTIAL, "partial", true);
	pair(C_CURRENCY, "currency", true, C_UNEXPECTED, "unexpected", true);
	pair(C_NO_RATE, "no_rate", true, C_UNEXPECTED, "unexpected", true);
	pair(C_NO_RATE, "no_rate", true, C_UNBILLED, "unbilled", true);
	pair(C_CURRENCY, "currency", true, C_UNBILLED, "unbilled", true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pending_over_currency),
		cmocka_unit_test(test_currency_over_no_rate),
		cmocka_unit_test(test_no_rate_over_partial),
		cmocka_unit_test(test_partial_over_unexpected),
		cmocka_unit_test(test_partial_over_unbilled),
		cmocka_unit_test(test_unexpected_over_drift),
		cmocka_unit_test(test_pending_over_unbilled),
		cmocka_unit_test(test_drift_over_ok),
		cmocka_unit_test(test_across_ranks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
