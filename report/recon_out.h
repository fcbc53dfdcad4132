/* recon_out.h: a reconciliation (reconcile/reconcile.h) rendered as the
 * command prints it: the table of docs/reconcile.md, or its JSON
 * (report/recon_json.h).
 */
#ifndef SB_RECON_OUT_H
#define SB_RECON_OUT_H

#include <stdio.h>

#include "ledger/err.h"
#include "ledger/quote.h"
#include "reconcile/reconcile.h"
#include "report/out.h"

/* The reconciliation as a table on f: a line of what was asked, the
 * backends (flagged first, then the others not ok, then ok), the windows
 * that are not the period, what each backend's result means in words
 * (report/recon_words.h, its commands beginning with inv's words), the
 * listed sessions and the counts.  SB_EINTERNAL when memory ran out; f's errors are for its owner
 * (ferror). */
int sb_recon_table(FILE *f, const sb_recon *r, const sb_invocation *inv, sb_err *e);

/* Write r to f in fmt: FMT_TABLE sb_recon_table, FMT_JSON the JSON of
 * docs/reconcile.md (indented by one) and a newline, whole or not at all
 * (SB_EINTERNAL, "out of memory while writing the result").  A format
 * the reconciliation has no form in is SB_EINTERNAL. */
int sb_report_recon(FILE *f, sb_format fmt, const sb_recon *r, const sb_invocation *inv,
                    sb_err *e);

#endif
