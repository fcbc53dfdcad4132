/* source.c: files and standard input read in blocks (see source.h). */
#include "importers/source.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

enum { HASH_BLOCK = 1 << 20 };

struct sb_source {
	char *name;        /* as given to sb_source_open */
	char *path;        /* the file the descriptor has open, or NULL */
	int fd;            /* open descriptor (0 for standard input) */
	bool is_file;      /* a regular file */
	EVP_MD_CTX *sha;   /* hashing what is read, or NULL */
	int64_t offset;    /* bytes read so far */
	bool snapped;      /* sb_source_snapshot was taken: limit and st hold */
	int64_t limit;     /* its size: reads stop there */
	struct stat st;    /* the file as it was then */
	char snap_sha[65]; /* its SHA-256 then */
	bool changed;      /* a change of the file was seen */
};

/* Write the hex form of the digest of ctx into hex[65]. */
static void digest_hex(EVP_MD_CTX *ctx, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int md_len = 0;

	EVP_DigestFinal_ex(ctx, md, &md_len);
	for (unsigned int i = 0; i < md_len && i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	hex[64] = '\0';
}

char *sb_fd_path(int fd, const char *name)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof buf - 1);
	if (n > 0 && buf[0] == '/') {
		buf[n] = '\0';
		return strdup(buf);
	}
	/* no /proc: the name, resolved now, when it still names this file */
	{
		struct stat a, b;
		char *real = realpath(name, NULL);
		if (real != NULL && stat(real, &a) == 0 && fstat(fd, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			return real;
		free(real);
	}
	return NULL;
}

/* Finish a source over src->fd: reject a directory, note a regular file. */
static int setup(sb_source *src, sb_err *e)
{
	struct stat st;

	if (fstat(src->fd, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return sb_fail(e, SB_ENOINPUT, "%s: is a directory, not a file", src->name);
		src->is_file = S_ISREG(st.st_mode);
	}
	if (src->is_file)
		src->path = sb_fd_path(src->fd, src->name);
	return SB_OK;
}

int sb_source_open(const char *path, sb_source **out, sb_err *e)
{
	sb_source *src = calloc(1, sizeof *src);

	*out = NULL;
	if (src == NULL || (src->name = strdup(path)) == NULL) {
		free(src);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	if (strcmp(path, "-") == 0) {
		src->fd = STDIN_FILENO;
	} else {
		src->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (src->fd < 0) {
			sb_fail(e, SB_ENOINPUT, "%s: cannot open: %s", path, strerror(errno));
			sb_source_close(src);
			return e->code;
		}
	}
	if (setup(src, e) != SB_OK) {
		sb_source_close(src);
		return e->code;
	}
	*out = src;
	return SB_OK;
}

int sb_source_fdopen(int fd, const char *name, sb_source **out, sb_err *e)
{
	sb_source *src = calloc(1, sizeof *src);

	*out = NULL;
	if (src == NULL || (src->name = strdup(name)) == NULL) {
		free(src);
		close(fd);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	src->fd = fd;
	if (setup(src, e) != SB_OK) {
		sb_source_close(src);
		return e->code;
	}
	*out = src;
	return SB_OK;
}

int sb_source_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e)
{
	sb_source *src = ctx;
	ssize_t n;

	*got = 0;
	if (src->snapped && (int64_t)cap > src->limit - src->offset)
		cap = (size_t)(src->limit - src->offset);
	if (cap == 0)
		return SB_OK;
	do
		n = read(src->fd, buf, cap);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return sb_fail(e, SB_ENOINPUT, "%s: read error: %s", src->name, strerror(errno));
	*got = (size_t)n;
	src->offset += n;
	if (src->sha != NULL && n > 0)
		EVP_DigestUpdate(src->sha, buf, (size_t)n);
	return SB_OK;
}

int sb_source_skip(sb_source *src, int64_t n, sb_err *e)
{
	char *buf = malloc(HASH_BLOCK);
	size_t got = 0;

	if (buf == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	while (n > 0) {
		size_t want = n < HASH_BLOCK ? (size_t)n : HASH_BLOCK;
		if (sb_source_read(src, buf, want, &got, e) != SB_OK)
			break;
		if (got == 0) {
			src->changed = true;
			sb_fail(e, SB_ETEMP, "%s: changed while read; import it again when it is complete",
			        src->name);
			break;
		}
		n -= (int64_t)got;
	}
	free(buf);
	return e->code;
}

int sb_source_hash_on(sb_source *src, sb_err *e)
{
	if (src->sha != NULL)
		return SB_OK;
	src->sha = EVP_MD_CTX_new();
	if (src->sha != NULL && EVP_DigestInit_ex(src->sha, EVP_sha256(), NULL) == 1)
		return SB_OK;
	EVP_MD_CTX_free(src->sha);
	src->sha = NULL;
	return sb_fail(e, SB_EINTERNAL, "SHA-256 is not available from libcrypto");
}

bool sb_source_hash_now(const sb_source *src, char hex[65])
{
	EVP_MD_CTX *copy;

	hex[0] = '\0';
	if (src->sha == NULL || (copy = EVP_MD_CTX_new()) == NULL)
		return false;
	if (EVP_MD_CTX_copy_ex(copy, src->sha) == 1)
		digest_hex(copy, hex);
	EVP_MD_CTX_free(copy);
	return hex[0] != '\0';
}

int64_t sb_source_offset(const sb_source *src)
{
	return src->offset;
}

/* SHA-256 of the file's bytes [0, len) (len < 0: to its end) by pread
 * into hex, the bytes read into *read. */
static int hash_range(sb_source *src, int64_t len, char hex[65], int64_t *read_n, sb_err *e)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	char *buf = malloc(HASH_BLOCK);
	int64_t at = 0;

	hex[0] = '\0';
	*read_n = 0;
	if (ctx == NULL || buf == NULL || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
		sb_fail(e, SB_EINTERNAL, "SHA-256 is not available from libcrypto (or out of memory)");
		goto done;
	}
	while (len < 0 || at < len) {
		size_t want = len < 0 || len - at > HASH_BLOCK ? HASH_BLOCK : (size_t)(len - at);
		ssize_t n = pread(src->fd, buf, want, (off_t)at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			sb_fail(e, SB_ENOINPUT, "%s: read error: %s", src->name, strerror(errno));
			goto done;
		}
		if (n == 0)
			break;
		EVP_DigestUpdate(ctx, buf, (size_t)n);
		at += n;
	}
	digest_hex(ctx, hex);
	*read_n = at;
done:
	free(buf);
	EVP_MD_CTX_free(ctx);
	return e->code;
}

/* True when a and b show the same file with the same contents, as far as
 * its size, modification time and change time tell. */
static bool same_stat(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* The message of a file that changed while read. */
static int changed(sb_source *src, sb_err *e)
{
	src->changed = true;
	return sb_fail(e, SB_ETEMP, "%s: changed while read; import it again when it is complete",
	               src->name);
}

int sb_source_snapshot(sb_source *src, char hex[65], int64_t *size, sb_err *e)
{
	struct stat before, after;
	int64_t n = 0;

	if (!src->is_file)
		return sb_fail(e, SB_EINTERNAL, "%s: not a regular file: no snapshot", src->name);
	if (fstat(src->fd, &before) != 0)
		return sb_fail(e, SB_ENOINPUT, "%s: %s", src->name, strerror(errno));
	if (hash_range(src, -1, hex, &n, e) != SB_OK)
		return e->code;
	if (fstat(src->fd, &after) != 0)
		return sb_fail(e, SB_ENOINPUT, "%s: %s", src->name, strerror(errno));
	if (!same_stat(&before, &after) || n != (int64_t)after.st_size)
		return changed(src, e);
	src->snapped = true;
	src->limit = n;
	src->st = after;
	snprintf(src->snap_sha, sizeof src->snap_sha, "%s", hex);
	*size = n;
	return SB_OK;
}

int64_t sb_source_size(const sb_source *src)
{
	return src->snapped ? src->limit : 0;
}

int sb_source_prefix_sha(sb_source *src, int64_t len, char hex[65], bool *whole, sb_err *e)
{
	int64_t n = 0;

	*whole = false;
	if (hash_range(src, len, hex, &n, e) != SB_OK)
		return e->code;
	*whole = n == len;
	if (!*whole)
		hex[0] = '\0';
	return SB_OK;
}

int sb_source_unchanged(sb_source *src, sb_err *e)
{
	struct stat now;

	if (!src->snapped)
		return SB_OK;
	if (fstat(src->fd, &now) != 0)
		return sb_fail(e, SB_ENOINPUT, "%s: %s", src->name, strerror(errno));
	return same_stat(&src->st, &now) ? SB_OK : changed(src, e);
}

int sb_source_finish(sb_source *src, sb_err *e)
{
	char now[65];

	if (!src->snapped)
		return SB_OK;
	if (sb_source_unchanged(src, e) != SB_OK)
		return e->code;
	if (src->offset != src->limit)
		return changed(src, e);
	/* a hash that cannot be taken (memory ran out) says nothing of the file */
	if (!sb_source_hash_now(src, now))
		return sb_fail(e, SB_EINTERNAL, "%s: the SHA-256 of what was read could not be taken (out of memory)",
		               src->name);
	return strcmp(now, src->snap_sha) != 0 ? changed(src, e) : SB_OK;
}

bool sb_source_changed(const sb_source *src)
{
	return src->changed;
}

bool sb_source_is_file(const sb_source *src)
{
	return src->is_file;
}

const char *sb_source_name(const sb_source *src)
{
	return src->name;
}

const char *sb_source_path(const sb_source *src)
{
	return src->path;
}

void sb_source_close(sb_source *src)
{
	if (src == NULL)
		return;
	if (src->fd > STDIN_FILENO)
		close(src->fd);
	EVP_MD_CTX_free(src->sha);
	free(src->path);
	free(src->name);
	free(src);
}

int sb_membuf_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e)
{
	sb_membuf *mb = ctx;
	size_t n = mb->len - mb->pos;

	(void)e;
	if (n > cap)
		n = cap;
	if (mb->chunk > 0 && n > mb->chunk)
		n = mb->chunk;
	memcpy(buf, mb->data + mb->pos, n);
	mb->pos += n;
	*got = n;
	return SB_OK;
}
