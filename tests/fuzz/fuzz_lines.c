/* fuzz_lines.c: the JSON Lines reader (importers/lines.h).
 *
 * Options from the first two bytes: the read size (to cut blocks
 * anywhere) and the maximum line; then the input, long runs made by
 * fuzz_expand.  Every line must be the input's bytes at its offset, end
 * at "\n", "\r\n" or the end, and follow the one before; a too-long line
 * keeps its first SB_LINES_KEEP bytes and reports its whole length; the
 * lines and their ends make up the input after a byte-order mark (a CR
 * that is the input's last byte ends the last line as "\r\n" would).  A
 * reader started at a line's next_offset (a resumed import) must then
 * give the same lines as the uninterrupted one.
 */
#include <stdbool.h>
#include <string.h>

#include "importers/lines.h"
#include "tests/fuzz/expand.h"
#include "tests/fuzz/fuzz.h"

enum { MAX_LINES = 4096 };

/* What a line was, for comparing two readers. */
struct seen {
	int64_t offset, next_offset, lineno, full_len;
	size_t len;
	bool too_long;
};

/* True when two readers saw the same line. */
static bool same(const struct seen *a, const struct seen *b)
{
	return a->offset == b->offset && a->next_offset == b->next_offset &&
	       a->lineno == b->lineno && a->full_len == b->full_len && a->len == b->len &&
	       a->too_long == b->too_long;
}

/* Read every line of text[from..len) with a reader started there, into
 * seen (at most MAX_LINES); returns how many. */
static size_t read_all(const char *text, size_t len, size_t from, int64_t lineno,
                       size_t chunk, size_t max_line, struct seen *seen)
{
	sb_membuf mb = {text + from, len - from, 0, chunk};
	sb_lines *lr = sb_lines_new(sb_membuf_read, &mb, max_line, (int64_t)from, lineno);
	size_t n = 0;
	bool eof = false;
	sb_line line;
	sb_err e;

	FUZZ_CHECK(lr != NULL);
	sb_err_clear(&e);
	while (n < MAX_LINES) {
		FUZZ_CHECK(sb_lines_next(lr, &line, &eof, &e) == SB_OK);
		if (eof)
			break;
		FUZZ_CHECK(line.offset >= 0 && (size_t)line.offset <= len);
		if (line.too_long) {
			FUZZ_CHECK(line.len == SB_LINES_KEEP);
			FUZZ_CHECK(line.full_len > (int64_t)(max_line < SB_LINES_KEEP ? SB_LINES_KEEP : max_line));
		} else {
			FUZZ_CHECK((int64_t)line.len == line.full_len);
		}
		FUZZ_CHECK((size_t)line.offset + line.len <= len);
		FUZZ_CHECK(memcmp(line.text, text + line.offset, line.len) == 0);
		{
			size_t end = (size_t)line.offset + (size_t)line.full_len;
			size_t eol;
			FUZZ_CHECK(end <= len);
			FUZZ_CHECK(memchr(text + line.offset, '\n', (size_t)line.full_len) == NULL);
			/* the end: "\n", "\r\n", nothing, or a CR that is the last byte */
			if (end == len)
				eol = 0;
			else if (text[end] == '\n' || (text[end] == '\r' && end + 1 == len))
				eol = 1;
			else if (text[end] == '\r' && text[end + 1] == '\n')
				eol = 2;
			else
				FUZZ_CHECK(0 && "a line ends where its input does not");
			FUZZ_CHECK(line.next_offset == (int64_t)(end + eol));
		}
		seen[n++] = (struct seen){line.offset, line.next_offset, line.lineno, line.full_len,
		                          line.len, line.too_long};
	}
	sb_lines_free(lr);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct seen first[MAX_LINES], again[MAX_LINES];
	size_t chunk = fuzz_byte(&data, &size);
	size_t max_line = (size_t)fuzz_byte(&data, &size) * 1024;
	uint8_t pick = fuzz_byte(&data, &size);
	size_t len, n, m, from = 0;
	char *text = fuzz_expand(data, size, &len);

	if (len > 4096)
		chunk *= 997;   /* byte-sized reads of long inputs only waste time */

	n = read_all(text, len, 0, 1, chunk, max_line, first);
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		from = 3;
	for (size_t i = 0; i < n; i++) {
		FUZZ_CHECK(first[i].lineno == (int64_t)i + 1);
		FUZZ_CHECK(first[i].offset == (int64_t)(i == 0 ? from : (size_t)first[i - 1].next_offset));
	}
	if (n > 0 && n < MAX_LINES)
		FUZZ_CHECK(first[n - 1].next_offset == (int64_t)len);
	if (n > 0 && n < MAX_LINES) {
		size_t k = pick % n;   /* resume after line k */
		m = read_all(text, len, (size_t)first[k].next_offset, first[k].lineno + 1, chunk,
		             max_line, again);
		FUZZ_CHECK(m == n - k - 1);
		for (size_t i = 0; i < m; i++)
			FUZZ_CHECK(same(&again[i], &first[k + 1 + i]));
	}
	free(text);
	return 0;
}
