/* cmd_reconcile.c: reconcile (and reconcile --stale), reconciliations,
 * tolerance, tolerance set, report drift. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/judged.h"
#include "cli/out.h"
#include "cli/words.h"
#include "importers/runs_jsonl.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "nightly/nightly.h"
#include "reconcile/recon_detail.h"
#include "reconcile/reconcile.h"
#include "report/recon_json.h"
#include "report/recon_out.h"
#include "report/recon_page.h"

/* Options of the reconciliation commands. */
typedef struct recon_cli {
	sb_format fmt;           /* --format */
	unsigned formats;        /* the formats the command takes (1 << FMT_*) */
	bool has_period;         /* --period given */
	sb_recon_opts o;         /* what to reconcile */
	bool has_abs, has_rel;   /* --abs-tol, --rel-tol given */
	bool dry_run;            /* --dry-run */
	bool fail_on_drift;      /* --fail-on-drift */
	bool by_period;          /* report drift --by period (else --by day) */
	bool stale;              /* reconcile --stale */
	bool has_catch_up;       /* --catch-up given */
	int64_t catch_up;        /* --catch-up DAYS */
	bool has_format;         /* --format given */
	const char *backend;     /* tolerance set: the backend id */
} recon_cli;

/* Parse a relative tolerance ("0.05") into parts per 10^9. */
static int rel_tol(sb_cli *cli, const char *arg, int64_t *ppb)
{
	return cli_money(cli, "--rel-tol", arg, ppb);
}

/* Handle one option. */
static int on_recon_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	recon_cli *rc = ctx;

	switch (val) {
	case 'f':
		rc->has_format = true;
		return cli_format(cli, arg, rc->formats, &rc->fmt);
	case 'S': rc->stale = true; return 0;
	case 'c':
		rc->has_catch_up = true;
		return cli_catch_up(cli, arg, &rc->catch_up);
	case 'p':
		rc->has_period = true;
		return cli_period(cli, arg, &rc->o.period);
	case 'a':
		rc->has_abs = true;
		return cli_money(cli, "--abs-tol", arg, &rc->o.abs_nanos);
	case 'r':
		rc->has_rel = true;
		return rel_tol(cli, arg, &rc->o.rel_ppb);
	case 'l':
		rc->o.has_lag = true;
		return cli_duration(cli, "--billing-lag", arg, &rc->o.billing_lag_ms);
	case 'd': rc->dry_run = true; return 0;
	case 'F': rc->fail_on_drift = true; return 0;
	case 's': rc->o.all_sessions = true; return 0;
	case 'b':
		if (strcmp(arg, "day") != 0 && strcmp(arg, "period") != 0)
			return cli_usage(cli, "--by '%s' is not one of day, period", arg);
		rc->by_period = strcmp(arg, "period") == 0;
		return 0;
	default:
		return SB_EUSAGE;
	}
}

/* The options of reconcile; each other command takes its own subset. */
static const struct option recon_options[] = {
	{"format", required_argument, NULL, 'f'},
	{"period", required_argument, NULL, 'p'},
	{"abs-tol", required_argument, NULL, 'a'},
	{"rel-tol", required_argument, NULL, 'r'},
	{"billing-lag", required_argument, NULL, 'l'},
	{"dry-run", no_argument, NULL, 'd'},
	{"fail-on-drift", no_argument, NULL, 'F'},
	{"all-sessions", no_argument, NULL, 's'},
	{"stale", no_argument, NULL, 'S'},
	{"catch-up", required_argument, NULL, 'c'},
	{NULL, 0, NULL, 0},
};

static const struct option format_options[] = {
	{"format", required_argument, NULL, 'f'},
	{NULL, 0, NULL, 0},
};

static const struct option drift_options[] = {
	{"period", required_argument, NULL, 'p'},
	{"by", required_argument, NULL, 'b'},
	{"format", required_argument, NULL, 'f'},
	{NULL, 0, NULL, 0},
};

static const struct option tolerance_set_options[] = {
	{"abs-tol", required_argument, NULL, 'a'},
	{"rel-tol", required_argument, NULL, 'r'},
	{NULL, 0, NULL, 0},
};

