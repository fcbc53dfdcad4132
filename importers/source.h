/* source.h: an input file or standard input, read in blocks.
 *
 * A source counts the bytes it has handed out (the byte offset a resumed
 * import seeks back to) and can hash what it reads with SHA-256, for
 * standard input, whose hash cannot be taken before the import.
 */
#ifndef SB_SOURCE_H
#define SB_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/err.h"

/* The one way bytes enter a parser: fill buf[0..cap) with up to cap bytes,
 * set *got (0 at end of input) and return SB_OK, or return an error code
 * with a message in e.  Line readers and the CSV reader take one of these
 * and its ctx, so that a parser can be fed from a file, standard input, an
 * HTTP body or a memory buffer in the tests. */
typedef int (*sb_read_fn)(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e);

typedef struct sb_source sb_source;

/* Open PATH for reading ("-" is standard input).  SB_ENOINPUT with a
 * message naming the file when it is missing, unreadable or a directory.
 * The caller owns *out and closes it with sb_source_close. */
int sb_source_open(const char *path, sb_source **out, sb_err *e);

/* An sb_read_fn over a source (ctx is the sb_source). I/O errors are
 * SB_ENOINPUT with the file name and strerror. */
int sb_source_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e);

/* Start hashing with SHA-256 everything read from now on. */
void sb_source_hash_on(sb_source *src);

/* The SHA-256 of what was read since sb_source_hash_on, as 64 lower-case
 * hex digits and a NUL; false when hashing was not on. Call once, at the
 * end of input. */
bool sb_source_hash_final(sb_source *src, char hex[65]);

/* Skip to byte offset `offset` of a regular file (resuming an import).
 * SB_ENOINPUT when the source cannot seek (standard input, a pipe). */
int sb_source_seek(sb_source *src, int64_t offset, sb_err *e);

/* True when the source is a regular file (seekable, hashable up front). */
bool sb_source_is_file(const sb_source *src);

/* The name given to sb_source_open ("-" for standard input). Borrowed. */
const char *sb_source_name(const sb_source *src);

/* Close and free src; NULL is allowed. */
void sb_source_close(sb_source *src);

/* The SHA-256 of the whole file PATH as 64 lower-case hex digits, read in
 * one pass before an import (to find an earlier batch of the same file). */
int sb_sha256_file(const char *path, char hex[65], sb_err *e);

/* An sb_read_fn over a memory buffer, for tests and HTTP bodies held in
 * memory: ctx points at an sb_membuf, whose pos advances. */
typedef struct sb_membuf {
	const char *data;  /* the bytes (borrowed) */
	size_t len;        /* how many */
	size_t pos;        /* how many were handed out */
	size_t chunk;      /* at most this many per call (0: no limit), to test
	                      parsers across block boundaries */
} sb_membuf;
int sb_membuf_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e);

#endif
