/* test_csv.c: the streaming CSV reader (importers/csv.h).
 *
 * Most cases read their input through dump(), which writes every record
 * as one line of text, and compare it with the expected text for several
 * read sizes (whole blocks, 1, 2, 3 and 7 bytes per call), so that every
 * rule is also checked across block boundaries.
 *
 * A dumped record: LINE@OFFSET>NEXT_OFFSET/NEXT_LINE, then the fields
 * separated by '|' (~ for NULL, "..." for a quoted field), or "!" and the
 * message for a bad record, then the raw bytes in braces ("T" after them
 * when truncated).  \r, \n and NUL are written as \r, \n and \0.
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
/* From AddressSanitizer's runtime (sanitizer/allocator_interface.h, not
 * always installed). */
size_t __sanitizer_get_current_allocated_bytes(void);
#else
#include <malloc.h>
#endif

#include "importers/csv.h"
#include "ledger/err.h"

/* A read callback over a memory buffer, with a chunk size and an
 * injected read error. */
struct feed {
	const char *data;  /* the input (borrowed) */
	size_t len;        /* its length */
	size_t pos;        /* bytes handed out so far */
	size_t chunk;      /* at most this many per call (0: as many as asked) */
	size_t fail_at;    /* fail once pos reaches this ... */
	bool fail;         /* ... when set */
	int calls;         /* how many times the callback ran */
};

/* sb_read_fn over a struct feed: hands out up to min(cap, chunk) bytes
 * from pos, or fails with SB_ENOINPUT "disk gone" when fail is set and pos
 * has reached fail_at. */
static int feed_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e)
{
	struct feed *f = ctx;
	size_t n = f->len - f->pos;

	f->calls++;
	if (f->fail && f->pos >= f->fail_at)
		return sb_fail(e, SB_ENOINPUT, "disk gone");
	if (n > cap)
		n = cap;
	if (f->chunk > 0 && n > f->chunk)
		n = f->chunk;
	if (f->fail && f->pos + n > f->fail_at)
		n = f->fail_at - f->pos;
	memcpy(buf, f->data + f->pos, n);
	f->pos += n;
	*got = n;
	return SB_OK;
}

/* A feed over the NUL-terminated string s. */
static struct feed feed_str(const char *s, size_t chunk)
{
	struct feed f = {.data = s, .len = strlen(s), .chunk = chunk};
	return f;
}

/* Write s[0..len) to out with \r, \n and NUL escaped. */
static void put_escaped(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\r')
			fputs("\\r", out);
		else if (s[i] == '\n')
			fputs("\\n", out);
		else if (s[i] == '\0')
			fputs("\\0", out);
		else
			fputc(s[i], out);
	}
}

/* Write one record as described at the top of this file; msg is the
 * error message of a bad record, NULL for a good one. */
static void put_record(FILE *out, const sb_csv_record *rec, const char *msg)
{
	fprintf(out, "%lld@%lld>%lld/%lld ", (long long)rec->line,
	        (long long)rec->offset, (long long)rec->next_offset,
	        (long long)rec->next_line);
	if (msg) {
		fprintf(out, "!%s", msg);
	} else {
		for (size_t i = 0; i < rec->nfields; i++) {
			const sb_csv_field *f = &rec->fields[i];

			if (i > 0)
				fputc('|', out);
			if (!f->text) {
				fputc('~', out);
				continue;
			}
			if (f->quoted)
				fputc('"', out);
			put_escaped(out, f->text, f->len);
			if (f->quoted)
				fputc('"', out);
		}
	}
	fputs(" {", out);
	put_escaped(out, rec->raw, rec->raw_len);
	fputs(rec->truncated ? "}T\n" : "}\n", out);
}

/* Read all of data[0..len), chunk bytes per read call, with the reader's
 * flags and max_record, and return every record as text (malloc'd): a
 * first line "H: a|b|c" with a header, "open!MSG" when sb_csv_open
 * fails, "stop!CODE MSG" when reading stops on another error. */
static char *dump_n(const char *data, size_t len, size_t chunk,
                    unsigned flags, size_t max_record)
{
	struct feed f = {.data = data, .len = len, .chunk = chunk};
	sb_err e;
	sb_csv *csv = NULL;
	const sb_csv_record *rec;
	char *text = NULL;
	size_t text_len = 0;
	FILE *out = open_memstream(&text, &text_len);
	int rc;

	assert_non_null(out);
	sb_err_clear(&e);
	rc = sb_csv_open(feed_read, &f, flags, max_record, &csv, &e);
	if (rc != SB_OK) {
		assert_null(csv);
		fprintf(out, "open!%s\n", e.msg);
		fclose(out);
		return text;
	}
	if (flags & SB_CSV_HEADER) {
		fputs("H: ", out);
		for (size_t i = 0; i < sb_csv_columns(csv); i++)
			fprintf(out, "%s%s", i > 0 ? "|" : "",
			        sb_csv_column_name(csv, i));
		fputc('\n', out);
	}
	for (;;) {
		rc = sb_csv_next(csv, &rec, &e);
		if (rc == SB_EDATA) {
			assert_non_null(rec);
			assert_null(rec->fields);
			assert_int_equal(rec->nfields, 0);
			put_record(out, rec, e.msg);
			sb_err_clear(&e);
			continue;
		}
		if (rc != SB_OK) {
			assert_null(rec);
			fprintf(out, "stop!%d %s\n", rc, e.msg);
			break;
		}
		if (!rec)
			break;
		put_record(out, rec, NULL);
	}
	rc = sb_csv_next(csv, &rec, &e);
	if (rc == SB_OK)
		assert_null(rec);
	sb_csv_free(csv);
	fclose(out);
	return text;
}

/* The read sizes every dump-based case is run with. */
static const size_t chunks[] = {0, 1, 2, 3, 7};