/* The formats of the listings, and those of reconcile and report drift. */
#define LIST_FORMATS (1u << FMT_TABLE | 1u << FMT_CSV | 1u << FMT_JSON)
#define RECON_FORMATS (1u << FMT_TABLE | 1u << FMT_JSON | 1u << FMT_HTML)
#define DRIFT_FORMATS (LIST_FORMATS | 1u << FMT_HTML)

/* Parse the options of the running command (its table row's), --format
 * one of `formats`; refuse operands beyond `want`. */
static int parse_args(sb_cli *cli, int argc, char **argv, recon_cli *rc, unsigned formats, int want,
                      int *first)
{
	int status;

	rc->fmt = FMT_TABLE;
	rc->formats = formats;
	rc->o.abs_nanos = SB_DEFAULT_ABS_NANOS;
	rc->o.rel_ppb = SB_DEFAULT_REL_PPB;
	if ((status = cli_getopt(cli, argc, argv, cli->cmd->options, on_recon_opt, rc, first)) != 0)
		return status;
	if (argc - *first > want)
		return cli_usage(cli, "unexpected argument '%s'", argv[*first + want]);
	if (argc - *first < want)
		return cli_usage(cli, "missing argument");
	return 0;
}

/* reconcile: its options; --period is required.  It writes the result
 * (the write lock taken), but with --dry-run it only reads. */
static int parse_reconcile(sb_cli *cli, int argc, char **argv, void *opts)
{
	recon_cli *rc = opts;
	int first = 0, status = parse_args(cli, argc, argv, rc, RECON_FORMATS, 0, &first);

	if (status != 0)
		return status;
	if (rc->stale) {
		/* each stale result is judged again over its own period, as a
		 * night judges it: the default tolerances, stored, in words */
		if (rc->has_period)
			return cli_usage(cli, "--stale judges each stale result over its own period: give --period or --stale, not both");
		if (rc->has_abs || rc->has_rel)
			return cli_usage(cli, "--stale judges with the default tolerances, as nightly does (per backend: 'tolerance set')");
		if (rc->dry_run)
			return cli_usage(cli, "--stale stores what it judges (a --dry-run of one period: --period P --dry-run)");
		if (rc->o.all_sessions || (rc->has_format && rc->fmt != FMT_TABLE))
			return cli_usage(cli, "--stale prints what moved, in words: it takes no --all-sessions or --format");
		return 0;
	}
	if (rc->has_catch_up)
		return cli_usage(cli, "--catch-up DAYS goes with --stale");
	if (!rc->has_period)
		return cli_usage(cli, "--period is required (yesterday, 2026-11, FROM..TO, ...), or --stale");
	if (rc->dry_run)
		cli->ledger = CMD_READS;
	return 0;
}

/* reconcile --stale: judge again every stale stored result (within
 * --catch-up days when given), and say per period what moved. */
static int run_reconcile_stale(sb_cli *cli, sb_db *db, const recon_cli *rc)
{
	int64_t since = rc->has_catch_up ? sb_day_start(cli_now_ms()) - rc->catch_up * SB_MS_PER_DAY : INT64_MIN;
	int64_t lag = rc->o.has_lag ? rc->o.billing_lag_ms : SB_DEFAULT_LAG_MS;
	sb_nightly_result res;
	char name[96], run[CLI_INVOKED_MAX];
	size_t judged = 0;
	int status = sb_nightly_judge_stale(db, since, lag, rc->fail_on_drift, &res, &cli->err);

	for (size_t i = 0; i < res.n_judged; i++) {
		const sb_nightly_judged *j = &res.judged[i];
		if (j->r == NULL)
			continue;
		judged++;
		for (size_t k = 0; k < j->n_changes; k++)
			cli_print_change(&j->period, &j->changes[k]);
		printf("%s: stored as reconciliation %lld, replacing %lld%s; %lld backend%s, %lld session%s flagged\n",
		       sb_period_name(&j->period, name), (long long)j->r->recon_id, (long long)j->prev_id,
		       j->n_changes == 0 ? " (nothing moved)" : "", (long long)j->r->flagged_backends,
		       j->r->flagged_backends == 1 ? "" : "s", (long long)j->r->flagged_sessions,
		       j->r->flagged_sessions == 1 ? "" : "s");
	}
	if (cli->err.code != SB_OK) {
		sb_nightly_result_free(&res);
		return cli_report(&cli->err);
	}
	if (res.stale_older > 0)   /* older than the reach: named, with its way out */
		printf("%zu stale result%s older than --catch-up %lld days; judge %s again: %s reconcile --stale\n",
		       res.stale_older, res.stale_older == 1 ? "" : "s", (long long)rc->catch_up,
		       res.stale_older == 1 ? "it" : "them", cli_invoked_words(run, sizeof run));
	if (res.n_judged == 0 && rc->has_catch_up)
		printf("nothing stale within --catch-up %lld days\n", (long long)rc->catch_up);
	else if (res.n_judged == 0)
		printf("nothing stale: every stored result is current\n");
	else
		printf("%zu stale result%s judged again%s%s%s\n", judged, judged == 1 ? "" : "s",
		       res.open_judged ? "; open flags: '" : "", res.open_judged ? cli_invoked_words(run, sizeof run) : "",
		       res.open_judged ? " flags --open' lists them" : "");
	sb_nightly_result_free(&res);
	return status;
}

