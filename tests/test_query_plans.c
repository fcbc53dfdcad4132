/* test_query_plans.c: the report queries use the indexes.
 *
 * Reports and invoices run over months of runs: a query that filters runs
 * by period, session or tag must find them through an index, never by
 * reading a whole table.  For each query below, EXPLAIN QUERY PLAN on a
 * fresh ledger (the schema as shipped; the ledger is never ANALYZEd, so
 * these are the plans users get) must hold no "SCAN" step of a table,
 * only SEARCHes through an index or the primary key (and temporary
 * b-trees for GROUP BY and ORDER BY, which sort what the searches found;
 * a SCAN of the query's own CO-ROUTINE or MATERIALIZEd subquery reads
 * what its searches found, and is allowed, as are a SCAN of json_each, a
 * VIRTUAL TABLE over one run's executions, and of run_tag_name, which holds
 * at most 32 rows).  A query added to
 * sql/queries that reads run, execution, run_tag or billing_line belongs
 * in this list.  No timing is asserted anywhere.
 */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/sqlfiles.h"

/* Queries that read the large tables (sql/queries/NAME.sql). */
static const char *const report_queries[] = {
	"budget_runs",
	"billing_line_key_live",
	"billing_line_list",
	"billing_line_reach",
	"billing_line_same_charge",
	"billing_line_supersede",
	"billing_line_supersede_charges",
	"billing_line_supersede_keys",
	"billing_pending_lengths",
	"billing_pending_move",
	"billing_pending_spans",
	"export_focus_runs",
	"invoice_changed_runs",
	"invoice_claimed",
	"invoice_compute",
	"invoice_period_tags",
	"invoice_run_insert",
	"invoice_session_owners",
	"invoice_sessions",
	"invoice_tag_in_period",
	"invoice_tag_value_known",
	"invoice_tag_values",
	"invoice_tokens",
	"invoice_unmodelled",
	"recon_grid",
	"recon_lines",
	"recon_runs",
	"recon_session_commands",
	"recon_session_runs",
	"recon_sessions",
	"rollup_day_card",
	"rollup_day_remove",
	"rollup_day_restore",
	"rollup_tag_card",
	"rollup_tag_remove",
	"rollup_tag_restore",
	"rollup_untagged_card",
	"rollup_untagged_remove",
	"rollup_untagged_restore",
	"run_lookup",
	"run_reprice_list",
	"summary",
	"summary_no_model",
	"summary_rollup",
	"summary_tag",
	"summary_tag_rollup",
	"summary_tag_tracked",
	NULL,
};

static sb_db *db;

static int setup(void **state)
{
	(void)state;
	db = support_memory_ledger();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sb_db_close(db);
	return 0;
}

/* The plan of sql/queries/NAME.sql, one step per line, allocated. */
static char *plan_of(const char *name)
{
	char full[128], *plan = NULL, *sql;
	const char *text;
	sqlite3_stmt *st = NULL;
	size_t len = 0;
	FILE *out;
	int rc;

	snprintf(full, sizeof full, "queries/%s", name);
	text = sb_sql(full);
	if (text == NULL)
		fail_msg("no sql/%s.sql in this binary", full);
	sql = sqlite3_mprintf("EXPLAIN QUERY PLAN %s", text);
	assert_non_null(sql);
	rc = sqlite3_prepare_v2(sb_db_sqlite(db), sql, -1, &st, NULL);
	sqlite3_free(sql);
	assert_sqlite_ok(sb_db_sqlite(db), rc);
	out = open_memstream(&plan, &len);
	assert_non_null(out);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fprintf(out, "%s\n", (const char *)sqlite3_column_text(st, 3));
	assert_int_equal(rc, SQLITE_DONE);
	sqlite3_finalize(st);
	fclose(out);
	return plan;
}

/* Whether the plan holds a step "CO-ROUTINE NAME" or "MATERIALIZE NAME"
 * for the n bytes of name: a subquery of the query, not a table. */
static bool is_subquery(const char *plan, const char *name, size_t n)
{
	static const char *const kinds[] = {"CO-ROUTINE ", "MATERIALIZE "};

	for (const char *line = plan; *line != '\0';) {
		const char *nl = strchr(line, '\n');
		size_t len = nl != NULL ? (size_t)(nl - line) : strlen(line);
		for (size_t k = 0; k < 2; k++) {
			size_t kl = strlen(kinds[k]);
			if (len == kl + n && strncmp(line, kinds[k], kl) == 0 && strncmp(line + kl, name, n) == 0)
				return true;
		}
		line += len + (nl != NULL ? 1 : 0);
	}
	return false;
}

