/* cmd_reconcile.c: reconcile, reconciliations, tolerance, tolerance set,
 * report drift. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/out.h"
#include "importers/runs_jsonl.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "reconcile/reconcile.h"

/* Options of the reconciliation commands. */
typedef struct recon_cli {
	sb_format fmt;           /* --format */
	bool has_period;         /* --period given */
	sb_recon_opts o;         /* what to reconcile */
	bool has_abs, has_rel;   /* --abs-tol, --rel-tol given */
	bool dry_run;            /* --dry-run */
	bool fail_on_drift;      /* --fail-on-drift */
	bool by_period;          /* report drift --by period (else --by day) */
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
		return cli_format(cli, arg, 1u << FMT_TABLE | 1u << FMT_CSV | 1u << FMT_JSON, &rc->fmt);
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

/* Parse the options of the running command (its table row's); refuse
 * operands beyond `want`. */
static int parse_args(sb_cli *cli, int argc, char **argv, recon_cli *rc, int want, int *first)
{
	int status;

	rc->fmt = FMT_TABLE;
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

/* A billing lag for a sentence: "72 h", "90 min", "45 s". */
static const char *lag_text(int64_t ms, char buf[40])
{
	if (ms % 3600000 == 0)
		snprintf(buf, 40, "%lld h", (long long)(ms / 3600000));
	else if (ms % 60000 == 0)
		snprintf(buf, 40, "%lld min", (long long)(ms / 60000));
	else
		snprintf(buf, 40, "%lld s", (long long)(ms / 1000));
	return buf;
}

/* "N backends, M sessions flagged" (singular for one) into buf. */
static const char *flag_counts(const sb_recon *r, char buf[96])
{
	snprintf(buf, 96, "%lld backend%s, %lld session%s flagged", (long long)r->flagged_backends,
	         r->flagged_backends == 1 ? "" : "s", (long long)r->flagged_sessions,
	         r->flagged_sessions == 1 ? "" : "s");
	return buf;
}

/* The flagged cell of a backend: "yes", "yes, 2 sessions", "2 sessions",
 * or "-". */
static const char *flag_cell(const sb_recon_backend *b, char buf[64])
{
	if (b->sessions_flagged == 0)
		return b->flagged ? "yes" : "-";
	snprintf(buf, 64, "%s%lld session%s", b->flagged ? "yes, " : "", (long long)b->sessions_flagged,
	         b->sessions_flagged == 1 ? "" : "s");
	return buf;
}

/* One backend row of the table. */
static void out_backend(sb_out *o, const sb_recon_backend *b)
{
	char rel[SB_MONEY_BUFSZ], flag[64];

	sb_out_text(o, b->backend);
	sb_out_text(o, sb_recon_status_name(b->status));
	sb_out_text(o, flag_cell(b, flag));
	sb_out_text(o, b->basis != SB_RBASIS_NONE ? sb_recon_basis_name(b->basis) : "-");
	sb_out_int(o, b->runs);
	sb_out_money(o, b->computed_nanos);
	if (b->has_billed)
		sb_out_money(o, b->billed_nanos);
	else
		sb_out_null(o);
	if (b->has_drift)
		sb_out_money(o, b->drift_nanos);
	else
		sb_out_null(o);
	if (b->has_drift_rel && b->drift_rel_micro < INT64_MAX / 100000 && b->drift_rel_micro > INT64_MIN / 100000) {
		sb_money_format(b->drift_rel_micro * 100000, 2, rel);
		strcat(rel, "%");
		sb_out_text(o, rel);
	} else {
		sb_out_null(o);
	}
	sb_out_text(o, b->explain.verdict != SB_VERDICT_NONE ? sb_verdict_name(b->explain.verdict) : "-");
	sb_out_row(o);
}

/* The order of backends in the table: flagged (or with flagged
 * sessions), then the others not ok (pending, unbilled not yet flagged),
 * then ok. */
static int table_rank(const sb_recon_backend *b)
{
	if (b->flagged || b->sessions_flagged > 0)
		return 0;
	return b->status != SB_STATUS_OK ? 1 : 2;
}

/* Print the reconciliation as a table, then the windows and what each
 * backend's result means, then the listed sessions and the counts. */
static void print_table(const sb_recon *r)
{
	static const sb_col cols[] = {
		{"backend", COL_TEXT, 0}, {"status", COL_TEXT, 0}, {"flagged", COL_TEXT, 0},
		{"basis", COL_TEXT, 0}, {"runs", COL_INT, 0}, {"computed_usd", COL_MONEY, 0},
		{"billed_usd", COL_MONEY, 0}, {"drift_usd", COL_MONEY, 0}, {"drift", COL_NUMBER, 0},
		{"verdict", COL_TEXT, 0},
	};
	static const sb_col scols[] = {
		{"backend", COL_TEXT, 0}, {"session", COL_TEXT, 40}, {"status", COL_TEXT, 0},
		{"flagged", COL_TEXT, 0}, {"runs", COL_INT, 0}, {"computed_usd", COL_MONEY, 0},
		{"billed_usd", COL_MONEY, 0}, {"drift_usd", COL_MONEY, 0},
	};
	const sb_period *p = &r->opts.period;
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ], abs[SB_MONEY_BUFSZ], rel[SB_MONEY_BUFSZ];
	char at[SB_TIME_BUFSZ], lag[40], counts[96], text[1024];
	bool first;
	sb_out *o;

	printf("period %s .. %s, judged at %s; drift flagged above %s USD and %s%% of computed; "
	       "a missing bill flagged %s after its window ends\n\n",
	       sb_time_format(p->from_ms, from), sb_time_format(p->to_ms, to),
	       sb_time_format(r->opts.now_ms, at), sb_money_format(r->opts.abs_nanos, 2, abs),
	       sb_money_format(r->opts.rel_ppb * 100, 2, rel), lag_text(r->opts.billing_lag_ms, lag));
	if (r->n_backends == 0) {
		puts("no runs and no billing lines in the period");
		return;
	}
	o = sb_out_new(FMT_TABLE, cols, sizeof cols / sizeof cols[0]);
	for (int rank = 0; rank < 3; rank++)
		for (size_t i = 0; i < r->n_backends; i++)
			if (table_rank(&r->backends[i]) == rank)
				out_backend(o, &r->backends[i]);
	sb_out_end(o);
	first = true;
	for (size_t i = 0; i < r->n_backends; i++) {
		const sb_recon_backend *b = &r->backends[i];
		if (b->window.from_ms == p->from_ms && b->window.to_ms == p->to_ms)
			continue;
		printf("%s  %s: judged over %s .. %s, the %s its account-level lines are billed in (its runs "
		       "over the same window)\n", first ? "\n" : "", b->backend,
		       sb_time_format(b->window.from_ms, from), sb_time_format(b->window.to_ms, to),
		       b->grid_ms == SB_GRID_HOUR_MS ? "hours" : "days");
		first = false;
	}
	first = true;
	for (int rank = 0; rank < 3; rank++)
		for (size_t i = 0; i < r->n_backends; i++) {
			const sb_recon_backend *b = &r->backends[i];
			if (table_rank(b) != rank || !sb_recon_words(r, b, text, sizeof text))
				continue;
			printf("%s  %s %s: %s\n", first ? "\n" : "", b->backend, sb_recon_status_name(b->status), text);
			first = false;
		}
	if (r->n_sessions > 0) {
		puts("");
		o = sb_out_new(FMT_TABLE, scols, sizeof scols / sizeof scols[0]);
		for (size_t i = 0; i < r->n_sessions; i++) {
			const sb_recon_session *s = &r->sessions[i];
			int64_t drift = 0;
			sb_out_text(o, s->backend);
			sb_out_text(o, s->session_id != NULL ? s->session_id : "(none)");
			sb_out_text(o, sb_recon_status_name(s->status));
			sb_out_text(o, s->flagged ? "yes" : "-");
			sb_out_int(o, s->runs);
			sb_out_money(o, s->computed_nanos);
			if (s->has_billed)
				sb_out_money(o, s->billed_nanos);
			else
				sb_out_null(o);
			if (s->has_billed && sb_money_sub(s->billed_nanos, s->computed_nanos, &drift) == SB_MONEY_OK)
				sb_out_money(o, drift);
			else
				sb_out_null(o);
			sb_out_row(o);
		}
		sb_out_end(o);
	}
	printf("\n%s", flag_counts(r, counts));
	if (r->pending > 0)
		printf("; %lld backend%s pending (judged again once %s window%s ended)", (long long)r->pending,
		       r->pending == 1 ? "" : "s", r->pending == 1 ? "its" : "their", r->pending == 1 ? " has" : "s have");
	puts("");
}

/* reconcile: its options; --period is required.  It writes the result
 * (the write lock taken), but with --dry-run it only reads. */
static int parse_reconcile(sb_cli *cli, int argc, char **argv, void *opts)
{
	recon_cli *rc = opts;
	int first = 0, status = parse_args(cli, argc, argv, rc, 0, &first);

	if (status != 0)
		return status;
	if (rc->fmt == FMT_CSV)
		return cli_usage(cli, "--format is table or json");
	if (!rc->has_period)
		return cli_usage(cli, "--period is required (yesterday, 2026-11, FROM..TO, ...)");
	if (rc->dry_run)
		cli->ledger = CMD_READS;
	return 0;
}

/* reconcile: computed against billed for a period. */
static int run_reconcile(sb_cli *cli, sb_db *db, void *opts)
{
	const recon_cli *rc = opts;
	sb_recon *r = NULL;
	int status;

	if (sb_reconcile(db, &rc->o, &r, &cli->err) != SB_OK ||
	    (!rc->dry_run && sb_recon_store(db, r, &cli->err) != SB_OK)) {
		sb_recon_free(r);
		return cli_report(&cli->err);
	}
	if (rc->fmt == FMT_JSON) {
		char *text = sb_recon_json_text(r, JSON_INDENT(1));
		if (text == NULL) {
			sb_fail(&cli->err, SB_EINTERNAL, "out of memory while writing the result%s",
			        r->recon_id > 0 ? " (it was stored: see 'sbledger reconciliations')" : "");
			sb_recon_free(r);
			return cli_report(&cli->err);
		}
		puts(text);
		free(text);
	} else {
		print_table(r);
		if (r->recon_id > 0)
			printf("stored as reconciliation %lld\n", (long long)r->recon_id);
	}
	status = rc->fail_on_drift && r->flagged > 0 ? SB_FLAGGED : 0;
	sb_recon_free(r);
	return status;
}

/* reconciliations and tolerance: their options, no operands. */
static int parse_list(sb_cli *cli, int argc, char **argv, void *opts)
{
	int first = 0;

	return parse_args(cli, argc, argv, opts, 0, &first);
}

/* reconciliations: list the stored reconciliations. */
static int run_reconciliations(sb_cli *cli, sb_db *db, void *opts)
{
	static const sb_col cols[] = {
		{"reconciliation", COL_INT, 0}, {"created_at", COL_TIME, 0}, {"from", COL_TIME, 0},
		{"to", COL_TIME, 0}, {"abs_tol_usd", COL_RATE, 0}, {"rel_tol", COL_RATE, 0},
		{"backends", COL_INT, 0}, {"flagged", COL_INT, 0}, {"flagged_backends", COL_INT, 0},
		{"flagged_sessions", COL_INT, 0},
	};
	const recon_cli *rc = opts;

	return cli_list(cli, db, rc->fmt, cols, sizeof cols / sizeof cols[0], "recon_list", NULL, NULL);
}

/* Bind the period of report drift and whether only daily results count. */
static void bind_drift(sb_db *db, sqlite3_stmt *st, const void *ctx)
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
	int first = 0, status = parse_args(cli, argc, argv, rc, 0, &first);

	if (status != 0)
		return status;
	if (!rc->has_period)
		return cli_usage(cli, "--period is required");
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

	return cli_list(cli, db, rc->fmt, cols, sizeof cols / sizeof cols[0], "recon_drift", bind_drift, rc);
}

