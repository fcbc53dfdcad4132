/* summary_out.h: report summary (reconcile/summary.h) rendered: a table,
 * CSV, JSON (docs/reports.md) or the HTML page (report/html.h).
 */
#ifndef SB_SUMMARY_OUT_H
#define SB_SUMMARY_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "ledger/err.h"
#include "reconcile/summary.h"
#include "report/out.h"

/* The summary as JSON: {"period", "by", "rows": [{"key", "runs", ...}],
 * "total": {...}} (the total has no key).  New reference, or NULL when
 * memory ran out (never a document with members missing). */
json_t *sb_summary_json(const sb_summary *s);

/* Write the summary to f in fmt: FMT_TABLE the groups and a total row;
 * FMT_CSV the groups only (free text guarded unless csv_raw), the file
 * nightly writes as summary.csv too; FMT_JSON sb_summary_json; FMT_HTML
 * the page of sb_html_summary, made_ms in its footer.  SB_EINTERNAL when
 * memory ran out; SB_EIO when the HTML page could not be written (the
 * other formats leave f's errors to its owner: ferror). */
int sb_report_summary(FILE *f, sb_format fmt, bool csv_raw, const sb_summary *s, int64_t made_ms, sb_err *e);

#endif
