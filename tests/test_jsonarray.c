/* test_jsonarray.c: the streaming JSON array reader (importers/jsonarray.h)
 * and the record reader's shape sniffing (importers/records.h).
 *
 * Most cases dump every element as one line of text and compare it with
 * the expected text for several read sizes (whole blocks, 1, 2, 3 and 7
 * bytes per call), so that the scanner is checked across block
 * boundaries.  A dumped element: LINE@OFFSET>NEXT_OFFSET/NEXT_LINE then
 * the element's bytes in braces, or "!" and the message for a bad one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SANITIZE_ADDRESS__)
/* From AddressSanitizer's runtime (sanitizer/allocator_interface.h). */
size_t __sanitizer_get_current_allocated_bytes(void);
#else
#include <malloc.h>
#endif

#include "importers/jsonarray.h"
#include "importers/records.h"
#include "importers/source.h"
#include "ledger/err.h"

/* Every element of input (read chunk bytes at a time, 0: as many as
 * asked, through a reader for member) dumped as text; allocated. */
static char *dump_flags(const char *input, size_t chunk, const char *member, size_t max,
                        unsigned flags)
{
	sb_membuf mb = {input, strlen(input), 0, chunk};
	sb_jarr *ja = sb_jarr_new_stream(sb_membuf_read, &mb, member, max, flags);
	char *out = NULL;
	size_t out_len = 0;
	FILE *f = open_memstream(&out, &out_len);
	bool eof = false;

	assert_non_null(ja);
	assert_non_null(f);
	for (int guard = 0; guard < 1000; guard++) {
		sb_jelem el;
		sb_err why, e;
		sb_err_clear(&why);
		sb_err_clear(&e);
		assert_int_equal(sb_jarr_next(ja, &el, &eof, &why, &e), SB_OK);
		if (eof)
			break;
		fprintf(f, "%lld@%lld>%lld/%lld", (long long)el.lineno, (long long)el.offset,
		        (long long)el.next_offset, (long long)el.next_line);
		if (why.code != SB_OK)
			fprintf(f, "!%s", why.msg);
		if (el.too_long)
			fprintf(f, "T%lld", (long long)el.full_len);
		else
			fprintf(f, "{%.*s}", (int)el.len, el.text);
		fputc('\n', f);
	}
	assert_true(eof);
	fclose(f);
	sb_jarr_free(ja);
	return out;
}

/* dump_flags of a reader of one array (sb_jarr_new). */
static char *dump(const char *input, size_t chunk, const char *member, size_t max)
{
	return dump_flags(input, chunk, member, max, SB_JARR_ARRAYS);
}

/* Check that input dumps to want at every read size, read with flags. */
static void expect_flags(const char *input, const char *member, unsigned flags, const char *want)
{
	static const size_t chunks[] = {0, 1, 2, 3, 7};

	for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
		char *got = dump_flags(input, chunks[i], member, 0, flags);
		if (strcmp(got, want) != 0)
			print_error("read %zu bytes at a time:\n got: %s\nwant: %s\n", chunks[i], got, want);
		assert_string_equal(got, want);
		free(got);
	}
}

/* Check that input dumps to want at every read size. */
static void expect(const char *input, const char *member, const char *want)
{
	static const size_t chunks[] = {0, 1, 2, 3, 7};

	for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
		char *got = dump(input, chunks[i], member, 0);
		if (strcmp(got, want) != 0)
			print_error("read %zu bytes at a time:\n got: %s\nwant: %s\n", chunks[i], got, want);
		assert_string_equal(got, want);
		free(got);
	}
}

static void test_elements(void **state)
{
	(void)state;
	expect("[{\"a\": 1}, {\"b\": \"x]}\\\"[\"},\n [1, [2]], \"s,]\", 3.5e2 , true,null]\n",
	       NULL,
	       "1@1>9/1{{\"a\": 1}}\n"
	       "1@11>26/1{{\"b\": \"x]}\\\"[\"}}\n"
	       "2@29>37/2{[1, [2]]}\n"
	       "2@39>44/2{\"s,]\"}\n"
	       "2@46>51/2{3.5e2}\n"
	       "2@54>58/2{true}\n"
	       "2@59>63/2{null}\n");
}

