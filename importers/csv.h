/* csv.h: a streaming CSV reader (RFC 4180 plus what real exports do).
 *
 * Records are read one at a time from an sb_read_fn in blocks of
 * SB_CSV_BLOCK bytes; memory is bounded by the longest record, and a record
 * longer than the reader's maximum is reported as bad and skipped.
 *
 * What is read:
 *  - fields separated by commas (or semicolons: SB_CSV_SEMICOLON, or
 *    SB_CSV_DETECT to choose from the first line), records ended by LF or
 *    CRLF; the last record may lack its line end;
 *  - quoted fields ("...") may hold commas, doubled quotes ("" is one ")
 *    and line ends (CR, LF, CRLF), all kept verbatim;
 *  - a UTF-8 byte-order mark (EF BB BF) at offset 0 is skipped;
 *  - an empty line (LF or CRLF alone) between records is skipped;
 *  - a lone CR outside quotes that is not followed by LF is data, except
 *    at the very end of input, where it ends the last record;
 *  - an empty unquoted field is NULL (FOCUS: "NULL is an empty cell, never
 *    0"); an empty quoted field ("") is the empty string;
 *  - nothing is trimmed: a space before an opening quote makes the field
 *    unquoted, and the quote is then a stray quote.
 *
 * Bad records (SB_EDATA, the record only; the next call reads on):
 *  - "quote inside unquoted field N"
 *  - "text after the closing quote of field N"
 *  - "quoted field N is not closed at the end of input"
 *  - "record longer than MAX bytes" (the reader skips to the next LF
 *    outside quotes)
 *  - "row has N fields, the header has M" (with a header only)
 * Messages carry no file name or line: the caller prefixes them with
 * sb_err_prefix(e, "%s:%lld", file, (long long)rec->line).
 *
 * Positions: lines are counted by LF bytes, from 1; offsets are bytes
 * from the start of the input, from 0, with the BOM counted.  Every record
 * reports where it starts and where the next one starts, so an import can
 * be resumed after a kill by seeking its source to a record start and
 * calling sb_csv_reset.
 *
 * Ownership: sb_csv_open allocates the reader (malloc); sb_csv_free frees
 * it and everything it handed out.  Records, fields and column names are
 * borrowed from the reader: a record stays valid until the next
 * sb_csv_next, sb_csv_reset or sb_csv_free on the same reader; column
 * names until sb_csv_free.  Nothing here prints or exits.
 */
#ifndef SB_CSV_H
#define SB_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "importers/source.h"
#include "ledger/err.h"

/* Bytes asked of the read function per call (at most). */
#define SB_CSV_BLOCK ((size_t)64 * 1024)

/* Longest record accepted when sb_csv_open is given 0: 1 MiB. */
#define SB_CSV_MAX_RECORD ((size_t)1024 * 1024)

/* Flags for sb_csv_open. */
enum {
	SB_CSV_HEADER = 1,     /* the first record names the columns */
	SB_CSV_NOCASE = 2,     /* with SB_CSV_HEADER: column names are compared
	                          ignoring ASCII case, at lookup and in the
	                          duplicate check */
	SB_CSV_SEMICOLON = 4,  /* fields are separated by ';', not ',' */
	SB_CSV_DETECT = 8,     /* the separator is ';' when the first line holds
	                          more semicolons than commas outside quotes, else
	                          ',' (sb_csv_delimiter says which) */
	SB_CSV_FOLD = 16,      /* with SB_CSV_HEADER: column names are compared
	                          folded: ASCII letters lowered, each run of bytes
	                          other than letters and digits one '_', none at
	                          either end ("Object ID" is object_id) */
	SB_CSV_NULL_WORD = 32, /* a data cell that is exactly NULL, unquoted, is an
	                          empty cell (text NULL): FOCUS exports write it */
	SB_CSV_UNGUARD = 64    /* a data cell of a ' followed by =, +, -, @, tab
	                          or CR loses that one ' (the quote a spreadsheet
	                          formula guard put before it) */
};

/* One cell of a record. */
typedef struct sb_csv_field {
	const char *text;  /* the value, quotes removed and "" undone, with a NUL
	                      after it; NULL for an empty unquoted cell */
	size_t len;        /* bytes in text, the NUL not counted (0 when NULL);
	                      authoritative if the input held NUL bytes */
	bool quoted;       /* the cell was written in double quotes */
} sb_csv_field;

/* One record, as returned by sb_csv_next.  On a bad record (SB_EDATA)
 * fields is NULL and nfields 0; the positions and raw bytes are set. */
