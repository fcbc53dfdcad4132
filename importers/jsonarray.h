/* jsonarray.h: a streaming reader of the elements of a JSON array.
 *
 * Provider exports come as one JSON array (Modal's report, Daytona's
 * usage, E2B's events) or as one object holding an array under a member
 * (DeepInfra's {"months": [...]}).  The reader never parses the whole
 * document: it scans bytes, tracking strings, escapes and bracket depth,
 * and hands out the byte range of each top-level element, which the caller
 * parses on its own (json_loadb).  Memory is bounded by the longest
 * element up to a maximum; a longer element is handed out truncated (its
 * first SB_JARR_KEEP bytes) with too_long set, and reading goes on.
 *
 * What is read: an optional UTF-8 byte-order mark at offset 0, white
 * space, '[', elements separated by ',', ']', white space to the end.
 * With a member name: '{', members whose values are skipped, and the
 * array of the named member, whose elements are handed out.
 *
 * As a stream (sb_jarr_new_stream): documents one after another,
 * separated by white space (JSON Lines, one object, pretty-printed
 * objects one after another, arrays): with SB_JARR_OBJECTS a top-level
 * object is itself a record; with SB_JARR_ARRAYS a top-level array's
 * elements are; with a member, each top-level object's array is.  A
 * top-level object still open at a line end when the next line begins
 * with '{' is a JSON Lines record cut short: it is handed out with the
 * error "the record is not closed at the end of its line, and the next
 * line begins another", and the next line is read as the next record
 * (so a pretty-printed object must not put a nested '{' first on a
 * line, which no JSON writer does).  The scanner
 * checks the structure between elements and the nesting of brackets
 * inside them, not the syntax of scalars (json_loadb does that).
 *
 * Errors (SB_EDATA in why, with the offending bytes in the element):
 *  - "the file ends inside this element (truncated?)": an element was cut
 *    off; its bytes so far are handed out;
 *  - "the file ends before the JSON array is closed by ']' (truncated?)";
 *  - "expected ',' or ']' after an element, found 'x'", "found ']' where
 *    an element was expected", "text after the end of the JSON array",
 *    "'}' closes '['" and the like: the rest of the input cannot be read
 *    as elements; its first SB_JARR_KEEP bytes are handed out and the
 *    reader then reports the end of input.
 *
 * Positions: lines are counted by LF bytes from 1, offsets in bytes from
 * 0 with a BOM counted.  Each element reports where it starts and where
 * the reader can resume after it (sb_jarr_resume).
 *
 * Ownership: sb_jarr_new allocates the reader; sb_jarr_free frees it.
 * Element bytes are borrowed until the next call.  Nothing here prints.
 */
#ifndef SB_JSONARRAY_H
#define SB_JSONARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "importers/source.h"
#include "ledger/err.h"

/* How much of a too-long element is kept (to store it as a reject). */
#define SB_JARR_KEEP ((size_t)64 * 1024)

/* Deepest nesting of brackets inside an element whose matching is checked
 * (jansson's own limit).  Brackets deeper than this are counted, not
 * matched, so that such an element is still handed out whole (json_loadb
 * then rejects it) and the elements after it are read. */
#define SB_JARR_MAX_DEPTH 2048

typedef struct sb_jelem {
	const char *text;     /* the element's bytes; borrowed until the next call */
	size_t len;           /* bytes at text */
	int64_t lineno;       /* line of its first byte (1-based) */
	int64_t offset;       /* byte offset of its first byte */
	int64_t next_offset;  /* byte offset just past it: where to resume */
	int64_t next_line;    /* the line at next_offset */
	bool too_long;        /* longer than the maximum: text is its first
	                         SB_JARR_KEEP bytes */
	int64_t full_len;     /* the element's whole length in bytes */
	bool top;             /* a top-level object of a stream, not an array's element */
} sb_jelem;

typedef struct sb_jarr sb_jarr;

/* Flags of sb_jarr_new_stream. */
enum {
	SB_JARR_ARRAYS = 1,   /* a top-level array's elements are records */
	SB_JARR_OBJECTS = 2,  /* a top-level object is a record */
	SB_JARR_STREAM = 4    /* documents may follow one another */
};

/* A reader over fn/ctx, positioned at offset 0 of the input, for a
 * top-level array (member NULL) or for the array under member of a
 * top-level object (member is borrowed and must outlive the reader).
 * Elements up to max_elem bytes are handed out whole.  NULL when out of
 * memory; the caller frees it with sb_jarr_free. */
sb_jarr *sb_jarr_new(sb_read_fn fn, void *ctx, const char *member, size_t max_elem);

/* As sb_jarr_new, reading what flags (SB_JARR_*) allow: with a member,
 * only SB_JARR_STREAM counts; sb_jarr_new is SB_JARR_ARRAYS alone. */
sb_jarr *sb_jarr_new_stream(sb_read_fn fn, void *ctx, const char *member, size_t max_elem,
                            unsigned flags);

/* Tell the reader that its read function now continues from byte offset
 * `offset`, line `line`: a next_offset/next_line pair that an element of
 * the same input reported (the caller has just seeked the source there).
 * Buffered input is dropped.  A reader without SB_JARR_OBJECTS goes on in
 * the element's array; with it, a ',' or ']' next goes on in an array and
 * anything else is read as what follows a top-level record (the same
 * records come out as from an uninterrupted read; only on bytes that are
 * wrong between records may the reason differ, and an array cut off
 * right after the element resumed from ends without its error). */
void sb_jarr_resume(sb_jarr *ja, int64_t offset, int64_t line);

/* Read the next element into *out.  Returns SB_OK with *eof false and *out
 * set; SB_OK with *eof true at the end of input (and on every later call);
 * SB_OK with *out set and the problem in why (why->code SB_EDATA) for the
 * errors listed above; or the read function's error (or SB_EINTERNAL when
 * out of memory) in e. */
int sb_jarr_next(sb_jarr *ja, sb_jelem *out, bool *eof, sb_err *why, sb_err *e);

/* True once the opening '[' of the array has been read. */
bool sb_jarr_opened(const sb_jarr *ja);

/* Free ja; NULL is allowed. */
void sb_jarr_free(sb_jarr *ja);

#endif
