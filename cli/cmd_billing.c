/* cmd_billing.c: the commands about billing lines and currencies: lines,
 * fx, fx set. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/words.h"
#include "cli/out.h"
#include "ledger/fx.h"
#include "ledger/line_list.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "report/lines_out.h"

/* Options of the billing commands. */
typedef struct billing_opts {
	sb_format fmt;             /* --format */
	bool has_period;           /* --period given */
	sb_period period;          /* --period */
	const char *backend;       /* --backend, NULL for all */
	const char *session;       /* --session, NULL for all */
	bool has_batch;            /* --batch given */
	int64_t batch;             /* --batch */
	const char *from;          /* fx set --from */
	char code[4];              /* fx set: the currency, upper case */
	int64_t rate_nanos;        /* fx set: USD per unit x 10^9 */
	int64_t from_ms;           /* fx set: --from as an instant */
} billing_opts;

/* Handle one option of the billing commands. */
static int on_billing_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	billing_opts *bo = ctx;

	switch (val) {
	case 'f':
		return cli_format(cli, arg, 1u << FMT_TABLE | 1u << FMT_CSV | 1u << FMT_JSON, &bo->fmt);
	case 'p':
		bo->has_period = true;
		return cli_period(cli, arg, &bo->period);
	case 'B': bo->backend = arg; return 0;
	case 'S': bo->session = arg; return 0;
	case 'b':
		bo->has_batch = true;
		return cli_int(cli, "--batch", arg, &bo->batch);
	case 'F': bo->from = arg; return 0;
	default: return SB_EUSAGE;
	}
}

static const struct option lines_options[] = {
	{"format", required_argument, NULL, 'f'},
	{"period", required_argument, NULL, 'p'},
	{"backend", required_argument, NULL, 'B'},
	{"session", required_argument, NULL, 'S'},
	{"batch", required_argument, NULL, 'b'},
	{NULL, 0, NULL, 0},
};

/* lines: its options; --period is required. */
static int parse_lines(sb_cli *cli, int argc, char **argv, void *opts)
{
	billing_opts *bo = opts;
	int first = 0;
	int rc = cli_getopt(cli, argc, argv, lines_options, on_billing_opt, bo, &first);

	if (rc != 0)
		return rc;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	if (!bo->has_period)
		return cli_usage(cli, "--period is required (2026-11, 2026-11-29, FROM..TO, last-month, ...)");
	return 0;
}

/* lines: the billing lines as stored, superseded ones marked. */
static int run_lines(sb_cli *cli, sb_db *db, void *opts)
{
	const billing_opts *bo = opts;
	sb_line_filter f = {bo->period, bo->backend, bo->session, bo->has_batch, bo->batch};
	sb_line_row row;
	sb_stmt *st;
	sb_out *o;
	int rc;

	if (bo->has_batch && (rc = cli_batch_known(cli, db, bo->batch)) != SB_OK)
		return rc;
	if ((st = sb_line_list_open(db, &f, &cli->err)) == NULL)
		return cli_report(&cli->err);
	o = sb_lines_out_new(stdout, bo->fmt, cli->csv_raw);
	while (o != NULL && sb_line_list_next(db, st, &row, &cli->err) > 0)
		sb_lines_out_row(o, bo->fmt, &row);
	if (o == NULL)
		sb_stmt_reset(st);
	sb_out_end(o, &cli->err);
	return cli_report(&cli->err);
}

static const struct option fx_list_options[] = {
	{"format", required_argument, NULL, 'f'},
	{NULL, 0, NULL, 0},
};

/* fx: its options, no operands. */
static int parse_fx(sb_cli *cli, int argc, char **argv, void *opts)
{
	billing_opts *bo = opts;
	int first = 0;
	int rc = cli_getopt(cli, argc, argv, fx_list_options, on_billing_opt, bo, &first);

	if (rc != 0)
		return rc;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s' (to store a rate: %s fx set CUR RATE --from DATE)",
		                 argv[first], cli_invoked_words((char[CLI_INVOKED_MAX]){0}, CLI_INVOKED_MAX));
	return 0;
}

/* fx: list the exchange rates. */
static int run_fx(sb_cli *cli, sb_db *db, void *opts)
{
	static const sb_col cols[] = {
		{"currency", COL_TEXT, 0}, {"effective_from", COL_TIME, 0}, {"usd_per_unit", COL_RATE, 0},
	};
	const billing_opts *bo = opts;
	sb_stmt *st;
	sb_out *o;

	if ((st = sb_db_stmt(db, "fx_rate_list", &cli->err)) == NULL)
		return cli_report(&cli->err);
	o = sb_out_new(stdout, bo->fmt, cli->csv_raw, cols, sizeof cols / sizeof cols[0]);
	while (o != NULL && sb_db_step(db, st, &cli->err) == SB_ROW) {
		sb_out_text(o, sb_col_text(st, 0));
		sb_out_time(o, sb_col_i64(st, 1));
		sb_out_money(o, sb_col_i64(st, 2));
		sb_out_row(o);
	}
	if (o == NULL)
		sb_fail(&cli->err, SB_EINTERNAL, "out of memory");
	sb_out_end(o, &cli->err);
	return cli_report(&cli->err);
}

static const struct option fx_set_options[] = {
	{"from", required_argument, NULL, 'F'},
	{NULL, 0, NULL, 0},
};

/* fx set CUR RATE --from DATE: the currency, the rate and the instant,
 * checked. */