typedef struct sb_csv_record {
	const sb_csv_field *fields;  /* nfields cells in column order */
	size_t nfields;              /* how many */
	int64_t line;                /* line of its first byte (1-based) */
	int64_t offset;              /* byte offset of its first byte */
	int64_t next_line;           /* line where the next record may start */
	int64_t next_offset;         /* byte offset just past its line end,
	                                where a resumed import starts */
	const char *raw;             /* its bytes as read, quotes and inner line
	                                ends included, its own line end (LF or
	                                CRLF) not; NUL after them */
	size_t raw_len;              /* bytes in raw */
	bool truncated;              /* raw holds only the first max_record
	                                bytes (a "record longer than" error) */
} sb_csv_record;

typedef struct sb_csv sb_csv;

/* Make a reader over fn(ctx, ...), which must be positioned at offset 0 of
 * the input.  flags: SB_CSV_HEADER and SB_CSV_NOCASE.  max_record: the
 * longest record accepted, in bytes, its line end not counted (0 gives
 * SB_CSV_MAX_RECORD).  With SB_CSV_HEADER the first record (after any
 * BOM and blank lines) is read now and kept as column names (an empty
 * cell is the name ""); it fails with SB_EDATA when the input has no
 * record ("no header row"), when the header record is bad ("header: "
 * and the reason) or when two columns have the same name
 * ("duplicate column \"X\" (columns 2 and 5)", 1-based).  Read errors are
 * returned as the read function gave them; SB_EINTERNAL when out of
 * memory.  On success the caller owns *out and frees it with sb_csv_free;
 * on failure *out is NULL.  ctx is borrowed and must outlive the reader. */
int sb_csv_open(sb_read_fn fn, void *ctx, unsigned flags, size_t max_record,
                sb_csv **out, sb_err *e);

/* Read the next record into *out (borrowed, see above).
 * Returns:
 *  - SB_OK with *out set: a good record; with a header it has exactly as
 *    many fields as the header;
 *  - SB_OK with *out NULL: end of input (and again on every later call);
 *  - SB_EDATA with *out set and a message in e: a bad record, whose
 *    positions and raw bytes are in *out; the reader has moved past it and
 *    the caller may clear e and call again;
 *  - another code with *out NULL: the read function failed (its code and
 *    message) or memory ran out (SB_EINTERNAL); the reader is stopped and
 *    returns the same code and message until sb_csv_reset.
 * When e already holds an error on entry, returns that code, reads
 * nothing and sets *out to NULL. */
int sb_csv_next(sb_csv *csv, const sb_csv_record **out, sb_err *e);

/* The index (0-based) of the header column named name, or -1 when there
 * is none or the reader has no header.  The match is exact (byte for
 * byte), or ignores ASCII case when the reader was opened with
 * SB_CSV_NOCASE, or is made on folded names with SB_CSV_FOLD. */
int sb_csv_column(const sb_csv *csv, const char *name);

/* How many columns the header has (0 without a header). */
size_t sb_csv_columns(const sb_csv *csv);

/* The name of header column i (NUL-terminated, borrowed until
 * sb_csv_free), or NULL when i is out of range. */
const char *sb_csv_column_name(const sb_csv *csv, size_t i);

/* The lookup key of header column i: its folded name with SB_CSV_FOLD,
 * else its name (borrowed until sb_csv_free), or NULL out of range. */
const char *sb_csv_column_key(const sb_csv *csv, size_t i);

/* The field separator in use: ',' or ';'. */
char sb_csv_delimiter(const sb_csv *csv);

/* The field of rec at column col, or NULL when col is negative (a column
 * sb_csv_column did not find) or past the record's last field.  The field
 * itself has a NULL text for an empty cell. */
const sb_csv_field *sb_csv_cell(const sb_csv_record *rec, int col);

/* Where the next record may start: the byte offset and line just past the
 * last record returned (right after sb_csv_open with a header: past the
 * header row).  This is the position to save as a resume point. */
void sb_csv_tell(const sb_csv *csv, int64_t *offset, int64_t *line);

/* Tell the reader that its read function now continues from byte offset
 * `offset`, line `line` of the input (the caller has just seeked the
 * source there, e.g. with sb_source_skip).  The position must be a record
 * start reported by a reader over the same input (a record's offset/line
 * or next_offset/next_line, or sb_csv_tell), for instance by the reader of
 * an import that was killed; records read from then on report offsets and
 * lines counted from it.  Buffered input, the end-of-input
 * state and a stopped reader's error are dropped; the header read at open
 * is kept, and is not expected again: to re-read the whole file of a
 * reader with a header, pass the position sb_csv_tell gave right after
 * sb_csv_open, not 0.  A BOM is skipped again only at offset 0. */
void sb_csv_reset(sb_csv *csv, int64_t offset, int64_t line);

/* Free the reader, its buffers, records and column names; NULL is
 * allowed.  Does not touch the read function's ctx. */
void sb_csv_free(sb_csv *csv);

#endif
