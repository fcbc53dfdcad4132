/* driver.h: the import driver's side of a record kind (importers/import.c),
 * internal to importers/import*.c and importers/pipeline.c.
 *
 * The driver (import.c) owns a batch from start to end: the one open
 * descriptor, hashed and read; finding an earlier batch of the same file,
 * resuming an interrupted one; reading records; keeping every rejected
 * record with its reason; committing in chunks; the checks that the file
 * did not change while it was read.  A record kind (import_runs.c,
 * import_billing.c) is a handler: how its input is read, and how one
 * record is stored or why not.  The thread pipeline (pipeline.c) parses
 * records on worker threads for a handler that can, and hands them back
 * to the driver in input order.
 */
#ifndef SB_IMPORT_DRIVER_H
#define SB_IMPORT_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "importers/arena.h"
#include "importers/csv.h"
#include "importers/import.h"
#include "importers/records.h"
#include "importers/source.h"
#include "ledger/batch.h"
#include "ledger/db.h"

enum {
	DEFAULT_CHUNK = 5000,
	DEFAULT_MAX_LINE = 64 << 20
};

/* The test hook of sb_import_opts.pause_path (and rebuild_pause_path):
 * create path, then wait until it is gone (polling every 10 ms). */
void sb_import_test_pause(const char *path);

/* What the handler did with one record. */
enum outcome { STORED, DUPLICATE, REJECTED, REPLACED, SKIPPED };

/* A format's record handler: how its input is read, and how one record
 * is stored or why not. */
typedef struct handler {
	unsigned shapes;           /* SB_REC_* the format reads */
	bool sniff;                /* pick the shape from the first bytes (else: shapes is one) */
	const char *member;        /* JSON: the top-level member holding the array, or NULL */
	unsigned csv_flags;        /* CSV: SB_CSV_NOCASE or 0 */
	const char *noun;          /* what a record is called in messages ("line") */
	/* CSV: check the header; SB_EDATA with the reason in why (NULL: none) */
	int (*header)(void *ctx, const sb_csv *csv, sb_err *why);
	/* inside the import's first transaction: get ready to store records
	 * into the batch */
	int (*begin)(void *ctx, sb_db *db, int64_t batch_id, sb_err *e);
	/* handle rec: set *out; for REJECTED put the reason in why (an sb_err
	 * used as a message buffer); return an error code only when the
	 * import cannot go on */
	int (*handle)(void *ctx, const sb_rec *rec, enum outcome *out, sb_err *why, sb_err *e);
	/* Parsing on worker threads (all NULL: every record goes to handle).
	 * handle is then parse and store in one.  worker_new makes one
	 * thread's parsing state (NULL when out of memory); parse reads a
	 * record's text on that thread into *parsed, allocated in arena (the
	 * job's, reset once the writer is done with it), or returns SB_EDATA
	 * with the reason in why, or SB_EINTERNAL; store then stores it on the
	 * writer's thread, as handle does. */
	void *(*worker_new)(void *ctx);
	void (*worker_free)(void *worker);
	int (*parse)(void *worker, const char *text, size_t len, sb_arena *arena, void **parsed,
	             sb_err *why);
	int (*store)(void *ctx, const sb_rec *rec, void *parsed, enum outcome *out, sb_err *why,
	             sb_err *e);
	/* before store is called for each record of a job that parsed: what
	 * parse made of them, parsed[0..n) in input order (NULL: nothing to do) */
	int (*expect)(void *ctx, void *const *parsed, size_t n, sb_err *e);
	void *ctx;                 /* passed back to each */
	/* before each commit of what store and handle wrote (NULL: nothing to do) */
	int (*flush)(void *ctx, sb_err *e);
	/* in the batch's last transaction, before it ends complete (complete
	 * true) or failed: finish what the batch began (NULL: nothing to do).
	 * When the batch cannot complete after all, SB_OK with the reason in
	 * refused: it then ends failed with nothing of it kept but its rejects */
	int (*finish)(void *ctx, bool complete, sb_err *refused, sb_err *e);
	int64_t chunk;             /* records per commit when --chunk is not given (0:
	                              DEFAULT_CHUNK) */
} handler;

/* Rejected records of a --strict import, kept in a temporary file until
 * the transaction that would have held them is rolled back. */
typedef struct spool {
	FILE *f;        /* tmpfile(), or NULL when not strict */
} spool;

/* Where an import is. */
typedef struct driver {
	sb_db *db;                 /* the ledger */
	const sb_import_opts *o;   /* options */
	const char *source;        /* the source's name for messages */
	sb_batch *b;               /* the batch and its counts */
	spool sp;                  /* rejects while strict */
	int64_t in_chunk;          /* records since the last commit */
	int64_t total;             /* the input's size for progress (0: unknown) */
	const struct handler *h;   /* the format's handler */
	bool paused;               /* the test pause was taken (opts pause_path) */
	sb_source *src;            /* the input: each commit keeps the prefix read */
} driver;

enum { HEAD = 4096 };          /* bytes the shape of an input is told from */

/* An input being read: the source, the bytes read while opening it, the
 * record reader.  Every byte comes from the source once, in order: what
 * the reader read while opening (the first bytes, a CSV header) is kept
 * and handed out again, so that a resumed import can start its records
 * at any offset without reading anything twice (docs/reliability.md). */
typedef struct input {
	sb_source *src;            /* the file or standard input (borrowed) */
	char head[HEAD];           /* its first bytes */
	size_t head_len;           /* how many */
	char *kept;                /* every byte read while opening, from offset 0 */
	size_t kept_len;           /* bytes in kept */
	size_t kept_cap;           /* bytes allocated */
	size_t kept_pos;           /* bytes of kept handed out */
	bool keeping;              /* still opening: keep what is read */
	sb_records *rr;            /* the record reader, NULL when blank or bad */
	bool blank;                /* the input holds only white space */
	sb_err bad;                /* a fault of the whole file (shape, header) */
} input;

/* True when text[0..len) is only white space. */
bool sb_import_blank(const char *text, size_t len);

/* Settle one record read: count what the handler did with it (out; why
 * the reason of a rejected one), unless it was not counted (a blank line);
 * keep it when rejected; move the batch's resume point past it; and
 * commit every chunk records unless strict.  Records must be settled in
 * the order of the input, so that a commit always covers a prefix of it. */
int sb_import_settle(driver *d, const sb_rec *rec, bool counted, enum outcome out,
                     const char *why, sb_err *e);

/* Import src with handler h as a batch of kind/format (see import.h for
 * the outcome).  A regular file is hashed whole through its descriptor
 * first (is it already imported? an interrupted batch of it?), then read
 * through the same descriptor, and must be, at the end, exactly what was
 * hashed (docs/reliability.md).  src and h are borrowed. */
int sb_import_file(sb_db *db, const char *kind, const char *format, sb_source *src,
                   const handler *h, const sb_import_opts *o, sb_import_result *r, sb_err *e);

#endif
