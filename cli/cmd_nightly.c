/* cmd_nightly.c: nightly, the job cron runs (docs/providers.md).
 *
 * The job itself is library code (nightly/nightly.h): the inbox walk and
 * its link rule, the imports, the fetches, which periods are judged, the
 * reports, and whether the run needs a look.  This file parses the
 * options (parse_nightly, before the ledger is opened), hands the
 * library what it reads from the environment (the providers' keys and
 * options, the test hooks; the ledger main opens for it comes with the
 * command line's clock), and prints what the library reports
 * (run_nightly): each step's line as the run goes, then one line per
 * backend of each period judged, the totals, and the command that lists
 * the flagged sessions.  With --quiet it prints nothing unless the run
 * needs a look, so that cron mails only then.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/fetch.h"
#include "cli/judged.h"
#include "cli/words.h"
#include "importers/provider.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/quote.h"
#include "ledger/timefmt.h"
#include "nightly/inbox.h"
#include "nightly/nightly.h"
#include "reconcile/reconcile.h"

enum { MAX_SHOWN_REJECTS = 20, MAX_PROVIDERS = 16 };

/* Options of a nightly run, and how it prints. */
typedef struct nightly {
	sb_cli *cli;                 /* the running command */
	const char *inbox;           /* --inbox as given */
	const char *out;             /* --out (default ./reports) */
	bool has_period;             /* --period given */
	sb_period period;            /* the period (default yesterday) */
	const char *fetch;           /* --fetch LIST, or NULL */
	bool fail_on_drift;          /* --fail-on-drift */
	bool has_lag;                /* --billing-lag given */
	int64_t billing_lag_ms;      /* --billing-lag */
	const char *lag_arg;         /* --billing-lag as given */
	bool supersede;              /* --supersede: billing files supersede earlier lines */
	bool verbose;                /* --verbose: trace fetches */
	int64_t catch_up;            /* --catch-up DAYS (default 35) */
	int64_t now_ms;              /* the ledger's clock when the run began */
	long shown;                  /* rejects printed for the current inbox file */
	cli_fetch cf;                /* how the fetches print */
	char root[PATH_MAX];         /* the inbox resolved (sb_inbox_resolve) */
	char out_abs[PATH_MAX];      /* --out made absolute (cli_absolute): the mail's paths */
	sb_nightly_fetch fetches[MAX_PROVIDERS]; /* --fetch, with what each takes from the environment */
	const char *params[MAX_PROVIDERS][2 * CLI_FETCH_PARAMS + 1]; /* their query parameters */
	size_t n_fetches;            /* how many (0 when the HTTP options did not parse) */
	int status;                  /* what parse said without stopping (HTTP options) */
} nightly;

/* name as one word for a line (ledger/quote.h), in a buffer of the
 * statement that uses it. */
#define QUOTE(name) sb_quote((name), SB_QUOTE_IF_NEEDED, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ)

/* ---- what the run reports as it goes ------------------------------------ */

/* A problem of the run (an inbox entry, a report, a period): its message. */
static void on_problem(void *ctx, const sb_err *problem)
{
	(void)ctx;
	cli_report(problem);
}

/* Print a rejected record, the first MAX_SHOWN_REJECTS of a file. */
static void on_reject(void *ctx, const char *source, int64_t line_no, const char *reason)
{
	nightly *n = ctx;

	if (n->shown++ < MAX_SHOWN_REJECTS)
		cli_warn("%s:%lld: %s", QUOTE(source), (long long)line_no, reason);
}

/* An inbox file imported: the rejects past those shown, its batch line,
 * its error. */
static void on_imported(void *ctx, const char *real, const sb_import_result *r, const sb_err *e)
{
	nightly *n = ctx;

	if (n->shown > MAX_SHOWN_REJECTS)
		cli_warn("%s: ... and %ld more rejected records", QUOTE(real), n->shown - MAX_SHOWN_REJECTS);
	n->shown = 0;
	if (r->already == 0 && r->batch.id > 0 && e->code != SB_ETEMP)
		cli_info(n->cli, "batch %lld: %s: %lld accepted, %lld duplicates, %lld rejected",
		         (long long)r->batch.id, QUOTE(real), (long long)r->batch.accepted,
		         (long long)r->batch.duplicates, (long long)r->batch.rejected);
	cli_report(e);
}

