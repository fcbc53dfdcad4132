/* rollup.h: the per UTC day rollups of runs (sql/schema/005_rollup.sql,
 * widened by 010_scale.sql), gathered in memory by the run writer and
 * added to the ledger in the transaction that stores the runs.
 *
 * An invoice for a month of a million runs, and a summary of a year, sum a
 * few thousand rollup rows instead of reading every run.  Three tables:
 * run_day (every run, by day, backend and model), run_day_tag (the runs
 * with a tag, by name and value too) and run_day_untagged (the runs
 * without a tag, for each tracked tag name of run_tag_name: the first 32
 * names the ledger's runs have had).  The writer adds each run it stores
 * here; sb_rollup_flush upserts what was gathered and must run before
 * every commit of the runs added (sb_rollup_add flushes by itself when
 * the table is full, so memory stays bounded).
 */
#ifndef SB_ROLLUP_H
#define SB_ROLLUP_H

#include "ledger/db.h"
#include "ledger/runs.h"

/* Tag names whose untagged runs are rolled up (run_tag_name.tracked). */
#define SB_ROLLUP_TRACKED_NAMES 32

typedef struct sb_rollup sb_rollup;

/* A new, empty rollup writing into db (its statements prepared, the
 * tracked tag names read) in *out. */
int sb_rollup_new(sb_db *db, sb_rollup **out, sb_err *e);

/* Free r and what it has not flushed; NULL is allowed. */
void sb_rollup_free(sb_rollup *r);

/* Count run, started on UTC date day ('YYYY-MM-DD'), with card cost
 * card_nanos (has_card false: none), in its day's rollup, in one per tag,
 * and in the untagged rollup of each tracked name it lacks.  A tag name
 * no stored run has had before is recorded (tracked while fewer than
 * SB_ROLLUP_TRACKED_NAMES are), its untagged rollup starting as run_day
 * (every run stored so far lacks it). */
int sb_rollup_add(sb_rollup *r, const sb_run *run, const char *day, bool has_card,
                  int64_t card_nanos, sb_err *e);

/* Upsert everything gathered into the rollup tables, inside the caller's
 * transaction, and start empty; then, when a run was taken out since the
 * last flush, find the maximum memory_peak_mb of the groups it left again
 * (sql/queries/rollup_fix_max.sql). */
int sb_rollup_flush(sb_rollup *r, sb_err *e);

/* Take the stored run rid out of the rollup tables (before it is
 * deleted), inside the caller's transaction; the groups whose maximum
 * memory it was are found again by the next sb_rollup_flush. */
int sb_rollup_remove(sb_rollup *r, int64_t rid, sb_err *e);

#endif
