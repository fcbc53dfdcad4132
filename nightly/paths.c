/* paths.c: the nightly job's paths, whole or refused (see paths.h). */
#include "nightly/paths.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/quote.h"

enum { SHOWN_END = 40 };   /* bytes shown of each end of a path refused */

/* Is the byte at p the first of a UTF-8 character (not a continuation)? */
static int starts_char(const char *p)
{
	return ((unsigned char)*p & 0xC0) != 0x80;
}

int sb_nightly_vpath(char *buf, size_t cap, int code, sb_err *e, const char *fmt, va_list ap)
{
	va_list again;
	char *full = NULL, shown[2 * SHOWN_END + 4], word[SB_QUOTE_BUFSZ];
	size_t head, tail;
	int len;

	va_copy(again, ap);
	len = vsnprintf(buf, cap, fmt, ap);
	if (len >= 0 && (size_t)len < cap) {
		va_end(again);
		return SB_OK;
	}
	if (cap > 0)
		buf[0] = '\0';
	if (vasprintf(&full, fmt, again) < 0)
		full = NULL;
	va_end(again);
	if (full == NULL)
		return sb_fail(e, code, "a path is longer than %zu bytes", cap > 0 ? cap - 1 : 0);
	/* its first SHOWN_END bytes and its last, each cut on a character */
	len = (int)strlen(full);
	head = (size_t)len < SHOWN_END ? (size_t)len : SHOWN_END;
	while (head > 0 && head < (size_t)len && !starts_char(full + head))
		head--;
	tail = (size_t)len > SHOWN_END ? (size_t)len - SHOWN_END : 0;
	if (tail < head)
		tail = head;
	while (tail < (size_t)len && !starts_char(full + tail))
		tail++;
	memcpy(shown, full, head);
	memcpy(shown + head, "...", 3);
	memcpy(shown + head + 3, full + tail, (size_t)len - tail + 1);
	free(full);
	return sb_fail(e, code, "%s: the path is longer than %zu bytes",
	               sb_quote(shown, SB_QUOTE_IF_NEEDED, word, sizeof word), cap - 1);
}
