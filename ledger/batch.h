/* batch.h: import batches and their rejected lines.
 *
 * Every import (a file, standard input, a provider response) is a batch:
 * its source, the SHA-256 of its bytes, counts, start and end, status, and
 * the point up to which it is committed, so that a killed import resumes
 * where its last commit left it.  Status: 'running' while an import holds
 * it; 'complete'; 'interrupted' (its process died; the same input resumes
 * it); 'failed' (nothing of it kept: --strict with a bad line, or no
 * records at all).
 */
#ifndef SB_BATCH_H
#define SB_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"

typedef struct sb_batch {
	int64_t id;              /* batch_id */
	int64_t resume_offset;   /* byte offset of the first line not yet committed */
	int64_t resume_line;     /* its line number */
	int64_t accepted;        /* records stored */
	int64_t duplicates;      /* records already in the ledger */
	int64_t rejected;        /* records rejected */
	int64_t replaced;        /* records that replaced an older version */
	int64_t skipped;         /* records of no interest, counted */
	bool resumed;            /* continues an interrupted batch */
} sb_batch;

/* The id of a complete batch of this format with this SHA-256 into *id,
 * or 0 when there is none. */
int sb_batch_find_complete(sb_db *db, const char *format, const char *sha256,
                           int64_t *id, sb_err *e);

/* Begin a batch for kind/format/source.  Any batch still 'running' is
 * marked 'interrupted' first (the caller holds the ledger's write lock, so
 * no other import is alive).  When sha256 is not NULL and an interrupted
 * batch of the same format has it, that batch is resumed: *out gets its
 * counts and resume point and resumed is set.  Otherwise a new batch is
 * created.  Commits its own transaction. */
int sb_batch_begin(sb_db *db, const char *kind, const char *format,
                   const char *source, const char *sha256, const char *options,
                   sb_batch *out, sb_err *e);

/* Store b's counts and resume point (inside the caller's transaction). */
int sb_batch_save(sb_db *db, const sb_batch *b, sb_err *e);

/* Store a rejected line of batch b: its number, reason and content
 * (len bytes kept of a line full_len long).  Inside the caller's
 * transaction. */
int sb_batch_reject(sb_db *db, const sb_batch *b, int64_t line_no, const char *reason,
                    const char *content, size_t len, int64_t full_len, sb_err *e);

/* End batch b with status ('complete' or 'failed'), its counts, and the
 * SHA-256 when it was learnt while reading (sha256 may be NULL).  Inside
 * the caller's transaction. */
int sb_batch_end(sb_db *db, const sb_batch *b, const char *status, const char *sha256,
                 sb_err *e);

#endif
