/* nightly.h: the nightly job, the one cron runs (docs/providers.md, "The
 * nightly job"; docs/reconcile.md for what judging again means).
 *
 * A run imports every new file of the inbox (nightly/inbox.h; a file
 * already in the ledger is known by its SHA-256 and not read again),
 * fetches what the caller asks from the providers (each endpoint of each:
 * the catalog as of now, usage and billing for the period), reconciles
 * the period and stores the result with its summary, then judges again
 * every earlier stored period left pending, or unbilled and now past the
 * billing lag, and the period that ended the billing lag ago when it was
 * never judged (sb_nightly_periods), and writes the reports of every
 * period it judged (nightly/reports.h).  It says whether the run needs a
 * look (sb_nightly_needs_attention): what decides that cron mails.
 *
 * The library prints nothing and reads no environment: the caller hands
 * it the clock (the ledger's), each provider's key and options, the test
 * hooks, and callbacks that report each step as it ends, in order, so
 * that a face can print as the run goes.  Every message is in the
 * library's words (ledger/err.h), names quoted (ledger/quote.h).
 */
#ifndef SB_NIGHTLY_H
#define SB_NIGHTLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "importers/import.h"
#include "importers/provider.h"
#include "ledger/db.h"
#include "ledger/err.h"
#include "ledger/period.h"
#include "ledger/quote.h"
#include "reconcile/reconcile.h"

/* How a fetch runs: sb_fetch's signature (the caller may wrap it, to
 * print as it goes or to guard a signal). */
typedef int (*sb_nightly_fetch_fn)(void *ctx, sb_db *db, const sb_provider *p,
                                   const sb_endpoint *ep, const sb_fetch_opts *o,
                                   sb_fetch_result *r, sb_err *e);

/* One provider to fetch from, with everything its fetches need but the
 * period (the run's). */
typedef struct sb_nightly_fetch {
	const sb_provider *provider;  /* the provider */
	sb_fetch_opts opts;           /* its key, base URL, HTTP options, events, words */
} sb_nightly_fetch;

/* What a run tells its caller as it goes; any of them NULL. */
typedef struct sb_nightly_events {
	/* something to say that is not a step's result: an inbox entry not
	 * followed, a report not written, a period that could not be judged
	 * (problem->code the exit status it weighs) */
	void (*on_problem)(void *ctx, const sb_err *problem);
	/* a rejected record of an inbox file (as sb_import_events) */
	void (*on_reject)(void *ctx, const char *source, int64_t line_no, const char *reason);
	/* an inbox file was imported (real its resolved path): its result,
	 * and its error (e->code SB_OK when none) */
	void (*on_imported)(void *ctx, const char *real, const sb_import_result *r, const sb_err *e);
	/* a fetch ended: its result and its error */
	void (*on_fetched)(void *ctx, const sb_provider *p, const sb_endpoint *ep, int rc,
	                   const sb_fetch_result *r, const sb_err *e);
	void *ctx;                    /* passed back to each */
} sb_nightly_events;

typedef struct sb_nightly_opts {
	const char *inbox;            /* the inbox as the user named it (messages) */
	const char *root;             /* the inbox resolved (sb_inbox_resolve) */
	const char *out;              /* where the reports go: OUT/PERIOD/ */
	const sb_invocation *ledger;  /* how sbledger was run, the ledger as the user named it:
	                                 what the page's commands begin with (NULL: "sbledger") */
	sb_period period;             /* the period to judge */
	bool has_lag;                 /* billing_lag_ms is given; else SB_DEFAULT_LAG_MS */
	int64_t billing_lag_ms;       /* a backend with runs and no bill is flagged unbilled
	                                 once its window ended more than this ago */
	bool supersede;               /* billing files supersede the lines of earlier batches
	                                 inside their span */
	bool fail_on_drift;           /* a flag weighs SB_FLAGGED in the run's status */
	const sb_nightly_fetch *fetches; /* the providers to fetch from, in order */
	size_t n_fetches;             /* how many */
	sb_nightly_fetch_fn fetch;    /* how a fetch runs (NULL: sb_fetch) */
	sb_words_fn words;            /* the caller's words for rejected records (import.h) */
	const char *pause_path;       /* tests: the import pause (sb_import_opts) */
	int64_t bulk_min;             /* tests: the import's bulk threshold (sb_import_opts;
	                                 0: the default) */
	const char *rebuild_pause_path; /* tests: the pause after the indexes are built again
	                                 (sb_import_opts) */
	const char *pause_checked;    /* tests: the inbox pause (sb_inbox_walk) */
	sb_nightly_events events;     /* callbacks */
} sb_nightly_opts;

