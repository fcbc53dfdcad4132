/* summary.h: report summary (docs/reports.md): the runs of a period
 * grouped by backend, day, model, session or tag, with the SandboxUsage
 * aggregates, card cost and token cost of each group.
 */
#ifndef SB_SUMMARY_H
#define SB_SUMMARY_H

#include <stddef.h>

#include "ledger/db.h"
#include "ledger/period.h"
#include "reconcile/usage.h"

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
} sb_summary;

/* Check a --by value: backend, day, model, session or tag:NAME. */
bool sb_summary_by_valid(const char *by);

/* Build the summary of period grouped by `by` (see sb_summary_by_valid).
 * The caller owns *out (sb_summary_free). */
int sb_summary_build(sb_db *db, const sb_period *period, const char *by,
                     sb_summary **out, sb_err *e);

/* Free s; NULL is allowed. */
void sb_summary_free(sb_summary *s);

#endif
