/* fetch.h: the command-line side of fetching from provider APIs, shared by
 * 'fetch ...' and 'nightly'. */
#ifndef SB_CLI_FETCH_H
#define SB_CLI_FETCH_H

#include <stdbool.h>

#include "cli/cli.h"
#include "importers/provider.h"

/* How fetches print. */
typedef struct cli_fetch {
	sb_cli *cli;            /* the running command */
	bool verbose;           /* --verbose: trace requests and statuses on stderr */
	long shown;             /* rejected records printed for the current fetch */
} cli_fetch;

/* Fill o with the defaults, then with the environment:
 * SBLEDGER_HTTP_BACKOFF_MS, SBLEDGER_HTTP_RETRIES, SBLEDGER_HTTP_TIMEOUT_MS
 * (whole numbers) and SBLEDGER_CA_BUNDLE.  SB_EUSAGE naming the variable
 * when one is not a whole number. */
int cli_http_opts(sb_http_opts *o, sb_err *e);

/* Query parameters a provider takes from the environment, at most. */
#define CLI_FETCH_PARAMS 8

/* What a fetch from p takes from the environment, into o: the base URL
 * ($SBLEDGER_<PROVIDER>_URL, unless o has one: --base-url), the key (the
 * variable p->key_env names; NULL when it is not set, which sb_fetch
 * refuses), the query parameters of p->env_params (into params, room for
 * 2 * CLI_FETCH_PARAMS + 1), $TMPDIR, and the command line's words for
 * rejected records.  The strings are the environment's. */
void cli_fetch_env(const sb_provider *p, sb_fetch_opts *o, const char **params);

/* Wire the events of o (retries, trace, rejects) to print through cf on
 * stderr.  cf must outlive the fetches. */
void cli_fetch_events(cli_fetch *cf, sb_fetch_opts *o);

/* sb_fetch with SIGPIPE ignored while it runs (a provider closing its
 * end must not kill sbledger), its rejected records counted afresh in
 * cf->shown (ctx is the cli_fetch): an sb_nightly_fetch_fn. */
int cli_fetch_guarded(void *ctx, sb_db *db, const sb_provider *p, const sb_endpoint *ep,
                      const sb_fetch_opts *o, sb_fetch_result *r, sb_err *e);

/* Print what a fetch of ep of p did (rc, r, e): the rejects past those
 * shown, a line on stdout unless --quiet, the error on stderr; returns
 * its exit status. */
int cli_fetch_print(cli_fetch *cf, const sb_provider *p, const sb_endpoint *ep, int rc,
                    const sb_fetch_result *r, const sb_err *e);

/* Fetch ep of p into db with o and what the environment gives a fetch
 * from p (its key, $SBLEDGER_<PROVIDER>_URL unless o has a base URL, its
 * query parameters, $TMPDIR), print what it did (a line on stdout unless
 * --quiet, the error on stderr) and return its exit status. */
int cli_fetch_run(cli_fetch *cf, sb_db *db, const sb_provider *p, const sb_endpoint *ep,
                  const sb_fetch_opts *o);

#endif
