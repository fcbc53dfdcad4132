/* paths.h: the paths the nightly job makes (an inbox entry's, a report's),
 * whole or refused.
 *
 * A path is made from a directory and a name into a buffer of PATH_MAX
 * bytes, the longest the system takes.  One that does not fit is never
 * cut: a shorter path would be another file, opened, created or shown in
 * its place.  It is refused instead, naming its start and its end (the
 * whole of it may be longer than a message).  Nothing here prints.
 */
#ifndef SB_NIGHTLY_PATHS_H
#define SB_NIGHTLY_PATHS_H

#include <stdarg.h>
#include <stddef.h>

#include "ledger/err.h"

/* Print fmt (with its arguments ap) into buf (cap bytes with the NUL):
 * SB_OK, or, when the path is longer than cap - 1 bytes, code in e with
 * the message "START...END: the path is longer than N bytes" (its first
 * and last 40 bytes, cut on a character, quoted as one word:
 * ledger/quote.h); buf then holds nothing to use. */
int sb_nightly_vpath(char *buf, size_t cap, int code, sb_err *e, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

#endif