/* Store r with its JSON text (rendered first: the ledger keeps the result
 * as 'reconcile --format json' prints it). */
static int store(sb_db *db, sb_recon *r, sb_err *e)
{
	char *text = sb_recon_json_text(r, JSON_COMPACT);
	int rc = sb_recon_store(db, r, text, NULL, e);

	free(text);
	return rc;
}

/* reconcile: computed against billed for a period. */
static int run_reconcile(sb_cli *cli, sb_db *db, void *opts)
{
	const recon_cli *rc = opts;
	sb_recon *r = NULL;
	int status;

	if (rc->stale)
		return run_reconcile_stale(cli, db, rc);
	if (sb_reconcile(db, &rc->o, &r, &cli->err) != SB_OK || (!rc->dry_run && store(db, r, &cli->err) != SB_OK)) {
		sb_recon_free(r);
		return cli_report(&cli->err);
	}
	if (rc->fmt == FMT_HTML) {
		sb_page_opts po = {&cli->invoked, cli_now_ms(), NULL, NULL};
		sb_recon_detail *d = NULL;
		/* (a page stdout could not take is main's to report, as every output) */
		if (sb_recon_detail_load(db, r, &d, &cli->err) != SB_OK ||
		    (sb_recon_page(stdout, r, d, &po, &cli->err) != SB_OK && cli->err.code != SB_EIO)) {
			sb_recon_detail_free(d);
			sb_recon_free(r);
			return cli_report(&cli->err);
		}
		sb_recon_detail_free(d);
	} else if (sb_report_recon(stdout, rc->fmt, r, &cli->invoked, &cli->err) != SB_OK) {
		if (r->recon_id > 0) {
			size_t len = strlen(cli->err.msg);
			char run[CLI_INVOKED_MAX];
			snprintf(cli->err.msg + len, sizeof cli->err.msg - len,
			         " (it was stored: see '%s reconciliations')", cli_invoked_words(run, sizeof run));
		}
		sb_recon_free(r);
		return cli_report(&cli->err);
	}
	if (rc->fmt == FMT_TABLE && r->recon_id > 0)
		printf("stored as reconciliation %lld\n", (long long)r->recon_id);
	status = rc->fail_on_drift && r->flagged > 0 ? SB_FLAGGED : 0;
	sb_recon_free(r);
	return status;
}

/* reconciliations and tolerance: their options, no operands. */
static int parse_list(sb_cli *cli, int argc, char **argv, void *opts)
{
	int first = 0;

	return parse_args(cli, argc, argv, opts, LIST_FORMATS, 0, &first);
}

/* qsort: ids in ascending order. */
static int by_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* reconciliations: list the stored reconciliations, each with the
 * result that replaced it and whether it is stale (sb_nightly_stale). */
