/* cmd_report.c: report summary, report budget. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/out.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "reconcile/budget.h"
#include "reconcile/html.h"
#include "reconcile/summary.h"

/* Options of report summary. */
typedef struct report_opts {
	sb_format fmt;        /* --format */
	bool has_period;      /* --period given */
	sb_period period;     /* --period */
	const char *by;       /* --by */
} report_opts;

/* Handle one option of report summary. */
static int on_report_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	report_opts *ro = ctx;

	switch (val) {
	case 'f':
		return cli_format(cli, arg, 1u << FMT_TABLE | 1u << FMT_CSV | 1u << FMT_JSON | 1u << FMT_HTML,
		                  &ro->fmt);
	case 'p':
		ro->has_period = true;
		return cli_period(cli, arg, &ro->period);
	case 'b':
		if (!sb_summary_by_valid(arg))
			return cli_usage(cli, "--by '%s' is not one of backend, day, model, session, tag:NAME", arg);
		ro->by = arg;
		return 0;
	default:
		return SB_EUSAGE;
	}
}

static const struct option report_options[] = {
	{"format", required_argument, NULL, 'f'},
	{"period", required_argument, NULL, 'p'},
	{"by", required_argument, NULL, 'b'},
	{NULL, 0, NULL, 0},
};

/* The columns of a summary row after the key. */
static const sb_col summary_cols[] = {
	{"key", COL_TEXT, 40}, {"runs", COL_INT, 0}, {"exec_count", COL_INT, 0},
	{"total_duration_ms", COL_INT, 0}, {"cpu_ms", COL_INT, 0}, {"memory_peak_mb", COL_INT, 0},
	{"bytes_read", COL_COUNT, 0}, {"bytes_written", COL_COUNT, 0},
	{"computed_cost_usd", COL_MONEY, 0}, {"billed_cost_usd", COL_MONEY, 0},
	{"card_cost_usd", COL_MONEY, 0}, {"token_cost_usd", COL_MONEY, 0},
};

/* One summary row into a listing (table or csv). */
static void out_usage(sb_out *o, const char *key, const sb_usage *u)
{
	int64_t token = 0;

	sb_out_text(o, key);
	sb_out_int(o, u->runs);
	sb_out_int(o, u->exec_count);
	sb_out_int(o, u->total_duration_ms);
	sb_out_int(o, u->cpu_ms);
	sb_out_int(o, u->memory_peak_mb);
	sb_out_int(o, u->bytes_read);
	sb_out_int(o, u->bytes_written);
	sb_out_money(o, u->computed_nanos);
	if (u->has_billed)
		sb_out_money(o, u->billed_nanos);
	else
		sb_out_null(o);
	if (u->has_card)
		sb_out_money(o, u->card_nanos);
	else
		sb_out_null(o);
	if (sb_usage_token_nanos(u, &token))
		sb_out_money(o, token);
	else
		sb_out_null(o);
	sb_out_row(o);
}

/* A money member: a decimal string with 9 decimals, or null. */
static json_t *json_money(bool has, int64_t nanos)
{
	char buf[SB_MONEY_BUFSZ];

	return has ? json_string(sb_money_format(nanos, 9, buf)) : json_null();
}

/* One summary row as a JSON object (key omitted when NULL). */
static json_t *json_usage(const char *key, const sb_usage *u)
{
	json_t *o = json_object();
	int64_t token = 0;
	bool has_token = sb_usage_token_nanos(u, &token);

	if (key != NULL)
		json_object_set_new(o, "key", json_string(key));
	json_object_set_new(o, "runs", json_integer(u->runs));
	json_object_set_new(o, "exec_count", json_integer(u->exec_count));
	json_object_set_new(o, "total_duration_ms", json_integer(u->total_duration_ms));
	json_object_set_new(o, "cpu_ms", json_integer(u->cpu_ms));
	json_object_set_new(o, "memory_peak_mb", json_integer(u->memory_peak_mb));
	json_object_set_new(o, "bytes_read", json_integer(u->bytes_read));
	json_object_set_new(o, "bytes_written", json_integer(u->bytes_written));
	json_object_set_new(o, "computed_cost_usd", json_money(true, u->computed_nanos));
	json_object_set_new(o, "billed_cost_usd", json_money(u->has_billed, u->billed_nanos));
	json_object_set_new(o, "card_cost_usd", json_money(u->has_card, u->card_nanos));
	json_object_set_new(o, "token_cost_usd", json_money(has_token, token));
	return o;
}