/* A fetch ended: what cli_fetch_print prints. */
static void on_fetched(void *ctx, const sb_provider *p, const sb_endpoint *ep, int rc,
                       const sb_fetch_result *r, const sb_err *e)
{
	nightly *n = ctx;

	cli_fetch_print(&n->cf, p, ep, rc, r, e);
}

/* The run's fetch: cli_fetch_guarded on the run's printer. */
static int run_fetch(void *ctx, sb_db *db, const sb_provider *p, const sb_endpoint *ep,
                     const sb_fetch_opts *o, sb_fetch_result *r, sb_err *e)
{
	nightly *n = ctx;

	return cli_fetch_guarded(&n->cf, db, p, ep, o, r, e);
}

/* ---- options ------------------------------------------------------------ */

/* The providers of --fetch into list; a usage status for an unknown one. */
static int parse_fetch(sb_cli *cli, const char *text, const sb_provider **list, size_t *n)
{
	char buf[512], names[256];
	char *save = NULL;

	*n = 0;
	if (text == NULL)
		return 0;
	snprintf(buf, sizeof buf, "%s", text);
	for (char *tok = strtok_r(buf, ", ", &save); tok != NULL; tok = strtok_r(NULL, ", ", &save)) {
		const sb_provider *p = sb_provider_find(tok);
		if (p == NULL)
			return cli_usage(cli, "--fetch: no provider '%s' (one of %s)", tok,
			                 sb_provider_names(NULL, names, sizeof names));
		if (*n >= MAX_PROVIDERS)
			return cli_usage(cli, "--fetch: too many providers");
		list[(*n)++] = p;
	}
	return 0;
}

/* Handle one option of nightly. */
static int on_nightly_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	nightly *n = ctx;

	switch (val) {
	case 'i': n->inbox = arg; return 0;
	case 'o': n->out = arg; return 0;
	case 'p':
		n->has_period = true;
		return cli_period(cli, arg, &n->period);
	case 'f': n->fetch = arg; return 0;
	case 'F': n->fail_on_drift = true; return 0;
	case 'l':
		n->has_lag = true;
		n->lag_arg = arg;
		return cli_duration(cli, "--billing-lag", arg, &n->billing_lag_ms);
	case 's': n->supersede = true; return 0;
	case 'v': n->verbose = true; return 0;
	case 'c': return cli_catch_up(cli, arg, &n->catch_up);
	default: return SB_EUSAGE;
	}
}

static const struct option nightly_options[] = {
	{"inbox", required_argument, NULL, 'i'},
	{"out", required_argument, NULL, 'o'},
	{"period", required_argument, NULL, 'p'},
	{"fetch", required_argument, NULL, 'f'},
	{"fail-on-drift", no_argument, NULL, 'F'},
	{"billing-lag", required_argument, NULL, 'l'},
	{"supersede", no_argument, NULL, 's'},
	{"verbose", no_argument, NULL, 'v'},
	{"catch-up", required_argument, NULL, 'c'},
	{NULL, 0, NULL, 0},
};

/* ---- what the run did ---------------------------------------------------- */

/* One line per backend on stdout: status, figures, the verdict, its
 * flagged sessions, and its window where it is not the period. */
static void print_backends(const sb_recon *r)
{
	char c[SB_MONEY_BUFSZ], b[SB_MONEY_BUFSZ], d[SB_MONEY_BUFSZ];
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];

	for (size_t i = 0; i < r->n_backends; i++) {
		const sb_recon_backend *be = &r->backends[i];
		printf("%-12s %-12s computed %s  billed %s  drift %s", QUOTE(be->backend),
		       sb_recon_status_name(be->status),
		       sb_money_format(be->computed_nanos, 6, c),
		       be->has_billed ? sb_money_format(be->billed_nanos, 6, b) : "-",
		       be->has_drift ? sb_money_format(be->drift_nanos, 6, d) : "-");
		if (be->explain.verdict != SB_VERDICT_NONE)
			printf("  (%s)", sb_verdict_name(be->explain.verdict));
		if (be->sessions_flagged > 0)
			printf("  (%lld session%s flagged)", (long long)be->sessions_flagged,
			       be->sessions_flagged == 1 ? "" : "s");
		if (be->status == SB_STATUS_UNBILLED && !be->flagged) {
			__int128 due = (__int128)be->window.to_ms + r->opts.billing_lag_ms;
			printf("  (no bill yet: flagged if none by %s)",
			       due <= INT64_MAX ? sb_time_format((int64_t)due, from) : "never");
		} else if (be->status == SB_STATUS_UNBILLED) {
			printf("  (flagged: no bill, and its window ended more than the billing lag ago)");
		}
		if (be->window.from_ms != r->opts.period.from_ms || be->window.to_ms != r->opts.period.to_ms)
			printf("  window %s .. %s", sb_time_format(be->window.from_ms, from),
			       sb_time_format(be->window.to_ms, to));
		if (be->status == SB_STATUS_PENDING)
			printf("  (not ended: judged again later)");
		putchar('\n');
	}
}

