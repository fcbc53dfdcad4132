/* grain.h: the grain a backend is billed at (docs/reconcile.md, "Grain").
 *
 * A backend billed by the month (DeepInfra's usage, a FOCUS line of a
 * month) is judged on whole months; on any other period its status is
 * partial and never flagged.  Every other backend is judged by the day.
 * The grain is set per backend (backends set B --grain day|month|auto;
 * backend_grain, DeepInfra seeded month); auto, the default, is month when the backend's live account-level lines
 * of the latest month that has any all span that whole calendar month.
 * Nothing here allocates.
 */
#ifndef SB_GRAIN_H
#define SB_GRAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/period.h"

typedef enum sb_grain {
	SB_GRAIN_AUTO,   /* as its lines say (a setting only) */
	SB_GRAIN_DAY,    /* judged by the day */
	SB_GRAIN_MONTH   /* judged by the calendar month */
} sb_grain;

/* "auto", "day", "month" (static text). */
const char *sb_grain_name(sb_grain g);

/* A name back to its grain; SB_EUSAGE naming the three otherwise. */
int sb_grain_parse(const char *name, sb_grain *out, sb_err *e);

/* The grain backend is judged at now: its setting, or for auto what its
 * latest month of account-level lines says (SB_GRAIN_DAY or
 * SB_GRAIN_MONTH). */
int sb_grain_of(sb_db *db, const char *backend, sb_grain *out, sb_err *e);

/* What sb_grain_set did. */
typedef struct sb_grain_change {
	sb_grain was;                 /* the setting before (SB_GRAIN_AUTO when none was) */
	sb_grain judged_was;          /* the grain it was judged at before (day or month) */
	sb_grain judged;              /* the grain it is judged at now (day or month) */
	bool stored;                  /* the setting changed (and was stored) */
	bool logged;                  /* the grain it is judged at moved: the change was
	                                 logged (ledger/changes.h), its results are stale */
} sb_grain_change;

/* Set backend's grain to g, in the caller's transaction, into *c.  The
 * same setting again stores nothing; a setting that changes the grain the
 * backend is judged at (auto resolved by its lines, before and after) is
 * logged as a change of every span of the backend, so that its stored
 * results are stale; one that does not (auto to the day its lines already
 * say) is stored and logs nothing: no figure moves. */
int sb_grain_set(sb_db *db, const char *backend, sb_grain g, sb_grain_change *c, sb_err *e);

/* Whether p is whole calendar months (UTC). */
bool sb_period_whole_months(const sb_period *p);

/* Whether p is one whole UTC day. */
bool sb_period_one_day(const sb_period *p);

/* Whether p is one whole calendar month (UTC). */
bool sb_period_one_month(const sb_period *p);

/* The calendar month (UTC) that holds t. */
sb_period sb_month_of(int64_t t);

#endif
