/* rollup.h: the per UTC day rollups of runs (sql/schema/005_rollup.sql),
 * gathered in memory by the run writer and added to the ledger in the
 * transaction that stores the runs.
 *
 * An invoice for a month of a million runs sums a few thousand rollup
 * rows instead of joining every run to its tag.  The writer adds each run
 * it stores here; sb_rollup_flush upserts what was gathered and must run
 * before every commit of the runs added (sb_rollup_add flushes by itself
 * when the table is full, so memory stays bounded).
 */
#ifndef SB_ROLLUP_H
#define SB_ROLLUP_H

#include "ledger/db.h"
#include "ledger/runs.h"

typedef struct sb_rollup sb_rollup;

/* A new, empty rollup writing into db (its statements prepared) in *out. */
int sb_rollup_new(sb_db *db, sb_rollup **out, sb_err *e);

/* Free r and what it has not flushed; NULL is allowed. */
void sb_rollup_free(sb_rollup *r);

/* Count run, started on UTC date day ('YYYY-MM-DD'), in its day's
 * rollup and in one per tag. */
int sb_rollup_add(sb_rollup *r, const sb_run *run, const char *day, sb_err *e);

/* Upsert everything gathered into run_day and run_day_tag, inside the
 * caller's transaction, and start empty. */
int sb_rollup_flush(sb_rollup *r, sb_err *e);

/* Take the stored run rid out of the rollup tables (before it is
 * deleted), inside the caller's transaction. */
int sb_rollup_remove(sb_rollup *r, int64_t rid, sb_err *e);

#endif