/* The period as {"from": ..., "to": ...}. */
static json_t *json_period(const sb_period *p)
{
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];

	return json_pack("{s:s, s:s}", "from", sb_time_format(p->from_ms, from), "to",
	                 sb_time_format(p->to_ms, to));
}

/* Print the summary as JSON (docs/reports.md). */
static void print_json(const sb_summary *s)
{
	json_t *root = json_object(), *rows = json_array();
	char *text;

	json_object_set_new(root, "period", json_period(&s->period));
	json_object_set_new(root, "by", json_string(s->by));
	for (size_t i = 0; i < s->n_rows; i++)
		json_array_append_new(rows, json_usage(s->rows[i].key, &s->rows[i].u));
	json_object_set_new(root, "rows", rows);
	json_object_set_new(root, "total", json_usage(NULL, &s->total));
	text = json_dumps(root, JSON_INDENT(1));
	if (text != NULL)
		puts(text);
	free(text);
	json_decref(root);
}

/* Say that n runs have tokens but no model, naming the first named[0,
 * n_named) of them. */
static void warn_no_model(int64_t n, const char *const *named, size_t n_named)
{
	char list[1024];
	size_t at = 0;

	list[0] = '\0';
	for (size_t i = 0; i < n_named && at < sizeof list; i++)
		at += (size_t)snprintf(list + at, sizeof list - at, "%s'%s'", i > 0 ? ", " : "", named[i]);
	if ((int64_t)n_named < n && at < sizeof list)
		snprintf(list + at, sizeof list - at, " and %lld more; report budget --format csv lists every run",
		         (long long)(n - (int64_t)n_named));
	cli_warn("token cost unknown: %lld run%s with tokens but no model (%s); add token_usage.model to the records",
	         (long long)n, n == 1 ? "" : "s", list);
}

/* report summary: its options; --period is required. */
static int parse_report_summary(sb_cli *cli, int argc, char **argv, void *opts)
{
	report_opts *ro = opts;
	int first = 0, rc;

	ro->fmt = FMT_TABLE;
	ro->by = "backend";
	if ((rc = cli_getopt(cli, argc, argv, report_options, on_report_opt, ro, &first)) != 0)
		return rc;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	if (!ro->has_period)
		return cli_usage(cli, "--period is required (2026-11, yesterday, this-month, FROM..TO, ...)");
	return 0;
}

/* report summary: the runs of a period grouped by a key. */
static int run_report_summary(sb_cli *cli, sb_db *db, void *opts)
{
	const report_opts *ro = opts;
	sb_summary *s = NULL;

	if (sb_summary_build(db, &ro->period, ro->by, &s, &cli->err) != SB_OK)
		return cli_report(&cli->err);
	if (ro->fmt == FMT_JSON) {
		print_json(s);
	} else if (ro->fmt == FMT_HTML) {
		sb_html_summary(stdout, s, sb_now_ms(), &cli->err);
	} else {
		sb_out *o = sb_out_new(ro->fmt, summary_cols, sizeof summary_cols / sizeof summary_cols[0]);
		for (size_t i = 0; i < s->n_rows; i++)
			out_usage(o, s->rows[i].key, &s->rows[i].u);
		if (ro->fmt == FMT_TABLE)
			out_usage(o, "total", &s->total);
		sb_out_end(o);
	}
	for (size_t i = 0; i < s->n_unpriced; i++)
		cli_warn("token cost unknown: model '%s' has no price (sbledger prices set '%s' --input-per-m X --output-per-m Y)",
		         s->unpriced[i], s->unpriced[i]);
	if (s->unpriced_no_model)
		warn_no_model(s->no_model_runs, (const char *const *)s->no_model_named, s->n_no_model_named);
	sb_summary_free(s);
	return cli_report(&cli->err);
}

/* Options of report budget. */
typedef struct budget_opts {
	sb_format fmt;            /* --format */
	bool has_period;          /* --period given */
	sb_period period;         /* --period */
	int64_t max_lifetime_min; /* --max-lifetime-min */
} budget_opts;

/* Handle one option of report budget. */
static int on_budget_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	budget_opts *bo = ctx;

	switch (val) {
	case 'f':
		return cli_format(cli, arg, 1u << FMT_TABLE | 1u << FMT_CSV | 1u << FMT_JSON, &bo->fmt);
	case 'p':
		bo->has_period = true;
		return cli_period(cli, arg, &bo->period);
	case 'm':
		if (cli_int(cli, "--max-lifetime-min", arg, &bo->max_lifetime_min) != SB_OK)
			return SB_EUSAGE;
		if (bo->max_lifetime_min > 1000000)
			return cli_usage(cli, "--max-lifetime-min '%s' is more than 1000000 minutes", arg);
		return 0;
	default:
		return SB_EUSAGE;
	}
}

