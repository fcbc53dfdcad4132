/* cmd_fetch.c: fetch catalog, fetch usage, fetch billing: provider APIs
 * into the ledger (docs/providers.md). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/fetch.h"
#include "importers/provider.h"
#include "importers/rates_json.h"
#include "ledger/period.h"

enum { MAX_SHOWN_REJECTS = 20 };

/* A retry is coming: say so on stderr unless --quiet. */
static void on_retry(void *ctx, const char *url, long status, const char *reason, int attempt,
                     int attempts, long wait_ms)
{
	cli_fetch *cf = ctx;

	(void)status;
	if (cf->cli->quiet && !cf->verbose)
		return;
	cli_warn("%s: %s; retry %d of %d in %ld.%03ld s", url, reason, attempt, attempts - 1,
	         wait_ms / 1000, wait_ms % 1000);
}

/* A trace line (--verbose) on stderr. */
static void on_trace(void *ctx, const char *line)
{
	cli_fetch *cf = ctx;

	if (cf->verbose)
		fprintf(stderr, "sbledger: http: %s\n", line);
}

/* A rejected record of a response, the first MAX_SHOWN_REJECTS. */
static void on_reject(void *ctx, const char *source, int64_t line_no, const char *reason)
{
	cli_fetch *cf = ctx;

	if (cf->shown++ < MAX_SHOWN_REJECTS)
		cli_warn("%s:%lld: %s", source, (long long)line_no, reason);
}

void cli_fetch_events(cli_fetch *cf, sb_fetch_opts *o)
{
	o->http.events = (sb_http_events){on_retry, on_trace, cf};
	o->events = (sb_import_events){on_reject, NULL, cf};
}

int cli_fetch_run(cli_fetch *cf, sb_db *db, const sb_provider *p, const sb_endpoint *ep,
                  const sb_fetch_opts *o)
{
	sb_fetch_result r;
	struct sigaction old_pipe;
	sb_err e;
	int rc;
	const char *noun;
	char pages[64] = "";

	sb_err_clear(&e);
	cf->shown = 0;
	/* a provider that closes its end while a request is sent must not
	 * kill sbledger by SIGPIPE (libcurl avoids it where the system can;
	 * main leaves SIGPIPE at its default for standard output) */
	sigaction(SIGPIPE, &(struct sigaction){.sa_handler = SIG_IGN}, &old_pipe);
	rc = sb_fetch(db, p, ep, o, &r, &e);
	sigaction(SIGPIPE, &old_pipe, NULL);
	if (cf->shown > MAX_SHOWN_REJECTS)
		cli_warn("%s: ... and %ld more rejected records", r.url, cf->shown - MAX_SHOWN_REJECTS);
	noun = ep->format != NULL ? (r.accepted == 1 ? "line" : "lines") :
	                            (r.accepted == 1 ? "plan" : "plans");
	if (r.pages > 1)
		snprintf(pages, sizeof pages, ", %d pages", r.pages);
	if (rc == SB_OK && r.already > 0)
		cli_info(cf->cli, "fetch %s %s: %s: the same response was imported as batch %lld", p->name,
		         ep->what, r.url, (long long)r.already);
	else if (rc == SB_OK && ep->format != NULL)
		cli_info(cf->cli, "batch %lld: fetch %s %s: %s: %lld %s stored, %lld duplicates, %lld "
		         "superseded (%lld bytes%s)", (long long)r.batch_id, p->name, ep->what, r.url,
		         (long long)r.accepted, noun, (long long)r.duplicates, (long long)r.superseded,
		         (long long)r.bytes, pages);
	else if (rc == SB_OK)
		cli_info(cf->cli, "batch %lld: fetch %s %s: %s: %lld %s stored, %lld unchanged",
		         (long long)r.batch_id, p->name, ep->what, r.url, (long long)r.accepted, noun,
		         (long long)r.duplicates);
	return cli_report(&e);
}

/* Options of the fetch commands. */
typedef struct fetch_cli {
	cli_fetch cf;              /* printing */
	sb_fetch_opts o;           /* what sb_fetch gets */
	const char *provider;      /* --provider */
	const sb_provider *p;      /* that provider */
	const sb_endpoint *ep;     /* its endpoint of the command (catalog, usage, billing) */
} fetch_cli;

/* Seconds (a decimal) given to option name, into milliseconds. */
static int seconds(sb_cli *cli, const char *name, const char *arg, long *ms)
{
	char *end = NULL;
	double s;

	errno = 0;
	s = strtod(arg, &end);
	if (errno != 0 || end == arg || *end != '\0' || !(s > 0) || s > 86400)
		return cli_usage(cli, "%s '%s' is not a number of seconds (0 < N <= 86400)", name, arg);
	*ms = lround(s * 1000);
	if (*ms < 1)
		*ms = 1;
	return 0;
}

