/* records.h: one record at a time from any input shape.
 *
 * An import reads records; what a record is depends on the input: a line
 * of JSON Lines (importers/lines.h), an element of a JSON array
 * (importers/jsonarray.h), or a row of a CSV file with a header
 * (importers/csv.h).  This module puts the three behind one reader that
 * gives each record's bytes, its line and where to resume after it, and
 * guesses which shape a file has from its first bytes.
 *
 * Ownership: sb_records_open allocates the reader, sb_records_free frees
 * it.  Record bytes, CSV rows and the CSV header are borrowed from the
 * reader until its next call.  Nothing here prints.
 */
#ifndef SB_RECORDS_H
#define SB_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "importers/csv.h"
#include "importers/source.h"
#include "ledger/err.h"

/* Shapes of input (bits, so a format can accept several). */
enum {
	SB_REC_LINES = 1,       /* JSON Lines: one record per line */
	SB_REC_JSON_ARRAY = 2,  /* one JSON array (or an object holding one) */
	SB_REC_CSV = 4,         /* CSV with a header row */
	SB_REC_JSON_VALUES = 8  /* a stream of JSON values separated by white space:
	                           each top-level object a record (JSON Lines, one
	                           object, pretty-printed objects); with
	                           SB_REC_JSON_ARRAY too, a top-level array's
	                           elements as well */
};

/* One record. */
typedef struct sb_rec {
	const char *text;        /* its bytes as read (a CSV row's raw text) */
	size_t len;              /* bytes at text */
	int64_t lineno;          /* line of its first byte */
	int64_t next_offset;     /* byte offset where the next record may start */
	int64_t next_line;       /* the line there */
	bool too_long;           /* text holds only the first bytes of a longer record */
	int64_t full_len;        /* the record's whole length */
	const sb_csv *csv;       /* CSV: the reader (for its header), else NULL */
	const sb_csv_record *row; /* CSV: the row's cells, else NULL */
} sb_rec;

/* How to read an input. */
typedef struct sb_records_opts {
	unsigned shape;          /* one SB_REC_*, or SB_REC_JSON_VALUES |
	                            SB_REC_JSON_ARRAY (objects and arrays) */
	const char *member;      /* JSON array: the member of a top-level object
	                            holding it, or NULL for a top-level array */
	unsigned csv_flags;      /* CSV: SB_CSV_NOCASE or 0 (SB_CSV_HEADER is implied) */
	size_t max_record;       /* longest record handed out whole, in bytes */
} sb_records_opts;

typedef struct sb_records sb_records;

/* A reader over fn/ctx, which is at offset 0 of the input.  For CSV the
 * header row is read now: a bad or missing header is SB_EDATA with the
 * reason in e.  o is copied (its member string is borrowed).  The caller
 * owns *out and frees it with sb_records_free. */
int sb_records_open(sb_read_fn fn, void *ctx, const sb_records_opts *o, sb_records **out,
                    sb_err *e);

/* The read function now continues at offset/line, a resume point that a
 * record of the same input reported (next_offset, next_line). */
void sb_records_resume(sb_records *r, int64_t offset, int64_t line);

/* Read the next record into *out.  SB_OK with *eof set at the end of
 * input; SB_OK with *out set otherwise, and when the record is bad at the
 * level of the input's shape (a CSV row with too few cells, a JSON array
 * cut off, a line past the maximum) the reason in why (why->code SB_EDATA).
 * Another code in e when the input cannot be read on. */
int sb_records_next(sb_records *r, sb_rec *out, bool *eof, sb_err *why, sb_err *e);

/* True when the input's frame was read: a CSV header, or the '[' of a JSON
 * array, so that an input without records is an empty export, not an
 * empty file. */
bool sb_records_framed(const sb_records *r);

/* The CSV reader (its header), or NULL for other shapes.  Borrowed. */
const sb_csv *sb_records_csv(const sb_records *r);

/* Free r; NULL is allowed. */
void sb_records_free(sb_records *r);

/* The shape of an input among those allowed (SB_REC_* bits), from its
 * first bytes head[0..len).  After a byte-order mark and white space: '['
 * is a JSON array; '{' is JSON Lines (SB_REC_LINES) or a stream of JSON
 * values (SB_REC_JSON_VALUES), or with member_mode (a format whose array
 * is a member of one object) that object; anything else CSV.  A JSON
 * shape comes out with every JSON bit allowed (SB_REC_JSON_VALUES |
 * SB_REC_JSON_ARRAY), so that a stream may mix objects and arrays.  When
 * the shape is not allowed, SB_EDATA with a message saying what the file
 * looks like and what the format reads. */
int sb_records_sniff(const char *head, size_t len, unsigned allowed, bool member_mode,
                     unsigned *shape, sb_err *e);

#endif
