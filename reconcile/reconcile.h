/* reconcile.h: computed against billed, per backend and per session, with
 * the drift explained (docs/reconcile.md).
 */
#ifndef SB_RECONCILE_H
#define SB_RECONCILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "ledger/db.h"
#include "ledger/period.h"

/* Default tolerances: 0.01 USD, and 5% of computed. */
#define SB_DEFAULT_ABS_NANOS INT64_C(10000000)
#define SB_DEFAULT_REL_PPB INT64_C(50000000)

typedef struct sb_recon_opts {
	sb_period period;        /* what to reconcile */
	int64_t abs_nanos;       /* --abs-tol in nanodollars */
	int64_t rel_ppb;         /* --rel-tol in parts per 10^9 */
	bool all_sessions;       /* list every session, not only those not ok */
} sb_recon_opts;

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
	const char *verdict;           /* "lifetime", "rate", "unexplained", or NULL unless drift is flagged */
} sb_explain;

typedef struct sb_recon_backend {
	char backend[65];          /* backend id */
	const char *status;        /* ok, over_billed, under_billed, unbilled, unexpected, partial, currency, no_rate */
	const char *basis;         /* billed, metered, run, or NULL */
	int64_t runs;              /* runs in the period */
	int64_t sessions;          /* distinct sessions of those runs */
	int64_t exec_count;        /* their executions */
	int64_t computed_nanos;    /* sum of computed_cost_usd */
	bool has_billed;           /* billed is known */
	int64_t billed_nanos;      /* billed in USD */
	bool has_drift_rel;        /* drift_rel is known (billed known, computed not 0) */
	int64_t drift_rel_micro;   /* drift / computed in millionths */
	bool has_tax;              /* FOCUS Tax lines in the period */
	int64_t tax_nanos;         /* their sum in USD */
	int64_t abs_nanos;         /* the tolerance applied */
	int64_t rel_ppb;
	bool free;                 /* the backend's card in force says free */
	sb_explain explain;        /* why billed differs */
} sb_recon_backend;

typedef struct sb_recon_session {
	char *session_id;          /* NULL for runs that named no session */
	char backend[65];          /* its backend */
	const char *status;        /* as for backends */
	int64_t runs;              /* its runs in the period */
	int64_t computed_nanos;    /* their computed_cost_usd */
	bool has_billed;           /* billed is known */
	int64_t billed_nanos;      /* its lines' sum, else its runs' own billed */
} sb_recon_session;

typedef struct sb_recon {
	sb_recon_opts opts;            /* what was asked */
	sb_recon_backend *backends;    /* by name */
	size_t n_backends;
	sb_recon_session *sessions;    /* the sessions listed, by backend then session */
	size_t n_sessions;
	int64_t flagged;               /* backends and sessions over_billed, under_billed, unexpected or currency */
	int64_t recon_id;              /* the stored reconciliation, 0 when not stored */
} sb_recon;

/* Reconcile the period.  The caller owns *out (sb_recon_free). */
int sb_reconcile(sb_db *db, const sb_recon_opts *opts, sb_recon **out, sb_err *e);

/* True when a status counts as flagged (--fail-on-drift). */
bool sb_recon_status_flagged(const char *status);

/* The result as the JSON of docs/reconcile.md.  New reference, or NULL
 * when memory ran out (never a document with members missing). */
json_t *sb_recon_json(const sb_recon *r);

/* Store r (parameters, per-backend and listed per-session results, and the
 * JSON) in one transaction; sets r->recon_id. */
int sb_recon_store(sb_db *db, sb_recon *r, sb_err *e);

/* Free r; NULL is allowed. */
void sb_recon_free(sb_recon *r);

/* Set the tolerance of one backend. */
int sb_tolerance_set(sb_db *db, const char *backend, int64_t abs_nanos, int64_t rel_ppb,
                     sb_err *e);

#endif
