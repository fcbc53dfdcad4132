/* lines.h: a streaming line reader over an sb_read_fn.
 *
 * Memory is bounded by the longest line up to a maximum; a longer line is
 * handed out truncated (its first SB_LINES_KEEP bytes) with too_long set,
 * and the reader goes on at the next line.  A UTF-8 byte-order mark at the
 * start of the input is dropped; "\r\n" and "\n" both end a line; the last
 * line needs no newline.
 */
#ifndef SB_LINES_H
#define SB_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "importers/source.h"

/* How much of a too-long line is kept (to store it as a reject). */
#define SB_LINES_KEEP ((size_t)64 * 1024)

typedef struct sb_line {
	const char *text;     /* the line without its end ("\n" or "\r\n"); borrowed
	                         until the next call */
	size_t len;           /* bytes at text */
	int64_t lineno;       /* 1-based physical line number */
	int64_t offset;       /* byte offset of the line's start in the input */
	int64_t next_offset;  /* byte offset just past its end (where to resume) */
	bool too_long;        /* longer than the maximum: text is its first
	                         SB_LINES_KEEP bytes */
	int64_t full_len;     /* the whole line's length (differs when too_long) */
} sb_line;

typedef struct sb_lines sb_lines;

/* A reader over fn/ctx whose lines may be up to max_line bytes.  The input
 * is taken to start at byte start_offset, line start_lineno (1 for a fresh
 * start; otherwise the values saved when an import stopped).  Returns NULL
 * when out of memory.  The caller frees it with sb_lines_free. */
sb_lines *sb_lines_new(sb_read_fn fn, void *ctx, size_t max_line,
                       int64_t start_offset, int64_t start_lineno);

/* Read the next line into *out.  Returns SB_OK and sets *eof (and leaves
 * *out alone) at the end of input; an error of the read function is
 * returned as is. */
int sb_lines_next(sb_lines *lr, sb_line *out, bool *eof, sb_err *e);

/* Free lr; NULL is allowed. */
void sb_lines_free(sb_lines *lr);

#endif