/* Handle one option of a fetch command. */
static int on_fetch_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	fetch_cli *fc = ctx;
	int64_t n = 0;
	int rc;

	switch (val) {
	case 'p': fc->provider = arg; return 0;
	case 'P':
		fc->o.has_period = true;
		return cli_period(cli, arg, &fc->o.period);
	case 'f': fc->o.from = arg; return 0;
	case 'u': fc->o.base_url = arg; return 0;
	case 't': return seconds(cli, "--timeout", arg, &fc->o.http.timeout_ms);
	case 'c': return seconds(cli, "--connect-timeout", arg, &fc->o.http.connect_timeout_ms);
	case 'r':
		if ((rc = cli_int(cli, "--retries", arg, &n)) != 0)
			return rc;
		fc->o.http.retries = n > 100 ? 100 : (int)n;
		return 0;
	case 'm':
		if ((rc = cli_int(cli, "--max-bytes", arg, &n)) != 0)
			return rc;
		if (n == 0)
			return cli_usage(cli, "--max-bytes must be more than 0");
		fc->o.http.max_bytes = n;
		return 0;
	case 'a': fc->o.http.ca_file = arg; return 0;
	case 'v': fc->cf.verbose = true; return 0;
	default: return SB_EUSAGE;
	}
}

/* The options of every fetch, after --provider and --period or --from. */
#define FETCH_COMMON_OPTIONS                                   \
	{"base-url", required_argument, NULL, 'u'},            \
	{"timeout", required_argument, NULL, 't'},             \
	{"connect-timeout", required_argument, NULL, 'c'},     \
	{"retries", required_argument, NULL, 'r'},             \
	{"max-bytes", required_argument, NULL, 'm'},           \
	{"cacert", required_argument, NULL, 'a'},              \
	{"verbose", no_argument, NULL, 'v'},                   \
	{NULL, 0, NULL, 0}

/* fetch billing and fetch usage: a period. */
static const struct option fetch_period_options[] = {
	{"provider", required_argument, NULL, 'p'},
	{"period", required_argument, NULL, 'P'},
	FETCH_COMMON_OPTIONS,
};

/* fetch catalog: prices as of now, or backdated. */
static const struct option fetch_catalog_options[] = {
	{"provider", required_argument, NULL, 'p'},
	{"from", required_argument, NULL, 'f'},
	FETCH_COMMON_OPTIONS,
};

/* fetch catalog|usage|billing --provider P: the provider, its endpoint
 * and the options, checked before anything is fetched. */
static int parse_fetch(sb_cli *cli, int argc, char **argv, void *opts)
{
	const char *what = strchr(cli->cmd->name, ' ') + 1;
	fetch_cli *fc = opts;
	char names[256];
	int first = 0, status;

	fc->cf.cli = cli;
	if (sb_http_opts_init(&fc->o.http, &cli->err) != SB_OK)
		return cli_report(&cli->err);
	if ((status = cli_getopt(cli, argc, argv, cli->cmd->options, on_fetch_opt, fc, &first)) != 0)
		return status;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	sb_provider_names(what, names, sizeof names);
	if (fc->provider == NULL)
		return cli_usage(cli, "--provider is required (one of %s)", names);
	if ((fc->p = sb_provider_find(fc->provider)) == NULL ||
	    (fc->ep = sb_provider_endpoint(fc->p, what)) == NULL)
		return cli_usage(cli, "no provider '%s' offers %s (one of %s)", fc->provider, what, names);
	if (fc->ep->period != SB_QUERY_NONE && !fc->o.has_period)
		return cli_usage(cli, "--period is required (yesterday, 2026-11, FROM..TO, ...)");
	if (fc->o.from != NULL) {
		sb_card card;
		sb_err fe;
		sb_err_clear(&fe);
		if (sb_card_from_text(&card, fc->p->name, NULL, "0", false, NULL, NULL, fc->o.from, 0, &fe) != SB_OK)
			return cli_usage(cli, "--from '%s' is not a date or timestamp", fc->o.from);
	}
	if (fc->o.http.ca_file != NULL && access(fc->o.http.ca_file, R_OK) != 0) {
		cli_warn("%s: %s (--cacert or SBLEDGER_CA_BUNDLE: a CA bundle in PEM)", fc->o.http.ca_file,
		         strerror(errno));
		return SB_ENOINPUT;
	}
	cli_fetch_events(&fc->cf, &fc->o);
	return 0;
}

/* fetch: the endpoint into the ledger (its write lock held throughout,
 * the download included, as for any import). */
static int run_fetch(sb_cli *cli, sb_db *db, void *opts)
{
	fetch_cli *fc = opts;

	(void)cli;
	return cli_fetch_run(&fc->cf, db, fc->p, fc->ep, &fc->o);
}