/* Assert that reading data[0..len) gives `expected` at every read size. */
static void check_n(const char *data, size_t len, unsigned flags,
                    size_t max_record, const char *expected)
{
	for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
		char *got = dump_n(data, len, chunks[i], flags, max_record);
		bool same = strcmp(got, expected) == 0;

		if (!same)
			print_error("read size %zu:\n--- expected\n%s--- got\n%s",
			            chunks[i], expected, got);
		free(got);
		assert_true(same);
	}
}

/* check_n over the NUL-terminated string data. */
static void check(const char *data, unsigned flags, size_t max_record,
                  const char *expected)
{
	check_n(data, strlen(data), flags, max_record, expected);
}

/* ---- records ---- */

static void test_lf_records(void **state)
{
	(void)state;
	check("a,b,c\n1,22,333\n", 0, 0,
	      "1@0>6/2 a|b|c {a,b,c}\n"
	      "2@6>15/3 1|22|333 {1,22,333}\n");
}

static void test_crlf_records(void **state)
{
	(void)state;
	check("a,b\r\nc,d\r\n", 0, 0,
	      "1@0>5/2 a|b {a,b}\n"
	      "2@5>10/3 c|d {c,d}\n");
}

static void test_mixed_line_ends(void **state)
{
	(void)state;
	check("a\r\nb\nc\r\n", 0, 0,
	      "1@0>3/2 a {a}\n"
	      "2@3>5/3 b {b}\n"
	      "3@5>8/4 c {c}\n");
}

static void test_quoted_comma_and_doubled_quote(void **state)
{
	(void)state;
	check("\"a,b\",\"say \"\"hi\"\"\",\"\"\"\"\n", 0, 0,
	      "1@0>24/2 \"a,b\"|\"say \"hi\"\"|\"\"\" "
	      "{\"a,b\",\"say \"\"hi\"\"\",\"\"\"\"}\n");
}

static void test_quoted_line_ends_kept(void **state)
{
	(void)state;
	check("\"l1\nl2\",\"c1\rc2\",\"w1\r\nw2\"\r\nnext\n", 0, 0,
	      "1@0>26/4 \"l1\\nl2\"|\"c1\\rc2\"|\"w1\\r\\nw2\" "
	      "{\"l1\\nl2\",\"c1\\rc2\",\"w1\\r\\nw2\"}\n"
	      "4@26>31/5 next {next}\n");
}

static void test_quoted_ends_at_line_end(void **state)
{
	(void)state;
	check("\"a\"\n\"b\"\r\n\"c\",\"\"\n", 0, 0,
	      "1@0>4/2 \"a\" {\"a\"}\n"
	      "2@4>9/3 \"b\" {\"b\"}\n"
	      "3@9>16/4 \"c\"|\"\" {\"c\",\"\"}\n");
}

static void test_null_and_empty_string(void **state)
{
	(void)state;
	check("a,,\"\"\n,\n\"\"\n,,\r\n", 0, 0,
	      "1@0>6/2 a|~|\"\" {a,,\"\"}\n"
	      "2@6>8/3 ~|~ {,}\n"
	      "3@8>11/4 \"\" {\"\"}\n"
	      "4@11>15/5 ~|~|~ {,,}\n");
}

static void test_null_and_empty_fields_api(void **state)
{
	struct feed f = feed_str("x,,\"\"\n", 0);
	sb_err e;
	sb_csv *csv;
	const sb_csv_record *rec;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_csv_open(feed_read, &f, 0, 0, &csv, &e), SB_OK);
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
	assert_non_null(rec);
	assert_int_equal(rec->nfields, 3);
	assert_string_equal(rec->fields[0].text, "x");
	assert_false(rec->fields[0].quoted);
	assert_null(rec->fields[1].text);
	assert_int_equal(rec->fields[1].len, 0);
	assert_false(rec->fields[1].quoted);
	assert_non_null(rec->fields[2].text);
	assert_string_equal(rec->fields[2].text, "");
	assert_int_equal(rec->fields[2].len, 0);
	assert_true(rec->fields[2].quoted);
	assert_string_equal(rec->raw, "x,,\"\"");
	sb_csv_free(csv);
}

static void test_lone_cr_is_data(void **state)
{
	(void)state;
	check("a\rb,c\r\nx,a\rb\n", 0, 0,
	      "1@0>7/2 a\\rb|c {a\\rb,c}\n"
	      "2@7>13/3 x|a\\rb {x,a\\rb}\n");
}

static void test_nul_bytes_kept(void **state)
{
	static const char data[] = "a\0b,c\n";

	(void)state;
	check_n(data, sizeof data - 1, 0, 0, "1@0>6/2 a\\0b|c {a\\0b,c}\n");
}

static void test_bom_skipped(void **state)
{
	(void)state;
	check("\xEF\xBB\xBF" "a,b\r\nc\r\n", 0, 0,
	      "1@3>8/2 a|b {a,b}\n"
	      "2@8>11/3 c {c}\n");
	check("\xEF\xBB\xBF", 0, 0, "");
	check("\xEF\xBB\xBF\"q\"\n", 0, 0, "1@3>7/2 \"q\" {\"q\"}\n");
}

static void test_bom_only_at_start(void **state)
{
	(void)state;
	check("a\n\xEF\xBB\xBF" "b\n", 0, 0,
	      "1@0>2/2 a {a}\n"
	      "2@2>7/3 \xEF\xBB\xBF" "b {\xEF\xBB\xBF" "b}\n");
	check("\xEF\xBBx\n", 0, 0, "1@0>4/2 \xEF\xBBx {\xEF\xBBx}\n");
	check("\xEF\xBB", 0, 0, "1@0>2/1 \xEF\xBB {\xEF\xBB}\n");
}

