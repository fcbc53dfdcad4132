/* clock.h: the time "now", handed to the library by its caller.
 *
 * The library core reads no environment and no clock of its own choice:
 * whoever opens a ledger gives it a clock (sb_db_set_clock), and every
 * "now" the library stores or judges by (a batch's start and end, a run
 * replaced, a reconciliation's time, an invoice made) is that clock's.
 * A clock is a function and its context; the system clock when none is
 * given.  The command line makes its clock from SBLEDGER_NOW (tests fix
 * the time with it); a unit test hands a clock that stands still.
 * Nothing here allocates.
 */
#ifndef SB_CLOCK_H
#define SB_CLOCK_H

#include <stdint.h>

typedef struct sb_clock {
	int64_t (*now_ms)(void *ctx);  /* UTC ms since the epoch; NULL: the system clock */
	void *ctx;                     /* passed back to now_ms */
} sb_clock;

/* The system's real-time clock, in UTC ms since the epoch. */
int64_t sb_clock_system_ms(void);

/* What clock c says now: c->now_ms(c->ctx), or the system clock when c
 * is NULL or has no function. */
int64_t sb_clock_now(const sb_clock *c);

/* A clock function that stands still: ctx points at the int64_t it
 * returns (owned by the caller, read at each call). */
int64_t sb_clock_fixed(void *ctx);

#endif
