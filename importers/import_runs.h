/* import_runs.h: importing run-usage records (docs/formats-runs.md) as a
 * batch through the import driver (importers/import.h has the options and
 * the result every import shares). */
#ifndef SB_IMPORT_RUNS_H
#define SB_IMPORT_RUNS_H

#include "importers/import.h"

/* Import the run-usage JSON Lines file path ("-": standard input) into
 * db, which the caller opened with SB_DB_WRITE.  Returns SB_OK when every
 * record was stored or a duplicate (or the file was already imported:
 * r->already), SB_EDATA when any record was rejected or the input had no
 * records (e says how many, and where to see them), SB_ETEMP when the
 * file changed while it was read (nothing of it kept; import it again
 * when it is complete), or another code when the import could not go on
 * (what was committed stays, and running the same command again
 * completes it). */
int sb_import_runs(sb_db *db, const char *path, const sb_import_opts *opts,
                   sb_import_result *r, sb_err *e);

/* sb_import_runs from src, a source the caller opened (nightly: an inbox
 * file whose descriptor it checked) and still owns: the descriptor that
 * was checked is the one hashed and read. */
int sb_import_runs_source(sb_db *db, sb_source *src, const sb_import_opts *opts,
                          sb_import_result *r, sb_err *e);

#endif
