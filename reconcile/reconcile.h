/* reconcile.h: computed against billed, per backend and per session, with
 * the drift explained (docs/reconcile.md).
 */
#ifndef SB_RECONCILE_H
#define SB_RECONCILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/grain.h"
#include "ledger/period.h"
#include "ledger/rates.h"

/* Default tolerances: 0.01 USD, and 5% of computed. */
#define SB_DEFAULT_ABS_NANOS INT64_C(10000000)
#define SB_DEFAULT_REL_PPB INT64_C(50000000)

/* Default --billing-lag: 72 hours.  A backend with runs and no bill is
 * flagged unbilled only once its window ended more than this long ago. */
#define SB_DEFAULT_LAG_MS (INT64_C(72) * 3600000)

/* The steps a billing grid can have (docs/reconcile.md, "Windows"). */
#define SB_GRID_HOUR_MS INT64_C(3600000)
#define SB_GRID_DAY_MS INT64_C(86400000)

typedef struct sb_recon_opts {
	sb_period period;        /* what to reconcile */
	int64_t abs_nanos;       /* --abs-tol in nanodollars */
	int64_t rel_ppb;         /* --rel-tol in parts per 10^9 */
	bool all_sessions;       /* list every session, not only those not ok */
	bool has_now;            /* now_ms is given; else the ledger's clock (sb_db_now_ms) */
	int64_t now_ms;          /* the time of the reconcile: windows not ended by then are pending */
	bool has_lag;            /* billing_lag_ms is given; else SB_DEFAULT_LAG_MS */
	int64_t billing_lag_ms;  /* --billing-lag: unbilled is flagged once the window ended more than this ago */
} sb_recon_opts;

/* The status of a backend or a session (docs/reconcile.md).  Which one a
 * result gets is the precedence table of reconcile.c (sb_recon_status_of);
 * the order here is only that of the names. */
typedef enum sb_recon_status {
	SB_STATUS_OK,             /* billed agrees with computed, nothing else holds */
	SB_STATUS_PENDING,        /* its window has not ended: judged again later */
	SB_STATUS_CURRENCY,       /* a line had no exchange rate and was left out */
	SB_STATUS_NO_RATE,        /* a metered line found no rate and was left out, or a run had no card */
	SB_STATUS_PARTIAL,        /* an account-level line ends after the window */
	SB_STATUS_UNEXPECTED,     /* billed with no runs, or on a free backend */
	SB_STATUS_UNBILLED,       /* computed and nothing billed */
	SB_STATUS_OVER_BILLED,    /* drift flagged, billed above computed */
	SB_STATUS_UNDER_BILLED    /* drift flagged, billed below computed */
} sb_recon_status;

/* Where a backend's billed figure comes from. */
typedef enum sb_recon_basis {
	SB_RBASIS_NONE,           /* nothing billed: no figure */
	SB_RBASIS_BILLED,         /* its billed lines (dollars) */
	SB_RBASIS_METERED,        /* its metered lines, priced by its cards */
	SB_RBASIS_RUN             /* no lines: its runs' own billed_cost_usd */
} sb_recon_basis;

/* The verdict on a flagged drift (docs/reconcile.md, "Explaining"). */
typedef enum sb_verdict {
	SB_VERDICT_NONE,          /* no verdict: drift not flagged, or no run ended */
	SB_VERDICT_LIFETIME,      /* billed is the session lifetime at the card rate */
	SB_VERDICT_RATE,          /* the provider's rate differs from the card's */
	SB_VERDICT_UNEXPLAINED    /* neither */
} sb_verdict;

/* The names, as JSON, the tables and the stored results spell them
 * ("over_billed"); static text.  SB_RBASIS_NONE and SB_VERDICT_NONE have
 * none: NULL (JSON null, NULL in the ledger). */
const char *sb_recon_status_name(sb_recon_status status);
const char *sb_recon_basis_name(sb_recon_basis basis);
const char *sb_verdict_name(sb_verdict verdict);

/* A stored name back to its enum: SB_OK, or SB_EDATA in e for a name this
 * sbledger does not know (NULL included). */
int sb_recon_status_parse(const char *name, sb_recon_status *out, sb_err *e);
int sb_recon_basis_parse(const char *name, sb_recon_basis *out, sb_err *e);
int sb_verdict_parse(const char *name, sb_verdict *out, sb_err *e);

