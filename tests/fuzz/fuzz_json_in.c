/* fuzz_json_in.c: the JSON reader (importers/json_in.h) against jansson.
 *
 * The same bytes go to sb_json_in_tree and to jansson's json_loadb with
 * the options sbledger used (duplicate keys refused, any value at the
 * top): both must accept or both refuse, so that the move from jansson to
 * YAJL refuses the same bad JSON (but a NUL byte, which jansson takes
 * for the end of the text: sbledger refuses it).  A refusal is SB_EDATA with a message;
 * an accepted document is the same tree (compact dumps with sorted keys
 * compared) and each number of it keeps its text.
 */
#include <string.h>

#include <jansson.h>

#include "importers/json_in.h"
#include "tests/fuzz/fuzz.h"

/* Every number under v has its text in j. */
static void numbers_have_text(const sb_json_in *j, json_t *v)
{
	size_t len = 0;
	const char *key;
	json_t *m;
	size_t i;

	if (json_is_number(v)) {
		FUZZ_CHECK(sb_json_in_number_text(j, v, &len) != NULL && len > 0);
	} else if (json_is_object(v)) {
		json_object_foreach(v, key, m)
			numbers_have_text(j, m);
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, m)
			numbers_have_text(j, m);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static sb_json_in *j;
	const char *text = (const char *)data;
	json_t *ours = NULL, *theirs;
	sb_err e;
	int rc;

	if (j == NULL && (j = sb_json_in_new()) == NULL)
		abort();
	sb_err_clear(&e);
	rc = sb_json_in_tree(j, text, size, &ours, &e);
	FUZZ_CHECK(rc == SB_OK || rc == SB_EDATA);
	/* a NUL byte is never JSON; jansson takes it for the end of the text */
	if (memchr(text, '\0', size) != NULL) {
		FUZZ_CHECK(rc == SB_EDATA);
		return 0;
	}
	theirs = json_loadb(text, size, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);
	FUZZ_CHECK((rc == SB_OK) == (theirs != NULL));
	if (rc != SB_OK) {
		FUZZ_CHECK(strncmp(e.msg, "not valid JSON", 14) == 0);
		return 0;
	}
	{
		char *a = json_dumps(ours, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		char *b = json_dumps(theirs, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
		FUZZ_CHECK(a != NULL && b != NULL && strcmp(a, b) == 0);
		free(a);
		free(b);
	}
	numbers_have_text(j, ours);
	json_decref(ours);
	json_decref(theirs);
	return 0;
}
