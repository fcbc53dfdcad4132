/* pipeline.h: parsing records on worker threads for the import driver
 * (importers/driver.h), internal to importers/.
 *
 * The driver's thread reads records into jobs of a few hundred records
 * each, a pool of threads (importers/pool.h) parses them with the
 * handler's parse, and the driver's thread stores them with the
 * handler's store in the order of the input and settles each
 * (sb_import_settle), so that the ledger, the counts, the rejects and
 * every commit's resume point are those of one thread reading alone,
 * whatever the number of threads.  Memory is bounded: 2 * N + 2 jobs of
 * about JOB_BYTES each are in flight.
 */
#ifndef SB_IMPORT_PIPELINE_H
#define SB_IMPORT_PIPELINE_H

#include <stddef.h>

#include "importers/driver.h"

/* How many threads parse for handler h with options o (1: none is
 * started, the driver's thread parses; a handler without parse always
 * gets 1). */
size_t sb_pipeline_threads(const sb_import_opts *o, const handler *h);

/* Read every record of in from the batch's resume point with n threads
 * parsing, storing and settling each on this thread in input order.  With
 * n 1 no thread is started: this one reads a job, parses it and stores it
 * in turn, so that the handler's expect still sees a job at a time (the
 * run import's one look-up a job, whatever the threads).  Returns SB_OK
 * or the error that stopped the import (e). */
int sb_pipeline_read(driver *d, input *in, const handler *h, size_t n, sb_err *e);

#endif