/* A period judged tonight. */
typedef struct sb_nightly_judged {
	sb_period period;             /* the period */
	const char *why;              /* why it is judged (static text; NULL: the run's period) */
	bool first_time;              /* never judged before: stored only when it has backends */
	sb_recon *r;                  /* its result, NULL when judging it failed (on_problem
	                                 said why) */
	char dir[4096];               /* where its reports are ("" when none were written) */
	bool reports_ok;              /* every report was written */
} sb_nightly_judged;

/* What a run did. */
typedef struct sb_nightly_result {
	int status;                   /* the worst exit status of every step */
	long files;                   /* inbox files imported now */
	long already;                 /* inbox files found already in the ledger */
	long rejected;                /* records rejected by this run's imports and fetches */
	sb_nightly_judged main;       /* the run's period */
	sb_nightly_judged *extra;     /* the earlier periods judged again (malloc'd) */
	size_t n_extra;               /* how many */
	int64_t again_backends;       /* backends flagged among them */
	int64_t again_sessions;       /* sessions flagged among them */
	bool attention;               /* sb_nightly_needs_attention */
} sb_nightly_result;

/* Run the nightly job on db (opened with SB_DB_WRITE: its write lock is
 * held throughout, so a second run waits for the first) with o, into *r
 * (the caller frees it: sb_nightly_result_free).  Returns r->status.
 * When the run's own period cannot be judged, nothing more is done and
 * r->main.r is NULL. */
int sb_nightly_run(sb_db *db, const sb_nightly_opts *o, sb_nightly_result *r);

/* Free what r holds (not r). */
void sb_nightly_result_free(sb_nightly_result *r);

/* Whether a run needs a look, which decides whether cron mails: a
 * backend or a session flagged in any period judged, or any step that did
 * not end well (a rejected record, an inbox file not followed, a fetch or
 * a report that failed: status not SB_OK).  A pending or not yet overdue
 * unbilled backend alone does not. */
bool sb_nightly_needs_attention(const sb_nightly_result *r);

/* The period of p's shape just before it: the day, month or year before a
 * whole UTC day, month or year, else the span of the same length just
 * before. */
sb_period sb_nightly_prev_period(const sb_period *p);

/* The period that ended the billing lag ago: the latest period of p's
 * shape before p whose next period also ended more than lag_ms before
 * now_ms, so that even a window reaching past its end (a grid off the UTC
 * edges) ended more than the lag ago.  False when there is none within
 * reach (p far in the future). */
bool sb_nightly_lag_period(const sb_period *p, int64_t now_ms, int64_t lag_ms, sb_period *out);

/* The periods to judge beyond period: every earlier stored period whose
 * result had a backend pending, or unbilled and now past the billing lag
 * (docs/reconcile.md), then the period sb_nightly_lag_period gives when
 * it was never judged (first_time) and is not already among them; into
 * *list (malloc'd, the caller frees it; r NULL in each). */
int sb_nightly_periods(sb_db *db, const sb_period *period, int64_t now_ms, int64_t lag_ms,
                       sb_nightly_judged **list, size_t *count, sb_err *e);

#endif
