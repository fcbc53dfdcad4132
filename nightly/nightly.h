/* nightly.h: the nightly job, the one cron runs (docs/providers.md, "The
 * nightly job"; docs/reconcile.md for what judging again means).
 *
 * A run imports every new file of the inbox (nightly/inbox.h; a file
 * already in the ledger is known by its SHA-256 and not read again),
 * fetches what the caller asks from the providers (each endpoint of each:
 * the catalog as of now, usage and billing for the period; a provider
 * whose key is missing is skipped, once), then judges: every day up to
 * yesterday (UTC) within --catch-up days that holds runs or lines of a
 * backend billed by the day and has no current result (the latest stored
 * one, not stale, judged with the default tolerances), every month that
 * holds a backend billed by the month once it ended more than the billing
 * lag ago, every stale result in reach, every result with a backend
 * pending or unbilled and now past the billing lag, and --period when
 * given.  Each is stored (replacing the result it had), its flags judged
 * (reconcile/flags.h), its reports written (nightly/reports.h).  Older
 * days left unjudged are named as ranges.
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
#include "reconcile/flags.h"
#include "reconcile/recon_detail.h"
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
	bool has_period;              /* period is given (--period): judged as well */
	sb_period period;             /* the period --period names */
	int64_t catch_up_days;        /* --catch-up: how many days back are judged (default 35) */
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

/* Why a period is judged tonight. */
typedef enum sb_nightly_why {
	SB_WHY_ASKED,      /* --period */
	SB_WHY_FIRST,      /* it holds runs or lines and was never judged */
	SB_WHY_STALE,      /* something committed after its result moves a figure it judged */
	SB_WHY_RULES,      /* its result was judged with other tolerances or another grain */
	SB_WHY_PENDING,    /* its result had a backend whose window had not ended */
	SB_WHY_LAGGED      /* a bill it lacked is now past the billing lag */
} sb_nightly_why;

/* What moved for one backend between a period's earlier result and
 * tonight's. */
typedef struct sb_nightly_change {
	char backend[65];             /* backend id */
	bool had;                     /* the earlier result had it */
	sb_recon_status old_status;   /* its earlier status and figures (when had) */
	int64_t old_computed;
	bool old_has_billed;
	int64_t old_billed;
	bool old_flagged;
	bool has;                     /* tonight's result has it */
	sb_recon_status new_status;   /* tonight's (when has) */
	int64_t new_computed;
	bool new_has_billed;
	int64_t new_billed;
	bool new_flagged;
	bool new_off_grain;           /* tonight's is partial by its grain (billed by the month, judged on less) */
	int64_t batch_id;             /* the newest batch that moved its figures since, 0 none */
} sb_nightly_change;

/* A period judged tonight. */
typedef struct sb_nightly_judged {
	sb_period period;             /* the period */
	sb_nightly_why why;           /* why it is judged */
	int64_t prev_id;              /* the result it replaces, 0 none */
	sb_recon *r;                  /* its result, NULL when judging it failed (on_problem
	                                 said why) */
	sb_nightly_change *changes;   /* what moved since prev_id (malloc'd) */
	size_t n_changes, cap_changes;
	sb_flags flags;               /* what its result did to each flag */
	char dir[4096];               /* where its reports are ("" when none were written) */
	bool reports_ok;              /* every report was written */
} sb_nightly_judged;

/* What a run did. */
typedef struct sb_nightly_result {
	int status;                   /* the worst exit status of every step */
	long files;                   /* inbox files imported now */
	long already;                 /* inbox files found already in the ledger */
	long rejected;                /* records rejected by this run's imports and fetches */
	long fetches_skipped;         /* fetches left out (a key missing) */
	sb_night_fetch *fetch_faults; /* the fetches skipped or failed, in order (malloc'd;
	                                 the pages' verdicts lead with them) */
	size_t n_fetch_faults, cap_fetch_faults;
	sb_nightly_judged *judged;    /* the periods judged, oldest first (malloc'd) */
	size_t n_judged;
	size_t n_first;               /* of which judged for the first time */
	sb_period *unjudged;          /* older days holding runs or lines and no current
	                                 result, as ranges, oldest first (malloc'd) */
	size_t n_unjudged;
	int64_t unjudged_days;        /* the --catch-up that would judge them all */
	size_t stale_older;           /* stale results older than --catch-up, not judged */
	sb_flags open;                /* every open flag after the run */
	bool open_judged;             /* a result stored tonight has an open flag */
	bool attention;               /* sb_nightly_needs_attention */
} sb_nightly_result;

/* Run the nightly job on db (opened with SB_DB_WRITE: its write lock is
 * held throughout, so a second run waits for the first) with o, into *r
 * (the caller frees it: sb_nightly_result_free).  Returns r->status. */
int sb_nightly_run(sb_db *db, const sb_nightly_opts *o, sb_nightly_result *r);

/* The stale stored results of the periods ending after since_ms
 * (INT64_MIN: every one), oldest first: the latest result of each period
 * that a change committed since moves (a run, a line, a rate card, a
 * price, an exchange rate, a tolerance or a grain meeting it:
 * sql/queries/recon_latest.sql), or that judged a backend at a grain it
 * no longer has (an auto grain its lines moved).  What a night judges
 * again within --catch-up, and 'reconciliations' calls stale.  Their ids
 * into *ids (malloc'd, the caller frees it; NULL when none), how many
 * into *n. */
int sb_nightly_stale(sb_db *db, int64_t since_ms, int64_t **ids, size_t *n, sb_err *e);

/* Judge again, by hand (reconcile --stale), every stale result of
 * sb_nightly_stale(db, since_ms) as a night does: oldest first, with the
 * default tolerances and the billing lag lag_ms, each stored (naming the
 * result it replaces) with its flags judged, and what moved since kept as
 * a night keeps it (r->judged[i].changes); no reports written.  Into *r
 * (the caller frees it: sb_nightly_result_free): r->judged,
 * r->open_judged, r->stale_older (the stale results that ended by
 * since_ms, left as they are), and r->status SB_FLAGGED when fail_on_drift and a
 * result stored has an open flag.  Stops at the first period that fails
 * (e says why; the ones stored before it stay stored, its j->r NULL).
 * Returns the error's code, else r->status. */
int sb_nightly_judge_stale(sb_db *db, int64_t since_ms, int64_t lag_ms, bool fail_on_drift,
                           sb_nightly_result *r, sb_err *e);

/* Free what r holds (not r). */
void sb_nightly_result_free(sb_nightly_result *r);

/* Whether a run needs a look, which decides whether cron mails: an open
 * flag, a result whose figures or status moved, a rejected record, a
 * fetch skipped, a day left unjudged, or any step that did not end well
 * (status not SB_OK).  A pending or not yet overdue unbilled backend
 * alone does not. */
bool sb_nightly_needs_attention(const sb_nightly_result *r);

/* Write OUT/heartbeat.json: when the run was (now_ms), how it ended
 * (status), how many periods it judged and flags are open, the seal head
 * (none yet: null), so that a monitor can tell a night that never ran
 * from a quiet one; r NULL for a night that could not open the ledger
 * (0 periods judged, open flags null: not known).  Written whole or not
 * at all (as the reports). */
int sb_nightly_heartbeat(const char *out, int64_t now_ms, int status,
                         const sb_nightly_result *r, sb_err *e);

#endif