static void test_last_record_without_line_end(void **state)
{
	(void)state;
	check("a,b\nc,d", 0, 0,
	      "1@0>4/2 a|b {a,b}\n"
	      "2@4>7/2 c|d {c,d}\n");
	check("a\n\"q,1\"", 0, 0,
	      "1@0>2/2 a {a}\n"
	      "2@2>7/2 \"q,1\" {\"q,1\"}\n");
	check("a,", 0, 0, "1@0>2/1 a|~ {a,}\n");
	check("a,b\r", 0, 0, "1@0>4/1 a|b {a,b}\n");
	check("\"a\"\r", 0, 0, "1@0>4/1 \"a\" {\"a\"}\n");
}

static void test_blank_lines_skipped(void **state)
{
	(void)state;
	check("\n\r\na\n\n\r\nb\r\n\n\r\n", 0, 0,
	      "3@3>5/4 a {a}\n"
	      "6@8>11/7 b {b}\n");
	check("\n\n", 0, 0, "");
	check("", 0, 0, "");
	check("\r", 0, 0, "");
}

/* ---- bad records ---- */

static void test_unterminated_quote(void **state)
{
	(void)state;
	check("a\n\"b,c\nd\n", 0, 0,
	      "1@0>2/2 a {a}\n"
	      "2@2>9/4 !quoted field 1 is not closed at the end of input "
	      "{\"b,c\\nd\\n}\n");
	check("x,\"", 0, 0,
	      "1@0>3/1 !quoted field 2 is not closed at the end of input "
	      "{x,\"}\n");
}

static void test_stray_quote_then_good(void **state)
{
	(void)state;
	check("a,b\"c,d\ne,f\n", 0, 0,
	      "1@0>8/2 !quote inside unquoted field 2 {a,b\"c,d}\n"
	      "2@8>12/3 e|f {e,f}\n");
	check(" \"x\",y\r\nz\r\n", 0, 0,
	      "1@0>8/2 !quote inside unquoted field 1 { \"x\",y}\n"
	      "2@8>11/3 z {z}\n");
}

static void test_text_after_closing_quote(void **state)
{
	(void)state;
	check("\"ab\"c,d\n\"x\" ,y\r\n1,2\n", 0, 0,
	      "1@0>8/2 !text after the closing quote of field 1 {\"ab\"c,d}\n"
	      "2@8>16/3 !text after the closing quote of field 1 {\"x\" ,y}\n"
	      "3@16>20/4 1|2 {1,2}\n");
	check("a,\"b\"\rc\nd\n", 0, 0,
	      "1@0>8/2 !text after the closing quote of field 2 {a,\"b\"\\rc}\n"
	      "2@8>10/3 d {d}\n");
	check("\"b\"\r\r\nd\n", 0, 0,
	      "1@0>6/2 !text after the closing quote of field 1 {\"b\"\\r}\n"
	      "2@6>8/3 d {d}\n");
}

static void test_first_reason_kept(void **state)
{
	(void)state;
	check("a\"b,\"c\"d\n", 0, 0,
	      "1@0>9/2 !quote inside unquoted field 1 {a\"b,\"c\"d}\n");
}

static void test_too_long_then_good(void **state)
{
	(void)state;
	check("0123456789\n01234567890\nok\n", 0, 10,
	      "1@0>11/2 0123456789 {0123456789}\n"
	      "2@11>23/3 !record longer than 10 bytes {0123456789}T\n"
	      "3@23>26/4 ok {ok}\n");
	check("0123456789\r\n0123456789A\r\nok", 0, 10,
	      "1@0>12/2 0123456789 {0123456789}\n"
	      "2@12>25/3 !record longer than 10 bytes {0123456789}T\n"
	      "3@25>27/3 ok {ok}\n");
	check("0123456789ABCDEF", 0, 10,
	      "1@0>16/1 !record longer than 10 bytes {0123456789}T\n");
}

static void test_too_long_resyncs_outside_quotes(void **state)
{
	(void)state;
	check("\"aaaaaaaaaaaa\nb,b\n\",x\nok\n", 0, 10,
	      "1@0>22/4 !record longer than 10 bytes {\"aaaaaaaaa}T\n"
	      "4@22>25/5 ok {ok}\n");
}

static void test_too_long_wins_over_other_reason(void **state)
{
	(void)state;
	check("a\"bcdefghijklmn\nok\n", 0, 10,
	      "1@0>16/2 !record longer than 10 bytes {a\"bcdefghi}T\n"
	      "2@16>19/3 ok {ok}\n");
}

/* Bytes the heap holds now (AddressSanitizer's count when built with it). */
static size_t heap_in_use(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return __sanitizer_get_current_allocated_bytes();
#else
	return mallinfo2().uordblks;
#endif
}

/* A read callback giving `left` bytes "x,\"" then "x" ... (one unquoted
 * field, then a quoted field that goes on), then "\",y\nok\n". */
struct endless {
	size_t left;   /* bytes of the long record still to give */
	size_t given;  /* bytes given so far */
	bool tail;     /* the final bytes were given */
};

/* sb_read_fn over a struct endless. */
static int endless_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e)
{
	struct endless *g = ctx;
	static const char tail[] = "\",y\nok\n";
	size_t n = g->left < cap ? g->left : cap;

	(void)e;
	if (n > 0) {
		memset(buf, 'x', n);
		if (g->given == 0 && n >= 3)
			memcpy(buf, "x,\"", 3);
		g->left -= n;
	} else if (!g->tail) {
		n = sizeof tail - 1;
		memcpy(buf, tail, n);
		g->tail = true;
	}
	g->given += n;
	*got = n;
	return SB_OK;
}

/* Memory stays bounded by the maximum record size: a 16 MiB record read
 * with a 4 KiB maximum leaves the reader holding well under 1 MiB. */
