/* recon_page.h: the reconciliation page (reconcile --format html, and
 * nightly's OUT/PERIOD/report.html) and the drift page (report drift
 * --format html); docs/reports.md, "The reconciliation page".
 *
 * A page is one self-contained file: its style inline, its charts inline
 * SVG, no script, no font, no image, nothing it refers to outside itself.
 * Every text from the ledger (backends, sessions, commands, paths) is
 * escaped, in element text and attributes alike.  Each figure carries the
 * exact value of 'reconcile --format json' in a data attribute (data-usd,
 * data-rel), so that a test or a script can read the page back.
 *
 * The writers render the data they are handed (reconcile.h,
 * recon_detail.h) and decide nothing; they print to the FILE* given and
 * to nothing else, and allocate nothing that outlives the call.
 */
#ifndef SB_RECON_PAGE_H
#define SB_RECON_PAGE_H

#include <stdint.h>
#include <stdio.h>

#include "ledger/err.h"
#include "ledger/quote.h"
#include "reconcile/recon_detail.h"
#include "reconcile/reconcile.h"

/* What a page needs besides its data. */
typedef struct sb_page_opts {
	const sb_invocation *ledger;     /* how sbledger was run: the commands begin with its words
	                                    (sb_invocation_words; NULL: "sbledger", naming no ledger) */
	int64_t made_ms;                 /* when the page is made (its footer) */
	const sb_night_imports *imports; /* nightly: what the night imported and its faults;
	                                    NULL for reconcile's page (no night: no fault) */
	const char *inbox;               /* nightly: the inbox (its files are shown relative to it); NULL: none */
} sb_page_opts;

/* The reconciliation page of r: the verdict (led by the night's faults
 * when o->imports has any, and then never green; flagged counts and the
 * money at stake), one line per backend with its status, figures, basis,
 * window and what its result means, the chart of computed against billed
 * with the tolerance band, the flags of the period (d->flags, open ones
 * first), the flagged sessions worst first with their runs, the drift of
 * the last days, what the night imported (when o->imports), and the
 * commands that dig further.  SB_EIO when f reports an error,
 * SB_EINTERNAL when memory ran out. */
int sb_recon_page(FILE *f, const sb_recon *r, const sb_recon_detail *d, const sb_page_opts *o,
                  sb_err *e);

/* The drift page: the trend chart of t alone (one line per backend with
 * a drift figure, one point per stored day).  Errors as sb_recon_page. */
int sb_drift_page(FILE *f, const sb_trend *t, const sb_page_opts *o, sb_err *e);

/* Write s to f as one POSIX shell word: as it is when it is made of
 * letters, digits and -_./: only (and not empty), else in single quotes
 * with each ' written '\''. */
void sb_shell_word(FILE *f, const char *s);

#endif
