/* changes.h: the ledger's log of the changes that can move a stored
 * figure (docs/reconcile.md, "Judged again").
 *
 * Each writer that changes what a reconciliation reads logs it in the
 * same transaction: a batch its runs and lines (stored, replaced,
 * superseded, taken out), a setting its backend and span (a rate card, a
 * token price, an exchange rate, a tolerance, a grain).  A stored result
 * is stale when a change logged after it meets its period or one of its
 * backends' windows (sql/queries/recon_latest.sql; a grain only by a
 * backend the result judged).  Nothing here allocates.
 */
#ifndef SB_CHANGES_H
#define SB_CHANGES_H

#include <stdint.h>

#include "ledger/db.h"

/* The end of time for a change that holds from a date on. */
#define SB_CHANGE_FOREVER INT64_MAX

/* Log a setting's change: what ('rate', 'price', 'fx', 'tolerance', 'grain'),
 * the backend whose figures it moves (NULL: every backend), and
 * the span [from_ms, to_ms) it holds over. */
int sb_change_setting(sb_db *db, const char *what, const char *backend, int64_t from_ms,
                      int64_t to_ms, sb_err *e);

/* Log what batch batch_id changed: its runs and the versions they
 * replaced, its lines and the lines it superseded (a supersede by
 * identical lines moves nothing and is left out), one change per backend
 * and UTC day.  Called when the batch ends and before it is taken out. */
int sb_change_batch(sb_db *db, int64_t batch_id, sb_err *e);

/* The newest batch among the changes logged after stored result
 * after_recon was judged that meet [from_ms, to_ms) for backend (or
 * every backend): the batch a re-judgment names for what moved.  *batch
 * is 0 when none did (a setting moved it, or nothing). */
int sb_change_batch_since(sb_db *db, int64_t after_recon, const char *backend, int64_t from_ms,
                          int64_t to_ms, int64_t *batch, sb_err *e);

#endif
