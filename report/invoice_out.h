/* invoice_out.h: invoices (reconcile/invoice.h) rendered: the table, CSV
 * (one row per line, a total row per invoice, adjustment rows), JSON
 * (docs/reports.md) or the printable page (report/html.h), and an
 * adjustment in words.
 */
#ifndef SB_INVOICE_OUT_H
#define SB_INVOICE_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "ledger/err.h"
#include "reconcile/invoice.h"
#include "report/out.h"

/* One adjustment run in words into buf ("late run: late-1", "moved out:
 * r7 (now 'globex')", "repriced: r3 (replaced, with other figures)").
 * Returns buf. */
char *sb_adjust_run_text(const sb_adjust_run *r, char *buf, size_t size);

/* How many runs of each kind an adjustment names, in words into buf
 * ("1 late, 2 moved out"; "no run changed"). Returns buf. */
char *sb_adjust_summary(const sb_invoice_adjust *a, char *buf, size_t size);

/* Why a compute line's cost is unknown, in words into buf: "the compute
 * cost of N runs of backend B is unknown (no rate card in force at their
 * start), so is the total; " and both ways out (ledger/rates.h,
 * sb_rates_fix_text).  Returns buf. */
char *sb_invoice_no_card_text(const sb_no_card *nc, char *buf, size_t size);

/* The set as the JSON of docs/reports.md: each invoice with its own
 * "basis"; an unknown amount or total is null (and "unknown_token_runs"
 * names the runs, "no_card_backends" the backends of unknown compute); a finalized invoice also has "adjustments" (null, or
 * {"late_runs", "changed_runs", "lines", "total"}).  New reference, or
 * NULL when memory ran out (never a document with members missing). */
json_t *sb_invoice_json(const sb_invoice_set *set);

/* Write the set to f in fmt: FMT_TABLE each invoice with its lines,
 * notes and adjustments; FMT_CSV its lines (free text guarded unless
 * csv_raw; the notes are not in it); FMT_JSON sb_invoice_json; FMT_HTML
 * the page of sb_html_invoices.  SB_EINTERNAL when memory ran out;
 * SB_EIO when the HTML page could not be written (the other formats leave
 * f's errors to its owner: ferror). */
int sb_report_invoices(FILE *f, sb_format fmt, bool csv_raw, const sb_invoice_set *set, sb_err *e);

#endif
