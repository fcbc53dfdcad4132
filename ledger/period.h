/* period.h: reporting periods, half-open [from, to) in UTC milliseconds.
 * Nothing here allocates.
 */
#ifndef SB_PERIOD_H
#define SB_PERIOD_H

#include <stdint.h>

#include "ledger/err.h"

typedef struct sb_period {
	int64_t from_ms;  /* first millisecond inside the period */
	int64_t to_ms;    /* first millisecond after it (excluded) */
} sb_period;

/* Parse a --period value (docs/rules.md):
 *   "2026"             the UTC year
 *   "2026-11"          the UTC month
 *   "2026-11-29"       the UTC day
 *   "FROM..TO"         each end a year, month, date or RFC 3339 timestamp,
 *                      standing for the instant that starts it; TO excluded
 *   "today", "yesterday", "this-month", "last-month"  relative to now_ms
 * An empty period (to <= from) is an error.  On failure returns SB_EUSAGE
 * with a message in e that quotes the text and lists the accepted forms. */
int sb_period_parse(const char *text, int64_t now_ms, sb_period *out, sb_err *e);

/* A short name for the period for file names and invoice numbers:
 * "2026-11" for a whole month, "2026-11-29" for a day, "2026" for a year,
 * else "FROM..TO" with the dates or timestamps.  Returns buf. */
char *sb_period_name(const sb_period *p, char buf[96]);

#endif
