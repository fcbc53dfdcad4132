/* budget_out.c: report budget rendered (see budget_out.h). */
#include "report/budget_out.h"

#include <string.h>

#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "report/json.h"

/* The columns of a budget run. */
static const sb_col budget_cols[] = {
	{"run_id", COL_TEXT, 24}, {"backend", COL_TEXT, 0}, {"session_id", COL_TEXT, 20},
	{"model", COL_TEXT, 0}, {"started_at", COL_TIME, 0}, {"lifetime_min", COL_NUMBER, 0},
	{"budget_usd", COL_MONEY, 0}, {"token_cost_usd", COL_MONEY, 0},
	{"compute_cost_usd", COL_MONEY, 0}, {"compute_basis", COL_TEXT, 0},
	{"total_cost_usd", COL_MONEY, 0}, {"over_budget_usd", COL_MONEY, 0},
	{"cap_savings_usd", COL_MONEY, 0},
};

/* A money cell, or null. */
static void out_money_opt(sb_out *o, bool has, int64_t nanos)
{
	if (has)
		sb_out_money(o, nanos);
	else
		sb_out_null(o);
}

/* One budget run as a row. */
static void out_budget_run(sb_out *o, const sb_budget_run *r)
{
	char buf[SB_MONEY_BUFSZ];
	int64_t milli = 0;

	sb_out_text(o, r->run_id);
	sb_out_text(o, r->backend);
	sb_out_text(o, r->session_id);
	sb_out_text(o, r->model);
	sb_out_time(o, r->started_ms);
	if (r->has_lifetime && sb_div_round_even(r->lifetime_ms, 60, &milli) == SB_MONEY_OK)
		sb_out_text(o, sb_money_format(milli * 1000000, 3, buf));
	else
		sb_out_null(o);
	out_money_opt(o, r->has_budget, r->budget_nanos);
	out_money_opt(o, r->has_token, r->token_nanos);
	if (r->has_compute)
		sb_out_money(o, r->compute_nanos);
	else
		sb_out_unknown(o);  /* no bill and no rate card: never 0 */
	sb_out_text(o, r->has_compute ? sb_compute_basis_name(r->compute_basis) : NULL);
	out_money_opt(o, r->has_token && r->has_compute, r->total_nanos);
	out_money_opt(o, r->over_budget, r->over_nanos);
	out_money_opt(o, r->over_lifetime && r->has_savings, r->savings_nanos);
	sb_out_row(o);
}

/* The budget report as text on f: totals, then the runs over budget and
 * the runs past the lifetime limit. */
