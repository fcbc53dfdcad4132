/* source.h: an input file or standard input, read in blocks.
 *
 * A source is one open descriptor: everything an import learns about a
 * file (its SHA-256, its size, whether it changed) is learnt from that
 * descriptor, never by opening the name again.  A source reads forward
 * only, counts the bytes it has handed out, and hashes them with SHA-256
 * once hashing is on, so that at any point the SHA-256 of the prefix read
 * so far is known (each commit of an import stores it).  For a regular
 * file, sb_source_snapshot first hashes the whole file through the same
 * descriptor (pread, so the reading position stays at 0) and fixes its
 * size: reads then never go past that size, and sb_source_unchanged tells
 * whether the file changed since (docs/reliability.md says what is
 * compared and why).
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

/* The file descriptor fd has open, as an absolute path without links
 * (malloc'd): from /proc/self/fd, else name resolved now, when it still
 * names the same file; NULL when it cannot be told. */
char *sb_fd_path(int fd, const char *name);

/* A source over fd, an open descriptor the caller has checked (nightly
 * opens an inbox file and checks the descriptor), named name in messages.
 * The source takes fd over: sb_source_close closes it, also when this
 * fails (SB_ENOINPUT for a directory, SB_EINTERNAL out of memory). */
int sb_source_fdopen(int fd, const char *name, sb_source **out, sb_err *e);

/* An sb_read_fn over a source (ctx is the sb_source). I/O errors are
 * SB_ENOINPUT with the file name and strerror.  After sb_source_snapshot
 * it hands out at most the snapshot's size in all. */
int sb_source_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e);

/* Read and drop n bytes (hashed like the others): moving to the resume
 * point of an interrupted import.  SB_ETEMP when the input ends first
 * (it is shorter than before). */
int sb_source_skip(sb_source *src, int64_t n, sb_err *e);

/* Hash with SHA-256 everything read from now on.  Call before the first
 * read, so that the hash is that of a prefix of the input.  SB_EINTERNAL
 * when libcrypto cannot set it up. */
int sb_source_hash_on(sb_source *src, sb_err *e);

/* The SHA-256 of what was read so far (since sb_source_hash_on), as 64
 * lower-case hex digits and a NUL, hashing going on; false when hashing
 * is not on or the digest could not be taken. */
bool sb_source_hash_now(const sb_source *src, char hex[65]);

/* How many bytes were read (handed out or skipped) so far. */
int64_t sb_source_offset(const sb_source *src);

/* A regular file only: the SHA-256 of the whole file read through the
 * descriptor (pread: the reading position is left alone) into hex, its
 * size into *size, and the file's size and times kept for
 * sb_source_unchanged.  SB_ETEMP ("changed while read") when the file
 * changed while it was hashed; SB_ENOINPUT on a read error. */
int sb_source_snapshot(sb_source *src, char hex[65], int64_t *size, sb_err *e);

/* A regular file only: the SHA-256 of its first len bytes, read again
 * through the descriptor (pread), into hex; *whole false when the file
 * is shorter than len (hex then empty). */
int sb_source_prefix_sha(sb_source *src, int64_t len, char hex[65], bool *whole, sb_err *e);

/* After sb_source_snapshot: SB_OK when the file still has the size,
 * modification time and change time it had then, else SB_ETEMP with
 * "NAME: changed while read; ...". */
int sb_source_unchanged(sb_source *src, sb_err *e);

/* After sb_source_snapshot, once the input was read to its end: SB_OK
 * when what was read is the whole file as it was hashed then (as many
 * bytes, the same SHA-256) and the file is unchanged since, else SB_ETEMP
 * as sb_source_unchanged says. */
int sb_source_finish(sb_source *src, sb_err *e);

/* True when a change of the file was seen (by sb_source_snapshot,
 * sb_source_skip, sb_source_unchanged or sb_source_finish): the SB_ETEMP
 * they returned is the file's, not the ledger's. */
bool sb_source_changed(const sb_source *src);

/* The size of the file when its snapshot was taken (sb_source_snapshot),
 * else 0 (standard input, a pipe: unknown). */
int64_t sb_source_size(const sb_source *src);

/* True when the source is a regular file (hashable up front). */
bool sb_source_is_file(const sb_source *src);

/* The name given to sb_source_open ("-" for standard input). Borrowed. */
const char *sb_source_name(const sb_source *src);

/* The file the descriptor has open, as an absolute path with no link in
 * it (from /proc/self/fd, else realpath of the name), or NULL for
 * standard input, a pipe, or when it cannot be told.  Borrowed. */
const char *sb_source_path(const sb_source *src);

/* Close and free src; NULL is allowed. */
void sb_source_close(sb_source *src);

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