static void test_empty_and_blank(void **state)
{
	(void)state;
	expect("", NULL, "");
	expect("  \n ", NULL, "");
	expect("\xEF\xBB\xBF[ ]\r\n", NULL, "");
	expect("\xEF\xBB\xBF[{}]", NULL, "1@4>6/1{{}}\n");
}

static void test_truncated(void **state)
{
	(void)state;
	/* cut inside the second element: the first is kept */
	expect("[{\"a\": 1},\n {\"b\": [1, 2", NULL,
	       "1@1>9/1{{\"a\": 1}}\n"
	       "2@12>23/2!the file ends inside this element (truncated?){{\"b\": [1, 2}\n");
	/* every element whole, the array not closed */
	expect("[{\"a\": 1},\n{}\n", NULL,
	       "1@1>9/1{{\"a\": 1}}\n"
	       "2@11>13/2{{}}\n"
	       "3@14>14/3!the file ends before the JSON array is closed by ']' (truncated?){}\n");
	/* cut inside a string */
	expect("[\"abc", NULL, "1@1>5/1!the file ends inside this element (truncated?){\"abc}\n");
}

static void test_structure_errors(void **state)
{
	(void)state;
	expect("[{} {}]", NULL,
	       "1@1>3/1{{}}\n"
	       "1@4>7/1!expected ',' or ']' after an element, found '{'{{}]}\n");
	expect("[{},]", NULL,
	       "1@1>3/1{{}}\n"
	       "1@4>5/1!found ']' where an element was expected{]}\n");
	expect("[{\"a\": [}]", NULL,
	       "1@8>10/1!bad JSON structure at '}' (brackets do not match){}]}\n");
	expect("[{}] x", NULL,
	       "1@1>3/1{{}}\n"
	       "1@5>6/1!text after the end of the JSON document, at 'x'{x}\n");
	expect("a,b\n1,2\n", NULL, "1@0>8/1!expected a JSON array ('['), found 'a'{a,b\n1,2\n}\n");
}

static void test_member(void **state)
{
	(void)state;
	expect("{\"initial_month\": \"2026-01\", \"skip\": [1, {\"months\": \"]\"}], \"months\": [{\"p\": 1}, {\"p\": 2}], \"z\": null}",
	       "months",
	       "1@70>78/1{{\"p\": 1}}\n"
	       "1@80>88/1{{\"p\": 2}}\n");
	expect("{\"months\": []}", "months", "");
	expect("{\"other\": 1}", "months", "1@11>12/1!the JSON object has no member \"months\"{}}\n");
	expect("{\"months\": {}}", "months",
	       "1@11>14/1!the member holding the array is not an array: found '{'{{}}}\n");
	expect("{\"months\": [{}], \"x\": 1", "months",
	       "1@12>14/1{{}}\n"
	       "1@23>23/1!the file ends before the JSON object is closed by '}' (truncated?){}\n");
	expect("[{}]", "months", "1@0>4/1!expected a JSON object ('{'), found '['{[{}]}\n");
}