static const struct option budget_options[] = {
	{"format", required_argument, NULL, 'f'},
	{"period", required_argument, NULL, 'p'},
	{"max-lifetime-min", required_argument, NULL, 'm'},
	{NULL, 0, NULL, 0},
};

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
	sb_out_money(o, r->compute_nanos);
	sb_out_text(o, sb_compute_basis_name(r->compute_basis));
	out_money_opt(o, r->has_token, r->total_nanos);
	out_money_opt(o, r->over_budget, r->over_nanos);
	out_money_opt(o, r->over_lifetime && r->has_savings, r->savings_nanos);
	sb_out_row(o);
}

/* The budget report as text: totals, then the runs over budget and the
 * runs past the lifetime limit. */
static void print_budget_table(const sb_budget *b)
{
	char name[96], a[SB_MONEY_BUFSZ + 4], c[SB_MONEY_BUFSZ + 4], t[SB_MONEY_BUFSZ + 4], bu[SB_MONEY_BUFSZ];
	size_t ncols = sizeof budget_cols / sizeof budget_cols[0];
	sb_out *o;

	static const sb_col totals[] = {
		{"what", COL_TEXT, 0}, {"usd", COL_NUMBER, 0}, {"note", COL_TEXT, 0},
	};
	char note[160];

	printf("Budget %s: %zu run%s, %lld with a budget\n", sb_period_name(&b->period, name), b->n_runs,
	       b->n_runs == 1 ? "" : "s", (long long)b->budgeted_runs);
	o = sb_out_new(FMT_TABLE, totals, sizeof totals / sizeof totals[0]);
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
	snprintf(note, sizeof note, "(billed %lld runs, session lifetime %lld, computed %lld)",
	         (long long)b->by_basis[SB_COMPUTE_BILLED], (long long)b->by_basis[SB_COMPUTE_LIFETIME],
	         (long long)b->by_basis[SB_COMPUTE_COMPUTED]);
	sb_out_text(o, "compute cost");
	sb_out_text(o, strcat(sb_money_format(b->compute_nanos, 6, c), " USD"));
	sb_out_text(o, note);
	sb_out_row(o);
	snprintf(note, sizeof note, "against budgets of %s USD", sb_money_format(b->budget_nanos, 6, bu));
	sb_out_text(o, "total");
	sb_out_text(o, strcat(sb_money_format(b->total_nanos, 6, a), " USD"));
	sb_out_text(o, note);
	sb_out_row(o);
	sb_out_end(o);
	printf("\nRuns over budget: %lld\n", (long long)b->over_budget);
	if (b->over_budget > 0) {
		o = sb_out_new(FMT_TABLE, budget_cols, ncols);
		for (size_t i = 0; i < b->n_runs; i++)
			if (b->runs[i].over_budget)
				out_budget_run(o, &b->runs[i]);
		sb_out_end(o);
	}
	printf("\nRuns whose lifetime passed %lld min: %lld\n", (long long)(b->max_lifetime_ms / 60000),
	       (long long)b->over_lifetime);
	if (b->over_lifetime > 0) {
		o = sb_out_new(FMT_TABLE, budget_cols, ncols);
		for (size_t i = 0; i < b->n_runs; i++)
			if (b->runs[i].over_lifetime)
				out_budget_run(o, &b->runs[i]);
		sb_out_end(o);
	}
	printf("\nA lifetime cap at %lld min would have saved %s USD.\n", (long long)(b->max_lifetime_ms / 60000),
	       sb_money_format(b->savings_nanos, 6, a));
}

/* report budget: its options; --period is required. */
static int parse_report_budget(sb_cli *cli, int argc, char **argv, void *opts)
{
	budget_opts *bo = opts;
	int first = 0, rc;

	bo->fmt = FMT_TABLE;
	bo->max_lifetime_min = 30;
	if ((rc = cli_getopt(cli, argc, argv, budget_options, on_budget_opt, bo, &first)) != 0)
		return rc;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	if (!bo->has_period)
		return cli_usage(cli, "--period is required (2026-11, yesterday, this-month, FROM..TO, ...)");
	return 0;
}