static int run_reconciliations(sb_cli *cli, sb_db *db, void *opts)
{
	static const sb_col cols[] = {
		{"reconciliation", COL_INT, 0}, {"created_at", COL_TIME, 0}, {"from", COL_TIME, 0},
		{"to", COL_TIME, 0}, {"abs_tol_usd", COL_RATE, 0}, {"rel_tol", COL_RATE, 0},
		{"backends", COL_INT, 0}, {"flagged", COL_INT, 0}, {"flagged_backends", COL_INT, 0},
		{"flagged_sessions", COL_INT, 0}, {"replaced_by", COL_INT, 0}, {"stale", COL_BOOL, 0},
	};
	const size_t n_cols = sizeof cols / sizeof cols[0];
	const recon_cli *rc = opts;
	int64_t *stale = NULL;
	size_t n_stale = 0, next = 0;
	sb_stmt *st = NULL;
	sb_out *o = NULL;

	if (sb_nightly_stale(db, INT64_MIN, &stale, &n_stale, &cli->err) != SB_OK ||
	    (st = sb_db_stmt(db, "recon_list", &cli->err)) == NULL)
		goto out;
	if ((o = sb_out_new(stdout, rc->fmt, cli->csv_raw, cols, n_cols)) == NULL) {
		sb_fail(&cli->err, SB_EINTERNAL, "out of memory");
		goto out;
	}
	/* both in order of their ids */
	if (n_stale > 1)
		qsort(stale, n_stale, sizeof stale[0], by_id);
	while (sb_db_step(db, st, &cli->err) == SB_ROW) {
		int64_t id = sb_col_i64(st, 0);
		while (next < n_stale && stale[next] < id)
			next++;
		sb_out_stmt_cells(o, st, n_cols - 1);
		sb_out_bool(o, next < n_stale && stale[next] == id);
		sb_out_row(o);
	}
	sb_out_end(o, &cli->err);
out:
	if (st != NULL)
		sb_stmt_reset(st);
	free(stale);
	return cli_report(&cli->err);
}

/* Bind the period of report drift and whether only daily results count. */
static void bind_drift(sb_db *db, sb_stmt *st, const void *ctx)
{
	const recon_cli *rc = ctx;

	sb_bind_i64(db, st, ":from_ms", rc->o.period.from_ms);
	sb_bind_i64(db, st, ":to_ms", rc->o.period.to_ms);
	sb_bind_i64(db, st, ":daily", !rc->by_period);
}

/* report drift: its options; --period is required. */
static int parse_report_drift(sb_cli *cli, int argc, char **argv, void *opts)
{
	recon_cli *rc = opts;
	int first = 0, status = parse_args(cli, argc, argv, rc, DRIFT_FORMATS, 0, &first);

	if (status != 0)
		return status;
	if (!rc->has_period)
		return cli_usage(cli, "--period is required");
	if (rc->fmt == FMT_HTML && rc->by_period)
		return cli_usage(cli, "--format html draws the drift per day: it takes --by day only");
	return 0;
}

/* report drift: drift per backend over time, from stored reconciliations. */
static int run_report_drift(sb_cli *cli, sb_db *db, void *opts)
{
	static const sb_col cols[] = {
		{"from", COL_TIME, 0}, {"to", COL_TIME, 0}, {"backend", COL_TEXT, 0},
		{"status", COL_TEXT, 0}, {"computed_usd", COL_MONEY, 0}, {"billed_usd", COL_MONEY, 0},
		{"drift_usd", COL_MONEY, 0}, {"reconciliation", COL_INT, 0},
	};
	const recon_cli *rc = opts;
	sb_page_opts po = {&cli->invoked, cli_now_ms(), NULL, NULL};
	sb_trend *t = NULL;

	if (rc->fmt != FMT_HTML)
		return cli_list(cli, db, rc->fmt, cols, sizeof cols / sizeof cols[0], "recon_drift", bind_drift, rc);
	if (sb_trend_load(db, &rc->o.period, &t, &cli->err) != SB_OK ||
	    (sb_drift_page(stdout, t, &po, &cli->err) != SB_OK && cli->err.code != SB_EIO)) {
		sb_trend_free(t);
		return cli_report(&cli->err);
	}
	sb_trend_free(t);
	return 0;
}

/* tolerance set BACKEND: both tolerances and the backend, checked. */
static int parse_tolerance_set(sb_cli *cli, int argc, char **argv, void *opts)
{
	recon_cli *rc = opts;
	int first = 0, status = parse_args(cli, argc, argv, rc, LIST_FORMATS, 1, &first);

	if (status != 0)
		return status;
	if (!rc->has_abs || !rc->has_rel)
		return cli_usage(cli, "give both --abs-tol X and --rel-tol Y");
	rc->backend = sb_backend_from_sdk(argv[first]);
	if (!sb_backend_id_valid(rc->backend))
		return cli_usage(cli, "'%s' is not a backend id", argv[first]);
	return 0;
}

