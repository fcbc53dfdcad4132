/* test_json_in.c: the JSON reader (importers/json_in.h).
 *
 * The events of a document are written out as one line of text (numbers
 * as the text they were given with), and each refusal is checked with
 * its reason and column.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/json_in.h"
#include "ledger/money.h"

/* The events written out: { } [ ] K:key S:string N:number null true false. */
typedef struct dump {
	char text[4096];   /* the events so far */
	size_t len;        /* its length */
} dump;

static bool put(dump *d, const char *tag, const char *s, size_t n)
{
	int w = snprintf(d->text + d->len, sizeof d->text - d->len, "%s%s%.*s", d->len ? " " : "", tag,
	                 (int)n, s != NULL ? s : "");
	if (w > 0 && (size_t)w < sizeof d->text - d->len)
		d->len += (size_t)w;
	return true;
}

static bool d_null(void *ctx) { return put(ctx, "null", NULL, 0); }
static bool d_bool(void *ctx, bool b) { return put(ctx, b ? "true" : "false", NULL, 0); }
static bool d_num(void *ctx, const char *s, size_t n) { return put(ctx, "N:", s, n); }
static bool d_str(void *ctx, const char *s, size_t n) { return put(ctx, "S:", s, n); }
static bool d_key(void *ctx, const char *s, size_t n) { return put(ctx, "K:", s, n); }
static bool d_om(void *ctx) { return put(ctx, "{", NULL, 0); }
static bool d_cm(void *ctx) { return put(ctx, "}", NULL, 0); }
static bool d_oa(void *ctx) { return put(ctx, "[", NULL, 0); }
static bool d_ca(void *ctx) { return put(ctx, "]", NULL, 0); }

static const sb_json_events dump_events = {d_null, d_bool, d_num, d_str, d_key, d_om, d_cm, d_oa, d_ca};

/* Parse text (n bytes) and return the code; the events in d, the error in e. */
static int parse(const char *text, size_t n, dump *d, sb_err *e)
{
	sb_json_in *j = sb_json_in_new();
	int rc;

	assert_non_null(j);
	memset(d, 0, sizeof *d);
	sb_err_clear(e);
	rc = sb_json_in_parse(j, text, n, &dump_events, d, e);
	sb_json_in_free(j);
	return rc;
}

static void test_numbers_as_text(void **state)
{
	const char *doc = "{\"a\": [12345678.123456789, 9007199.254740993, -0, 1e-10, 1.5E3, 0.0000000015], "
	                  "\"b\": \"x\\u00e9\", \"c\": null, \"d\": true}";
	dump d;
	sb_err e;

	(void)state;
	assert_int_equal(parse(doc, strlen(doc), &d, &e), SB_OK);
	assert_string_equal(d.text, "{ K:a [ N:12345678.123456789 N:9007199.254740993 N:-0 N:1e-10 N:1.5E3 "
	                            "N:0.0000000015 ] K:b S:x\xc3\xa9 K:c null K:d true }");
}

/* Each refusal: the text, the reason expected (a prefix of the message). */
static const struct refusal {
	const char *name;    /* what the text breaks */
	const char *text;    /* the document */
	const char *reason;  /* the message, from its start */
} refusals[] = {
	{"a duplicate key", "{\"cost_usd\":1,\"cost_usd\":1000}", "not valid JSON: duplicate key 'cost_usd' (column 15)"},
	{"a duplicate key deep down", "{\"a\":{\"b\":{\"k\":1,\"k\":2}}}", "not valid JSON: duplicate key 'k'"},
	{"an empty key twice (the first key of the text: found by fuzz_billing_record)", "{\"\":1,\"\":2}",
	 "not valid JSON: duplicate key ''"},
	{"a duplicate key spelled with an escape", "{\"k\":1,\"\\u006b\":2}", "not valid JSON: duplicate key 'k'"},
	{"a BOM", "\xef\xbb\xbf{}", "not valid JSON: a byte order mark (U+FEFF) where a value or white space is due (column 1)"},
	{"a raw control byte in a string", "{\"a\":\"x\x01\"}", "not valid JSON: invalid character inside string"},
	{"an escaped NUL", "{\"a\":\"x\\u0000\"}", "not valid JSON: \\u0000 is not allowed (column 6)"},
	{"an overlong form", "[\"\xc0\xaf\"]", "not valid JSON"},
	{"an encoded surrogate", "[\"\xed\xa0\x80\"]", "not valid JSON: invalid UTF-8 byte 0xed in a string (column 3)"},
	{"past U+10FFFF", "[\"\xf4\x90\x80\x80\"]", "not valid JSON"},
	{"a cut sequence", "[\"\xe2\x82\"]", "not valid JSON"},
	{"a lone high surrogate", "[\"a\\ud800\"]", "not valid JSON: a \\u escape of half a UTF-16 surrogate pair (column 2)"},
	{"a lone low surrogate", "[\"\\udc00x\"]", "not valid JSON: a \\u escape of half a UTF-16 surrogate pair"},
	{"a high surrogate and no low one", "[\"\\ud800\\u0041\"]", "not valid JSON: a \\u escape of half"},
	{"NaN", "[NaN]", "not valid JSON: invalid char in json text near 'NaN' (column 2)"},
	{"trailing garbage", "{} x", "not valid JSON: trailing garbage near 'x' (column 4)"},
	{"cut short", "{\"a\": [1, 2", "not valid JSON: premature EOF (column 12)"},
	{"empty", "", "not valid JSON: premature EOF (column 1)"},
	/* found by fuzz_json_in against jansson: YAJL accepts these itself */
	{"a cut token after the value", "[\"a\"]\"b", "not valid JSON: trailing garbage (column 6)"},
	{"a vertical tab", "[1,\v2]", "not valid JSON: a vertical tab is not JSON white space (column 4)"},
	{"a form feed", "\f[]", "not valid JSON: a form feed is not JSON white space (column 1)"},
};