static void test_too_long_memory_bounded(void **state)
{
	struct endless g = {.left = 16 * 1024 * 1024};
	sb_err e;
	sb_csv *csv;
	const sb_csv_record *rec;
	size_t before;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_csv_open(endless_read, &g, 0, 4096, &csv, &e), SB_OK);
	before = heap_in_use();
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_EDATA);
	assert_string_equal(e.msg, "record longer than 4096 bytes");
	assert_true(rec->truncated);
	assert_int_equal(rec->raw_len, 4096);
	assert_memory_equal(rec->raw, "x,\"xxx", 6);
	assert_int_equal(rec->next_offset, 16 * 1024 * 1024 + 4);
	assert_true(heap_in_use() < before + 1024 * 1024);
	sb_err_clear(&e);
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
	assert_non_null(rec);
	assert_string_equal(rec->raw, "ok");
	assert_int_equal(rec->line, 2);
	sb_csv_free(csv);
}

/* A 300 KiB quoted field, with doubled quotes and CRLFs in it, spans
 * several 64 KiB blocks and is read whole. */
static void test_record_spanning_blocks(void **state)
{
	const size_t reps = 30 * 1024;
	const char unit[] = "ab\"\"c,\r\nde";  /* 10 bytes in, 9 out */
	size_t len = 0;
	char *data = malloc(reps * 10 + 32);
	static const size_t sizes[] = {0, 4099};

	(void)state;
	assert_non_null(data);
	len += (size_t)sprintf(data, "h,\"");
	for (size_t i = 0; i < reps; i++) {
		memcpy(data + len, unit, 10);
		len += 10;
	}
	len += (size_t)sprintf(data + len, "\",t\r\nlast\r\n");
	for (size_t s = 0; s < 2; s++) {
		struct feed f = {.data = data, .len = len, .chunk = sizes[s]};
		sb_err e;
		sb_csv *csv;
		const sb_csv_record *rec;

		sb_err_clear(&e);
		assert_int_equal(sb_csv_open(feed_read, &f, 0, 0, &csv, &e), SB_OK);
		assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
		assert_non_null(rec);
		assert_int_equal(rec->nfields, 3);
		assert_string_equal(rec->fields[0].text, "h");
		assert_int_equal(rec->fields[1].len, reps * 9);
		for (size_t i = 0; i < reps; i++)
			if (memcmp(rec->fields[1].text + i * 9, "ab\"c,\r\nde", 9) != 0)
				fail_msg("field 1 differs at unit %zu", i);
		assert_string_equal(rec->fields[2].text, "t");
		assert_int_equal(rec->raw_len, len - 8);
		assert_memory_equal(rec->raw, data, len - 8);
		assert_int_equal(rec->next_offset, (int64_t)(len - 6));
		assert_int_equal(rec->next_line, (int64_t)reps + 2);
		assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
		assert_non_null(rec);
		assert_string_equal(rec->fields[0].text, "last");
		assert_int_equal(rec->line, (int64_t)reps + 2);
		assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
		assert_null(rec);
		sb_csv_free(csv);
	}
	free(data);
}

/* ---- header ---- */

static void test_header_lookup(void **state)
{
	struct feed f = feed_str("BilledCost,x_Note,,ResourceId\n1,2,3,4\n", 0);
	sb_err e;
	sb_csv *csv;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_csv_open(feed_read, &f, SB_CSV_HEADER, 0, &csv, &e),
	                 SB_OK);
	assert_int_equal(sb_csv_columns(csv), 4);
	assert_int_equal(sb_csv_column(csv, "BilledCost"), 0);
	assert_int_equal(sb_csv_column(csv, "x_Note"), 1);
	assert_int_equal(sb_csv_column(csv, ""), 2);
	assert_int_equal(sb_csv_column(csv, "ResourceId"), 3);
	assert_int_equal(sb_csv_column(csv, "billedcost"), -1);
	assert_int_equal(sb_csv_column(csv, "BilledCos"), -1);
	assert_int_equal(sb_csv_column(csv, "BilledCostX"), -1);
	assert_int_equal(sb_csv_column(csv, "ProviderName"), -1);
	assert_string_equal(sb_csv_column_name(csv, 0), "BilledCost");
	assert_string_equal(sb_csv_column_name(csv, 2), "");
	assert_null(sb_csv_column_name(csv, 4));
	sb_csv_free(csv);
}

static void test_header_nocase(void **state)
{
	struct feed f = feed_str("object_id,Cost,interval_start\n", 0);
	sb_err e;
	sb_csv *csv;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_csv_open(feed_read, &f,
	                             SB_CSV_HEADER | SB_CSV_NOCASE, 0, &csv, &e),
	                 SB_OK);
	assert_int_equal(sb_csv_column(csv, "cost"), 1);
	assert_int_equal(sb_csv_column(csv, "COST"), 1);
	assert_int_equal(sb_csv_column(csv, "Object_ID"), 0);
	assert_int_equal(sb_csv_column(csv, "Interval_Start"), 2);
	assert_int_equal(sb_csv_column(csv, "costs"), -1);
	assert_string_equal(sb_csv_column_name(csv, 1), "Cost");
	sb_csv_free(csv);
}

static void test_header_many_columns(void **state)
{
	char data[4000];
	size_t len = 0;
	struct feed f;
	sb_err e;
	sb_csv *csv;
	char name[16];

	(void)state;
	for (int i = 0; i < 300; i++)
		len += (size_t)sprintf(data + len, "%sc%d", i > 0 ? "," : "",
		                       (i * 7) % 300);
	data[len++] = '\n';
	f = (struct feed){.data = data, .len = len};
	sb_err_clear(&e);
	assert_int_equal(sb_csv_open(feed_read, &f, SB_CSV_HEADER, 0, &csv, &e),
	                 SB_OK);
	for (int i = 0; i < 300; i++) {
		sprintf(name, "c%d", (i * 7) % 300);
		assert_int_equal(sb_csv_column(csv, name), i);
	}
	assert_int_equal(sb_csv_column(csv, "c300"), -1);
	sb_csv_free(csv);
}

