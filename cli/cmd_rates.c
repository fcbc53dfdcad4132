/* cmd_rates.c: rate cards, backends and model prices: rates, rates set,
 * rates import, backends, backends set, prices, prices set. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/out.h"
#include "cli/words.h"
#include "importers/rates_json.h"
#include "importers/runs_jsonl.h"
#include "ledger/grain.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/prices.h"
#include "ledger/quote.h"
#include "ledger/rates.h"
#include "ledger/timefmt.h"

/* Options of the rate commands (each command uses its own subset). */
typedef struct rates_opts {
	sb_format fmt;                 /* --format */
	bool all;                      /* rates --all */
	bool has_at;                   /* --at given */
	int64_t at_ms;                 /* --at */
	const char *plan;              /* --plan */
	const char *per_minute;        /* --usd-per-minute */
	bool free;                     /* --free */
	const char *per_cpu_second;    /* --usd-per-cpu-second */
	const char *per_gb_second;     /* --usd-per-gb-second */
	const char *from;              /* --from */
	bool network, persistent;      /* backends --network, --persistent */
	bool has_min_cpu, has_min_mem; /* backends --min-cpu, --min-memory-mb given */
	int64_t min_cpu, min_mem;      /* their values */
	const char *region;            /* backends --region */
	const char *grain_arg;         /* backends set --grain */
	sb_grain grain;                /* backends set: the grain, parsed */
	const char *backend;           /* backends set: the backend id (an SDK class name mapped) */
	const char *input_per_m;       /* prices set --input-per-m */
	const char *output_per_m;      /* prices set --output-per-m */
	const char *arg;               /* the operand: rates import FILE, prices set MODEL */
	sb_card card;                  /* rates set: the card, checked */
	int64_t in_nanos, out_nanos;   /* prices set: the prices, parsed */
} rates_opts;

/* Handle one option of the rate commands. */
static int on_rates_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	rates_opts *ro = ctx;

	switch (val) {
	case 'f':
		return cli_format(cli, arg, 1u << FMT_TABLE | 1u << FMT_CSV | 1u << FMT_JSON, &ro->fmt);
	case 'A': ro->all = true; return 0;
	case 'a': {
		sb_period p;
		int rc;
		ro->has_at = true;
		if (sb_time_parse(arg, strlen(arg), 0, &ro->at_ms) == SB_TIME_OK)
			return 0;
		rc = cli_period(cli, arg, &p);
		ro->at_ms = p.from_ms;
		return rc;
	}
	case 'p': ro->plan = arg; return 0;
	case 'm': ro->per_minute = arg; return 0;
	case 'z': ro->free = true; return 0;
	case 'c': ro->per_cpu_second = arg; return 0;
	case 'g': ro->per_gb_second = arg; return 0;
	case 'F': ro->from = arg; return 0;
	case 'n': ro->network = true; return 0;
	case 'P': ro->persistent = true; return 0;
	case 'C': ro->has_min_cpu = true; return cli_int(cli, "--min-cpu", arg, &ro->min_cpu);
	case 'M': ro->has_min_mem = true; return cli_int(cli, "--min-memory-mb", arg, &ro->min_mem);
	case 'R': ro->region = arg; return 0;
	case 'i': ro->input_per_m = arg; return 0;
	case 'o': ro->output_per_m = arg; return 0;
	case 'G': ro->grain_arg = arg; return 0;
	default: return SB_EUSAGE;
	}
}

static const struct option rates_list_options[] = {
	{"format", required_argument, NULL, 'f'},
	{"at", required_argument, NULL, 'a'},
	{"all", no_argument, NULL, 'A'},
	{NULL, 0, NULL, 0},
};

static const struct option rates_set_options[] = {
	{"plan", required_argument, NULL, 'p'},
	{"usd-per-minute", required_argument, NULL, 'm'},
	{"free", no_argument, NULL, 'z'},
	{"usd-per-cpu-second", required_argument, NULL, 'c'},
	{"usd-per-gb-second", required_argument, NULL, 'g'},
	{"from", required_argument, NULL, 'F'},
	{NULL, 0, NULL, 0},
};

static const struct option backends_options[] = {
	{"format", required_argument, NULL, 'f'},
	{"network", no_argument, NULL, 'n'},
	{"persistent", no_argument, NULL, 'P'},
	{"min-cpu", required_argument, NULL, 'C'},
	{"min-memory-mb", required_argument, NULL, 'M'},
	{"region", required_argument, NULL, 'R'},
	{NULL, 0, NULL, 0},
};