/* Every report query finds its rows through indexes. */
static void test_no_table_scans(void **state)
{
	int bad = 0;

	(void)state;
	for (const char *const *q = report_queries; *q != NULL; q++) {
		char *plan = plan_of(*q);
		for (const char *line = plan; *line != '\0';) {
			const char *nl = strchr(line, '\n');
			size_t n = nl != NULL ? (size_t)(nl - line) : strlen(line);
			/* SCAN CONSTANT ROW reads no table (SELECT EXISTS (...)) */
			if (strncmp(line, "SCAN ", 5) == 0 && !is_subquery(plan, line + 5, n - 5) &&
			    !(n == 17 && strncmp(line, "SCAN CONSTANT ROW", 17) == 0) &&
			    strstr(line, " VIRTUAL TABLE INDEX ") == NULL &&
			    /* run_tag_name, named n in every query */
			    !(strncmp(line, "SCAN n", 6) == 0 && (n == 6 || line[6] == ' '))) {
				print_error("sql/queries/%s.sql reads a whole table: %.*s\n", *q, (int)n, line);
				bad++;
			}
			line += n + (nl != NULL ? 1 : 0);
		}
		free(plan);
	}
	assert_int_equal(bad, 0);
}

/* The period queries start from the index on started_ms, the session
 * queries from both parts of the one on (backend, session_id), the
 * invoice's whole days from the day rollups; the import's merge of the
 * session index reads its recent part only. */
static void test_index_choice(void **state)
{
	static const struct {
		const char *query;    /* sql/queries/NAME.sql */
		const char *step;     /* a step its plan must hold */
	} expect[] = {
		{"summary", "USING INDEX run_by_started (started_ms>? AND started_ms<?)"},
		{"summary_tag", "USING INDEX run_by_started (started_ms>? AND started_ms<?)"},
		{"recon_runs", "USING INDEX run_by_started (started_ms>? AND started_ms<?)"},
		{"invoice_compute", "USING INDEX run_by_started (started_ms>? AND started_ms<?)"},
		{"invoice_tokens", "USING INDEX run_by_started (started_ms>? AND started_ms<?)"},
		{"invoice_compute", "SEARCH run_day USING PRIMARY KEY (day>? AND day<?)"},
		{"invoice_compute", "SEARCH run_day_tag USING PRIMARY KEY (name=? AND day>? AND day<?)"},
		{"invoice_tokens", "SEARCH run_day USING PRIMARY KEY (day>? AND day<?)"},
		{"invoice_tokens", "SEARCH run_day_tag USING PRIMARY KEY (name=? AND day>? AND day<?)"},
		{"recon_runs", "USING INDEX billing_line_by_session (backend=? AND session_id=?)"},
		{"recon_lines", "USING INDEX billing_line_by_start (start_ms>? AND start_ms<?)"},
		{"recon_grid", "USING INDEX billing_line_account_by_start (start_ms<?)"},
		{"invoice_session_owners", "USING INDEX run_by_session (backend=? AND session_id=?)"},
		{"recon_session_runs", "USING INDEX run_by_session (backend=? AND session_id=?)"},
		{"recon_session_runs", "USING INDEX run_by_session_recent (backend=? AND session_id=?)"},
		{"recon_session_commands", "USING INDEX run_by_session (backend=? AND session_id=?)"},
		{"recon_session_commands", "USING INDEX run_by_session_recent (backend=? AND session_id=?)"},
		{"invoice_session_owners", "USING INDEX run_by_session_recent (backend=? AND session_id=?)"},
		{"budget_runs", "USING INDEX run_by_session (backend=? AND session_id=?)"},
		{"budget_runs", "USING INDEX run_by_session_recent (backend=? AND session_id=?)"},
		{"run_reprice_list", "USING INDEX run_by_started (started_ms>?)"},
		{"rollup_day_card", "USING INDEX run_by_started (started_ms>?)"},
		{"rollup_tag_card", "USING INDEX run_by_started (started_ms>?)"},
		{"rollup_untagged_card", "USING INDEX run_by_started (started_ms>?)"},
		{"run_session_merge", "INDEX run_by_session_recent"},
		{"run_session_recent", "INDEX run_by_session_recent"},
		{"summary_rollup", "SEARCH run_day USING PRIMARY KEY (day>? AND day<?)"},
		{"summary_rollup", "USING INDEX run_by_started (started_ms>? AND started_ms<?)"},
		{"summary_tag_rollup", "SEARCH run_day_tag USING PRIMARY KEY (name=? AND day>? AND day<?)"},
		{"summary_tag_rollup", "SEARCH run_day_untagged USING PRIMARY KEY (name=? AND day>? AND day<?)"},
		{"summary_tag_rollup", "SEARCH run_day USING PRIMARY KEY (day>? AND day<?)"},
		{"summary_tag_rollup", "USING INDEX run_by_started (started_ms>? AND started_ms<?)"},
		{"invoice_tag_values", "USING COVERING INDEX run_tag_by_value (name=?)"},
		{"invoice_tag_value_known", "USING COVERING INDEX run_tag_by_value (name=? AND value=?)"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
		char *plan = plan_of(expect[i].query);
		if (strstr(plan, expect[i].step) == NULL)
			fail_msg("sql/queries/%s.sql: no step '%s' in its plan:\n%s", expect[i].query,
			         expect[i].step, plan);
		free(plan);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_table_scans),
		cmocka_unit_test(test_index_choice),
	};

	return cmocka_run_group_tests_name("query_plans", tests, setup, teardown);
}
