/* check.h: the ledger's invariants, run by 'sbledger check'
 * (docs/rules.md, "The ledger").
 *
 * Each file sql/checks/NAME.sql is one invariant: its first line, after
 * "-- ", says what holds; the statement returns one row per thing that
 * breaks it, its first column a description of that row.  They run in
 * the order of their names (the integrity check first).  Nothing here
 * prints: the caller is told of each row and of each check's count.
 */
#ifndef SB_LEDGER_CHECK_H
#define SB_LEDGER_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/err.h"

typedef struct sb_check_events {
	/* a row that breaks the check: its description, and its number
	 * among the check's rows (from 0) */
	void (*on_problem)(void *ctx, const char *row, int64_t index);
	/* a check ran: what it holds (what_len bytes of what, not
	 * NUL-terminated) and how many rows broke it */
	void (*on_check)(void *ctx, const char *what, size_t what_len, int64_t problems);
	/* what the storage's check could not look at (sb_db_check_note) */
	void (*on_note)(void *ctx, const char *note);
	void *ctx;                /* passed back to each */
} sb_check_events;

/* Run every check of the ledger in turn, telling ev (any callback may be
 * NULL); *problems gets the rows found in all.  A check that a stored
 * value its schema does not allow stops (sb_db_value_error) is one
 * problem, its row saying why, and the checks after it run.  SB_OK when
 * every check ran or was stopped so, else the error of the one that
 * could not run (the checks after it are not run). */
int sb_ledger_check(sb_db *db, const sb_check_events *ev, int64_t *problems, sb_err *e);

#endif
