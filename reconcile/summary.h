/* summary.h: report summary (docs/reports.md): the runs of a period
 * grouped by backend, day, model, session or tag, with the SandboxUsage
 * aggregates, card cost and token cost of each group.
 */
#ifndef SB_SUMMARY_H
#define SB_SUMMARY_H

#include <stddef.h>

#include "ledger/db.h"
#include "ledger/period.h"
#include "ledger/rates.h"
#include "reconcile/usage.h"

/* How many of the runs with tokens but no model a summary names. */
#define SB_SUMMARY_NAMED 10

typedef struct sb_summary_row {
	char *key;      /* the group: backend id, date, model, session or tag value */
	sb_usage u;     /* its aggregates */
} sb_summary_row;

typedef struct sb_summary {
	sb_period period;         /* the period */
	char by[80];              /* "backend", "day", "model", "session", "tag:NAME" */
	sb_summary_row *rows;     /* by key, n_rows of them */
	size_t n_rows;
	sb_usage total;           /* over all rows */
	char **unpriced;          /* models with runs but no price, n_unpriced of them */
	size_t n_unpriced;
	bool unpriced_no_model;   /* some run has tokens but names no model */
	int64_t no_model_runs;    /* how many runs have tokens but no model */
	char *no_model_named[SB_SUMMARY_NAMED]; /* the first of them by run_id */
	size_t n_no_model_named;  /* how many are named (at most SB_SUMMARY_NAMED) */
	sb_no_card *no_card;      /* the backends of runs no card priced (card cost unknown), by backend */
	size_t n_no_card;
} sb_summary;

/* Check a --by value: backend, day, model, session or tag:NAME. */
bool sb_summary_by_valid(const char *by);

/* Build the summary of period grouped by `by` (see sb_summary_by_valid).
 * A group's token cost is null when a run of it names a model with no
 * price (listed in unpriced) or has tokens but no model (counted in
 * no_model_runs, the first SB_SUMMARY_NAMED by run_id named); a run with
 * no model and no tokens adds 0.  A group's card cost is null when a run
 * of it had no card in force at its start (its backend is in no_card:
 * unknown, never 0).  The caller owns *out (sb_summary_free). */
int sb_summary_build(sb_db *db, const sb_period *period, const char *by,
                     sb_summary **out, sb_err *e);

/* Free s; NULL is allowed. */
void sb_summary_free(sb_summary *s);

#endif
