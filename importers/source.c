/* source.c: files and standard input read in blocks (see source.h). */
#include "importers/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

struct sb_source {
	char *name;        /* as given to sb_source_open */
	int fd;            /* open descriptor (0 for standard input) */
	bool is_file;      /* a regular file: seekable */
	EVP_MD_CTX *sha;   /* hashing what is read, or NULL */
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

int sb_source_open(const char *path, sb_source **out, sb_err *e)
{
	struct stat st;
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
	if (fstat(src->fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			sb_fail(e, SB_ENOINPUT, "%s: is a directory, not a file", path);
			sb_source_close(src);
			return e->code;
		}
		src->is_file = S_ISREG(st.st_mode);
	}
	*out = src;
	return SB_OK;
}

int sb_source_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e)
{
	sb_source *src = ctx;
	ssize_t n;

	do
		n = read(src->fd, buf, cap);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		*got = 0;
		return sb_fail(e, SB_ENOINPUT, "%s: read error: %s", src->name, strerror(errno));
	}
	*got = (size_t)n;
	if (src->sha != NULL && n > 0)
		EVP_DigestUpdate(src->sha, buf, (size_t)n);
	return SB_OK;
}

void sb_source_hash_on(sb_source *src)
{
	if (src->sha != NULL)
		return;
	src->sha = EVP_MD_CTX_new();
	if (src->sha != NULL && EVP_DigestInit_ex(src->sha, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(src->sha);
		src->sha = NULL;
	}
}

bool sb_source_hash_final(sb_source *src, char hex[65])
{
	if (src->sha == NULL)
		return false;
	digest_hex(src->sha, hex);
	EVP_MD_CTX_free(src->sha);
	src->sha = NULL;
	return true;
}

int sb_source_seek(sb_source *src, int64_t offset, sb_err *e)
{
	if (!src->is_file)
		return sb_fail(e, SB_ENOINPUT, "%s: cannot resume: not a regular file", src->name);
	if (lseek(src->fd, (off_t)offset, SEEK_SET) < 0)
		return sb_fail(e, SB_ENOINPUT, "%s: cannot seek: %s", src->name, strerror(errno));
	return SB_OK;
}

bool sb_source_is_file(const sb_source *src)
{
	return src->is_file;
}

const char *sb_source_name(const sb_source *src)
{
	return src->name;
}

void sb_source_close(sb_source *src)
{
	if (src == NULL)
		return;
	if (src->fd > STDIN_FILENO)
		close(src->fd);
	EVP_MD_CTX_free(src->sha);
	free(src->name);
	free(src);
}

int sb_sha256_file(const char *path, char hex[65], sb_err *e)
{
	enum { BLOCK = 1 << 20 };
	sb_source *src = NULL;
	char *buf = NULL;
	size_t got = 0;
	int rc;

	if ((rc = sb_source_open(path, &src, e)) != SB_OK)
		return rc;
	buf = malloc(BLOCK);
	if (buf == NULL) {
		sb_source_close(src);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	sb_source_hash_on(src);
	do
		rc = sb_source_read(src, buf, BLOCK, &got, e);
	while (rc == SB_OK && got > 0);
	if (rc == SB_OK && !sb_source_hash_final(src, hex))
		rc = sb_fail(e, SB_EINTERNAL, "SHA-256 is not available from libcrypto");
	free(buf);
	sb_source_close(src);
	return rc;
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