static void test_resume(void **state)
{
	const char *input = "[{\"a\": 1},\n {\"b\": 2},\n {\"c\": 3}]\n";
	sb_membuf mb = {input, strlen(input), 0, 0};
	sb_jarr *ja = sb_jarr_new(sb_membuf_read, &mb, NULL, 0);
	sb_jelem el;
	sb_err why, e;
	bool eof = false;
	int64_t offset, line;

	(void)state;
	sb_err_clear(&why);
	sb_err_clear(&e);
	assert_int_equal(sb_jarr_next(ja, &el, &eof, &why, &e), SB_OK);
	assert_int_equal(sb_jarr_next(ja, &el, &eof, &why, &e), SB_OK);
	assert_memory_equal(el.text, "{\"b\": 2}", 8);
	offset = el.next_offset;
	line = el.next_line;
	/* a new reader, as after a kill: the source seeks to the resume point */
	sb_jarr_free(ja);
	mb.pos = (size_t)offset;
	mb.chunk = 3;
	ja = sb_jarr_new(sb_membuf_read, &mb, NULL, 0);
	sb_jarr_resume(ja, offset, line);
	assert_int_equal(sb_jarr_next(ja, &el, &eof, &why, &e), SB_OK);
	assert_false(eof);
	assert_int_equal(why.code, SB_OK);
	assert_int_equal(el.len, 8);
	assert_memory_equal(el.text, "{\"c\": 3}", 8);
	assert_int_equal(el.lineno, 3);
	assert_int_equal(el.offset, 23);
	assert_int_equal(sb_jarr_next(ja, &el, &eof, &why, &e), SB_OK);
	assert_true(eof);
	assert_int_equal(why.code, SB_OK);
	sb_jarr_free(ja);
}

/* Bytes the heap holds now. */
static size_t heap_in_use(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return __sanitizer_get_current_allocated_bytes();
#else
	return mallinfo2().uordblks;
#endif
}

/* A read function handing out ["xxx...x", {"ok": 1}] with `left` x's. */
struct longone {
	size_t left;     /* x's still to give */
	int part;        /* 0: the opening, 1: the x's, 2: the end, 3: done */
};

static int longone_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e)
{
	static const char tail[] = "\", {\"ok\": 1}]";
	struct longone *l = ctx;
	size_t n = 0;

	(void)e;
	if (l->part == 0 && cap >= 2) {
		memcpy(buf, "[\"", 2);
		n = 2;
		l->part = 1;
	}
	if (l->part == 1) {
		size_t k = cap - n < l->left ? cap - n : l->left;
		memset(buf + n, 'x', k);
		n += k;
		l->left -= k;
		if (l->left == 0)
			l->part = 2;
	}
	if (l->part == 2 && cap - n >= sizeof tail - 1) {
		memcpy(buf + n, tail, sizeof tail - 1);
		n += sizeof tail - 1;
		l->part = 3;
	}
	*got = n;
	return SB_OK;
}

static void test_too_long(void **state)
{
	size_t big = (size_t)8 << 20;
	struct longone l = {big, 0};
	sb_jarr *ja = sb_jarr_new(longone_read, &l, NULL, SB_JARR_KEEP);
	size_t before = heap_in_use();
	sb_jelem el;
	sb_err why, e;
	bool eof = false;

	(void)state;
	sb_err_clear(&why);
	sb_err_clear(&e);
	assert_int_equal(sb_jarr_next(ja, &el, &eof, &why, &e), SB_OK);
	assert_false(eof);
	assert_true(el.too_long);
	assert_int_equal(el.len, SB_JARR_KEEP);
	assert_int_equal(el.full_len, big + 2);
	assert_int_equal(el.next_offset, big + 3);
	/* the element's middle was dropped, not kept */
	assert_true(heap_in_use() < before + 1024 * 1024);
	assert_int_equal(sb_jarr_next(ja, &el, &eof, &why, &e), SB_OK);
	assert_false(eof);
	assert_false(el.too_long);
	assert_int_equal(el.len, 9);
	assert_memory_equal(el.text, "{\"ok\": 1}", 9);
	assert_int_equal(sb_jarr_next(ja, &el, &eof, &why, &e), SB_OK);
	assert_true(eof);
	sb_jarr_free(ja);
}

/* A read function handing out "[" then n copies of an element, then "]". */
struct many {
	size_t n;       /* elements still to give */
	bool opened;    /* "[" given */
	bool closed;    /* "]" given */
};