static void test_header_duplicate(void **state)
{
	(void)state;
	check("a,b,a\n1,2,3\n", SB_CSV_HEADER, 0,
	      "open!duplicate column \"a\" (columns 1 and 3)\n");
	check("x,,y,\n", SB_CSV_HEADER, 0,
	      "open!duplicate column \"\" (columns 2 and 4)\n");
	check("Cost,id,cost\n", SB_CSV_HEADER | SB_CSV_NOCASE, 0,
	      "open!duplicate column \"Cost\" (columns 1 and 3)\n");
	check("Cost,id,cost\n1,2,3\n", SB_CSV_HEADER, 0,
	      "H: Cost|id|cost\n"
	      "2@13>19/3 1|2|3 {1,2,3}\n");
}

static void test_header_missing_or_bad(void **state)
{
	(void)state;
	check("", SB_CSV_HEADER, 0, "open!no header row\n");
	check("\r\n\n", SB_CSV_HEADER, 0, "open!no header row\n");
	check("a,\"b\n", SB_CSV_HEADER, 0,
	      "open!header: quoted field 2 is not closed at the end of input\n");
	check("abcdefghijk,b\n", SB_CSV_HEADER, 8,
	      "open!header: record longer than 8 bytes\n");
}

static void test_header_after_bom_and_blank_lines(void **state)
{
	struct feed f = feed_str("\xEF\xBB\xBF\r\nBilledCost,Tags\r\n1,\"{}\"\r\n", 1);
	sb_err e;
	sb_csv *csv;
	const sb_csv_record *rec;
	int64_t off, line;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_csv_open(feed_read, &f, SB_CSV_HEADER, 0, &csv, &e),
	                 SB_OK);
	assert_int_equal(sb_csv_column(csv, "BilledCost"), 0);
	assert_int_equal(sb_csv_column(csv, "Tags"), 1);
	sb_csv_tell(csv, &off, &line);
	assert_int_equal(off, 22);
	assert_int_equal(line, 3);
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
	assert_non_null(rec);
	assert_int_equal(rec->line, 3);
	assert_int_equal(rec->offset, 22);
	assert_string_equal(sb_csv_cell(rec, 1)->text, "{}");
	sb_csv_free(csv);
}

static void test_field_count_mismatch(void **state)
{
	(void)state;
	check("a,b,c\n1,2\n1,2,3\n1,2,3,4\n\"x,y\",z\nq,\"r\ns\",t\n",
	      SB_CSV_HEADER, 0,
	      "H: a|b|c\n"
	      "2@6>10/3 !row has 2 fields, the header has 3 {1,2}\n"
	      "3@10>16/4 1|2|3 {1,2,3}\n"
	      "4@16>24/5 !row has 4 fields, the header has 3 {1,2,3,4}\n"
	      "5@24>32/6 !row has 2 fields, the header has 3 {\"x,y\",z}\n"
	      "6@32>42/8 q|\"r\\ns\"|t {q,\"r\\ns\",t}\n");
}

static void test_no_header_any_field_count(void **state)
{
	(void)state;
	check("a\nb,c\nd,e,f\n", 0, 0,
	      "1@0>2/2 a {a}\n"
	      "2@2>6/3 b|c {b,c}\n"
	      "3@6>12/4 d|e|f {d,e,f}\n");
}

/* ---- the FOCUS sample ---- */

/* examples/samples/billing-focus.csv, byte for byte (CRLF). */
static const char focus_csv[] =
	"BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ChargeClass,ServiceProviderName,ResourceId,ListCost,EffectiveCost,ConsumedQuantity,ConsumedUnit,PricingQuantity,PricingUnit,ServiceName,Tags,x_Note\r\n"
	"0.0475880000,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,,Vercel,,0.0475880000,0.0475880000,1,Minutes,1,Minutes,Sandbox,\"{\"\"env\"\":\"\"prod, eu\"\"}\",\"note, with comma\"\r\n"
	"0.0095,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Tax,,Vercel,,,,,,,,Sandbox,,sales tax\r\n"
	"0.7855600000,USD,2026-11-03T00:00:00Z,2026-11-04T00:00:00Z,Usage,,Vercel,,0.7855600000,0.7855600000,1,Minutes,1,Minutes,Sandbox,\"{\"\"env\"\":\"\"prod, eu\"\"}\",\"note, with comma\"\r\n"
	"0.1571,USD,2026-11-03T00:00:00Z,2026-11-04T00:00:00Z,Tax,,Vercel,,,,,,,,Sandbox,,sales tax\r\n"
	"0.6220460000,USD,2026-11-04T00:00:00Z,2026-11-05T00:00:00Z,Usage,,Vercel,,0.6220460000,0.6220460000,1,Minutes,1,Minutes,Sandbox,\"{\"\"env\"\":\"\"prod, eu\"\"}\",\"note, with comma\"\r\n"
	"0.1244,USD,2026-11-04T00:00:00Z,2026-11-05T00:00:00Z,Tax,,Vercel,,,,,,,,Sandbox,,sales tax\r\n"
	"0.2454088000,USD,2026-11-02T00:00:00Z,2026-11-03T00:00:00Z,Usage,,Runloop,,0.2454088000,0.2454088000,1,Minutes,1,Minutes,Sandbox,\"{\"\"env\"\":\"\"prod, eu\"\"}\",\"note, with comma\"\r\n";

/* The bytes of line n (1-based) of focus_csv, without its CRLF. */
static void focus_line(int n, const char **start, size_t *len)
{
	const char *p = focus_csv;

	for (int i = 1; i < n; i++)
		p = strstr(p, "\r\n") + 2;
	*start = p;
	*len = (size_t)(strstr(p, "\r\n") - p);
}