static const struct option backends_set_options[] = {
	{"grain", required_argument, NULL, 'G'},
	{NULL, 0, NULL, 0},
};

static const struct option format_options[] = {
	{"format", required_argument, NULL, 'f'},
	{NULL, 0, NULL, 0},
};

static const struct option prices_options[] = {
	{"input-per-m", required_argument, NULL, 'i'},
	{"output-per-m", required_argument, NULL, 'o'},
	{NULL, 0, NULL, 0},
};

/* Parse the running command's options (its row's) and operands: exactly
 * `want` operands (-1: any); the first is ro->arg. */
static int parse_args(sb_cli *cli, int argc, char **argv, rates_opts *ro, int want, int *first)
{
	int rc;

	ro->fmt = FMT_TABLE;
	if ((rc = cli_getopt(cli, argc, argv, cli->cmd->options, on_rates_opt, ro, first)) != 0)
		return rc;
	if (want >= 0 && argc - *first > want)
		return cli_usage(cli, "unexpected argument '%s'", argv[*first + want]);
	if (want >= 0 && argc - *first < want)
		return cli_usage(cli, "missing argument");
	ro->arg = *first < argc ? argv[*first] : NULL;
	return 0;
}

/* rates, backends, prices: their options, no operands. */
static int parse_list(sb_cli *cli, int argc, char **argv, void *opts)
{
	int first = 0;

	return parse_args(cli, argc, argv, opts, 0, &first);
}

/* rates: list the cards in force (or all of them). */
static int run_rates(sb_cli *cli, sb_db *db, void *opts)
{
	static const sb_col cols[] = {
		{"backend", COL_TEXT, 0}, {"plan", COL_TEXT, 0}, {"effective_from", COL_TIME, 0},
		{"usd_per_minute", COL_RATE, 0}, {"usd_per_cpu_second", COL_RATE, 0},
		{"usd_per_gb_second", COL_RATE, 0}, {"free", COL_BOOL, 0},
	};
	const rates_opts *ro = opts;

	return cli_list_stmt(cli, db, ro->fmt, cols, sizeof cols / sizeof cols[0],
	                     sb_rates_list(db, ro->all, ro->has_at ? ro->at_ms : cli_now_ms(), &cli->err));
}

/* rates set BACKEND: the card, checked. */
static int parse_rates_set(sb_cli *cli, int argc, char **argv, void *opts)
{
	rates_opts *ro = opts;
	int first = 0, rc = parse_args(cli, argc, argv, ro, 1, &first);
	sb_err e;

	if (rc != 0)
		return rc;
	if ((ro->per_minute == NULL) == !ro->free)
		return cli_usage(cli, "give either --usd-per-minute X or --free");
	sb_err_clear(&e);
	if (sb_card_from_text(&ro->card, ro->arg, ro->plan, ro->per_minute, ro->free, ro->per_cpu_second,
	                      ro->per_gb_second, ro->from, cli_now_ms(), &e) != SB_OK)
		return cli_usage(cli, "%s", e.msg);
	return 0;
}

/* rates set BACKEND: store the card and reprice the runs it covers. */
static int run_rates_set(sb_cli *cli, sb_db *db, void *opts)
{
	const rates_opts *ro = opts;
	const sb_card *card = &ro->card;
	char when[40], rate[SB_MONEY_BUFSZ];
	int64_t priced = 0;

	if (sb_db_begin(db, &cli->err) == SB_OK &&
	    sb_rates_store_counted(db, card, "set", &priced, &cli->err) == SB_OK &&
	    sb_db_commit(db, &cli->err) == SB_OK)
		cli_info(cli, "rate card: %s%s%s: %s from %s%s (for the runs%s%s started since, until a newer card); "
		         "%lld stored %s repriced%s",
		         card->backend, card->plan[0] ? " plan " : "", card->plan,
		         card->free ? "free" : strcat(sb_money_format(card->per_minute_nanos, 9, rate), " USD per minute"),
		         ro->from == NULL ? "now, " : "", sb_time_format(card->effective_ms, when),
		         card->plan[0] ? " of plan " : "", card->plan, (long long)priced, priced == 1 ? "run" : "runs",
		         ro->from == NULL && priced == 0 ? " (--from DATE reprices the runs started since DATE)" : "");
	else
		sb_db_rollback(db);
	return cli_report(&cli->err);
}

/* rates import FILE, prices set MODEL: no options of their own but the
 * row's, one operand. */
static int parse_one(sb_cli *cli, int argc, char **argv, void *opts)
{
	int first = 0;

	return parse_args(cli, argc, argv, opts, 1, &first);
}