static int print_table(FILE *f, const sb_budget *b, sb_err *e)
{
	char name[96], a[SB_MONEY_BUFSZ + 4], c[SB_MONEY_BUFSZ + 4], t[SB_MONEY_BUFSZ + 4], bu[SB_MONEY_BUFSZ];
	size_t ncols = sizeof budget_cols / sizeof budget_cols[0];
	sb_out *o;

	static const sb_col totals[] = {
		{"what", COL_TEXT, 0}, {"usd", COL_NUMBER, 0}, {"note", COL_TEXT, 0},
	};
	char note[160], unknown[64];

	fprintf(f, "Budget %s: %zu run%s, %lld with a budget\n", sb_period_name(&b->period, name), b->n_runs,
	           b->n_runs == 1 ? "" : "s", (long long)b->budgeted_runs);
	o = sb_out_new(f, FMT_TABLE, false, totals, sizeof totals / sizeof totals[0]);
	sb_out_indent(o, 2);
	sb_out_no_heading(o);
	sb_out_text(o, "token cost");
	sb_out_text(o, strcat(sb_money_format(b->token_nanos, 6, t), " USD"));
	if (b->has_token)
		note[0] = '\0';
	else
		snprintf(note, sizeof note, "(known part: %s%s%s)", b->n_unpriced > 0 ? "some models have no price" : "",
		         b->n_unpriced > 0 && b->tokens_without_model > 0 ? ", " : "",
		         b->tokens_without_model > 0 ? "some runs have tokens but no model" : "");
	sb_out_text(o, note);
	sb_out_row(o);
	unknown[0] = '\0';
	if (!b->has_compute)
		snprintf(unknown, sizeof unknown, "; unknown %lld: no rate card in force", (long long)b->compute_unknown);
	snprintf(note, sizeof note, "(%sbilled %lld runs, session lifetime %lld, computed %lld%s)",
	         b->has_compute ? "" : "known part: ", (long long)b->by_basis[SB_COMPUTE_BILLED],
	         (long long)b->by_basis[SB_COMPUTE_LIFETIME], (long long)b->by_basis[SB_COMPUTE_COMPUTED], unknown);
	sb_out_text(o, "compute cost");
	sb_out_text(o, strcat(sb_money_format(b->compute_nanos, 6, c), " USD"));
	sb_out_text(o, note);
	sb_out_row(o);
	snprintf(note, sizeof note, "against budgets of %s USD", sb_money_format(b->budget_nanos, 6, bu));
	sb_out_text(o, "total");
	sb_out_text(o, strcat(sb_money_format(b->total_nanos, 6, a), " USD"));
	sb_out_text(o, note);
	sb_out_row(o);
	sb_out_end(o, e);
	fprintf(f, "\nRuns over budget: %lld\n", (long long)b->over_budget);
	if (b->over_budget > 0) {
		o = sb_out_new(f, FMT_TABLE, false, budget_cols, ncols);
		for (size_t i = 0; i < b->n_runs; i++)
			if (b->runs[i].over_budget)
				out_budget_run(o, &b->runs[i]);
		sb_out_end(o, e);
	}
	fprintf(f, "\nRuns whose lifetime passed %lld min: %lld\n", (long long)(b->max_lifetime_ms / 60000),
	           (long long)b->over_lifetime);
	if (b->over_lifetime > 0) {
		o = sb_out_new(f, FMT_TABLE, false, budget_cols, ncols);
		for (size_t i = 0; i < b->n_runs; i++)
			if (b->runs[i].over_lifetime)
				out_budget_run(o, &b->runs[i]);
		sb_out_end(o, e);
	}
	fprintf(f, "\nA lifetime cap at %lld min would have saved %s USD.\n", (long long)(b->max_lifetime_ms / 60000),
	           sb_money_format(b->savings_nanos, 6, a));
	return e->code;
}

/* Money as a 9-decimal string, or null. */
static json_t *jmoney(bool has, int64_t nanos)
{
	char buf[SB_MONEY_BUFSZ];

	return has ? json_string(sb_money_format(nanos, 9, buf)) : json_null();
}

/* Milliseconds as minutes with 3 decimals, or null. */
static json_t *jminutes(bool has, int64_t ms)
{
	char buf[SB_MONEY_BUFSZ];
	int64_t milli = 0;

	if (!has || sb_div_round_even(ms, 60, &milli) != SB_MONEY_OK)
		return json_null();
	return json_string(sb_money_format(milli * 1000000, 3, buf));
}

