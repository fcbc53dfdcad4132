/* cmd_explain.c: explain (the drift split into its parts, the lines and
 * runs left unmatched, the dispute pack of a session). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "importers/runs_jsonl.h"
#include "ledger/period.h"
#include "reconcile/explain.h"
#include "report/explain_out.h"
#include "report/json.h"

/* The default of --top. */
#define EXPLAIN_TOP 5

typedef struct explain_cli {
	sb_explain_opts o;       /* what to explain */
	bool has_period;         /* --period given */
	bool dispute;            /* --format dispute */
	bool ours_only;          /* --ours-only */
	sb_format fmt;           /* --format (not dispute) */
	int64_t top;             /* --top N */
} explain_cli;

static int on_explain_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	explain_cli *x = ctx;

	switch (val) {
	case 'p':
		x->has_period = true;
		return cli_period(cli, arg, &x->o.recon.period);
	case 'b':
		x->o.backend = sb_backend_from_sdk(arg);
		if (!sb_backend_id_valid(x->o.backend))
			return cli_usage(cli, "'%s' is not a backend id", arg);
		return 0;
	case 's': x->o.session = arg; return 0;
	case 't': return cli_int(cli, "--top", arg, &x->top);
	case 'o': x->ours_only = true; return 0;
	case 'f':
		if (strcmp(arg, "dispute") == 0) {
			x->dispute = true;
			return 0;
		}
		return cli_format(cli, arg, 1u << FMT_TABLE | 1u << FMT_JSON | 1u << FMT_HTML, &x->fmt);
	case 'a': return cli_money(cli, "--abs-tol", arg, &x->o.recon.abs_nanos);
	case 'r': return cli_money(cli, "--rel-tol", arg, &x->o.recon.rel_ppb);
	case 'l':
		x->o.recon.has_lag = true;
		return cli_duration(cli, "--billing-lag", arg, &x->o.recon.billing_lag_ms);
	default:
		return SB_EUSAGE;
	}
}

static const struct option explain_options[] = {
	{"period", required_argument, NULL, 'p'},
	{"backend", required_argument, NULL, 'b'},
	{"session", required_argument, NULL, 's'},
	{"top", required_argument, NULL, 't'},
	{"ours-only", no_argument, NULL, 'o'},
	{"format", required_argument, NULL, 'f'},
	{"abs-tol", required_argument, NULL, 'a'},
	{"rel-tol", required_argument, NULL, 'r'},
	{"billing-lag", required_argument, NULL, 'l'},
	{NULL, 0, NULL, 0},
};

static int parse_explain(sb_cli *cli, int argc, char **argv, void *opts)
{
	explain_cli *x = opts;
	int first = 0, status;

	x->fmt = FMT_TABLE;
	x->top = EXPLAIN_TOP;
	x->o.recon.abs_nanos = SB_DEFAULT_ABS_NANOS;
	x->o.recon.rel_ppb = SB_DEFAULT_REL_PPB;
	if ((status = cli_getopt(cli, argc, argv, cli->cmd->options, on_explain_opt, x, &first)) != 0)
		return status;
	if (argc > first)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	if (!x->has_period)
		return cli_usage(cli, "--period is required (yesterday, 2026-11, FROM..TO, ...)");
	if (x->dispute && x->o.session == NULL)
		return cli_usage(cli, "--format dispute writes the pack of one session: give --session S");
	if (x->dispute && x->ours_only)
		return cli_usage(cli, "--ours-only lists what is unmatched; a dispute pack is of one billed session");
	x->o.top = (size_t)x->top;
	return 0;
}

static int run_explain(sb_cli *cli, sb_db *db, void *opts)
{
	explain_cli *x = opts;
	sb_explain_view v = {&cli->invoked, x->ours_only, x->o.session};
	sb_explained *ex = NULL;
	int rc;

	if (sb_explain_period(db, &x->o, &ex, &cli->err) != SB_OK)
		return cli_report(&cli->err);
	if (x->dispute)
		rc = sb_explain_dispute(stdout, ex, &v, &cli->err);
	else if (x->fmt == FMT_JSON)
		rc = sb_json_print(stdout, sb_explain_json(ex, &v), JSON_INDENT(1), &cli->err);
	else if (x->fmt == FMT_HTML)
		rc = sb_explain_html(stdout, ex, &v, &cli->err);
	else
		rc = sb_explain_table(stdout, ex, &v, &cli->err);
	sb_explained_free(ex);
	return rc == SB_OK || cli->err.code == SB_EIO ? 0 : cli_report(&cli->err);
}

const sb_command sb_explain_commands[] = {
	{"explain", parse_explain, run_explain, sizeof(explain_cli), CMD_READS,
	 "--period P [--backend B] [--session S] [--top N] [--ours-only] [--abs-tol X] [--rel-tol Y]"
	 " [--billing-lag D] [--format table|json|html|dispute]",
	 "Split the drift (billed - computed) of each backend of period P, and of\n"
	 "each session of a backend whose lines name sessions, exactly into parts\n"
	 "that add up to it: card (the SDK's estimate against the card), idle (the\n"
	 "session's life not covered by commands; before, between and after them\n"
	 "when executions carry started_at), paused (paused time the provider's\n"
	 "events show and its bill does not charge), metering (the billed quantity\n"
	 "at the card beyond the life) and price (the provider's rate against the\n"
	 "card's), or, where the lines state no quantity in minutes or seconds,\n"
	 "billed_beyond_lifetime in place of those two.  Each backend and session\n"
	 "names its runs, executions (command, duration, cost) and billing lines,\n"
	 "each line with the rule that matched it to runs (session, time, or\n"
	 "unmatched: provider_only); runs no line bills are ours_only.  The verdict\n"
	 "is reconcile's, which follows from these parts.  Nothing is stored.\n"
	 "\n"
	 "  --period P        the period, as reconcile takes it (required)\n"
	 "  --backend B       only backend B\n"
	 "  --session S       only session S (every backend billing per session)\n"
	 "  --top N           name the N costliest commands per scope (default 5)\n"
	 "  --ours-only       only the runs no line bills (and, per session, theirs)\n"
	 "  --abs-tol X       the absolute tolerance in USD, as reconcile (default 0.01)\n"
	 "  --rel-tol Y       the relative tolerance, as reconcile (default 0.05)\n"
	 "  --billing-lag D   as reconcile (default 72h)\n"
	 "  --format F        table (default), json, html, or dispute: the text a\n"
	 "                    provider's support needs for session S (--session)\n",
	 "split a drift into parts, down to commands and bill lines", explain_options,
	 "sbledger explain --period 2026-11 --backend modal\n"
	 "sbledger explain --period 2026-11 --backend daytona --session day-3c4a8d15d8 --format json\n"
	 "sbledger explain --period 2026-11 --ours-only\n"
	 "sbledger explain --period 2026-11 --session day-3c4a8d15d8 --format dispute > dispute.txt\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
