/* lines.c: streaming line reader (see lines.h). */
#include "importers/lines.h"

#include <stdlib.h>
#include <string.h>

enum { BLOCK = 256 * 1024 };

struct sb_lines {
	sb_read_fn fn;       /* where bytes come from */
	void *ctx;           /* its context */
	char *buf;           /* buffered input */
	size_t cap;          /* allocated size of buf */
	size_t start;        /* first unconsumed byte in buf */
	size_t end;          /* one past the last buffered byte */
	size_t max_line;     /* longest line handed out whole */
	int64_t offset;      /* input offset of buf[start] */
	int64_t lineno;      /* number of the next line */
	bool at_eof;         /* the read function said end of input */
	bool bom_checked;    /* the start of input was looked at for a BOM */
};

sb_lines *sb_lines_new(sb_read_fn fn, void *ctx, size_t max_line,
                       int64_t start_offset, int64_t start_lineno)
{
	sb_lines *lr = calloc(1, sizeof *lr);

	if (lr == NULL)
		return NULL;
	lr->fn = fn;
	lr->ctx = ctx;
	lr->max_line = max_line < SB_LINES_KEEP ? SB_LINES_KEEP : max_line;
	lr->cap = 2 * BLOCK;
	lr->buf = malloc(lr->cap);
	if (lr->buf == NULL) {
		free(lr);
		return NULL;
	}
	lr->offset = start_offset;
	lr->lineno = start_lineno;
	lr->bom_checked = start_offset != 0;
	return lr;
}

/* Read one more block into the buffer, moving what is unconsumed to the
 * front and growing the buffer when it is full. */
static int fill(sb_lines *lr, sb_err *e)
{
	size_t got = 0;
	int rc;

	if (lr->start > 0) {
		memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
		lr->end -= lr->start;
		lr->start = 0;
	}
	if (lr->cap - lr->end < BLOCK) {
		size_t cap = lr->cap * 2;
		char *buf = realloc(lr->buf, cap);
		if (buf == NULL)
			return sb_fail(e, SB_EINTERNAL, "out of memory");
		lr->buf = buf;
		lr->cap = cap;
	}
	rc = lr->fn(lr->ctx, lr->buf + lr->end, lr->cap - lr->end, &got, e);
	if (rc != SB_OK)
		return rc;
	if (got == 0)
		lr->at_eof = true;
	lr->end += got;
	return SB_OK;
}

/* Drop the bytes of an over-long line up to (not including) its newline,
 * keeping its first SB_LINES_KEEP bytes at the front of the unconsumed
 * buffer, so that the buffer then holds the kept part, the newline and what
 * follows.  Sets *full to the line's whole length without its end, and
 * *ended to the length of that end ("\n" 1, "\r\n" 2, end of input 0). */
static int skip_long(sb_lines *lr, int64_t *full, size_t *ended, sb_err *e)
{
	const size_t kept = SB_LINES_KEEP;
	int64_t dropped = 0;
	bool last_cr = false;
	int rc;

	for (;;) {
		char *from = lr->buf + lr->start + kept;
		size_t avail = lr->end - lr->start - kept;
		char *nl = memchr(from, '\n', avail);
		if (nl != NULL) {
			size_t n = (size_t)(nl - from);
			bool cr = n > 0 ? nl[-1] == '\r' : last_cr;
			dropped += (int64_t)n;
			memmove(from, nl, avail - n);
			lr->end -= n;
			*full = (int64_t)kept + dropped - (cr ? 1 : 0);
			*ended = cr ? 2 : 1;
			return SB_OK;
		}
		if (avail > 0)
			last_cr = from[avail - 1] == '\r';
		dropped += (int64_t)avail;
		lr->end -= avail;
		if (lr->at_eof) {
			*full = (int64_t)kept + dropped;
			*ended = 0;
			return SB_OK;
		}
		if ((rc = fill(lr, e)) != SB_OK)
			return rc;
	}
}

int sb_lines_next(sb_lines *lr, sb_line *out, bool *eof, sb_err *e)
{
	size_t scanned = 0;
	int rc;

	*eof = false;
	for (;;) {
		char *line = lr->buf + lr->start;
		size_t avail = lr->end - lr->start;
		char *nl = memchr(line + scanned, '\n', avail - scanned);

		if (!lr->bom_checked && (avail >= 3 || lr->at_eof)) {
			lr->bom_checked = true;
			if (avail >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
				lr->start += 3;
				lr->offset += 3;
				scanned = 0;   /* counted from the old start */
				continue;
			}
		}
		if (nl != NULL || (lr->at_eof && avail > 0)) {
			size_t len = nl != NULL ? (size_t)(nl - line) : avail;
			size_t used = nl != NULL ? len + 1 : len;
			/* a newline among the first bytes: no BOM there, and
			 * none to look for after this line */
			lr->bom_checked = true;
			if (len > 0 && line[len - 1] == '\r')
				len--;
			out->text = line;
			/* a line over the maximum that happens to sit whole in
			 * the buffer is as too long as one that does not */
			out->too_long = len > lr->max_line;
			out->len = out->too_long ? SB_LINES_KEEP : len;
			out->lineno = lr->lineno++;
			out->offset = lr->offset;
			out->next_offset = lr->offset + (int64_t)used;
			out->full_len = (int64_t)len;
			lr->start += used;
			lr->offset += (int64_t)used;
			return SB_OK;
		}
		if (lr->at_eof) {
			*eof = true;
			return SB_OK;
		}
		if (avail > lr->max_line) {
			int64_t full = 0;
			size_t ended = 0;
			int64_t line_offset = lr->offset;
			if ((rc = skip_long(lr, &full, &ended, e)) != SB_OK)
				return rc;
			out->text = lr->buf + lr->start;
			out->len = SB_LINES_KEEP;
			out->lineno = lr->lineno++;
			out->offset = line_offset;
			out->next_offset = line_offset + full + (int64_t)ended;
			out->too_long = true;
			out->full_len = full;
			lr->start += SB_LINES_KEEP + (ended > 0 ? 1 : 0);
			lr->offset = out->next_offset;
			return SB_OK;
		}
		scanned = avail;
		if ((rc = fill(lr, e)) != SB_OK)
			return rc;
	}
}

void sb_lines_free(sb_lines *lr)
{
	if (lr == NULL)
		return;
	free(lr->buf);
	free(lr);
}