static int many_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e)
{
	static const char el[] = "{\"sandboxId\": \"day-3c4a8d15d8\", \"totalPrice\": 0.386019},\n";
	struct many *m = ctx;
	size_t n = 0;

	(void)e;
	if (!m->opened && cap > 0) {
		buf[n++] = '[';
		m->opened = true;
	}
	while (m->n > 0 && cap - n >= sizeof el) {
		memcpy(buf + n, el, sizeof el - 1);
		n += sizeof el - 1;
		m->n--;
	}
	if (m->n == 0 && !m->closed && cap - n >= 3) {
		memcpy(buf + n, "{}]", 3);
		n += 3;
		m->closed = true;
	}
	*got = n;
	return SB_OK;
}

static void test_memory_does_not_grow(void **state)
{
	struct many m = {200000, false, false};
	sb_jarr *ja = sb_jarr_new(many_read, &m, NULL, 0);
	size_t before = heap_in_use(), most = 0, count = 0;
	sb_jelem el;
	sb_err why, e;
	bool eof = false;

	(void)state;
	sb_err_clear(&why);
	sb_err_clear(&e);
	while (sb_jarr_next(ja, &el, &eof, &why, &e) == SB_OK && !eof) {
		size_t now = heap_in_use();
		assert_int_equal(why.code, SB_OK);
		if (now > most)
			most = now;
		count++;
	}
	assert_true(eof);
	assert_int_equal(count, 200001);
	/* 11 MB of input, read through a buffer of a few blocks */
	assert_true(most < before + 512 * 1024);
	sb_jarr_free(ja);
}

/* The shape sniffed for head among allowed, or 0 with the message in msg. */
static unsigned sniff(const char *head, unsigned allowed, bool member, char msg[SB_ERR_MSG_MAX])
{
	unsigned shape = 0;
	sb_err e;

	sb_err_clear(&e);
	msg[0] = '\0';
	if (sb_records_sniff(head, strlen(head), allowed, member, &shape, &e) != SB_OK) {
		strcpy(msg, e.msg);
		return 0;
	}
	return shape;
}

static void test_sniff(void **state)
{
	char msg[SB_ERR_MSG_MAX];

	(void)state;
	assert_int_equal(sniff(" \n[{}]", SB_REC_JSON_ARRAY | SB_REC_CSV, false, msg), SB_REC_JSON_ARRAY);
	assert_int_equal(sniff("object_id,cost\n", SB_REC_JSON_ARRAY | SB_REC_CSV, false, msg), SB_REC_CSV);
	assert_int_equal(sniff("\xEF\xBB\xBF{\"a\":1}\n", SB_REC_LINES | SB_REC_CSV, false, msg), SB_REC_LINES);
	assert_int_equal(sniff("{\"months\": []}", SB_REC_JSON_ARRAY, true, msg), SB_REC_JSON_ARRAY);
	assert_int_equal(sniff("[{}]", SB_REC_LINES, false, msg), 0);
	assert_string_equal(msg, "the file looks like a JSON array, but this format reads JSON Lines (one object per line)");
	assert_int_equal(sniff("BilledCost,BillingCurrency\n", SB_REC_JSON_ARRAY, false, msg), 0);
	assert_string_equal(msg, "the file looks like CSV or plain text, but this format reads a JSON array");
	assert_int_equal(sniff("[]", SB_REC_JSON_ARRAY, true, msg), 0);
	assert_string_equal(msg, "the file looks like a JSON array, but this format reads a JSON object");
}

/* Every record of input read as shape, dumped (line, next offset, text or
 * the reason). */
