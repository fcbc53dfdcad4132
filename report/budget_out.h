/* budget_out.h: report budget (reconcile/budget.h) rendered: the table of
 * totals and the runs over a limit, CSV of every run, or JSON
 * (docs/reports.md).
 */
#ifndef SB_BUDGET_OUT_H
#define SB_BUDGET_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "ledger/err.h"
#include "reconcile/budget.h"
#include "report/out.h"

/* The report as JSON: {"period", "max_lifetime_min", "runs": [...],
 * "over_budget": [run ids], "over_lifetime": [run ids], "total": {...},
 * "unpriced_models": [...], "tokens_without_model": [run ids]}.  New
 * reference, or NULL when memory ran out (never a document with members
 * missing). */
json_t *sb_budget_json(const sb_budget *b);

/* Write the report to f in fmt: FMT_TABLE the totals, then the runs over
 * budget and the runs past the lifetime limit, then what a cap would have
 * saved; FMT_CSV every run (free text guarded unless csv_raw); FMT_JSON
 * sb_budget_json.  SB_EINTERNAL when memory ran out; f's errors are for
 * its owner (ferror). */
int sb_report_budget(FILE *f, sb_format fmt, bool csv_raw, const sb_budget *b, sb_err *e);

#endif
