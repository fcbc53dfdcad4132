/* cmd_report.c: report summary. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/out.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
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
		return cli_format(cli, arg, 1u << FMT_TABLE | 1u << FMT_CSV | 1u << FMT_JSON, &ro->fmt);
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
	{"bytes_read", COL_INT, 0}, {"bytes_written", COL_INT, 0},
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

/* Print the summary as JSON (DESIGN.md section 7). */
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

/* report summary: the runs of a period grouped by a key. */
static int cmd_report_summary(sb_cli *cli, int argc, char **argv)
{
	report_opts ro = {FMT_TABLE, false, {0, 0}, "backend"};
	sb_summary *s = NULL;
	sb_db *db = NULL;
	int first = 0, rc = cli_getopt(cli, argc, argv, report_options, on_report_opt, &ro, &first);

	if (rc != 0)
		return rc;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	if (!ro.has_period)
		return cli_usage(cli, "--period is required (2026-11, yesterday, this-month, FROM..TO, ...)");
	if (cli_open(cli, 0, &db) != SB_OK || sb_summary_build(db, &ro.period, ro.by, &s, &cli->err) != SB_OK) {
		sb_db_close(db);
		return cli_report(&cli->err);
	}
	if (ro.fmt == FMT_JSON) {
		print_json(s);
	} else {
		sb_out *o = sb_out_new(ro.fmt, summary_cols, sizeof summary_cols / sizeof summary_cols[0]);
		for (size_t i = 0; i < s->n_rows; i++)
			out_usage(o, s->rows[i].key, &s->rows[i].u);
		if (ro.fmt == FMT_TABLE)
			out_usage(o, "total", &s->total);
		sb_out_end(o);
	}
	for (size_t i = 0; i < s->n_unpriced; i++)
		cli_warn("token cost unknown: model '%s' has no price (sbledger prices set '%s' --input-per-m X --output-per-m Y)",
		         s->unpriced[i], s->unpriced[i]);
	if (s->unpriced_no_model)
		cli_warn("token cost unknown: some runs have tokens but name no model");
	sb_summary_free(s);
	sb_db_close(db);
	return 0;
}

const sb_command sb_report_commands[] = {
	{"report summary", cmd_report_summary, 0,
	 "--period P [--by backend|day|model|session|tag:NAME] [--format table|csv|json]",
	 "Sum the runs started in period P per group: runs, the SandboxUsage\n"
	 "aggregates (counters sum, memory_peak_mb is the maximum, billed_cost_usd\n"
	 "is null only when every run's is), the card cost (the rate card in force\n"
	 "at each run's start) and the token cost (the model price table).  Runs\n"
	 "without the tag group under (untagged).  A model with no price makes the\n"
	 "token cost null, and the report names it.\n"},
	{NULL, NULL, 0, NULL, NULL},
};
