/* batch.h: import batches and their rejected lines.
 *
 * Every import (a file, standard input, a provider response) is a batch:
 * its source, the SHA-256 of its bytes, counts, start and end, status, and
 * the point up to which it is committed, so that a killed import resumes
 * where its last commit left it.  Status: 'running' while an import holds
 * it; 'complete'; 'interrupted' (its process died; the same input resumes
 * it); 'failed' (nothing of it kept: --strict with a bad line, no records
 * at all, or a file that changed while it was read, whose committed
 * chunks were taken out again: sb_batch_take_out).  Each commit also keeps
 * how many bytes of the input were read and their SHA-256, so that a
 * resume can tell that the file still begins with what was imported.
 */
#ifndef SB_BATCH_H
#define SB_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"

/* A batch's status (the header above says when each holds). */
typedef enum sb_batch_status {
	SB_BATCH_RUNNING,        /* an import holds it */
	SB_BATCH_INTERRUPTED,    /* its process died; the same input resumes it */
	SB_BATCH_COMPLETE,       /* ended, what it kept is in the ledger */
	SB_BATCH_FAILED          /* ended, nothing of it kept */
} sb_batch_status;

/* The status's name as the ledger stores it ("running", ...; static). */
const char *sb_batch_status_name(sb_batch_status status);

/* A stored status back to its enum: SB_OK, or SB_EDATA in e for a name
 * this sbledger does not know. */
int sb_batch_status_parse(const char *name, sb_batch_status *out, sb_err *e);

typedef struct sb_batch {
	int64_t id;              /* batch_id */
	int64_t resume_offset;   /* byte offset of the first line not yet committed */
	int64_t resume_line;     /* its line number */
	int64_t accepted;        /* records stored */
	int64_t duplicates;      /* records already in the ledger */
	int64_t rejected;        /* records rejected */
	int64_t replaced;        /* records that replaced an older version */
	int64_t skipped;         /* records of no interest, counted */
	int64_t prefix_length;   /* bytes of the input read at the last commit (0: none) */
	char prefix_sha256[65];  /* their SHA-256 in hex ("": unknown) */
	char sha256[65];         /* a batch found to resume: the SHA-256 it has ("": none) */
	bool resumed;            /* continues an interrupted batch */
} sb_batch;

/* The id of a complete batch of this format with this SHA-256 into *id,
 * or 0 when there is none. */
int sb_batch_find_complete(sb_db *db, const char *format, const char *sha256,
                           int64_t *id, sb_err *e);

/* Mark every batch left 'running' 'interrupted' (its process died: the
 * caller holds the ledger's write lock, so no other import is alive). */
int sb_batch_mark_interrupted(sb_db *db, sb_err *e);

/* The newest interrupted batch of format that read the file path (the
 * resolved path; NULL: any) or an input with this SHA-256 into *out: its
 * counts, resume point, SHA-256 and prefix; out->id is 0 when there is
 * none.  Call sb_batch_mark_interrupted first. */
int sb_batch_find_resumable(sb_db *db, const char *format, const char *path,
                            const char *sha256, sb_batch *out, sb_err *e);

/* Whether batch id could be taken out again (sb_batch_take_out) without
 * losing anything: no batch begun after it is still in the ledger (it may
 * have counted its runs or lines as duplicates) and none of its runs is on
 * a finalized invoice.  *ok says. */
int sb_batch_can_take_out(sb_db *db, int64_t id, bool *ok, sb_err *e);

/* Begin a batch: resume the interrupted batch *resume (found by
 * sb_batch_find_resumable) when it is not NULL, else a new one reading
 * path (resolved; NULL for none) with sha256 (NULL when not known yet).
 * *out gets the batch.  Commits its own transaction. */
int sb_batch_open(sb_db *db, const char *kind, const char *format, const char *source,
                  const char *path, const char *sha256, const char *options,
                  const sb_batch *resume, sb_batch *out, sb_err *e);

/* Take out again everything batch b stored, inside the caller's
 * transaction: its runs (with their executions and tags, out of the day
 * rollups), the runs it replaced put back as they were, its billing lines,
 * the lines it superseded made live again, its rejected lines; then the
 * batch is 'failed' with reason and nothing counted (b's counts too).  The
 * ledger is then as if the batch had never run.  Only for a batch that
 * sb_batch_can_take_out allows (or the one this process is importing). */
int sb_batch_take_out(sb_db *db, sb_batch *b, const char *reason, sb_err *e);

/* Begin a batch for kind/format/source.  Any batch still 'running' is
 * marked 'interrupted' first (the caller holds the ledger's write lock, so
 * no other import is alive).  When sha256 is not NULL and an interrupted
 * batch of the same format has it, that batch is resumed: *out gets its
 * counts and resume point and resumed is set.  Otherwise a new batch is
 * created.  Commits its own transaction. */
int sb_batch_begin(sb_db *db, const char *kind, const char *format,
                   const char *source, const char *sha256, const char *options,
                   sb_batch *out, sb_err *e);

/* Store b's counts, resume point and prefix read (inside the caller's
 * transaction). */
int sb_batch_save(sb_db *db, const sb_batch *b, sb_err *e);

/* Store a rejected line of batch b: its number, reason and content
 * (len bytes kept of a line full_len long).  Inside the caller's
 * transaction. */
int sb_batch_reject(sb_db *db, const sb_batch *b, int64_t line_no, const char *reason,
                    const char *content, size_t len, int64_t full_len, sb_err *e);

/* End batch b with status (SB_BATCH_COMPLETE or SB_BATCH_FAILED; another
 * is SB_EINTERNAL), its counts, and the SHA-256 of the bytes it read
 * (sha256 NULL: the one it has is kept).  Inside the caller's
 * transaction. */
int sb_batch_end(sb_db *db, const sb_batch *b, sb_batch_status status, const char *sha256,
                 sb_err *e);

#endif