/* "N backends, M sessions flagged[, K pending]" into buf. */
static const char *counts(const sb_recon *r, char buf[128])
{
	int n = snprintf(buf, 128, "%lld backend%s, %lld session%s flagged", (long long)r->flagged_backends,
	                 r->flagged_backends == 1 ? "" : "s", (long long)r->flagged_sessions,
	                 r->flagged_sessions == 1 ? "" : "s");

	if (r->pending > 0 && n > 0 && n < 128)
		snprintf(buf + n, 128 - (size_t)n, ", %lld pending", (long long)r->pending);
	return buf;
}

/* The words a suggested command begins with, and a space (the program
 * as run, --db as given: cli_invoked_words). */
static void print_invoked(void)
{
	char run[CLI_INVOKED_MAX];

	printf("%s ", cli_invoked_words(run, sizeof run));
}

/* The command that lists the flagged sessions of period p (as this
 * nightly judged it: the program and ledger as run, its billing lag), on
 * stdout.  Each value is one shell word, so that the line runs as
 * printed. */
static void print_sessions_command(const nightly *n, const sb_period *p)
{
	char name[96];

	printf("flagged sessions: ");
	print_invoked();
	printf("reconcile --period %s", QUOTE(sb_period_name(p, name)));
	if (n->has_lag)
		printf(" --billing-lag %s", QUOTE(n->lag_arg));
	printf(" --dry-run\n");
}

/* Why a period was judged, as the mail says it. */
static const char *why_words(sb_nightly_why why)
{
	switch (why) {
	case SB_WHY_ASKED: return "judged (--period)";
	case SB_WHY_FIRST: return "judged for the first time";
	case SB_WHY_STALE: return "judged again (something committed since moved its figures)";
	case SB_WHY_RULES: return "judged again (its result was judged with other tolerances or another grain)";
	case SB_WHY_PENDING: return "judged again (its window had not ended when it was judged)";
	case SB_WHY_LAGGED: return "judged again (a bill it lacked is now past the billing lag)";
	}
	return "judged";
}

/* An open flag, with what tonight did to it. */
static void print_flag(const sb_flag *f, const sb_nightly_result *res)
{
	char name[96], c[SB_MONEY_BUFSZ], b[SB_MONEY_BUFSZ], d[SB_MONEY_BUFSZ];
	const char *note = "";
	const char *what = NULL;

	for (size_t i = 0; i < res->n_judged; i++)
		for (size_t k = 0; k < res->judged[i].flags.n; k++) {
			const sb_flag *m = &res->judged[i].flags.list[k];
			if (m->id != f->id)
				continue;
			if (m->move == SB_FLAG_RAISED)
				note = "  (new)";
			else if (m->move == SB_FLAG_REOPENED) {
				note = "  (reopened: ";
				what = m->what_changed;
			}
		}
	printf("flag %lld  %s  %s%s%s  %s  computed %s  billed %s  drift %s%s%s%s\n", (long long)f->id,
	       sb_period_name(&f->period, name), QUOTE(f->backend), f->is_session ? " session " : "",
	       f->is_session ? (f->session_id != NULL ? QUOTE(f->session_id) : "(none)") : "",
	       sb_recon_status_name(f->status), sb_money_format(f->computed_nanos, 6, c),
	       f->has_billed ? sb_money_format(f->billed_nanos, 6, b) : "-",
	       f->has_drift ? sb_money_format(f->drift_nanos, 6, d) : "-", note,
	       what != NULL ? what : "", what != NULL ? ")" : "");
}