static void test_refusals(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
		const struct refusal *r = &refusals[i];
		dump d;
		sb_err e;
		int rc = parse(r->text, strlen(r->text), &d, &e);
		if (rc != SB_EDATA || strncmp(e.msg, r->reason, strlen(r->reason)) != 0)
			fail_msg("%s: got %d '%s', want '%s'", r->name, rc, e.msg, r->reason);
	}
}

static void test_accepted_edges(void **state)
{
	static const char *const ok[] = {
		"{\"k\":1,\"o\":{\"k\":2},\"p\":[{\"k\":3},{\"k\":4}]}",   /* a key once per object */
		"[\"\\ud83d\\ude00\"]",                                 /* a surrogate pair */
		"[\"\xf4\x8f\xbf\xbf\"]",                               /* U+10FFFF */
		"  {}\r\n\t",                                           /* white space around */
	};
	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		dump d;
		sb_err e;
		if (parse(ok[i], strlen(ok[i]), &d, &e) != SB_OK)
			fail_msg("'%s' refused: %s", ok[i], e.msg);
	}
}

/* A NUL byte in the text is refused where it stands. */
static void test_nul_byte(void **state)
{
	static const char doc[] = "{\"a\":\"x\0y\"}";
	dump d;
	sb_err e;

	(void)state;
	assert_int_equal(parse(doc, sizeof doc - 1, &d, &e), SB_EDATA);
	assert_non_null(strstr(e.msg, "not valid JSON"));
}

/* SB_JSON_MAX_DEPTH levels are read, one more is refused. */
static void test_depth(void **state)
{
	size_t n = SB_JSON_MAX_DEPTH;
	char *doc = malloc(2 * n + 3);
	dump d;
	sb_err e;

	(void)state;
	assert_non_null(doc);
	memset(doc, '[', n);
	memset(doc + n, ']', n);
	assert_int_equal(parse(doc, 2 * n, &d, &e), SB_OK);
	memset(doc, '[', n + 1);
	memset(doc + n + 1, ']', n + 1);
	assert_int_equal(parse(doc, 2 * n + 2, &d, &e), SB_EDATA);
	assert_string_equal(e.msg, "not valid JSON: nested deeper than 2048 levels (column 2049)");
	free(doc);
}

/* A callback that stops the parse: its error is the parse's. */
static bool stop_at_number(void *ctx, const char *s, size_t n)
{
	(void)s;
	(void)n;
	sb_fail(ctx, SB_EDATA, "no numbers here");
	return false;
}

static void test_callback_stops(void **state)
{
	sb_json_events ev = {0};
	sb_json_in *j = sb_json_in_new();
	sb_err e;

	(void)state;
	ev.number = stop_at_number;
	sb_err_clear(&e);
	assert_int_equal(sb_json_in_parse(j, "[1]", 3, &ev, &e, &e), SB_EDATA);
	assert_string_equal(e.msg, "no numbers here");
	sb_json_in_free(j);
}

/* The tree keeps each number's text: money from it is exact. */
static void test_tree_number_text(void **state)
{
	const char *doc = "{\"cost\": 12345678.123456789, \"n\": [9007199.254740993, 0.0000000015, -0]}";
	sb_json_in *j = sb_json_in_new();
	json_t *root = NULL, *n;
	const char *text;
	size_t len = 0;
	int64_t nanos = 0;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_json_in_tree(j, doc, strlen(doc), &root, &e), SB_OK);
	text = sb_json_in_number_text(j, json_object_get(root, "cost"), &len);
	assert_non_null(text);
	assert_int_equal(sb_money_parse(text, len, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, INT64_C(12345678123456789));
	n = json_object_get(root, "n");
	text = sb_json_in_number_text(j, json_array_get(n, 0), &len);
	assert_int_equal(sb_money_parse(text, len, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, INT64_C(9007199254740993));
	text = sb_json_in_number_text(j, json_array_get(n, 1), &len);
	assert_int_equal(sb_money_parse(text, len, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 2);
	text = sb_json_in_number_text(j, json_array_get(n, 2), &len);
	assert_int_equal(len, 2);
	assert_memory_equal(text, "-0", 2);
	assert_null(sb_json_in_number_text(j, root, &len));
	json_decref(root);
	/* a refused document leaves no tree */
	assert_int_equal(sb_json_in_tree(j, "{\"a\":[1,{\"b\":2,\"b\":3}]}", 22, &root, &e), SB_EDATA);
	assert_null(root);
	sb_json_in_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_as_text),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_accepted_edges),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_tree_number_text),
	};

	return cmocka_run_group_tests_name("json_in", tests, NULL, NULL);
}
