/* import_billing.h: importing billing files (docs/formats-billing.md) as a
 * batch through the import driver (importers/import.h has the options and
 * the result every import shares). */
#ifndef SB_IMPORT_BILLING_H
#define SB_IMPORT_BILLING_H

#include "importers/import.h"

/* Import the billing file path ("-": standard input) in the format named
 * format (importers/billing.h) into db, as sb_import_runs does: a batch of
 * kind 'billing', one or more billing lines per record, duplicates and
 * conflicts by line key, a line that is the same charge as a live line of
 * another batch rejected naming it (ledger/lines.h).  With
 * opts->supersede the batch's lines are pending until the transaction of
 * its last chunk, which supersedes what they replace; a file without
 * opts->has_period whose lines (of one backend) are of several lengths is
 * refused then (SB_EUSAGE, the batch failed).  A file of the wrong shape
 * for the format (CSV given to a JSON format, a header without the
 * format's columns) is one rejected record at line 1, the batch 'failed',
 * SB_EDATA.  An unknown format or an empty period is SB_EUSAGE. */
int sb_import_billing(sb_db *db, const char *format, const char *path,
                      const sb_import_opts *opts, sb_import_result *r, sb_err *e);

/* sb_import_billing from src, as sb_import_runs_source. */
int sb_import_billing_source(sb_db *db, const char *format, sb_source *src,
                             const sb_import_opts *opts, sb_import_result *r, sb_err *e);

#endif