/* What needs a look, on stdout: the open flags, what moved in the
 * periods judged again, the days left unjudged, the stale results out of
 * reach, the commands that list flagged sessions. */
static void print_look(const nightly *n, const sb_nightly_result *res)
{
	char name[96], to[96];

	for (size_t i = 0; i < res->n_judged; i++)
		for (size_t k = 0; k < res->judged[i].n_changes; k++)
			cli_print_change(&res->judged[i].period, &res->judged[i].changes[k]);
	if (res->open.n > 0)
		printf("open flags (%zu; 'flags ack|waive|dispute ID --reason TEXT' handles one):\n", res->open.n);
	for (size_t i = 0; i < res->open.n; i++)
		print_flag(&res->open.list[i], res);
	for (size_t i = 0; i < res->n_unjudged && i < 10; i++) {
		sb_period last = {res->unjudged[i].to_ms - SB_MS_PER_DAY, res->unjudged[i].to_ms};
		sb_period_name(&res->unjudged[i], name);
		if (res->unjudged[i].to_ms - res->unjudged[i].from_ms > SB_MS_PER_DAY) {
			sb_period first = {res->unjudged[i].from_ms, res->unjudged[i].from_ms + SB_MS_PER_DAY};
			sb_period_name(&first, name);
			sb_period_name(&last, to);
			printf("not judged: %s .. %s (older than --catch-up %lld days)\n", name, to,
			       (long long)n->catch_up);
		} else {
			printf("not judged: %s (older than --catch-up %lld days)\n", name, (long long)n->catch_up);
		}
	}
	if (res->n_unjudged > 10)
		printf("not judged: ... and %zu more ranges\n", res->n_unjudged - 10);
	if (res->n_unjudged > 0) {
		printf("judge them: ");
		print_invoked();
		printf("nightly --inbox %s --out %s --catch-up %lld\n", QUOTE(n->root), QUOTE(n->out_abs),
		       (long long)res->unjudged_days);
	}
	if (res->stale_older > 0) {
		printf("%zu stale result%s older than --catch-up %lld days; judge %s again with a longer --catch-up: ",
		       res->stale_older, res->stale_older == 1 ? "" : "s", (long long)n->catch_up,
		       res->stale_older == 1 ? "it" : "them");
		print_invoked();
		printf("nightly --inbox %s --out %s --catch-up DAYS\n", QUOTE(n->root), QUOTE(n->out_abs));
	}
	for (size_t i = 0; i < res->n_judged; i++)
		if (res->judged[i].r != NULL && res->judged[i].r->flagged_sessions > 0 &&
		    (sb_period_one_day(&res->judged[i].period) || res->judged[i].why == SB_WHY_ASKED))
			print_sessions_command(n, &res->judged[i].period);
}

/* What the run did, on stdout: each period judged, its backends and
 * line, the totals, then what needs a look. */
static void print_run(const nightly *n, const sb_nightly_result *res)
{
	char name[96], line[128];
	sb_period today = {0, 0};

	for (size_t i = 0; i < res->n_judged; i++) {
		const sb_nightly_judged *x = &res->judged[i];
		if (x->r == NULL)
			continue;
		printf("%s %s:\n", sb_period_name(&x->period, name), why_words(x->why));
		print_backends(x->r);
		printf("%s: %s; reconciliation %lld; %s%s%s\n", name, counts(x->r, line),
		       (long long)x->r->recon_id, x->reports_ok ? "reports in " : "reports not written",
		       x->reports_ok ? QUOTE(x->dir) : "", x->reports_ok ? "/" : "");
	}
	today.from_ms = sb_day_start(n->now_ms);
	today.to_ms = today.from_ms + SB_MS_PER_DAY;
	printf("nightly %s: %ld %s imported, %ld already in the ledger, %ld %s rejected; "
	       "%zu period%s judged (%zu for the first time); %zu open flag%s\n", sb_period_name(&today, name),
	       res->files, res->files == 1 ? "file" : "files", res->already, res->rejected,
	       res->rejected == 1 ? "record" : "records", res->n_judged, res->n_judged == 1 ? "" : "s",
	       res->n_first, res->open.n, res->open.n == 1 ? "" : "s");
}

/* ---- the command -------------------------------------------------------- */

/* nightly: its options, checked, the inbox resolved (a directory), and
 * what each provider's fetches take from the environment, before the
 * ledger is opened. */
