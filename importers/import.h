/* import.h: importing a file as a batch (docs/formats-runs.md and docs/formats-billing.md).
 *
 * One driver for every input: one open descriptor per input, hashed,
 * read and imported (a regular file is hashed whole first, through that
 * descriptor); it finds an earlier batch of the same file by SHA-256 (not
 * read again unless forced), resumes an interrupted one where its last
 * commit stopped when the file still begins with what it had read, reads
 * records one at a time (lines,
 * elements of a JSON array, or CSV rows: importers/records.h), hands each
 * to the format's handler, keeps every rejected record verbatim with its
 * reason, and commits in chunks; with strict the whole file is one
 * transaction and a single bad record keeps nothing of it.  A file that
 * changes while it is read fails its batch: what was committed of it is
 * taken out again (ledger/batch.h, sb_batch_take_out) and the import
 * returns SB_ETEMP.
 */
#ifndef SB_IMPORT_H
#define SB_IMPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "importers/source.h"
#include "ledger/batch.h"
#include "ledger/db.h"

/* Callbacks to the caller (the CLI prints; the core does not). */
typedef struct sb_import_events {
	/* a record was rejected: source name, its line, the reason */
	void (*on_reject)(void *ctx, const char *source, int64_t line_no, const char *reason);
	/* progress after each commit: bytes read so far, total (0 unknown) */
	void (*on_progress)(void *ctx, const char *source, int64_t done, int64_t total);
	void *ctx;                 /* passed back to both */
} sb_import_events;

typedef struct sb_import_opts {
	bool strict;               /* all or nothing */
	bool replace;              /* a conflicting record replaces the stored one */
	bool force;                /* read a file again though a batch has it */
	int64_t chunk;             /* records per commit (0: the default) */
	int64_t threads;           /* runs: threads parsing records (0: one per online CPU,
	                              at most 8; more than 16 counts as 16; 1: the thread that
	                              writes parses, no thread is started); the ledger comes
	                              out the same whatever the number */
	int64_t max_line;          /* longest record in bytes (0: the default, 64 MiB) */
	bool supersede;            /* billing: a reissued export replaces the lines of
	                              earlier batches it covers (docs/formats-billing.md);
	                              its lines stay pending until its last chunk */
	bool has_period;           /* billing: the period the input covers was given
	                              (--period; a fetch's requested period): what a
	                              supersede replaces, and Daytona's rows without times */
	int64_t period_from_ms;    /* that period: start */
	int64_t period_to_ms;      /* and end (excluded) */
	char delimiter;            /* billing CSV: ',' or ';', 0 to tell from the header */
	int64_t interval_ms;       /* billing, modal: a row's interval (0: a day) */
	sb_import_events events;   /* callbacks, any of them NULL */
	sb_words_fn words;         /* the caller's words for the ways out a rejected record's
	                              reason names (ledger/err.h), or NULL: the library's; the
	                              reason is stored and reported in them */
	const char *pause_path;    /* tests only (NULL: none): after the first commit of a
	                              chunk that is not the last, create this file and wait
	                              until it is removed, so that a test can change the input
	                              or kill the process at a known point */
	int64_t bulk_min;          /* runs: the smallest input (bytes left to read) for which
	                              an import into a ledger less than half its size drops
	                              the secondary indexes and builds them at its end
	                              (ledger/runs.h, sb_run_writer_bulk); 0: the default,
	                              32 MiB; tests set less */
	const char *rebuild_pause_path; /* tests only (NULL: none): as pause_path, once that
	                              import has built the indexes again, before the commit
	                              of its last transaction */
} sb_import_opts;

typedef struct sb_import_result {
	sb_batch batch;            /* the batch and its counts */
	int64_t already;           /* not read: this complete batch has the same file */
	bool empty;                /* the input held no records (and no frame: an empty
	                              JSON array or a CSV header alone is an empty export) */
	int64_t superseded;        /* billing: lines of earlier batches this one superseded */
	bool indexes_rebuilt;      /* runs: the import dropped the secondary indexes and built
	                              them at its end (sb_import_opts.bulk_min) */
} sb_import_result;

/* The record kinds, one file each (import_runs.c, import_billing.c). */
#include "importers/import_billing.h"
#include "importers/import_runs.h"

#endif
