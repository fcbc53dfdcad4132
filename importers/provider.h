/* provider.h: provider APIs (docs/providers.md): what each one is, and
 * fetching from it into the ledger.
 *
 * A provider is one file (importers/provider_NAME.c) defining an
 * sb_provider: its name (also the backend its lines and cards belong to),
 * its default base URL, the environment variable holding its key, and its
 * endpoints.  The table in providers.c lists them; adding a provider is one
 * file and one row there.  An endpoint is a path, how a period goes into
 * its query, how its API pages, and what its body becomes: either a
 * billing format (importers/billing.h) that the import driver reads as a
 * batch, or a handler of its own (the DeepInfra catalog becomes rate
 * cards).
 *
 * Every fetch is one batch whose source is the URL (never a key), and is
 * all or nothing: a body cut off or of the wrong shape leaves nothing of
 * it in the ledger but the failed batch and the reason.  A request the
 * provider refuses (401, 402, 4xx) or that keeps failing (429, 5xx) leaves
 * nothing at all.  Nothing here prints.
 */
#ifndef SB_PROVIDER_H
#define SB_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "importers/http.h"
#include "importers/import.h"
#include "ledger/db.h"
#include "ledger/period.h"

/* How a period is written into an endpoint's from= and to= parameters. */
typedef enum {
	SB_QUERY_NONE = 0,   /* the endpoint takes no period */
	SB_QUERY_RFC3339,    /* 2026-11-29T00:00:00Z */
	SB_QUERY_UNIX        /* seconds since the epoch */
} sb_query_time;

/* What a fetch asks for. */
typedef struct sb_fetch_opts {
	const char *base_url;       /* the provider's API at another URL (the command line's
	                               --base-url or $SBLEDGER_<PROVIDER>_URL), or NULL: the
	                               provider's own */
	const char *key;            /* the provider's key (the command line reads it from the
	                               variable p->key_env names), or NULL: none given */
	const char *const *params;  /* query parameters to add: NAME, VALUE pairs ended by
	                               NULL (a pair with an empty VALUE is left out), or NULL;
	                               the command line fills them from p->env_params */
	const char *tmp_dir;        /* where a billing response is spooled to be imported
	                               (the command line's $TMPDIR), or NULL: /tmp */
	bool has_period;            /* period is set (endpoints that take one need it) */
	sb_period period;           /* --period */
	const char *from;           /* catalog: --from DATE (cards in force from then), or NULL:
	                               now */
	sb_http_opts http;          /* timeouts, retries, limits, events */
	sb_import_events events;    /* rejected records */
	sb_words_fn words;          /* the caller's words for the ways out a rejected record's
	                               reason names (import.h), or NULL */
} sb_fetch_opts;

/* What a fetch did. */
typedef struct sb_fetch_result {
	char url[2048];             /* what was fetched: the first page, no secret in it */
	int64_t batch_id;           /* its batch, 0 when none began (a refused request) */
	int64_t already;            /* billing: the same response was imported as this batch */
	int64_t accepted;           /* records (lines, plans) stored */
	int64_t duplicates;         /* records already in the ledger (plans: price unchanged) */
	int64_t rejected;           /* records rejected (then nothing was stored) */
	int64_t skipped;            /* records of no interest */
	int64_t superseded;         /* billing: earlier lines this response superseded */
	int pages;                  /* pages read */
	int64_t bytes;              /* body bytes read */
} sb_fetch_result;

struct sb_provider;
struct sb_endpoint;

/* An endpoint's own handler: read the body of h and store what it holds
 * as one batch, filling r (batch_id, counts).  All or nothing. */
typedef int (*sb_fetch_store_fn)(sb_db *db, const struct sb_provider *p,
                                 const struct sb_endpoint *ep, sb_http *h,
                                 const sb_fetch_opts *o, sb_fetch_result *r, sb_err *e);

/* One endpoint of a provider's API. */
typedef struct sb_endpoint {
	const char *what;           /* the fetch subcommand: "catalog", "usage", "billing" */
	const char *path;           /* under the base URL: "/payment/usage" */
	const char *accept;         /* the Accept header */
	sb_query_time period;       /* how --period is sent (SB_QUERY_NONE: not at all) */
	sb_http_paging paging;      /* how further pages are found */
	int64_t max_bytes;          /* a tighter body limit than the default, or 0 */
	const char *format;         /* the billing format the body is, or NULL ... */
	sb_fetch_store_fn store;    /* ... and then this reads it */
	const char *summary;        /* one line for --help */
} sb_endpoint;

/* One provider. */
typedef struct sb_provider {
	const char *name;           /* --provider; the backend its cards and lines belong to */
	const char *base_url;       /* its API, without a trailing '/' */
	const char *key_env;        /* the environment variable its key is kept in (the
	                               command line reads it; the library is handed the key) */
	const char *const *env_params; /* optional query parameters the command line takes
	                                  from the environment: NAME, VARIABLE pairs ended by
	                                  NULL (Vercel's teamId from VERCEL_TEAM_ID), or NULL */
	const sb_endpoint *endpoints;  /* ended by an entry whose what is NULL */
} sb_provider;

/* The providers, one per file. */
extern const sb_provider sb_provider_deepinfra;
extern const sb_provider sb_provider_vercel;

/* Every provider, ended by NULL.  Static. */
const sb_provider *const *sb_providers(void);

/* The provider named name, or NULL.  Static. */
const sb_provider *sb_provider_find(const char *name);

/* The endpoint of p for what ("catalog", ...), or NULL. */
const sb_endpoint *sb_provider_endpoint(const sb_provider *p, const char *what);

/* The names of every provider offering what, comma separated, into buf. */
char *sb_provider_names(const char *what, char *buf, size_t cap);

/* The base URL a fetch from p goes to: o's, else p's.  Borrowed. */
const char *sb_provider_base(const sb_provider *p, const sb_fetch_opts *o);

/* Fetch ep of p into db (opened with SB_DB_WRITE) as one batch, with the
 * key o->key (SB_EUSAGE when none is given).  Returns SB_OK, or
 * the code of http.h for a failed request, SB_EDATA for a body rejected
 * (r->rejected, nothing stored), SB_EUSAGE for a missing key or period. */
int sb_fetch(sb_db *db, const sb_provider *p, const sb_endpoint *ep, const sb_fetch_opts *o,
             sb_fetch_result *r, sb_err *e);

/* For endpoint handlers: --------------------------------------------------- */

/* Read the whole body of h into *out (malloc'd, NUL-terminated; the caller
 * frees it), at most max bytes: SB_EDATA beyond. */
int sb_fetch_slurp(sb_http *h, size_t max, char **out, size_t *len, sb_err *e);

/* Begin the batch of a fetch (kind, format, r->url as its source), then
 * BEGIN the transaction that holds what it stores. */
int sb_fetch_begin(sb_db *db, const char *kind, const char *format, sb_fetch_result *r,
                   sb_batch *b, sb_err *e);

/* End the batch of a fetch: with ok, COMMIT what it stored and mark it
 * complete with r's counts; else ROLL BACK and mark it failed, keeping
 * reason (and the body's first bytes) as its rejected record when reason
 * is not NULL. */
int sb_fetch_end(sb_db *db, sb_batch *b, bool ok, const char *reason, const char *body,
                 size_t len, sb_fetch_result *r, sb_err *e);

#endif
