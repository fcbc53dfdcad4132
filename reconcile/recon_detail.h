/* recon_detail.h: what the reconciliation page shows beyond the result of
 * reconcile.h (docs/reports.md, "The reconciliation page"): the money at
 * stake, the flagged sessions worst first with their runs summarised, the
 * flags of the period and their handling, the drift per day from stored
 * reconciliations, and what a night imported and what went wrong in it.
 *
 * Data only, read from the ledger or worked out from an sb_recon: the
 * page (report/recon_page.h) renders it and decides nothing.  Every
 * function that allocates says so, and what frees it.
 */
#ifndef SB_RECON_DETAIL_H
#define SB_RECON_DETAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/err.h"
#include "ledger/period.h"
#include "reconcile/flags.h"
#include "reconcile/reconcile.h"

/* How many of a session's commands the page names, how many characters
 * of a command's text it keeps, how many flagged sessions it details, and
 * how many days its trend covers. */
#define SB_DETAIL_COMMANDS 3
#define SB_DETAIL_COMMAND_CHARS 160
#define SB_DETAIL_SESSIONS 50
#define SB_TREND_DAYS 30

/* The money a reconciliation puts at stake: the |drift| of every flagged
 * backend, plus the |drift| of every flagged session of a backend that is
 * not flagged itself (a flagged backend's sessions are inside its own
 * drift: counting them too would count the same dollars twice).  A
 * flagged backend or session with no drift figure (nothing billed, or
 * billed unknown: unbilled, no_rate) adds nothing and is counted apart. */
typedef struct sb_recon_stake {
	int64_t nanos;             /* the sum, in nanodollars */
	int64_t backends;          /* flagged backends whose |drift| is in it */
	int64_t sessions;          /* flagged sessions (of backends not flagged) whose |drift| is in it */
	int64_t unknown_backends;  /* flagged backends with no drift figure */
	int64_t unknown_sessions;  /* flagged sessions of backends not flagged with no drift figure */
} sb_recon_stake;

/* The money at stake of r into *out.  SB_EDATA when the sum does not fit
 * in 64-bit nanodollars (never a wrapped sum). */
int sb_recon_at_stake(const sb_recon *r, sb_recon_stake *out, sb_err *e);

/* A session's drift, billed - computed, into *drift: false when its
 * billed is unknown or the difference does not fit (as the JSON has it:
 * drift_usd null). */
bool sb_recon_session_drift(const sb_recon_session *s, int64_t *drift);

/* The tolerance of a backend's result in nanodollars: max(abs_nanos,
 * rel_ppb x computed / 10^9), the product rounded half to even to the
 * nanodollar (for showing the band; the flag itself is compared exactly
 * by sb_recon_beyond). */
int64_t sb_recon_tolerance_nanos(const sb_recon_backend *b);

/* One command of a session, summed over its executions. */
typedef struct sb_detail_command {
	char *text;                /* the command, cut to SB_DETAIL_COMMAND_CHARS characters; NULL when none was recorded */
	bool cut;                  /* the text was longer */
	int64_t execs;             /* how many times it ran */
	int64_t duration_ms;       /* its wall time in all */
	bool has_cost;             /* every execution of it had a cost */
	int64_t cost_nanos;        /* their cost in all (valid when has_cost) */
} sb_detail_command;

/* A flagged session and its runs in the period, summarised. */
typedef struct sb_detail_session {
	const sb_recon_session *session; /* borrowed from the sb_recon */
	bool has_drift;            /* its drift is known */
	int64_t drift_nanos;       /* billed - computed */
	int64_t runs;              /* its runs in the period */
	int64_t exec_ms;           /* their command time */
	int64_t ended;             /* how many of them have ended_at */
	int64_t lifetime_ms;       /* the life of those */
	sb_detail_command commands[SB_DETAIL_COMMANDS]; /* the costliest first */
	size_t n_commands;
} sb_detail_session;

/* One backend's stored result of one day. */
typedef struct sb_trend_point {
	int64_t from_ms;           /* the day reconciled, [from, to) */
	int64_t to_ms;
	sb_recon_status status;    /* its status that day */
	bool flagged;              /* it was flagged (false when the result predates flags) */
	int64_t computed_nanos;    /* computed */
	bool has_billed;           /* billed is known */
	int64_t billed_nanos;      /* billed */
	bool has_drift;            /* drift is known */
	int64_t drift_nanos;       /* billed - computed */
	int64_t recon_id;          /* the stored reconciliation */
} sb_trend_point;

/* One backend's points, by day. */
typedef struct sb_trend_series {
	char backend[65];          /* backend id */
	sb_trend_point *points;    /* n_points of them, by day */
	size_t n_points;
	size_t n_drift;            /* how many have a drift figure */
} sb_trend_series;

/* Drift per backend and day over a period: for each day inside it that a
 * stored reconciliation of that day (24 h) judged, the latest stored
 * result of each backend (the rows of 'report drift --by day'). */
