/* json.c: building and writing JSON (see json.h). */
#include "report/json.h"

#include <stdlib.h>
#include <string.h>

void sb_json_put(json_t *o, const char *key, json_t *v, bool *ok)
{
	if (json_object_set_new(o, key, v) != 0)
		*ok = false;
}

void sb_json_append(json_t *list, json_t *v, bool *ok)
{
	if (json_array_append_new(list, v) != 0)
		*ok = false;
}

/* Text being dumped by jansson into memory.  jansson 2.14 does not check
 * every write of its own dump (an object's keys), so a failure is kept
 * here, where it cannot be lost. */
typedef struct text_buf {
	char *text;        /* what was written, NUL-terminated */
	size_t len;        /* its length */
	size_t cap;        /* allocated */
	bool failed;       /* a write failed: the text is not whole */
} text_buf;

/* json_dump_callback's writer: append size bytes of buf. */
static int text_write(const char *buf, size_t size, void *data)
{
	text_buf *t = data;

	if (t->failed)
		return -1;
	if (t->len + size + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		char *more;
		while (cap < t->len + size + 1)
			cap *= 2;
		if ((more = realloc(t->text, cap)) == NULL) {
			t->failed = true;
			return -1;
		}
		t->text = more;
		t->cap = cap;
	}
	memcpy(t->text + t->len, buf, size);
	t->len += size;
	t->text[t->len] = '\0';
	return 0;
}

char *sb_json_text(const json_t *json, size_t flags)
{
	text_buf t = {NULL, 0, 0, false};
	int rc;

	if (json == NULL)
		return NULL;
	rc = json_dump_callback(json, text_write, &t, flags);
	if (rc != 0 || t.failed || t.text == NULL) {
		free(t.text);
		return NULL;
	}
	return t.text;
}

int sb_json_print(FILE *f, json_t *json, size_t flags, sb_err *e)
{
	char *text = sb_json_text(json, flags);

	json_decref(json);
	if (text == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory while writing the result");
	fputs(text, f);
	fputc('\n', f);
	free(text);
	return SB_OK;
}
