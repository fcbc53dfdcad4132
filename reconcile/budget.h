/* budget.h: report budget (docs/reports.md): the two meters of each
 * run side by side, the token meter and the compute meter, against the
 * run's budget_usd.
 *
 * Token cost: input and output tokens at the model's prices per million,
 * rounded half to even once per run; unknown (null) when the model has no
 * price, and the report names the model, or when the run has tokens but
 * no model, and the report names the run (no tokens and no model: 0).  Compute cost, as providers
 * charge: billed where known (the provider's live USD lines naming the
 * run's session, split over the session's runs by lifetime, largest
 * remainder to the nanodollar; else the run's own billed_cost_usd), else
 * the session lifetime at the card rate, else the run's computed cost;
 * unknown (null, never 0) for a run with no bill and no rate card in force
 * at its start, and the report names its backend.
 * A run is over budget when what is known of its total (compute plus
 * token cost) exceeds budget_usd; past the limit when its lifetime
 * (ended_at - started_at) exceeds max_lifetime_ms, and a lifetime cap
 * would have saved the card cost of the lifetime past the limit.
 *
 * Ownership: sb_budget_build allocates the report; sb_budget_free frees it
 * and everything in it.  Nothing here prints.
 */
#ifndef SB_BUDGET_H
#define SB_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/period.h"
#include "ledger/rates.h"

/* Where a run's compute cost comes from: its own billed_cost_usd, else
 * its lifetime at the card rate, else its computed_cost_usd. */
typedef enum sb_compute_basis {
	SB_COMPUTE_BILLED,          /* billed (its own, or its share of its session's bill) */
	SB_COMPUTE_LIFETIME,        /* its lifetime at the card rate */
	SB_COMPUTE_COMPUTED,        /* its computed_cost_usd */
	SB_COMPUTE_BASES            /* how many there are */
} sb_compute_basis;

/* The basis's name ("billed", "lifetime", "computed"; static). */
const char *sb_compute_basis_name(sb_compute_basis basis);

typedef struct sb_budget_run {
	char *run_id;               /* the run */
	char *backend;              /* its backend */
	char *session_id;           /* its session, NULL when none */
	char *plan;                 /* its rate-card plan, NULL for the default card */
	char *model;                /* its model, NULL without token usage */
	int64_t started_ms;         /* started_at */
	bool has_lifetime;          /* ended_at is known */
	int64_t lifetime_ms;        /* ended_at - started_at */
	bool has_budget;            /* budget_usd is known */
	int64_t budget_nanos;       /* budget_usd */
	bool has_token;             /* the token cost is known (the model has a price) */
	bool tokens_without_model;  /* tokens but no model: the token cost is unknown */
	int64_t token_nanos;        /* token cost */
	bool has_compute;           /* the compute cost is known (billed, or a card in force at its start) */
	int64_t compute_nanos;      /* compute cost (0 when unknown) */
	sb_compute_basis compute_basis; /* where compute_nanos comes from (when has_compute) */
	int64_t total_nanos;        /* compute + token (the known part when either is unknown) */
	bool over_budget;           /* total (known part) > budget */
	int64_t over_nanos;         /* total - budget, when over */
	bool over_lifetime;         /* lifetime > the limit */
	bool has_savings;           /* savings_nanos is known (a card prices the backend) */
	int64_t savings_nanos;      /* card cost of the lifetime past the limit */
} sb_budget_run;

typedef struct sb_budget {
	sb_period period;           /* the period */
	int64_t max_lifetime_ms;    /* the lifetime limit */
	sb_budget_run *runs;        /* every run of the period, by backend, session, start */
	size_t n_runs;
	bool has_token;             /* every run's token cost is known */
	int64_t token_nanos;        /* sum of the known token costs */
	bool has_compute;           /* every run's compute cost is known */
	int64_t compute_nanos;      /* sum of the known compute costs */
	int64_t total_nanos;        /* token + compute (known parts) */
	int64_t budget_nanos;       /* sum of the budgets of the runs that have one */
	int64_t budgeted_runs;      /* runs with a budget */
	int64_t over_budget;        /* runs over budget */
	int64_t over_lifetime;      /* runs past the limit */
	int64_t savings_nanos;      /* what a cap at the limit would have saved (known part) */
	int64_t by_basis[SB_COMPUTE_BASES]; /* runs by the basis of their compute (known ones) */
	int64_t compute_unknown;    /* runs whose compute cost is unknown */
	sb_no_card *no_card;        /* their backends, by backend */
	size_t n_no_card;
	char **unpriced;            /* models with tokens but no price */
	size_t n_unpriced;
	int64_t tokens_without_model; /* runs with tokens but no model */
} sb_budget;

/* Build the report of the runs started in period.  The caller owns *out
 * (sb_budget_free). */
int sb_budget_build(sb_db *db, const sb_period *period, int64_t max_lifetime_ms, sb_budget **out,
                    sb_err *e);

/* Free b; NULL is allowed. */
void sb_budget_free(sb_budget *b);

#endif