/* The explanation of a backend's drift; has is false when none of its
 * runs in the period has ended_at. */
typedef struct sb_explain {
	bool has;                      /* there is an explanation */
	int64_t exec_ms;               /* sum of total_duration_ms (runs with ended_at) */
	int64_t lifetime_ms;           /* sum of ended_at - started_at */
	bool has_lifetime_cost;        /* every such run had a card */
	int64_t lifetime_nanos;        /* lifetime at the card rate */
	bool has_idle;                 /* idle_nanos is known */
	int64_t idle_nanos;            /* lifetime cost - card cost of the commands */
	bool has_card_rate;            /* the backend has a default card at the period start */
	int64_t card_rate_nanos;       /* its usd_per_minute (0 when free) */
	bool has_implied;              /* billed and lifetime are known */
	int64_t implied_rate_nanos;    /* billed / lifetime minutes */
	bool has_billed_rate;          /* the lines state the minutes billed (explain's Q) */
	int64_t billed_minutes;        /* those minutes x 10^9 */
	int64_t billed_rate_nanos;     /* billed / those minutes, half to even */
	sb_verdict verdict;            /* SB_VERDICT_NONE unless drift is flagged */
} sb_explain;

/* What would price a backend's metered lines that found no rate: the
 * default card in force at the first such line's charge start, and which
 * per-second rates those lines need (docs/reconcile.md, no_rate). */
typedef struct sb_rate_fix {
	int64_t lines;                 /* metered lines left out */
	int64_t first_ms;              /* the earliest one's charge start */
	bool has_card;                 /* a default card is in force then */
	sb_card card;                  /* that card (valid when has_card) */
	bool need_cpu;                 /* some line has vCPU-seconds and the card no such rate */
	bool need_gb;                  /* some line has GiB-seconds and the card no such rate */
	bool has_newer;                /* the backend's newest default card has a needed rate */
	sb_card newer;                 /* that card (its rates fill the command) */
} sb_rate_fix;

typedef struct sb_recon_backend {
	char backend[65];          /* backend id */
	sb_recon_status status;    /* what the judgment found */
	bool flagged;              /* the status is flagged (docs/reconcile.md) */
	sb_recon_basis basis;      /* where billed comes from (SB_RBASIS_NONE: not billed) */
	sb_period window;          /* what it was judged over: the period, or its grid's window */
	int64_t grid_ms;           /* the grid's step (SB_GRID_DAY_MS, SB_GRID_HOUR_MS) when the window is the grid's, else 0 */
	int64_t runs;              /* runs in the window */
	int64_t sessions;          /* distinct sessions of those runs */
	int64_t exec_count;        /* their executions */
	int64_t computed_nanos;    /* sum of computed_cost_usd */
	bool has_billed;           /* billed is known */
	int64_t billed_nanos;      /* billed in USD */
	bool has_drift;            /* billed is known (drift = billed - computed) */
	int64_t drift_nanos;       /* billed - computed */
	bool has_drift_rel;        /* drift_rel is known (billed known, computed not 0) */
	int64_t drift_rel_micro;   /* drift / computed in millionths */
	bool has_tax;              /* FOCUS Tax lines in the window */
	int64_t tax_nanos;         /* their sum in USD */
	int64_t abs_nanos;         /* the tolerance applied */
	int64_t rel_ppb;
	bool free;                 /* the backend's card in force says free */
	int64_t sessions_flagged;  /* how many of its sessions are flagged */
	int64_t currency_lines;    /* lines left out for want of an exchange rate */
	char currency[8];          /* the first such line's currency */
	int64_t partial_end_ms;    /* the latest end of an account-level line ending after the window */
	sb_rate_fix rate_fix;      /* no_rate: what to set */
	sb_grain grain;            /* the grain it is billed at (SB_GRAIN_DAY or SB_GRAIN_MONTH) */
	bool off_grain;            /* billed by the month and judged over a period that is not
	                              whole months: partial, never flagged */
	int64_t unpriced_runs;     /* no_rate: runs with no card in force at their start (card cost unknown) */
	int64_t unpriced_from_ms;  /* the earliest one's started_at (when unpriced_runs > 0) */
	sb_explain explain;        /* why billed differs */
} sb_recon_backend;