/* A night whose ledger could not be opened (held by another writer past
 * --busy-timeout, missing, unreadable) judged nothing and leaves the
 * reports as they were; its heartbeat still says that it ran and how it
 * ended. */
static int nightly_unopened(sb_cli *cli, void *opts, int status)
{
	nightly *n = opts;
	sb_err he;

	(void)cli;
	sb_err_clear(&he);
	if (sb_nightly_heartbeat(n->out, cli_now_ms(), status, NULL, &he) != SB_OK)
		status = sb_code_worst(status, cli_report(&he));
	return status;
}

static int parse_nightly(sb_cli *cli, int argc, char **argv, void *opts)
{
	nightly *n = opts;
	const sb_provider *providers[MAX_PROVIDERS];
	size_t n_providers = 0;
	int first = 0, rc;
	sb_err e;

	sb_err_clear(&e);
	n->cli = cli;
	cli->unopened = nightly_unopened;
	n->out = "reports";
	n->catch_up = 35;
	n->cf.cli = cli;
	if ((rc = cli_getopt(cli, argc, argv, nightly_options, on_nightly_opt, n, &first)) != 0)
		return rc;
	n->cf.verbose = n->verbose;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	if (n->inbox == NULL)
		return cli_usage(cli, "--inbox DIR is required (DIR/runs/, DIR/billing/FORMAT/)");
	if ((rc = parse_fetch(cli, n->fetch, providers, &n_providers)) != 0)
		return rc;
	if (sb_inbox_resolve(n->inbox, n->root, sizeof n->root, &e) != SB_OK)
		return cli_report(&e);
	/* the reports' paths, in the output and in the library's messages,
	 * are absolute: the mail's reader is not in cron's directory (a path
	 * too long for that stays as given: writing it then fails, named) */
	if (cli_absolute(n->out, n->out_abs, sizeof n->out_abs) != NULL)
		n->out = n->out_abs;
	/* what each provider's fetches take from the environment; options
	 * that do not parse are said now and leave the fetches out (the rest
	 * of the run still runs) */
	for (size_t i = 0; i < n_providers; i++) {
		sb_fetch_opts *fo = &n->fetches[i].opts;
		n->fetches[i].provider = providers[i];
		if (cli_http_opts(&fo->http, &e) != SB_OK) {
			n->status = cli_report(&e);
			n->n_fetches = 0;
			return 0;
		}
		cli_fetch_events(&n->cf, fo);
		cli_fetch_env(providers[i], fo, n->params[i]);
		n->n_fetches = i + 1;
	}
	return 0;
}

/* nightly --inbox DIR: import, fetch, reconcile, report, the ledger's
 * write lock held throughout. */
static int run_nightly(sb_cli *cli, sb_db *db, void *opts)
{
	nightly *n = opts;
	sb_nightly_opts o;
	sb_nightly_result res;
	int status;

	memset(&o, 0, sizeof o);
	o.inbox = n->inbox;
	o.root = n->root;
	o.out = n->out;
	o.ledger = &n->cli->invoked;
	o.has_period = n->has_period;
	o.period = n->period;
	o.catch_up_days = n->catch_up;
	o.has_lag = n->has_lag;
	o.billing_lag_ms = n->billing_lag_ms;
	o.supersede = n->supersede;
	o.fail_on_drift = n->fail_on_drift;
	o.fetches = n->fetches;
	o.n_fetches = n->n_fetches;
	o.fetch = run_fetch;
	o.words = cli_words;
	o.pause_path = cli_test_pause();
	o.pause_checked = cli_test_pause_checked();
	{
		sb_import_opts io;   /* the import's test hooks, as import runs takes them */
		memset(&io, 0, sizeof io);
		cli_test_import_opts(&io);
		o.bulk_min = io.bulk_min;
		o.rebuild_pause_path = io.rebuild_pause_path;
	}
	o.events = (sb_nightly_events){on_problem, on_reject, on_imported, on_fetched, n};
	n->now_ms = sb_db_now_ms(db);
	status = sb_code_worst(n->status, sb_nightly_run(db, &o, &res));
	if (!cli->quiet)
		print_run(n, &res);
	if (!cli->quiet || res.attention || status != SB_OK)
		print_look(n, &res);
	{
		sb_err he;
		sb_err_clear(&he);
		if (sb_nightly_heartbeat(n->out, n->now_ms, status, &res, &he) != SB_OK)
			status = sb_code_worst(status, cli_report(&he));
	}
	sb_nightly_result_free(&res);
	return status;
}