#define FETCH_OPTIONS_HELP                                                                      \
	"  --base-url URL        another host (a proxy of your own, a test server);\n"           \
	"                        also $SBLEDGER_<PROVIDER>_URL (SBLEDGER_DEEPINFRA_URL);\n"       \
	"                        plain http only to a loopback IP (127.0.0.1, [::1])\n"          \
	"  --timeout S           whole request, in seconds (default 600)\n"                       \
	"  --connect-timeout S   connecting, in seconds (default 10)\n"                           \
	"  --retries N           retries on 429, 5xx and network failures (default 4;\n"          \
	"                        $SBLEDGER_HTTP_RETRIES); waits double from\n"                    \
	"                        $SBLEDGER_HTTP_BACKOFF_MS (500), with jitter, at least\n"        \
	"                        Retry-After, at most 60 s each\n"                               \
	"  --max-bytes N         refuse a response larger than N bytes\n"                         \
	"  --cacert FILE         trust this CA bundle instead of the system's\n"                  \
	"                        ($SBLEDGER_CA_BUNDLE); certificates are always verified\n"       \
	"  --verbose             trace requests and statuses on stderr (never a key)\n"           \
	"\n"                                                                                      \
	"Keys come from the environment only: DEEPINFRA_API_KEY, VERCEL_TOKEN\n"                  \
	"(VERCEL_TEAM_ID or VERCEL_TEAM_SLUG names a Vercel team); a key a response\n"            \
	"echoes is stored, printed and traced as [key].  The key goes to the first\n"            \
	"page's origin only; each redirect is checked before it is followed.  A\n"               \
	"fetch is one batch whose source is the URL, and all or nothing: a\n"                    \
	"response cut off or of the wrong shape stores nothing.\n"                               \
	"\n"                                                                                      \
	"Exit 0 on success, 64 usage (or a key not set), 65 a response rejected,\n"               \
	"69 the provider refused (401 bad key, 402 account suspended, other 4xx,\n"              \
	"an untrusted certificate, a redirect refused), 75 try again later (429\n"              \
	"or 5xx after the retries, a timeout, a response cut off).\n"

const sb_command sb_fetch_commands[] = {
	{"fetch billing", parse_fetch, run_fetch, sizeof(fetch_cli), CMD_WRITES,
	 "--provider vercel --period P [OPTIONS]",
	 "Fetch the provider's charges for period P and import them as billing\n"
	 "lines (vercel: GET /v1/billing/charges, FOCUS JSON Lines, streamed and\n"
	 "paged).  The response is the statement of record for period P: lines of\n"
	 "earlier batches of the same format and backend inside P, and the same\n"
	 "charges as its lines, are superseded.\n"
	 "\n"
	 "  --provider vercel     the provider (required; vercel bills this way)\n"
	 "  --period P            the charges of period P (required)\n"
	 FETCH_OPTIONS_HELP,
	 "fetch a provider's charges for a period (vercel)", fetch_period_options,
	 "sbledger fetch billing --provider vercel --period yesterday\n"
	 "sbledger fetch billing --provider vercel --period 2026-11 --verbose\n"},
	{"fetch catalog", parse_fetch, run_fetch, sizeof(fetch_cli), CMD_WRITES,
	 "--provider deepinfra [--from DATE] [OPTIONS]",
	 "Fetch the provider's plans and prices and store them as rate cards\n"
	 "(deepinfra: GET /v1/sandboxes/catalog; one card of backend deepinfra per\n"
	 "plan, usd_per_minute = price_per_hour / 60 rounded half to even to the\n"
	 "nanodollar), in force from now or from --from DATE.  A plan whose price\n"
	 "is unchanged is not stored again.  The catalog is as of now: it takes no\n"
	 "--period.\n"
	 "\n"
	 "  --provider deepinfra  the provider (required; deepinfra has a catalog)\n"
	 "  --from DATE           the cards are in force from DATE (a date or an\n"
	 "                        RFC 3339 timestamp) instead of now, and reprice\n"
	 "                        the runs started since\n"
	 FETCH_OPTIONS_HELP,
	 "fetch a provider's plans as rate cards (deepinfra)", fetch_catalog_options,
	 "sbledger fetch catalog --provider deepinfra\n"
	 "sbledger fetch catalog --provider deepinfra --from 2026-11-01\n"},
	{"fetch usage", parse_fetch, run_fetch, sizeof(fetch_cli), CMD_WRITES,
	 "--provider deepinfra --period P [OPTIONS]",
	 "Fetch the provider's spend for period P and import it as billing lines\n"
	 "(deepinfra: GET /payment/usage, one account-level line per month, format\n"
	 "deepinfra-usage).  A month fetched again supersedes its earlier line.\n"
	 "\n"
	 "  --provider deepinfra  the provider (required; deepinfra reports spend)\n"
	 "  --period P            the months of period P (required)\n"
	 FETCH_OPTIONS_HELP,
	 "fetch a provider's spend per month (deepinfra)", fetch_period_options,
	 "sbledger fetch usage --provider deepinfra --period 2026-11\n"
	 "DEEPINFRA_API_KEY=... sbledger fetch usage --provider deepinfra --period this-month\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