typedef struct sb_recon_session {
	char *session_id;          /* NULL for runs that named no session */
	char backend[65];          /* its backend */
	sb_recon_status status;    /* as for backends */
	bool flagged;              /* the status is flagged */
	int64_t runs;              /* its runs in the period */
	int64_t computed_nanos;    /* their computed_cost_usd */
	bool has_billed;           /* billed is known */
	int64_t billed_nanos;      /* its lines' sum, else its runs' own billed */
} sb_recon_session;

typedef struct sb_recon {
	sb_recon_opts opts;            /* what was asked, with now and the lag resolved */
	sb_recon_backend *backends;    /* by name */
	size_t n_backends;
	sb_recon_session *sessions;    /* the sessions listed, by backend then session */
	size_t n_sessions;
	int64_t flagged;               /* flagged_backends + flagged_sessions */
	int64_t flagged_backends;      /* backends flagged */
	int64_t flagged_sessions;      /* sessions flagged (listed or not) */
	int64_t pending;               /* backends pending */
	int64_t recon_id;              /* the stored reconciliation, 0 when not stored */
	int64_t change_id;             /* the newest logged change when it was judged (ledger/changes.h) */
} sb_recon;

/* Reconcile the period.  The caller owns *out (sb_recon_free). */
int sb_reconcile(sb_db *db, const sb_recon_opts *opts, sb_recon **out, sb_err *e);

/* The conditions a backend or session can meet (several at once); the
 * status is the first of the precedence that holds. */
enum {
	SB_COND_PENDING = 1u << 0,      /* its window has not ended at the time of the reconcile */
	SB_COND_CURRENCY = 1u << 1,     /* a line had no exchange rate and was left out */
	SB_COND_NO_RATE = 1u << 2,      /* a metered line found no rate and was left out, or a run had no card */
	SB_COND_PARTIAL = 1u << 3,      /* an account-level line starts in the window and ends after it */
	SB_COND_UNEXPECTED = 1u << 4,   /* billed > 0 with no runs, or on a free backend */
	SB_COND_UNBILLED = 1u << 5,     /* computed > 0 and nothing billed */
	SB_COND_OVER = 1u << 6,         /* drift flagged, billed above computed */
	SB_COND_UNDER = 1u << 7         /* drift flagged, billed below computed */
};

/* The status of a set of SB_COND_* conditions: the first of the
 * precedence table that holds, SB_STATUS_OK when none does. */
sb_recon_status sb_recon_status_of(unsigned conds);

/* |drift| > max(abs_nanos, rel_ppb / 10^9 x base), compared exactly in
 * 128-bit integers (nothing rounded before the comparison). */
bool sb_recon_beyond(__int128 drift, int64_t base, int64_t abs_nanos, int64_t rel_ppb);

/* Whether status is flagged when its window ended window_to_ms and the
 * reconcile ran at now_ms with billing_lag_ms: over_billed, under_billed,
 * unexpected, partial, currency, no_rate always; unbilled once
 * now_ms - window_to_ms > billing_lag_ms; pending and ok never. */
bool sb_recon_flags(sb_recon_status status, int64_t window_to_ms, int64_t now_ms,
                    int64_t billing_lag_ms);

struct sb_flags;   /* reconcile/flags.h */

/* Store r (parameters, per-backend and listed per-session results, and
 * result_json, the whole result as JSON text, which the caller renders:
 * report/recon_json.h, sb_recon_json_text with JSON_COMPACT) in one
 * transaction, with the flags it raises, keeps, reopens or resolves
 * (reconcile/flags.h; what happened to each appended to *moves, which may
 * be NULL); sets r->recon_id.  result_json NULL (the text could not be
 * made whole: out of memory) is SB_EINTERNAL, and nothing is stored. */
int sb_recon_store(sb_db *db, sb_recon *r, const char *result_json, struct sb_flags *moves,
                   sb_err *e);

/* Free r; NULL is allowed. */
void sb_recon_free(sb_recon *r);

/* Set the tolerance of one backend. */
int sb_tolerance_set(sb_db *db, const char *backend, int64_t abs_nanos, int64_t rel_ppb,
                     sb_err *e);

#endif
