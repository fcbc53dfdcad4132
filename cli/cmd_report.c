/* cmd_report.c: report summary, report budget. */
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/words.h"
#include "ledger/period.h"
#include "ledger/quote.h"
#include "reconcile/budget.h"
#include "reconcile/summary.h"
#include "report/budget_out.h"
#include "report/summary_out.h"

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

/* The warning for a model without a price, with the command that prices
 * it (runs as printed once X and Y are filled in). */
static void warn_unpriced(const char *model)
{
	char name[SB_QUOTE_BUFSZ], cmd[2 * SB_QUOTE_BUFSZ];

	cli_warn("token cost unknown: model %s has no price (%s)",
	         sb_quote(model, SB_QUOTE_ALWAYS, name, sizeof name), cli_price_command(model, cmd, sizeof cmd));
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

/* Say that the card cost of the runs of each backend of list is unknown
 * (no card in force at their start), with both ways out. */
static void warn_no_card(const sb_no_card *list, size_t n)
{
	char name[SB_QUOTE_BUFSZ], fix[1024];

	for (size_t i = 0; i < n; i++)
		cli_warn("card cost unknown: %lld run%s of backend %s had no rate card in force at %s; %s",
		         (long long)list[i].runs, list[i].runs == 1 ? "" : "s",
		         sb_quote(list[i].backend, SB_QUOTE_ALWAYS, name, sizeof name),
		         list[i].runs == 1 ? "its start" : "their start",
		         sb_rates_fix_text(list[i].backend, list[i].first_ms, fix, sizeof fix));
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
	sb_report_summary(stdout, ro->fmt, cli->csv_raw, s, cli_now_ms(), &cli->err);
	for (size_t i = 0; i < s->n_unpriced; i++)
		warn_unpriced(s->unpriced[i]);
	if (s->unpriced_no_model)
		warn_no_model(s->no_model_runs, (const char *const *)s->no_model_named, s->n_no_model_named);
	warn_no_card(s->no_card, s->n_no_card);
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
	sb_report_budget(stdout, bo->fmt, cli->csv_raw, b, &cli->err);
	for (size_t i = 0; i < b->n_unpriced; i++)
		warn_unpriced(b->unpriced[i]);
	if (b->tokens_without_model > 0) {
		const char *named[SB_SUMMARY_NAMED];
		size_t n_named = 0;
		for (size_t i = 0; i < b->n_runs && n_named < SB_SUMMARY_NAMED; i++)
			if (b->runs[i].tokens_without_model)
				named[n_named++] = b->runs[i].run_id;
		warn_no_model(b->tokens_without_model, named, n_named);
	}
	warn_no_card(b->no_card, b->n_no_card);
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