/* tolerance set BACKEND: per-backend tolerances. */
static int run_tolerance_set(sb_cli *cli, sb_db *db, void *opts)
{
	const recon_cli *rc = opts;
	char abs[SB_MONEY_BUFSZ], rel[SB_MONEY_BUFSZ];

	if (sb_tolerance_set(db, rc->backend, rc->o.abs_nanos, rc->o.rel_ppb, &cli->err) != SB_OK)
		return cli_report(&cli->err);
	cli_info(cli, "tolerance: %s: drift flagged above %s USD and %s of computed", rc->backend,
	         sb_money_format(rc->o.abs_nanos, 9, abs), sb_money_format(rc->o.rel_ppb, 9, rel));
	return 0;
}

/* tolerance: list per-backend tolerances. */
static int run_tolerance(sb_cli *cli, sb_db *db, void *opts)
{
	static const sb_col cols[] = {
		{"backend", COL_TEXT, 0}, {"abs_tol_usd", COL_RATE, 0}, {"rel_tol", COL_RATE, 0},
		{"updated_at", COL_TIME, 0},
	};
	const recon_cli *rc = opts;

	return cli_list(cli, db, rc->fmt, cols, sizeof cols / sizeof cols[0], "tolerance_all", NULL, NULL);
}

const sb_command sb_reconcile_commands[] = {
	{"reconcile", parse_reconcile, run_reconcile, sizeof(recon_cli), CMD_WRITES,
	 "(--period P | --stale [--catch-up DAYS]) [--abs-tol X] [--rel-tol Y] [--billing-lag D]"
	 " [--all-sessions] [--dry-run] [--fail-on-drift] [--format table|json|html]",
	 "Reconcile computed (the runs' own estimate) against billed (the providers'\n"
	 "lines) per backend and per session for period P, explain the drift, and\n"
	 "store the result (not with --dry-run).  A backend billed on days or hours\n"
	 "off the UTC edges (Vercel's Pacific days) is judged over the window of its\n"
	 "own days that the period starts and ends in, its runs too.  Drift is\n"
	 "billed - computed; it is flagged above max(--abs-tol, --rel-tol x\n"
	 "computed), compared exactly, defaults 0.01 USD and 0.05; 'tolerance set'\n"
	 "overrides them per backend.  Each backend gets a status (ok, over_billed,\n"
	 "under_billed, unbilled, unexpected, partial, currency, no_rate, pending:\n"
	 "its window has not ended yet, judged again later) and, when its drift is\n"
	 "flagged, a verdict (lifetime: the provider bills session life, idle\n"
	 "included; rate: the card is out of date; unexplained).  Flagged:\n"
	 "over_billed, under_billed, unexpected, partial, currency, no_rate, and\n"
	 "unbilled past the billing lag; pending never.  The table lists flagged\n"
	 "backends first, then the others that are not ok, then what each result\n"
	 "means in words, then the sessions that are not ok; see docs/reconcile.md.\n"
	 "\n"
	 "With --stale, every stale stored result (the latest of its period, which\n"
	 "something committed since moves: a run, a line, a rate card, a price, an\n"
	 "exchange rate, a tolerance, a grain) is judged again by hand as nightly\n"
	 "judges it (its own period, the default tolerances), oldest first, each\n"
	 "stored naming the result it replaces; it prints what moved per period\n"
	 "('2026-11-03 blaxel: unbilled -> ok (bill of 0.645082 in batch 12)'), and\n"
	 "says so when nothing is stale.  No age limit unless --catch-up.\n"
	 "\n"
	 "  --period P        the period to reconcile (required)\n"
	 "  --abs-tol X       the absolute tolerance in USD (default 0.01)\n"
	 "  --rel-tol Y       the relative tolerance, 0.05 is 5% (default 0.05)\n"
	 "  --billing-lag D   a backend with runs and no bill is flagged unbilled once\n"
	 "                    its window ended more than D ago (default 72h; 3d, 90m)\n"
	 "  --all-sessions    list every session, not only those that are not ok\n"
	 "  --dry-run         do not store the result (and take no write lock)\n"
	 "  --fail-on-drift   exit 1 when a backend or session is flagged (--stale: when\n"
	 "                    a result it stored has an open flag, as nightly)\n"
	 "  --stale           judge again every stale stored result (see above)\n"
	 "  --catch-up DAYS   --stale: only the results of periods ending within DAYS\n"
	 "                    days before today (nightly's reach); default no limit\n"
	 "  --format F        table (default), json, or html: the reconciliation page\n"
	 "                    (verdict, money at stake, backends, chart, flagged\n"
	 "                    sessions, 30-day drift trend; docs/reports.md)\n",
	 "reconcile computed against billed for a period", recon_options,
	 "sbledger reconcile --period yesterday --fail-on-drift\n"
	 "sbledger reconcile --period 2026-11 --dry-run --format json\n"
	 "sbledger reconcile --period 2026-11 --billing-lag 5d\n"
	 "sbledger reconcile --period 2026-11-29 --abs-tol 0.05 --rel-tol 0.10 --all-sessions\n"
	 "sbledger reconcile --period yesterday --dry-run --format html > reconcile.html\n"
	 "sbledger reconcile --stale --fail-on-drift\n"
	 "sbledger reconcile --stale --catch-up 35\n"},
	{"reconciliations", parse_list, run_reconciliations, sizeof(recon_cli), CMD_READS | CMD_CSV,
	 "[--format table|csv|json] [--raw]",
	 "List the stored reconciliations, oldest first: when each was made, its\n"
	 "period, its tolerances, how many backends it judged and how many it\n"
	 "flagged, the result that replaced it once it was judged again\n"
	 "(replaced_by), and whether it is stale: the latest result of its period,\n"
	 "which something committed since moves (what 'reconcile --stale' and\n"
	 "nightly judge again).  A replaced result is history, never stale.\n"
	 "\n"
	 "  --format F   table (default), csv or json\n"
	 "  --raw        CSV: no ' before free text starting with = + - @ tab CR\n",
	 "list the stored reconciliations", format_options,
	 "sbledger reconciliations\n"
	 "sbledger reconciliations --format json\n"},
	{"report drift", parse_report_drift, run_report_drift, sizeof(recon_cli), CMD_READS | CMD_CSV,
	 "--period P [--by day|period] [--format table|csv|json|html] [--raw]",
	 "Drift per backend over time, from the stored reconciliations whose period\n"
	 "lies inside P (the latest one of each period): computed, billed and drift\n"
	 "of each backend, period by period.\n"
	 "\n"
	 "  --period P    the reconciled periods lying inside P (required)\n"
	 "  --by day      only the reconciliations of one UTC day each (default)\n"
	 "  --by period   the reconciliations of every period (months, spans...)\n"
	 "  --format F    table (default), csv, json, or html: a page with the\n"
	 "                drift per day as a line chart per backend (--by day)\n"
	 "  --raw         CSV: no ' before free text starting with = + - @ tab CR\n",
	 "drift per backend over time, from stored reconciliations", drift_options,
	 "sbledger report drift --period 2026-11\n"
	 "sbledger report drift --period 2026 --by period --format csv\n"
	 "sbledger report drift --period 2026-11 --format html > drift.html\n"},
	{"tolerance", parse_list, run_tolerance, sizeof(recon_cli), CMD_READS | CMD_CSV,
	 "[--format table|csv|json] [--raw]",
	 "List the per-backend drift tolerances that 'tolerance set' stored (the\n"
	 "other backends use the defaults of reconcile).\n"
	 "\n"
	 "  --format F   table (default), csv or json\n"
	 "  --raw        CSV: no ' before free text starting with = + - @ tab CR\n",
	 "list the per-backend drift tolerances", format_options,
	 "sbledger tolerance\n"
	 "sbledger tolerance --format json\n"},
	{"tolerance set", parse_tolerance_set, run_tolerance_set, sizeof(recon_cli), CMD_WRITES,
	 "BACKEND --abs-tol X --rel-tol Y",
	 "Set the drift tolerance of BACKEND (an id or an SDK client class name),\n"
	 "used by reconcile and nightly instead of the defaults; drift is flagged\n"
	 "above max(X, Y x computed).\n"
	 "\n"
	 "  --abs-tol X   absolute, in USD (required)\n"
	 "  --rel-tol Y   relative: 0.05 is 5% of computed (required)\n",
	 "set the drift tolerance of a backend", tolerance_set_options,
	 "sbledger tolerance set modal --abs-tol 0.05 --rel-tol 0.10\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