const sb_command sb_nightly_commands[] = {
	{"nightly", parse_nightly, run_nightly, sizeof(nightly), CMD_WRITES,
	 "--inbox DIR [--period P] [--out DIR] [--catch-up DAYS] [--fetch LIST] [--billing-lag D] "
	 "[--fail-on-drift] [--supersede] [--verbose]",
	 "The job cron runs.  Imports every file of DIR/runs/ (run-usage JSON Lines)\n"
	 "and DIR/billing/FORMAT/ (billing files of FORMAT: focus, modal, ...) not\n"
	 "yet in the ledger (a file is known by its SHA-256, so each is read once;\n"
	 "names starting with '.' are skipped, and nothing outside DIR is followed),\n"
	 "fetches from the providers of --fetch (the catalog now, usage and billing\n"
	 "for --period, else from the day the last fetch covered to yesterday, so\n"
	 "that missed nights are fetched too, at most --catch-up days back; a\n"
	 "provider whose key is not set is skipped, said once), then judges: every\n"
	 "day up to yesterday (UTC) within --catch-up days that holds runs or lines\n"
	 "of a backend billed by the day and has no current result (a missed night\n"
	 "or a week off is judged the next night);\n"
	 "every month holding a backend billed by the month, once it ended more than\n"
	 "the billing lag ago; every stored result that something committed since\n"
	 "makes stale, or that had a backend pending, or unbilled and now past the\n"
	 "billing lag; and --period P when given.  Each result is stored (naming the\n"
	 "one it replaces), its flags raised, kept, reopened or resolved, and\n"
	 "OUT/PERIOD/reconcile.json, summary.csv and report.html written;\n"
	 "OUT/heartbeat.json says when the night ran and how it ended.\n"
	 "\n"
	 "  --inbox DIR       the inbox: DIR/runs/ and DIR/billing/FORMAT/ (required)\n"
	 "  --period P        a period to judge as well (and what the fetches ask for)\n"
	 "  --out DIR         where the reports go, in DIR/PERIOD/ (default ./reports)\n"
	 "  --catch-up DAYS   how many days back are judged (default 35); older days\n"
	 "                    left unjudged are named with the command that judges them\n"
	 "  --fetch LIST      providers to fetch from, comma separated:\n"
	 "                    deepinfra,vercel (keys from the environment)\n"
	 "  --billing-lag D   a backend with runs and no bill is flagged unbilled once\n"
	 "                    its window ended more than D ago (default 72h; 3d, 90m)\n"
	 "  --fail-on-drift   exit 1 when a result stored tonight has an open flag\n"
	 "  --supersede       billing files supersede the lines of earlier batches\n"
	 "                    inside their span (for providers that reissue exports)\n"
	 "  --verbose         trace the fetches on stderr\n"
	 "\n"
	 "Prints one line per backend of each period judged and a line of totals,\n"
	 "then what needs a look: what moved in a period judged again, every open\n"
	 "flag (until someone handles it with 'flags'), days left unjudged.  With\n"
	 "--quiet only what needs a look, and nothing when nothing does, so that\n"
	 "cron mails only then.  The ledger's write lock is held throughout: a\n"
	 "second nightly waits for the first and exits 75 after --busy-timeout,\n"
	 "leaving the previous reports as they were.\n"
	 "\n"
	 "Exit: the first that applies of 70, 74, 75, 69 (a provider refused), 66 (an\n"
	 "inbox file unreadable or leading out of the inbox), 64 (a fetch skipped:\n"
	 "its key is not set), 65 (a record rejected), 1 (--fail-on-drift and an\n"
	 "open flag), 0; every cause is named in the output.\n",
	 "the cron job: import, fetch, reconcile, write the reports", nightly_options,
	 "sbledger nightly --inbox inbox --fail-on-drift\n"
	 "sbledger --db ledger.db --quiet nightly --inbox inbox --out reports --fetch deepinfra,vercel --fail-on-drift\n"
	 "sbledger nightly --inbox inbox --period 2026-11 --out reports\n"
	 "sbledger nightly --inbox inbox --billing-lag 5d --fail-on-drift\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