/* rates import FILE: store the cards of a JSON array, all or none. */
static int run_rates_import(sb_cli *cli, sb_db *db, void *opts)
{
	const rates_opts *ro = opts;
	size_t n = 0;
	int64_t priced = 0;

	if (sb_rates_import_file(db, ro->arg, &n, &priced, &cli->err) == SB_OK)
		cli_info(cli, "%s: %zu rate %s stored; %lld stored %s repriced", ro->arg, n,
		         n == 1 ? "card" : "cards", (long long)priced, priced == 1 ? "run" : "runs");
	return cli_report(&cli->err);
}

/* backends: the backends that satisfy the requirements, cheapest first. */
static int run_backends(sb_cli *cli, sb_db *db, void *opts)
{
	static const sb_col cols[] = {
		{"backend", COL_TEXT, 0}, {"free", COL_BOOL, 0}, {"usd_per_minute", COL_RATE, 0},
		{"rate_key", COL_RATE, 0}, {"network", COL_BOOL, 0}, {"persistent", COL_BOOL, 0},
		{"max_cpu", COL_INT, 0}, {"max_memory_mb", COL_INT, 0},
	};
	const rates_opts *ro = opts;
	sb_backend_need need = {cli_now_ms(), ro->network, ro->persistent, ro->has_min_cpu, ro->min_cpu,
	                        ro->has_min_mem, ro->min_mem, ro->region};

	return cli_list_stmt(cli, db, ro->fmt, cols, sizeof cols / sizeof cols[0],
	                     sb_backends_list(db, &need, &cli->err));
}

/* backends set BACKEND: --grain, parsed, and the backend id, checked. */
static int parse_backends_set(sb_cli *cli, int argc, char **argv, void *opts)
{
	rates_opts *ro = opts;
	int first = 0, rc = parse_args(cli, argc, argv, ro, 1, &first);
	sb_err e;

	if (rc != 0)
		return rc;
	if (ro->grain_arg == NULL)
		return cli_usage(cli, "--grain day|month|auto is required");
	sb_err_clear(&e);
	if (sb_grain_parse(ro->grain_arg, &ro->grain, &e) != SB_OK)
		return cli_usage(cli, "--grain: %s", e.msg);
	ro->backend = sb_backend_from_sdk(ro->arg);
	if (!sb_backend_id_valid(ro->backend))
		return cli_usage(cli, "backend %s is not a backend id ([a-z0-9_-], at most 64)",
		                 sb_quote(ro->arg, SB_QUOTE_ALWAYS, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ));
	return 0;
}

/* backends set BACKEND --grain G: store the grain, and say what was set,
 * what it was, and whether the backend's stored results are now stale. */
static int run_backends_set(sb_cli *cli, sb_db *db, void *opts)
{
	const rates_opts *ro = opts;
	sb_grain_change c;
	char run[CLI_INVOKED_MAX];

	if (sb_db_begin(db, &cli->err) != SB_OK || sb_grain_set(db, ro->backend, ro->grain, &c, &cli->err) != SB_OK ||
	    sb_db_commit(db, &cli->err) != SB_OK) {
		sb_db_rollback(db);
		return cli_report(&cli->err);
	}
	if (!c.stored)
		cli_info(cli, "grain: %s: %s (unchanged)", ro->backend, sb_grain_name(ro->grain));
	else if (!c.logged)
		cli_info(cli, "grain: %s: %s (was %s); judged by the %s as before, so no stored result is made stale",
		         ro->backend, sb_grain_name(ro->grain), sb_grain_name(c.was), sb_grain_name(c.judged));
	else
		cli_info(cli, "grain: %s: %s (was %s); its stored results are stale ('%s reconcile --stale' "
		         "judges them again)", ro->backend, sb_grain_name(ro->grain), sb_grain_name(c.was),
		         cli_invoked_words(run, sizeof run));
	return 0;
}

/* prices: list the model price table. */
static int run_prices(sb_cli *cli, sb_db *db, void *opts)
{
	static const sb_col cols[] = {
		{"model", COL_TEXT, 0}, {"input_per_m", COL_RATE, 0}, {"output_per_m", COL_RATE, 0},
		{"updated_at", COL_TIME, 0},
	};
	const rates_opts *ro = opts;

	return cli_list_stmt(cli, db, ro->fmt, cols, sizeof cols / sizeof cols[0], sb_prices_list(db, &cli->err));
}

