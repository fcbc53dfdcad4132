/* recon_page_int.h: what the files of the reconciliation page share
 * (recon_page.c: the frame, the verdict, the tables, the night's imports
 * and the commands; recon_charts.c: the bar chart and the trend;
 * recon_flags.c: the night's faults and the flags of the period).  Not
 * for other rooms: recon_page.h is the page's interface.
 */
#ifndef SB_RECON_PAGE_INT_H
#define SB_RECON_PAGE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ledger/money.h"
#include "report/recon_page.h"

/* A page being written. */
typedef struct page {
	FILE *f;                   /* where it goes */
	const sb_page_opts *o;     /* its options */
	bool failed;               /* memory ran out while a command was built */
} page;

/* The style of an inline SVG chart. */
extern const char sb_pg_svg_style[];

/* s escaped as HTML text on the page. */
void sb_pg_esc(page *pg, const char *s);

/* An amount as the tables print it: 6 decimals. */
const char *sb_pg_usd6(int64_t nanos, char buf[SB_MONEY_BUFSZ]);

/* An amount for a chart's scale: 6 decimals without the trailing zeros
 * past the second ("0.12", "0.004", "418.77"). */
const char *sb_pg_usd_short(int64_t nanos, char buf[SB_MONEY_BUFSZ]);

/* An amount for a sentence: 2 decimals, or 6 when 2 would turn a
 * non-zero amount into 0.00. */
const char *sb_pg_usd_say(int64_t nanos, char buf[SB_MONEY_BUFSZ]);

/* "s" unless n is 1. */
const char *sb_pg_plural(int64_t n);

/* A command of fixed words (NULL-terminated) as <code class="cmd">,
 * beginning with the words of the page's invocation and each word quoted
 * for the shell where it needs it, so that it runs as printed. */
void sb_pg_words_cmd(page *pg, const char *first, ...) __attribute__((sentinel));

/* A data attribute holding an amount as the JSON has it (9 decimals), or
 * "null" when !has. */
void sb_pg_data_usd(page *pg, const char *name, bool has, int64_t nanos);

/* The order of backends on the page: 0 flagged (or with flagged
 * sessions), 1 the others not ok, 2 ok. */
int sb_pg_rank(const sb_recon_backend *b);

/* Whether b's billed figure is unknown rather than absent: lines were
 * left out for want of an exchange rate or of a metered rate (a no_rate
 * of runs with no card leaves billed as it is). */
bool sb_pg_billed_unknown(const sb_recon_backend *b);

/* The tone of a status: bad (flagged), good (ok), wait (pending), watch
 * (neither flagged nor ok). */
const char *sb_pg_tone(bool flagged, sb_recon_status s);

/* Tenths of an SVG unit as "12.3". */
void sb_pg_tenths(page *pg, int64_t t);

/* The chart of computed against billed per backend, with the tolerance
 * band (recon_charts.c). */
void sb_pg_bar_chart(page *pg, const sb_recon *r);

/* The drift trend, one panel per backend (recon_charts.c). */
void sb_pg_trend_chart(page *pg, const sb_trend *t);

/* The night's faults, the first lines of the verdict: each rejected
 * file, each fetch skipped or failed, the days left unjudged, with the
 * commands that show or mend them (recon_flags.c).  Nothing when n has
 * none (or is NULL: a page made by hand). */
void sb_pg_faults(page *pg, const sb_night_imports *n);

/* The flags of the period: the open ones first, then those handled
 * (acked, waived, disputed with the money in dispute), with who handled
 * them and why, the money at stake, and the command that lists them
 * (recon_flags.c). */
void sb_pg_flags(page *pg, const sb_recon *r, const sb_recon_detail *d);

#endif