json_t *sb_budget_json(const sb_budget *b)
{
	json_t *root = json_object(), *runs = json_array(), *over = json_array(), *past = json_array();
	json_t *total = json_object(), *unpriced = json_array(), *no_model = json_array();
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ], at[SB_TIME_BUFSZ];
	bool ok = true;

	sb_json_put(root, "period",
	            json_pack("{s:s, s:s}", "from", sb_time_format(b->period.from_ms, from), "to",
	                      sb_time_format(b->period.to_ms, to)),
	            &ok);
	sb_json_put(root, "max_lifetime_min", json_integer(b->max_lifetime_ms / 60000), &ok);
	for (size_t i = 0; i < b->n_runs; i++) {
		const sb_budget_run *r = &b->runs[i];
		json_t *o = json_object();
		sb_json_put(o, "run_id", json_string(r->run_id), &ok);
		sb_json_put(o, "backend", json_string(r->backend), &ok);
		sb_json_put(o, "session_id", r->session_id ? json_string(r->session_id) : json_null(), &ok);
		sb_json_put(o, "model", r->model ? json_string(r->model) : json_null(), &ok);
		sb_json_put(o, "started_at", json_string(sb_time_format(r->started_ms, at)), &ok);
		sb_json_put(o, "lifetime_minutes", jminutes(r->has_lifetime, r->lifetime_ms), &ok);
		sb_json_put(o, "budget_usd", jmoney(r->has_budget, r->budget_nanos), &ok);
		sb_json_put(o, "token_cost_usd", jmoney(r->has_token, r->token_nanos), &ok);
		sb_json_put(o, "compute_cost_usd", jmoney(r->has_compute, r->compute_nanos), &ok);
		sb_json_put(o, "compute_basis",
		            r->has_compute ? json_string(sb_compute_basis_name(r->compute_basis)) : json_null(), &ok);
		sb_json_put(o, "total_cost_usd", jmoney(r->has_token && r->has_compute, r->total_nanos), &ok);
		sb_json_put(o, "over_budget", json_boolean(r->over_budget), &ok);
		sb_json_put(o, "over_budget_usd", jmoney(r->over_budget, r->over_nanos), &ok);
		sb_json_put(o, "over_lifetime", json_boolean(r->over_lifetime), &ok);
		sb_json_put(o, "cap_savings_usd", jmoney(r->over_lifetime && r->has_savings, r->savings_nanos), &ok);
		sb_json_append(runs, o, &ok);
		if (r->over_budget)
			sb_json_append(over, json_string(r->run_id), &ok);
		if (r->over_lifetime)
			sb_json_append(past, json_string(r->run_id), &ok);
	}
	sb_json_put(root, "runs", runs, &ok);
	sb_json_put(root, "over_budget", over, &ok);
	sb_json_put(root, "over_lifetime", past, &ok);
	sb_json_put(total, "runs", json_integer((json_int_t)b->n_runs), &ok);
	sb_json_put(total, "token_cost_usd", jmoney(b->has_token, b->token_nanos), &ok);
	sb_json_put(total, "compute_cost_usd", jmoney(b->has_compute, b->compute_nanos), &ok);
	sb_json_put(total, "total_cost_usd", jmoney(b->has_token && b->has_compute, b->total_nanos), &ok);
	sb_json_put(total, "budget_usd", jmoney(true, b->budget_nanos), &ok);
	sb_json_put(total, "budgeted_runs", json_integer(b->budgeted_runs), &ok);
	sb_json_put(total, "over_budget", json_integer(b->over_budget), &ok);
	sb_json_put(total, "over_lifetime", json_integer(b->over_lifetime), &ok);
	sb_json_put(total, "cap_savings_usd", jmoney(true, b->savings_nanos), &ok);
	sb_json_put(total, "compute_billed_runs", json_integer(b->by_basis[SB_COMPUTE_BILLED]), &ok);
	sb_json_put(total, "compute_lifetime_runs", json_integer(b->by_basis[SB_COMPUTE_LIFETIME]), &ok);
	sb_json_put(total, "compute_computed_runs", json_integer(b->by_basis[SB_COMPUTE_COMPUTED]), &ok);
	sb_json_put(total, "compute_unknown_runs", json_integer(b->compute_unknown), &ok);
	sb_json_put(root, "total", total, &ok);
	for (size_t i = 0; i < b->n_unpriced; i++)
		sb_json_append(unpriced, json_string(b->unpriced[i]), &ok);
	sb_json_put(root, "unpriced_models", unpriced, &ok);
	for (size_t i = 0; i < b->n_runs; i++)
		if (b->runs[i].tokens_without_model)
			sb_json_append(no_model, json_string(b->runs[i].run_id), &ok);
	sb_json_put(root, "tokens_without_model", no_model, &ok);
	if (!ok) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int sb_report_budget(FILE *f, sb_format fmt, bool csv_raw, const sb_budget *b, sb_err *e)
{
	sb_out *o;

	if (fmt == FMT_JSON)
		return sb_json_print(f, sb_budget_json(b), JSON_INDENT(1), e);
	if (fmt != FMT_CSV)
		return print_table(f, b, e);
	o = sb_out_new(f, FMT_CSV, csv_raw, budget_cols, sizeof budget_cols / sizeof budget_cols[0]);
	for (size_t i = 0; i < b->n_runs; i++)
		out_budget_run(o, &b->runs[i]);
	return sb_out_end(o, e);
}