/* prices set MODEL: both prices, parsed. */
static int parse_prices_set(sb_cli *cli, int argc, char **argv, void *opts)
{
	rates_opts *ro = opts;
	int rc = parse_one(cli, argc, argv, ro);

	if (rc != 0)
		return rc;
	if (ro->input_per_m == NULL || ro->output_per_m == NULL)
		return cli_usage(cli, "give both --input-per-m and --output-per-m");
	if ((rc = cli_money(cli, "--input-per-m", ro->input_per_m, &ro->in_nanos)) != SB_OK ||
	    (rc = cli_money(cli, "--output-per-m", ro->output_per_m, &ro->out_nanos)) != SB_OK)
		return rc;
	return 0;
}

/* prices set MODEL: the model's token prices per million tokens. */
static int run_prices_set(sb_cli *cli, sb_db *db, void *opts)
{
	const rates_opts *ro = opts;

	if (sb_price_set(db, ro->arg, ro->in_nanos, ro->out_nanos, cli_now_ms(), &cli->err) == SB_OK)
		cli_info(cli, "price: %s: %s input, %s output per million tokens", ro->arg,
		         ro->input_per_m, ro->output_per_m);
	return cli_report(&cli->err);
}

const sb_command sb_rates_commands[] = {
	{"rates", parse_list, run_rates, sizeof(rates_opts), CMD_READS | CMD_CSV,
	 "[--at TIME] [--all] [--format table|csv|json] [--raw]",
	 "List the rate cards in force now: per backend and plan the newest card\n"
	 "effective by then, with its rates (USD per minute of command time, per\n"
	 "CPU-second and per GiB-second for metered billing lines; 9 decimals) and\n"
	 "whether the backend is free.  A run is priced with the card of its\n"
	 "backend and plan in force at its start, else its backend's card without\n"
	 "a plan.\n"
	 "\n"
	 "  --at TIME    the cards in force at TIME (a date or an RFC 3339\n"
	 "               timestamp) instead of now\n"
	 "  --all        every card ever stored, with the dates they took effect\n"
	 "  --format F   table (default), csv or json (what 'rates import' reads)\n"
	 "  --raw        CSV: no ' before free text starting with = + - @ tab CR\n",
	 "list the rate cards in force (now, at a time, or all)", rates_list_options,
	 "sbledger rates\n"
	 "sbledger rates --at 2026-11-02T12:00:00Z\n"
	 "sbledger rates --all --format json > cards.json\n"},
	{"rates set", parse_rates_set, run_rates_set, sizeof(rates_opts), CMD_WRITES,
	 "BACKEND [--plan P] (--usd-per-minute X | --free) [--usd-per-cpu-second Y] "
	 "[--usd-per-gb-second Z] [--from DATE]",
	 "Store a rate card for BACKEND (an id, or an SDK client class name such as\n"
	 "E2bSandboxClient), in force from DATE until a newer card of the same\n"
	 "backend and plan, and reprice the card cost of the stored runs it now\n"
	 "covers (runs started since DATE).  It says from when the card applies\n"
	 "and how many runs it repriced.  A card of the same backend, plan and\n"
	 "instant is replaced.  A new backend joins 'sbledger backends'.\n"
	 "\n"
	 "  --plan P                the card of plan P only (runs naming plan P)\n"
	 "  --usd-per-minute X      USD per minute of command time (an exact decimal)\n"
	 "  --free                  the backend costs nothing (instead of a rate)\n"
	 "  --usd-per-cpu-second Y  USD per vCPU-second, for metered billing lines\n"
	 "  --usd-per-gb-second Z   USD per GiB-second of memory, for metered lines\n"
	 "  --from DATE             in force from DATE (a date, its midnight UTC, or\n"
	 "                          an RFC 3339 timestamp); default now, so that\n"
	 "                          past runs keep their price\n",
	 "store a rate card and reprice the stored runs it covers", rates_set_options,
	 "sbledger rates set e2b --usd-per-minute 0.07 --from 2026-12-01\n"
	 "sbledger rates set e2b --plan gpu --usd-per-minute 0.6\n"
	 "sbledger rates set e2b --usd-per-minute 0.06 --usd-per-cpu-second 0.000014 --usd-per-gb-second 0.0000045 --from 1970-01-01\n"
	 "sbledger rates set ModalSandboxClient --free --from 2026-11-04\n"},
	{"rates import", parse_one, run_rates_import, sizeof(rates_opts), CMD_WRITES, "FILE",
	 "Store the rate cards of FILE, a JSON array of objects, all of them or\n"
	 "none (one bad card stores nothing), repricing the runs they cover as\n"
	 "'rates set' does.  A card has the fields of 'rates set': backend\n"
	 "(required), plan, usd_per_minute or free (true), usd_per_cpu_second,\n"
	 "usd_per_gb_second (decimal strings or numbers), and from (or\n"
	 "effective_from, as 'rates --format json' prints it; default now).  A key\n"
	 "it does not know is refused, naming it and the card ([0] is the first),\n"
	 "so that a misspelt \"form\" does not silently leave a card in force\n"
	 "from now.\n",
	 "store the rate cards of a JSON file, all or none", NULL,
	 "sbledger rates import cards.json\n"
	 "sbledger --db copy.db rates import cards.json   # what 'rates --all --format json' wrote\n"},
	{"backends", parse_list, run_backends, sizeof(rates_opts), CMD_READS | CMD_CSV,
	 "[--network] [--persistent] [--min-cpu N] [--min-memory-mb N] [--region R] "
	 "[--format table|csv|json] [--raw]",
	 "List the backends whose capabilities satisfy the requirements, cheapest\n"
	 "first by rate_key (0 for a free backend, else its usd_per_minute now;\n"
	 "ties by name).  A requirement on a capability the ledger does not know\n"
	 "(the seeded backends' CPU, memory and regions) is not satisfied, as in\n"
	 "the SDK.\n"
	 "\n"
	 "  --network          only backends that give the sandbox network access\n"
	 "  --persistent       only backends whose sandboxes keep their files\n"
	 "  --min-cpu N        at least N vCPUs\n"
	 "  --min-memory-mb N  at least N MB of memory\n"
	 "  --region R         only backends offering region R\n"
	 "  --format F         table (default), csv or json\n"
	 "  --raw              CSV: no ' before free text starting with = + - @ tab CR\n",
	 "list the backends that satisfy requirements, cheapest first", backends_options,
	 "sbledger backends\n"
	 "sbledger backends --network --persistent\n"
	 "sbledger backends --min-cpu 8 --format json\n"},
	{"backends set", parse_backends_set, run_backends_set, sizeof(rates_opts), CMD_WRITES,
	 "BACKEND --grain day|month|auto",
	 "Set the grain BACKEND (an id, or an SDK client class name) is billed at:\n"
	 "month judges it on whole calendar months (on any other period its status\n"
	 "is partial, never flagged), day by the day; auto (the default) is month\n"
	 "when its account-level lines of the latest month that has any all span\n"
	 "that whole month, else day.  deepinfra is seeded month.  A setting that\n"
	 "moves the grain the backend is judged at makes its stored results stale:\n"
	 "'reconcile --stale' (or the next nightly) judges them again.  The same\n"
	 "setting again, or one that leaves the grain as it was judged (auto where\n"
	 "its lines say day, and day), changes nothing that was judged.  It says\n"
	 "what was set and what it was.\n"
	 "\n"
	 "  --grain G   day, month or auto (required)\n",
	 "set the grain a backend is billed at (day, month, auto)", backends_set_options,
	 "sbledger backends set deepinfra --grain auto\n"
	 "sbledger backends set modal --grain month\n"},
	{"prices", parse_list, run_prices, sizeof(rates_opts), CMD_READS | CMD_CSV,
	 "[--format table|csv|json] [--raw]",
	 "List the model price table: USD per million input and output tokens\n"
	 "(9 decimals), with when each was set.  Token costs in reports and\n"
	 "invoices come from it; a model without a price is never priced as 0.\n"
	 "\n"
	 "  --format F   table (default), csv or json\n"
	 "  --raw        CSV: no ' before free text starting with = + - @ tab CR\n",
	 "list the model price table (USD per million tokens)", format_options,
	 "sbledger prices\n"
	 "sbledger prices --format csv\n"},
	{"prices set", parse_prices_set, run_prices_set, sizeof(rates_opts), CMD_WRITES,
	 "MODEL --input-per-m X --output-per-m Y",
	 "Set the price of MODEL's tokens, replacing its old price: USD per\n"
	 "million input and output tokens, exact decimals >= 0.\n"
	 "\n"
	 "  --input-per-m X    USD per million input tokens (required)\n"
	 "  --output-per-m Y   USD per million output tokens (required)\n",
	 "set the price of a model's tokens", prices_options,
	 "sbledger prices set gpt-5.6-terra --input-per-m 1.25 --output-per-m 10\n"
	 "sbledger prices set claude-x-mini --input-per-m 0.80 --output-per-m 4\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