static int parse_fx_set(sb_cli *cli, int argc, char **argv, void *opts)
{
	billing_opts *bo = opts;
	sb_period from;
	int first = 0;
	int rc = cli_getopt(cli, argc, argv, fx_set_options, on_billing_opt, bo, &first);

	if (rc != 0)
		return rc;
	if (argc - first != 2)
		return cli_usage(cli, "needs a currency code and a rate (USD per unit)");
	if (bo->from == NULL)
		return cli_usage(cli, "--from DATE is required: the rate is in force from then until a newer one");
	if (strlen(argv[first]) == 3)
		for (int i = 0; i < 3; i++)
			bo->code[i] = argv[first][i] >= 'a' && argv[first][i] <= 'z' ?
			              (char)(argv[first][i] - 'a' + 'A') : argv[first][i];
	if (!sb_currency_known(bo->code))
		return cli_usage(cli, "'%s' is not an ISO 4217 currency code", argv[first]);
	if (strcmp(bo->code, "USD") == 0)
		return cli_usage(cli, "USD needs no rate: amounts are reconciled in USD");
	if (sb_money_parse(argv[first + 1], strlen(argv[first + 1]), &bo->rate_nanos) != SB_MONEY_OK ||
	    bo->rate_nanos <= 0)
		return cli_usage(cli, "rate '%s' is not a decimal number above 0 (USD per unit of %s)",
		                 argv[first + 1], bo->code);
	if (sb_time_parse(bo->from, strlen(bo->from), 0, &from.from_ms) != SB_TIME_OK) {
		sb_err pe;
		sb_err_clear(&pe);
		if (strstr(bo->from, "..") != NULL || sb_period_parse(bo->from, cli_now_ms(), &from, &pe) != SB_OK)
			return cli_usage(cli, "--from '%s' is not a date (2026-11-01) or an RFC 3339 timestamp",
			                 bo->from);
	}
	bo->from_ms = from.from_ms;
	return 0;
}

/* fx set: store the exchange rate. */
static int run_fx_set(sb_cli *cli, sb_db *db, void *opts)
{
	const billing_opts *bo = opts;
	char rate_text[SB_MONEY_BUFSZ], when[SB_TIME_BUFSZ];

	if (sb_fx_set(db, bo->code, bo->rate_nanos, bo->from_ms, &cli->err) == SB_OK)
		cli_info(cli, "fx rate: 1 %s = %s USD from %s", bo->code, sb_money_format(bo->rate_nanos, 9, rate_text),
		         sb_time_format(bo->from_ms, when));
	return cli_report(&cli->err);
}

const sb_command sb_billing_commands[] = {
	{"lines", parse_lines, run_lines, sizeof(billing_opts), CMD_READS | CMD_CSV,
	 "--period P [--backend B] [--session S] [--batch N] [--format table|csv|json] [--raw]",
	 "List the billing lines as stored whose charge starts in the period, the\n"
	 "superseded ones too (status 'superseded', with the batch that replaced\n"
	 "them).  Amounts are in each line's currency; metered lines have none\n"
	 "but vCPU and memory time (the table shows them in seconds, vcpu_s and\n"
	 "mb_s; csv and json in milliseconds, vcpu_ms and memory_mb_ms).\n"
	 "\n"
	 "  --period P    the lines whose charge starts in P (required)\n"
	 "  --backend B   only backend B\n"
	 "  --session S   only session S\n"
	 "  --batch N     only the lines batch N brought (65 when there is no\n"
	 "                batch N)\n"
	 "  --format F    table (default), csv or json (every column)\n"
	 "  --raw         CSV: no ' before free text starting with = + - @ tab CR\n",
	 "list the billing lines as stored, superseded ones marked", lines_options,
	 "sbledger lines --period 2026-11\n"
	 "sbledger lines --period 2026-11-29 --backend modal --format csv\n"
	 "sbledger lines --period 2026 --batch 3 --format json\n"},
	{"fx", parse_fx, run_fx, sizeof(billing_opts), CMD_READS | CMD_CSV, "[--format table|csv|json] [--raw]",
	 "List the exchange rates, by currency and date: USD per unit of each\n"
	 "currency (9 decimals), in force from effective_from until the next rate\n"
	 "of the same currency.\n"
	 "\n"
	 "  --format F   table (default), csv or json\n"
	 "  --raw        CSV: no ' before free text starting with = + - @ tab CR\n",
	 "list the exchange rates (USD per unit of a currency)", fx_list_options,
	 "sbledger fx\n"
	 "sbledger fx --format json\n"},
	{"fx set", parse_fx_set, run_fx_set, sizeof(billing_opts), CMD_WRITES, "CUR RATE --from DATE",
	 "Store an exchange rate: RATE USD per unit of currency CUR (an ISO 4217\n"
	 "code other than USD; RATE an exact decimal above 0), in force from DATE\n"
	 "until a newer rate of CUR.  Reconciliation converts a non-USD billing\n"
	 "line with the rate in force at its charge start; a line with none is\n"
	 "left out and its backend gets status 'currency'.  A rate of the same\n"
	 "currency and instant is replaced.\n"
	 "\n"
	 "  --from DATE   in force from DATE: a date (its midnight UTC) or an RFC\n"
	 "                3339 timestamp with an offset (required)\n",
	 "store an exchange rate in force from a date", fx_set_options,
	 "sbledger fx set EUR 1.08 --from 2026-11-01\n"
	 "sbledger fx set gbp 1.2625 --from 2026-11-15T00:00:00Z\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