typedef struct sb_trend {
	sb_period period;          /* the days it covers */
	sb_trend_series *series;   /* by backend */
	size_t n_series;
} sb_trend;

/* The SB_TREND_DAYS UTC days a reconciliation of p looks back over: those
 * ending at p's end (rounded up to a UTC midnight). */
sb_period sb_trend_window(const sb_period *p);

/* Load the trend of period p.  The caller owns *out (sb_trend_free). */
int sb_trend_load(sb_db *db, const sb_period *p, sb_trend **out, sb_err *e);

/* Free t; NULL is allowed. */
void sb_trend_free(sb_trend *t);

/* Everything the reconciliation page needs beyond r. */
typedef struct sb_recon_detail {
	sb_recon_stake stake;      /* the money at stake */
	sb_detail_session *sessions; /* the flagged sessions, worst drift first (|drift| descending, unknown drift last, then by backend and session); at most SB_DETAIL_SESSIONS */
	size_t n_sessions;
	int64_t sessions_left;     /* flagged sessions beyond those */
	sb_trend *trend;           /* the drift of the last SB_TREND_DAYS days (sb_trend_window) */
	sb_flags flags;            /* the open and handled flags of the periods that meet r's
	                              (what 'sbledger flags --period P' lists), as sb_flags_list
	                              orders them */
	int64_t disputed_nanos;    /* the money in dispute: the sum of the disputed ones' at stake */
} sb_recon_detail;

/* Load the detail of r (reconciled in db; the flagged sessions' runs are
 * those of r's period; the flags those of the ledger as it is now, so a
 * dry run's page shows them too; a sum in dispute that does not fit in
 * 64-bit nanodollars is SB_EDATA).  The caller owns *out (sb_recon_detail_free); it
 * borrows from r, which must outlive it. */
int sb_recon_detail_load(sb_db *db, const sb_recon *r, sb_recon_detail **out, sb_err *e);

/* Free d; NULL is allowed. */
void sb_recon_detail_free(sb_recon_detail *d);

/* One batch of a night. */
typedef struct sb_night_batch {
	int64_t batch_id;          /* the batch */
	char *kind;                /* 'runs' or 'billing' */
	char *format;              /* 'runs' or the billing format */
	char *source;              /* the file or URL */
	char *status;              /* complete, failed, ... */
	int64_t accepted;          /* records stored */
	int64_t duplicates;        /* records already in the ledger */
	int64_t rejected;          /* records rejected */
} sb_night_batch;

/* A fetch of a night that brought nothing: skipped (the provider's key
 * was not given: its other endpoints were not tried) or failed. */
typedef struct sb_night_fetch {
	const char *provider;      /* the provider's name (static: its sb_provider's) */
	const char *what;          /* the endpoint: "catalog", "usage", "billing" (static) */
	bool skipped;              /* its key was missing */
	int code;                  /* the exit status it weighs */
	char msg[SB_ERR_MSG_MAX];  /* why, in the caller's words (sb_nightly_opts.words) */
} sb_night_fetch;

/* What a nightly run imported: the batches it began (a batch with
 * rejected records is a rejected file), how many files it found already
 * in the ledger (which make no batch), and, set by the caller, the
 * night's other faults: the fetches that brought nothing and the days it
 * left unjudged.  The faults are borrowed from the caller's run (they
 * are not freed with the imports). */
typedef struct sb_night_imports {
	sb_night_batch *batches;   /* n_batches of them, oldest first */
	size_t n_batches;
	int64_t accepted;          /* their sums */
	int64_t duplicates;
	int64_t rejected;
	int64_t already;           /* files skipped as already imported (set by the caller) */
	const sb_night_fetch *fetches; /* the fetches skipped or failed, in order (caller's) */
	size_t n_fetches;
	const sb_period *unjudged; /* days older than --catch-up holding runs or lines and no
	                              current result, as ranges, oldest first (caller's) */
	size_t n_unjudged;
	int64_t catch_up_days;     /* the night's --catch-up */
	int64_t unjudged_days;     /* the --catch-up that would judge them all */
	const char *inbox;         /* the inbox and the reports' root, as the command that */
	const char *out;           /* judges them names them (caller's) */
} sb_night_imports;

/* How many faults the night had: its rejected files (batches with
 * rejected records), its fetches skipped or failed, its ranges of days
 * left unjudged.  0 for NULL. */
size_t sb_night_faults(const sb_night_imports *n);

/* The newest batch's number into *id (0 when there is none). */
int sb_batch_last_id(sb_db *db, int64_t *id, sb_err *e);

/* The batches begun after batch after_id.  The caller owns *out
 * (sb_night_imports_free). */
int sb_night_imports_load(sb_db *db, int64_t after_id, sb_night_imports **out, sb_err *e);

/* Free n; NULL is allowed. */
void sb_night_imports_free(sb_night_imports *n);

#endif