static void test_focus_sample(void **state)
{
	static const char *costs[] = {"0.0475880000", "0.0095", "0.7855600000",
	                              "0.1571", "0.6220460000", "0.1244",
	                              "0.2454088000"};
	(void)state;
	for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
		struct feed f = feed_str(focus_csv, chunks[c]);
		sb_err e;
		sb_csv *csv;
		const sb_csv_record *rec;
		int billed, provider, resource, tags, note, klass, list;
		int n = 0;

		sb_err_clear(&e);
		assert_int_equal(sb_csv_open(feed_read, &f, SB_CSV_HEADER, 0,
		                             &csv, &e), SB_OK);
		assert_int_equal(sb_csv_columns(csv), 17);
		billed = sb_csv_column(csv, "BilledCost");
		provider = sb_csv_column(csv, "ServiceProviderName");
		resource = sb_csv_column(csv, "ResourceId");
		tags = sb_csv_column(csv, "Tags");
		note = sb_csv_column(csv, "x_Note");
		klass = sb_csv_column(csv, "ChargeClass");
		list = sb_csv_column(csv, "ListCost");
		assert_int_equal(billed, 0);
		assert_int_equal(provider, 6);
		assert_int_equal(resource, 7);
		assert_int_equal(list, 8);
		assert_int_equal(tags, 15);
		assert_int_equal(note, 16);
		assert_int_equal(sb_csv_column(csv, "ProviderName"), -1);
		assert_int_equal(sb_csv_column(csv, "InvoiceId"), -1);
		while (sb_csv_next(csv, &rec, &e) == SB_OK && rec) {
			const char *line;
			size_t line_len;
			bool tax = n % 2 == 1 && n < 6;

			n++;
			assert_int_equal(rec->line, n + 1);
			focus_line(n + 1, &line, &line_len);
			assert_int_equal(rec->offset, line - focus_csv);
			assert_int_equal(rec->next_offset,
			                 (int64_t)(line - focus_csv) + (int64_t)line_len + 2);
			assert_int_equal(rec->raw_len, line_len);
			assert_memory_equal(rec->raw, line, line_len);
			assert_int_equal(rec->nfields, 17);
			assert_string_equal(sb_csv_cell(rec, billed)->text, costs[n - 1]);
			assert_string_equal(sb_csv_cell(rec, provider)->text,
			                    n == 7 ? "Runloop" : "Vercel");
			assert_null(sb_csv_cell(rec, resource)->text);
			assert_null(sb_csv_cell(rec, klass)->text);
			assert_null(sb_csv_cell(rec, sb_csv_column(csv, "ProviderName")));
			if (tax) {
				assert_null(sb_csv_cell(rec, list)->text);
				assert_null(sb_csv_cell(rec, tags)->text);
				assert_string_equal(sb_csv_cell(rec, note)->text, "sales tax");
				assert_false(sb_csv_cell(rec, note)->quoted);
			} else {
				assert_string_equal(sb_csv_cell(rec, list)->text, costs[n - 1]);
				assert_string_equal(sb_csv_cell(rec, tags)->text,
				                    "{\"env\":\"prod, eu\"}");
				assert_true(sb_csv_cell(rec, tags)->quoted);
				assert_string_equal(sb_csv_cell(rec, note)->text,
				                    "note, with comma");
			}
		}
		assert_int_equal(e.code, SB_OK);
		assert_int_equal(n, 7);
		sb_csv_free(csv);
	}
}

/* ---- resuming ---- */

/* An import reads two data rows, saves sb_csv_tell and is killed; a new
 * reader reads the header from the start, the source is seeked to the
 * saved offset and sb_csv_reset is told; the rows after it come with the
 * same lines and offsets as in one uninterrupted read. */
static void test_resume_after_kill(void **state)
{
	static const char data[] =
		"\xEF\xBB\xBF" "id,note\r\n1,\"a\r\nb\"\r\n\r\n2,x\r\n3,\"y,z\"\r\n4,w";
	const size_t len = sizeof data - 1;
	char *whole = dump_n(data, len, 0, SB_CSV_HEADER, 0);
	int64_t off, line;
	const sb_csv_record *rec;
	sb_err e;

	(void)state;
	assert_string_equal(whole,
	      "H: id|note\n"
	      "2@12>22/4 1|\"a\\r\\nb\" {1,\"a\\r\\nb\"}\n"
	      "5@24>29/6 2|x {2,x}\n"
	      "6@29>38/7 3|\"y,z\" {3,\"y,z\"}\n"
	      "7@38>41/7 4|w {4,w}\n");
	free(whole);

	for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
		struct feed f = {.data = data, .len = len, .chunk = chunks[c]};
		sb_csv *csv;

		sb_err_clear(&e);
		assert_int_equal(sb_csv_open(feed_read, &f, SB_CSV_HEADER, 0,
		                             &csv, &e), SB_OK);
		assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
		assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
		assert_string_equal(rec->fields[0].text, "2");
		sb_csv_tell(csv, &off, &line);
		assert_int_equal(off, rec->next_offset);
		assert_int_equal(line, rec->next_line);
		sb_csv_free(csv);

		f = (struct feed){.data = data, .len = len, .chunk = chunks[c]};
		assert_int_equal(sb_csv_open(feed_read, &f, SB_CSV_HEADER, 0,
		                             &csv, &e), SB_OK);
		f.pos = (size_t)off;
		sb_csv_reset(csv, off, line);
		assert_int_equal(sb_csv_column(csv, "note"), 1);
		assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
		assert_non_null(rec);
		assert_int_equal(rec->line, 6);
		assert_int_equal(rec->offset, 29);
		assert_string_equal(rec->fields[1].text, "y,z");
		assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
		assert_non_null(rec);
		assert_int_equal(rec->line, 7);
		assert_int_equal(rec->offset, 38);
		assert_int_equal(rec->next_offset, 41);
		assert_string_equal(rec->fields[0].text, "4");
		assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
		assert_null(rec);
		sb_csv_free(csv);
	}
}

/* Resetting to the position sb_csv_tell gave after open re-reads the data
 * rows, not the header; to offset 0 without a header, the BOM is skipped
 * again; resetting mid-buffer drops what was buffered. */