/* tolerance set BACKEND: both tolerances and the backend, checked. */
static int parse_tolerance_set(sb_cli *cli, int argc, char **argv, void *opts)
{
	recon_cli *rc = opts;
	int first = 0, status = parse_args(cli, argc, argv, rc, 1, &first);

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
	 "--period P [--abs-tol X] [--rel-tol Y] [--billing-lag D] [--all-sessions] [--dry-run]"
	 " [--fail-on-drift] [--format table|json]",
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
	 "  --period P        the period to reconcile (required)\n"
	 "  --abs-tol X       the absolute tolerance in USD (default 0.01)\n"
	 "  --rel-tol Y       the relative tolerance, 0.05 is 5% (default 0.05)\n"
	 "  --billing-lag D   a backend with runs and no bill is flagged unbilled once\n"
	 "                    its window ended more than D ago (default 72h; 3d, 90m)\n"
	 "  --all-sessions    list every session, not only those that are not ok\n"
	 "  --dry-run         do not store the result (and take no write lock)\n"
	 "  --fail-on-drift   exit 1 when a backend or session is flagged\n"
	 "  --format F        table (default) or json\n",
	 "reconcile computed against billed for a period", recon_options,
	 "sbledger reconcile --period yesterday --fail-on-drift\n"
	 "sbledger reconcile --period 2026-11 --dry-run --format json\n"
	 "sbledger reconcile --period 2026-11 --billing-lag 5d\n"
	 "sbledger reconcile --period 2026-11-29 --abs-tol 0.05 --rel-tol 0.10 --all-sessions\n"},
	{"reconciliations", parse_list, run_reconciliations, sizeof(recon_cli), CMD_READS | CMD_CSV,
	 "[--format table|csv|json] [--raw]",
	 "List the stored reconciliations, oldest first: when each was made, its\n"
	 "period, its tolerances, how many backends it judged and how many it\n"
	 "flagged.\n"
	 "\n"
	 "  --format F   table (default), csv or json\n"
	 "  --raw        CSV: no ' before free text starting with = + - @ tab CR\n",
	 "list the stored reconciliations", format_options,
	 "sbledger reconciliations\n"
	 "sbledger reconciliations --format json\n"},
	{"report drift", parse_report_drift, run_report_drift, sizeof(recon_cli), CMD_READS | CMD_CSV,
	 "--period P [--by day|period] [--format table|csv|json] [--raw]",
	 "Drift per backend over time, from the stored reconciliations whose period\n"
	 "lies inside P (the latest one of each period): computed, billed and drift\n"
	 "of each backend, period by period.\n"
	 "\n"
	 "  --period P    the reconciled periods lying inside P (required)\n"
	 "  --by day      only the reconciliations of one UTC day each (default)\n"
	 "  --by period   the reconciliations of every period (months, spans...)\n"
	 "  --format F    table (default), csv or json\n"
	 "  --raw         CSV: no ' before free text starting with = + - @ tab CR\n",
	 "drift per backend over time, from stored reconciliations", drift_options,
	 "sbledger report drift --period 2026-11\n"
	 "sbledger report drift --period 2026 --by period --format csv\n"},
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
