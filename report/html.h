/* html.h: self-contained HTML pages: the summary with its bar chart, and
 * printable invoices.
 *
 * A page is one file: its style inline, its chart an inline SVG, no
 * script, no font, no image, nothing fetched from a network.  It reads on
 * a phone (the viewport follows the screen, wide tables scroll sideways,
 * minor columns hide) and on paper (print styles, one invoice per page).
 * Every text that comes from the ledger is escaped (& < > " ').
 *
 * The writers print to a FILE* the caller hands them and never anything
 * else; they allocate nothing that outlives the call.
 */
#ifndef SB_HTML_H
#define SB_HTML_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ledger/err.h"
#include "reconcile/invoice.h"
#include "reconcile/summary.h"

/* Write s to f with & < > " ' escaped as entities, so that it is safe in
 * element text and in quoted attribute values alike.  NULL writes nothing. */
void sb_html_text(FILE *f, const char *s);

/* One group of a bar chart: two amounts side by side. */
typedef struct sb_html_bar {
	const char *key;           /* the group's label (borrowed) */
	int64_t computed_nanos;    /* the first bar */
	bool has_billed;           /* the second bar is known */
	int64_t billed_nanos;      /* the second bar */
} sb_html_bar;

/* Write an inline SVG chart with one pair of horizontal bars (computed,
 * the runs' own billed) per group, scaled to the largest amount, each bar
 * labelled with its amount (6 decimals); an unknown billed amount (no run
 * of the group reports one) is a bar of width 0 labelled "none in the
 * runs".  Each pair is a <g class="pair">. */
void sb_html_bar_chart(FILE *f, const sb_html_bar *bars, size_t n);

/* The summary as a page: title, the period, the grouping and when it was
 * made (made_ms), the chart of computed against billed per group, and the
 * table with a total row.  SB_EIO when f reports an error. */
int sb_html_summary(FILE *f, const sb_summary *s, int64_t made_ms, sb_err *e);

/* The invoices of set as a printable page, one invoice per printed page:
 * number (or DRAFT), customer, period, basis, the lines with quantity,
 * rate and amount (2 decimals), the total, the notes and, for a finalized
 * invoice, what changed since.  SB_EIO when f reports an error. */
int sb_html_invoices(FILE *f, const sb_invoice_set *set, sb_err *e);

#endif