static char *dump_records(const char *input, unsigned shape, size_t chunk)
{
	sb_membuf mb = {input, strlen(input), 0, chunk};
	sb_records_opts o = {shape, NULL, 0, 1 << 20};
	sb_records *rr = NULL;
	char *out = NULL;
	size_t out_len = 0;
	FILE *f = open_memstream(&out, &out_len);
	sb_err e;
	bool eof = false;

	sb_err_clear(&e);
	assert_int_equal(sb_records_open(sb_membuf_read, &mb, &o, &rr, &e), SB_OK);
	for (int guard = 0; guard < 100; guard++) {
		sb_rec rec;
		sb_err why;
		sb_err_clear(&why);
		assert_int_equal(sb_records_next(rr, &rec, &eof, &why, &e), SB_OK);
		if (eof)
			break;
		fprintf(f, "%lld>%lld/%lld%s%s{%.*s}%s\n", (long long)rec.lineno, (long long)rec.next_offset,
		        (long long)rec.next_line, why.code != SB_OK ? "!" : "", why.msg, (int)rec.len,
		        rec.text, rec.row != NULL ? " row" : "");
	}
	fprintf(f, "framed=%d\n", sb_records_framed(rr));
	fclose(f);
	sb_records_free(rr);
	return out;
}

static void test_records_shapes(void **state)
{
	char *got;

	(void)state;
	got = dump_records("{\"a\":1}\r\n\n{\"b\":2}", SB_REC_LINES, 2);
	assert_string_equal(got, "1>9/2{{\"a\":1}}\n2>10/3{}\n3>17/4{{\"b\":2}}\nframed=0\n");
	free(got);
	got = dump_records("[{\"a\":1},\n{\"b\":2}]", SB_REC_JSON_ARRAY, 3);
	assert_string_equal(got, "1>8/1{{\"a\":1}}\n2>17/2{{\"b\":2}}\nframed=1\n");
	free(got);
	got = dump_records("a,b\r\n1,\"x,\ny\"\r\n2\r\n", SB_REC_CSV, 1);
	assert_string_equal(got, "2>15/4{1,\"x,\ny\"} row\n4>18/5!row has 1 fields, the header has 2{2}\nframed=1\n");
	free(got);
}

enum { ALL = SB_JARR_ARRAYS | SB_JARR_OBJECTS | SB_JARR_STREAM };

static void test_stream_values(void **state)
{
	(void)state;
	/* JSON Lines */
	expect_flags("{\"a\": 1}\n{\"b\": [2]}\n", NULL, ALL,
	             "1@0>8/1{{\"a\": 1}}\n"
	             "2@9>19/2{{\"b\": [2]}}\n");
	/* one pretty-printed object (a webhook body), then another */
	expect_flags("{\n  \"id\": \"e1\",\n  \"eventData\": {\n    \"execution\": null\n  }\n}\n{\n \"id\": \"e2\"\n}",
	             NULL, ALL,
	             "1@0>60/6{{\n  \"id\": \"e1\",\n  \"eventData\": {\n    \"execution\": null\n  }\n}}\n"
	             "7@61>76/9{{\n \"id\": \"e2\"\n}}\n");
	/* arrays and objects mixed, an empty array, no separator needed */
	expect_flags("[{\"a\": 1},\n {\"b\": 2}]{\"c\": 3}\n[ ]\n[{\"d\": 4}]", NULL, ALL,
	             "1@1>9/1{{\"a\": 1}}\n"
	             "2@12>20/2{{\"b\": 2}}\n"
	             "2@21>29/2{{\"c\": 3}}\n"
	             "4@35>43/4{{\"d\": 4}}\n");
	/* objects only: an array is not read */
	expect_flags("{\"a\": 1}\n[1]", NULL, SB_JARR_OBJECTS | SB_JARR_STREAM,
	             "1@0>8/1{{\"a\": 1}}\n"
	             "2@9>12/2!expected a JSON object ('{'), found '['{[1]}\n");
	/* not a stream: one document */
	expect_flags("{\"a\": 1} {\"b\": 2}", NULL, SB_JARR_OBJECTS,
	             "1@0>8/1{{\"a\": 1}}\n"
	             "1@9>17/1!text after the end of the JSON document, at '{'{{\"b\": 2}}\n");
	/* something else between documents */
	expect_flags("{\"a\": 1}\nxyz\n", NULL, ALL,
	             "1@0>8/1{{\"a\": 1}}\n"
	             "2@9>13/2!expected a JSON object or array ('{' or '['), found 'x'{xyz\n}\n");
	/* DeepInfra's object, twice */
	expect_flags("{\"months\": [1, 2]}\n{\"x\": 0, \"months\": [3]}\n", "months", ALL,
	             "1@12>13/1{1}\n"
	             "1@15>16/1{2}\n"
	             "2@39>40/2{3}\n");
}