static void test_reset_positions(void **state)
{
	static const char data[] = "\xEF\xBB\xBF" "h\nr1\nr2\n";
	struct feed f = {.data = data, .len = sizeof data - 1};
	sb_err e;
	sb_csv *csv;
	const sb_csv_record *rec;
	int64_t off, line;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_csv_open(feed_read, &f, SB_CSV_HEADER, 0, &csv, &e),
	                 SB_OK);
	sb_csv_tell(csv, &off, &line);
	assert_int_equal(off, 5);
	assert_int_equal(line, 2);
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
	assert_string_equal(rec->fields[0].text, "r1");
	f.pos = (size_t)off;
	sb_csv_reset(csv, off, line);
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
	assert_string_equal(rec->fields[0].text, "r1");
	assert_int_equal(rec->line, 2);
	assert_int_equal(rec->offset, 5);
	sb_csv_free(csv);

	f = (struct feed){.data = data, .len = sizeof data - 1};
	assert_int_equal(sb_csv_open(feed_read, &f, 0, 0, &csv, &e), SB_OK);
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
	assert_string_equal(rec->fields[0].text, "r1");
	f.pos = 0;
	sb_csv_reset(csv, 0, 1);
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
	assert_string_equal(rec->fields[0].text, "h");
	assert_int_equal(rec->offset, 3);
	assert_int_equal(rec->line, 1);
	sb_csv_free(csv);
}

/* ---- failures of the read function ---- */

static void test_read_error_stops(void **state)
{
	static const char data[] = "a,b\nc,d\ne,f\n";
	struct feed f = {.data = data, .len = sizeof data - 1, .chunk = 2,
	                 .fail = true, .fail_at = 6};
	sb_err e;
	sb_csv *csv;
	const sb_csv_record *rec;
	int calls;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_csv_open(feed_read, &f, 0, 0, &csv, &e), SB_OK);
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
	assert_string_equal(rec->raw, "a,b");
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_ENOINPUT);
	assert_null(rec);
	assert_string_equal(e.msg, "disk gone");
	sb_err_clear(&e);
	calls = f.calls;
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_ENOINPUT);
	assert_null(rec);
	assert_string_equal(e.msg, "disk gone");
	assert_int_equal(f.calls, calls);

	sb_err_clear(&e);
	f.fail = false;
	f.pos = 4;
	sb_csv_reset(csv, 4, 2);
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
	assert_non_null(rec);
	assert_string_equal(rec->raw, "c,d");
	assert_int_equal(rec->line, 2);
	sb_csv_free(csv);
}

static void test_read_error_at_open(void **state)
{
	struct feed f = {.data = "a,b\n", .len = 4, .fail = true, .fail_at = 0};
	sb_err e;
	sb_csv *csv = (sb_csv *)&f;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_csv_open(feed_read, &f, SB_CSV_HEADER, 0, &csv, &e),
	                 SB_ENOINPUT);
	assert_null(csv);
	assert_string_equal(e.msg, "disk gone");
}

static void test_error_already_held(void **state)
{
	struct feed f = feed_str("a\n", 0);
	sb_err e;
	sb_csv *csv;
	const sb_csv_record *rec = (const sb_csv_record *)&f;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_csv_open(feed_read, &f, 0, 0, &csv, &e), SB_OK);
	sb_fail(&e, SB_EDATA, "earlier");
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_EDATA);
	assert_null(rec);
	assert_int_equal(f.calls, 0);
	assert_string_equal(e.msg, "earlier");
	sb_err_clear(&e);
	assert_int_equal(sb_csv_next(csv, &rec, &e), SB_OK);
	assert_string_equal(rec->raw, "a");
	sb_csv_free(csv);
}

static void test_cell(void **state)
{
	sb_csv_field fields[2] = {{"a", 1, false}, {NULL, 0, false}};
	sb_csv_record rec = {.fields = fields, .nfields = 2};

	(void)state;
	assert_ptr_equal(sb_csv_cell(&rec, 0), &fields[0]);
	assert_ptr_equal(sb_csv_cell(&rec, 1), &fields[1]);
	assert_null(sb_csv_cell(&rec, 2));
	assert_null(sb_csv_cell(&rec, -1));
	sb_csv_free(NULL);
}

/* ---- separators, folded names, NULL, the formula guard ---- */

static void test_semicolon(void **state)
{
	(void)state;
	/* named: ';' separates, ',' is data */
	check("a;b\n1,5;\"x;y\"\n", SB_CSV_SEMICOLON, 0,
	      "1@0>4/2 a|b {a;b}\n"
	      "2@4>14/3 1,5|\"x;y\" {1,5;\"x;y\"}\n");
	/* told from the header: more ';' than ',' outside quotes */
	check("\"a,b,c\";d;e\n1;2;3\n", SB_CSV_HEADER | SB_CSV_DETECT, 0,
	      "H: a,b,c|d|e\n"
	      "2@12>18/3 1|2|3 {1;2;3}\n");
	/* as many of each (one and one): ',' */
	check("a;b,c\n1;2,3\n", SB_CSV_HEADER | SB_CSV_DETECT, 0,
	      "H: a;b|c\n"
	      "2@6>12/3 1;2|3 {1;2,3}\n");
	/* two ';' and one ',': ';' (after a BOM, over CRLF) */
	check("\xEF\xBB\xBF" "a;b;c,d\r\n1;2;3\r\n", SB_CSV_HEADER | SB_CSV_DETECT, 0,
	      "H: a|b|c,d\n"
	      "2@12>19/3 1|2|3 {1;2;3}\n");
}

