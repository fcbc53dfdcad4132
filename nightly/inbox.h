/* inbox.h: the nightly job's inbox (docs/providers.md, "The nightly job").
 *
 * An inbox is a directory: DIR/runs/ holds run-usage JSON Lines files,
 * DIR/billing/FORMAT/ billing files of FORMAT (one of importers/billing.h).
 * The walk visits runs/ first, then each billing format's directory, each
 * in name order, and hands every file to import to the caller as an open
 * descriptor.  Names starting with '.' are skipped (a file being written
 * is named .NAME until it is whole, then renamed); nothing deeper than
 * those directories is read.
 *
 * The link rule: a link inside the inbox is followed when it resolves
 * inside the inbox, never out of it.  Every directory is opened from the
 * one above it and every file is opened first (O_PATH: nothing read, a
 * device or FIFO never opened), then checked on that descriptor (its
 * resolved path, from /proc/self/fd, inside the inbox; a regular file),
 * then opened for reading through the descriptor itself, never through
 * the name again: what was checked is what is read, even when the name is
 * swapped for a link between two steps.
 *
 * What is not followed is a problem handed to the caller (an sb_err: its
 * code the exit status it weighs, its message in the library's words,
 * names quoted: ledger/quote.h); the walk goes on.  Nothing here prints.
 */
#ifndef SB_INBOX_H
#define SB_INBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "ledger/err.h"

/* What the walk tells its caller. */
typedef struct sb_inbox_events {
	/* a file to import: fd open for reading (the caller's from now on:
	 * it closes it), real its resolved path, format NULL for a runs file
	 * or the billing format of its directory */
	void (*on_file)(void *ctx, int fd, const char *real, const char *format);
	/* an entry not followed or not readable; problem->code is what it
	 * weighs: SB_ENOINPUT (unreadable, leading out, not a regular file,
	 * a path longer than PATH_MAX - 1 bytes: refused, never cut short),
	 * SB_EDATA (not a billing format), SB_ETEMP (changed while opened) */
	void (*on_problem)(void *ctx, const sb_err *problem);
	void *ctx;                  /* passed back */
} sb_inbox_events;

/* Resolve the inbox named inbox into root (cap bytes): an absolute path
 * without links.  SB_ENOINPUT (naming inbox) when it is missing,
 * unreadable or not a directory. */
int sb_inbox_resolve(const char *inbox, char *root, size_t cap, sb_err *e);

/* Walk the inbox root (as sb_inbox_resolve made it; shown: the inbox as
 * the user named it, for messages about the inbox itself), handing each
 * file to ev->on_file as described above.  pause_checked (tests only, or
 * NULL): after the first file is checked, before it is handed over,
 * create that file and wait until it is removed, so that a test can swap
 * the name for a link at a known point.  Returns the worst code of the
 * problems (SB_OK when none). */
int sb_inbox_walk(const char *root, const char *shown, const char *pause_checked,
                  const sb_inbox_events *ev);

#endif