static void test_stream_cut_lines(void **state)
{
	(void)state;
	/* a JSON Lines record cut short, then good lines: only it is bad */
	expect_flags("{\"a\": 1}\n{\"b\": 2,\n{\"c\": 3}\n", NULL, ALL,
	             "1@0>8/1{{\"a\": 1}}\n"
	             "2@9>17/2!the record is not closed at the end of its line, and the next line begins another{{\"b\": 2,}\n"
	             "3@18>26/3{{\"c\": 3}}\n");
	/* cut inside a string */
	expect_flags("{\"b\": \"x\n{\"c\": 3}\n", NULL, ALL,
	             "1@0>8/1!the record is not closed at the end of its line, and the next line begins another{{\"b\": \"x}\n"
	             "2@9>17/2{{\"c\": 3}}\n");
	/* an indented '{' on the next line is the record going on */
	expect_flags("{\"b\":\n  {\"c\": 3}}\n", NULL, ALL,
	             "1@0>17/2{{\"b\":\n  {\"c\": 3}}}\n");
	/* and the last record cut by the end of the file */
	expect_flags("{\"a\": 1}\n{\"b\": ", NULL, ALL,
	             "1@0>8/1{{\"a\": 1}}\n"
	             "2@9>15/2!the file ends inside this element (truncated?){{\"b\": }\n");
}

static void test_stream_resume(void **state)
{
	const char *input = "{\"a\": 1}\n{\n \"b\": 2\n}\n[{\"c\": 3}, {\"d\": 4}]\n{\"e\": 5}\n";
	static const char *const want[] = {"{\"a\": 1}", "{\n \"b\": 2\n}", "{\"c\": 3}", "{\"d\": 4}",
	                                   "{\"e\": 5}"};
	size_t n = sizeof want / sizeof want[0];

	(void)state;
	/* resumed after each record in turn, the next ones come out the same */
	for (size_t k = 0; k < n; k++) {
		sb_membuf mb = {input, strlen(input), 0, 0};
		sb_jarr *ja = sb_jarr_new_stream(sb_membuf_read, &mb, NULL, 0, ALL);
		sb_jelem el;
		sb_err why, e;
		bool eof = false;
		sb_err_clear(&why);
		sb_err_clear(&e);
		for (size_t i = 0; i <= k; i++)
			assert_int_equal(sb_jarr_next(ja, &el, &eof, &why, &e), SB_OK);
		sb_jarr_free(ja);
		mb.pos = (size_t)el.next_offset;
		mb.chunk = 2;
		ja = sb_jarr_new_stream(sb_membuf_read, &mb, NULL, 0, ALL);
		sb_jarr_resume(ja, el.next_offset, el.next_line);
		for (size_t i = k + 1; i < n; i++) {
			assert_int_equal(sb_jarr_next(ja, &el, &eof, &why, &e), SB_OK);
			assert_false(eof);
			assert_int_equal(why.code, SB_OK);
			assert_int_equal(el.len, strlen(want[i]));
			assert_memory_equal(el.text, want[i], el.len);
		}
		assert_int_equal(sb_jarr_next(ja, &el, &eof, &why, &e), SB_OK);
		assert_true(eof);
		assert_int_equal(why.code, SB_OK);
		sb_jarr_free(ja);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elements),
		cmocka_unit_test(test_empty_and_blank),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_structure_errors),
		cmocka_unit_test(test_member),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_memory_does_not_grow),
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_records_shapes),
		cmocka_unit_test(test_stream_values),
		cmocka_unit_test(test_stream_cut_lines),
		cmocka_unit_test(test_stream_resume),
	};

	return cmocka_run_group_tests_name("jsonarray", tests, NULL, NULL);
}