static void test_detect_api(void **state)
{
	static const char *const inputs[] = {"x;y\n", "x,y\n", "x\n", ""};
	static const char want[] = {';', ',', ',', ','};

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		struct feed f = feed_str(inputs[i], 1);
		sb_csv *csv = NULL;
		sb_err e;
		sb_err_clear(&e);
		if (sb_csv_open(feed_read, &f, SB_CSV_DETECT, 0, &csv, &e) != SB_OK)
			fail_msg("%s", e.msg);
		assert_int_equal(sb_csv_delimiter(csv), want[i]);
		sb_csv_free(csv);
	}
}

static void test_fold_names(void **state)
{
	struct feed f = feed_str("Object ID,  Interval Start ,cost,__Tags__\n1,2,3,4\n", 0);
	sb_csv *csv = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_csv_open(feed_read, &f, SB_CSV_HEADER | SB_CSV_FOLD, 0, &csv, &e), SB_OK);
	assert_int_equal(sb_csv_column(csv, "object_id"), 0);
	assert_int_equal(sb_csv_column(csv, "OBJECT-ID"), 0);
	assert_int_equal(sb_csv_column(csv, "interval_start"), 1);
	assert_int_equal(sb_csv_column(csv, "Cost"), 2);
	assert_int_equal(sb_csv_column(csv, "tags"), 3);
	assert_int_equal(sb_csv_column(csv, "objectid"), -1);
	assert_string_equal(sb_csv_column_name(csv, 1), "  Interval Start ");
	assert_string_equal(sb_csv_column_key(csv, 1), "interval_start");
	sb_csv_free(csv);
	/* folded alike is a duplicate */
	check("Object ID,object_id\n", SB_CSV_HEADER | SB_CSV_FOLD, 0,
	      "open!duplicate column \"object_id\" (columns 1 and 2)\n");
	/* without the flag the names are exact */
	f = feed_str("Object ID\n", 0);
	assert_int_equal(sb_csv_open(feed_read, &f, SB_CSV_HEADER, 0, &csv, &e), SB_OK);
	assert_int_equal(sb_csv_column(csv, "object_id"), -1);
	assert_string_equal(sb_csv_column_key(csv, 0), "Object ID");
	sb_csv_free(csv);
}

static void test_null_word(void **state)
{
	(void)state;
	/* unquoted NULL only, and exactly NULL; the header is left alone */
	check("NULL,b,c,d\nNULL,\"NULL\",null,NULLs\n", SB_CSV_HEADER | SB_CSV_NULL_WORD, 0,
	      "H: NULL|b|c|d\n"
	      "2@11>34/3 ~|\"NULL\"|null|NULLs {NULL,\"NULL\",null,NULLs}\n");
	check("a\nNULL\n", SB_CSV_HEADER, 0,
	      "H: a\n"
	      "2@2>7/3 NULL {NULL}\n");
}

static void test_unguard(void **state)
{
	(void)state;
	/* one ' before =, +, -, @, tab or CR comes off, quoted or not; not
	 * before anything else (''=7 starts with ' ', no guard wrote it) */
	check("a,b,c,d,e,f,g,h,i\n'=1,'+2,'-3,'@4,\"'\t5\",\"'\r6\",'x,''=7,'\n",
	      SB_CSV_HEADER | SB_CSV_UNGUARD, 0,
	      "H: a|b|c|d|e|f|g|h|i\n"
	      "2@18>56/3 =1|+2|-3|@4|\"\t5\"|\"\\r6\"|'x|''=7|' {'=1,'+2,'-3,'@4,\"'\t5\",\"'\\r6\",'x,''=7,'}\n");
	check("a\n'=1\n", SB_CSV_HEADER, 0,
	      "H: a\n"
	      "2@2>6/3 '=1 {'=1}\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lf_records),
		cmocka_unit_test(test_crlf_records),
		cmocka_unit_test(test_mixed_line_ends),
		cmocka_unit_test(test_quoted_comma_and_doubled_quote),
		cmocka_unit_test(test_quoted_line_ends_kept),
		cmocka_unit_test(test_quoted_ends_at_line_end),
		cmocka_unit_test(test_null_and_empty_string),
		cmocka_unit_test(test_null_and_empty_fields_api),
		cmocka_unit_test(test_lone_cr_is_data),
		cmocka_unit_test(test_nul_bytes_kept),
		cmocka_unit_test(test_bom_skipped),
		cmocka_unit_test(test_bom_only_at_start),
		cmocka_unit_test(test_last_record_without_line_end),
		cmocka_unit_test(test_blank_lines_skipped),
		cmocka_unit_test(test_unterminated_quote),
		cmocka_unit_test(test_stray_quote_then_good),
		cmocka_unit_test(test_text_after_closing_quote),
		cmocka_unit_test(test_first_reason_kept),
		cmocka_unit_test(test_too_long_then_good),
		cmocka_unit_test(test_too_long_resyncs_outside_quotes),
		cmocka_unit_test(test_too_long_wins_over_other_reason),
		cmocka_unit_test(test_too_long_memory_bounded),
		cmocka_unit_test(test_record_spanning_blocks),
		cmocka_unit_test(test_header_lookup),
		cmocka_unit_test(test_header_nocase),
		cmocka_unit_test(test_header_many_columns),
		cmocka_unit_test(test_header_duplicate),
		cmocka_unit_test(test_header_missing_or_bad),
		cmocka_unit_test(test_header_after_bom_and_blank_lines),
		cmocka_unit_test(test_field_count_mismatch),
		cmocka_unit_test(test_no_header_any_field_count),
		cmocka_unit_test(test_focus_sample),
		cmocka_unit_test(test_resume_after_kill),
		cmocka_unit_test(test_reset_positions),
		cmocka_unit_test(test_read_error_stops),
		cmocka_unit_test(test_read_error_at_open),
		cmocka_unit_test(test_error_already_held),
		cmocka_unit_test(test_cell),
		cmocka_unit_test(test_semicolon),
		cmocka_unit_test(test_detect_api),
		cmocka_unit_test(test_fold_names),
		cmocka_unit_test(test_null_word),
		cmocka_unit_test(test_unguard),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
