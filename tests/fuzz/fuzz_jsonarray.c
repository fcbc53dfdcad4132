/* fuzz_jsonarray.c: the streaming JSON array reader (importers/jsonarray.h).
 *
 * Options from the first three bytes: the array at the top or under a
 * member "months" (DeepInfra's shape), the read size, and which element
 * to resume after; then the input, long runs made by fuzz_expand.  Every
 * element must be the input's bytes at its offset (its first
 * SB_JARR_KEEP bytes when too long).  When jansson reads the whole input
 * as the expected document, the reader must hand out exactly its
 * elements, each equal to jansson's, and no error.  A reader resumed
 * after an element must then give the same elements as the
 * uninterrupted one.
 */
#include <stdbool.h>
#include <string.h>

#include <jansson.h>

#include "importers/jsonarray.h"
#include "tests/fuzz/expand.h"
#include "tests/fuzz/fuzz.h"

enum { MAX_ELEMS = 2048 };

/* What an element was, for comparing two readers. */
struct seen {
	int64_t lineno, offset, next_offset, next_line, full_len;
	size_t len;
	bool too_long, bad, eof;
};

/* True when two readers saw the same element. */
static bool same(const struct seen *a, const struct seen *b)
{
	return a->lineno == b->lineno && a->offset == b->offset &&
	       a->next_offset == b->next_offset && a->next_line == b->next_line &&
	       a->full_len == b->full_len && a->len == b->len && a->too_long == b->too_long &&
	       a->bad == b->bad;
}

/* Read every element from the reader's position into seen, checking it
 * against the input (and against want, jansson's array, when not NULL).
 * Returns how many. */
static size_t read_all(sb_jarr *ja, const char *text, size_t len, json_t *want,
                       struct seen *seen)
{
	size_t n = 0;
	bool eof = false;

	while (n < MAX_ELEMS) {
		sb_jelem el;
		sb_err why, e;
		sb_err_clear(&why);
		sb_err_clear(&e);
		FUZZ_CHECK(sb_jarr_next(ja, &el, &eof, &why, &e) == SB_OK);
		if (eof)
			break;
		FUZZ_CHECK(el.offset >= 0 && (size_t)el.offset + el.len <= len);
		FUZZ_CHECK(el.next_offset >= el.offset && (size_t)el.next_offset <= len);
		FUZZ_CHECK(memcmp(el.text, text + el.offset, el.len) == 0);
		if (el.too_long)
			FUZZ_CHECK(el.len == SB_JARR_KEEP && el.full_len > (int64_t)SB_JARR_KEEP);
		else if (why.code == SB_OK)
			FUZZ_CHECK((int64_t)el.len == el.full_len && el.next_offset == el.offset + el.full_len);
		if (want != NULL) {
			json_t *got = json_loadb(el.text, el.len, JSON_DECODE_ANY, NULL);
			FUZZ_CHECK(why.code == SB_OK);
			FUZZ_CHECK(got != NULL && json_equal(got, json_array_get(want, n)));
			json_decref(got);
		}
		seen[n++] = (struct seen){el.lineno, el.offset, el.next_offset, el.next_line,
		                          el.full_len, el.len, el.too_long, why.code != SB_OK, false};
	}
	if (want != NULL)
		FUZZ_CHECK(n == json_array_size(want));
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct seen first[MAX_ELEMS], again[MAX_ELEMS];
	const char *member = fuzz_byte(&data, &size) & 1 ? "months" : NULL;
	size_t chunk = fuzz_byte(&data, &size);
	uint8_t pick = fuzz_byte(&data, &size);
	size_t len, n;
	char *text = fuzz_expand(data, size, &len);
	sb_membuf mb = {text, len, 0, 0};
	json_t *root, *want = NULL;
	sb_jarr *ja;

	if (len > 4096)
		chunk *= 997;   /* byte-sized reads of long inputs only waste time */
	mb.chunk = chunk;
	/* jansson's reading of the whole input, when it is the document
	 * expected (a key spelt with escapes is left out: the reader matches
	 * the member's bytes) */
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
	if (root != NULL && member == NULL && json_is_array(root))
		want = root;
	else if (root != NULL && member != NULL && json_is_array(json_object_get(root, member)) &&
	         memchr(text, '\\', len) == NULL)
		want = json_object_get(root, member);
	/* the reader keeps at most 64 KiB of an element: compare short inputs */
	if (len > SB_JARR_KEEP || (want != NULL && json_array_size(want) > MAX_ELEMS))
		want = NULL;
	ja = sb_jarr_new(sb_membuf_read, &mb, member, 0);
	FUZZ_CHECK(ja != NULL);
	n = read_all(ja, text, len, want, first);
	sb_jarr_free(ja);
	if (n > 0 && n < MAX_ELEMS && !first[pick % n].bad) {
		size_t k = pick % n, m;
		mb.pos = (size_t)first[k].next_offset;
		ja = sb_jarr_new(sb_membuf_read, &mb, member, 0);
		FUZZ_CHECK(ja != NULL);
		sb_jarr_resume(ja, first[k].next_offset, first[k].next_line);
		m = read_all(ja, text, len, NULL, again);
		FUZZ_CHECK(m == n - k - 1);
		for (size_t i = 0; i < m; i++)
			FUZZ_CHECK(same(&again[i], &first[k + 1 + i]));
		sb_jarr_free(ja);
	}
	json_decref(root);
	free(text);
	return 0;
}