/* report budget: the token meter and the compute meter per run. */
static int run_report_budget(sb_cli *cli, sb_db *db, void *opts)
{
	const budget_opts *bo = opts;
	sb_budget *b = NULL;

	if (sb_budget_build(db, &bo->period, bo->max_lifetime_min * 60000, &b, &cli->err) != SB_OK)
		return cli_report(&cli->err);
	if (bo->fmt == FMT_JSON) {
		json_t *root = sb_budget_json(b);
		char *text = json_dumps(root, JSON_INDENT(1));
		if (text != NULL)
			puts(text);
		free(text);
		json_decref(root);
	} else if (bo->fmt == FMT_CSV) {
		sb_out *o = sb_out_new(FMT_CSV, budget_cols, sizeof budget_cols / sizeof budget_cols[0]);
		for (size_t i = 0; i < b->n_runs; i++)
			out_budget_run(o, &b->runs[i]);
		sb_out_end(o);
	} else {
		print_budget_table(b);
	}
	for (size_t i = 0; i < b->n_unpriced; i++)
		cli_warn("token cost unknown: model '%s' has no price (sbledger prices set '%s' --input-per-m X --output-per-m Y)",
		         b->unpriced[i], b->unpriced[i]);
	if (b->tokens_without_model > 0) {
		const char *named[SB_SUMMARY_NAMED];
		size_t n_named = 0;
		for (size_t i = 0; i < b->n_runs && n_named < SB_SUMMARY_NAMED; i++)
			if (b->runs[i].tokens_without_model)
				named[n_named++] = b->runs[i].run_id;
		warn_no_model(b->tokens_without_model, named, n_named);
	}
	sb_budget_free(b);
	return cli_report(&cli->err);
}

const sb_command sb_report_commands[] = {
	{"report budget", parse_report_budget, run_report_budget, sizeof(budget_opts), CMD_READS | CMD_CSV,
	 "--period P [--max-lifetime-min N] [--format table|csv|json] [--raw]",
	 "The two meters of each run started in period P side by side: the token\n"
	 "cost (model price table) and the compute cost as providers charge it\n"
	 "(billed where known, else the session lifetime at the card rate, else\n"
	 "computed), their total against the run's budget_usd.  Lists the runs\n"
	 "over budget and the runs whose lifetime passed --max-lifetime-min, and\n"
	 "what a lifetime cap there would have saved (the card cost of the\n"
	 "lifetime past it).  CSV and JSON list every run.  A model with no price\n"
	 "is named, never priced as zero; a run with tokens but no model has an\n"
	 "unknown token cost (null, never 0), and the runs are named on stderr.\n"
	 "See docs/reports.md.\n"
	 "\n"
	 "  --period P              the runs started in P (required)\n"
	 "  --max-lifetime-min N    the lifetime limit in whole minutes (default 30)\n"
	 "  --format F              table (default), csv or json\n"
	 "  --raw                   CSV: no ' before free text starting with = + - @ tab CR\n",
	 "token and compute cost of each run against its budget", budget_options,
	 "sbledger report budget --period 2026-11\n"
	 "sbledger report budget --period last-month --max-lifetime-min 10 --format csv\n"},
	{"report summary", parse_report_summary, run_report_summary, sizeof(report_opts), CMD_READS | CMD_CSV,
	 "--period P [--by backend|day|model|session|tag:NAME] [--format table|csv|json|html] [--raw]",
	 "Sum the runs started in period P per group: runs, the SandboxUsage\n"
	 "aggregates (counters sum, memory_peak_mb is the maximum, billed_cost_usd\n"
	 "is null only when every run's is), the card cost (the rate card in force\n"
	 "at each run's start) and the token cost (the model price table).  A\n"
	 "model with no price makes the token cost null, and the report names it;\n"
	 "so do runs with tokens but no model (the first 10 named on stderr).\n"
	 "The table ends with a total row; csv holds the groups only.\n"
	 "\n"
	 "  --period P    the runs started in P (required)\n"
	 "  --by KEY      group by backend (default), day (UTC date of the start),\n"
	 "                model ((none) without tokens), session ((none) without\n"
	 "                one) or tag:NAME (the value of tag NAME; (untagged))\n"
	 "  --format F    table (default), csv, json, or html: one self-contained\n"
	 "                page, the table and a bar chart of computed against billed\n"
	 "  --raw         CSV: no ' before free text starting with = + - @ tab CR\n",
	 "sum a period's runs per backend, day, model, session or tag", report_options,
	 "sbledger report summary --period 2026-11\n"
	 "sbledger report summary --period 2026-11 --by tag:customer --format csv\n"
	 "sbledger report summary --period last-month --format html > summary.html\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
