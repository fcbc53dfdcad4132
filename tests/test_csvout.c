/* test_csvout.c: the one CSV cell writer (report/csvout.h).
 *
 * Each case writes a row into a memory stream and compares the bytes: the
 * guard (a leading ' on free text whose first byte is = + - @ tab or CR),
 * its absence under raw, the RFC 4180 quoting around it, and values the
 * program writes (numbers stay bare, "-0.5" included; a value that is no
 * number is guarded like text).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/csvout.h"

/* The kinds of cell of a row written by row(). */
typedef enum { TEXT, VALUE } kind;

/* One row of n cells of the given kinds, as written, allocated. */
static char *row(bool raw, size_t n, const kind *kinds, const char *const *cells)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	sb_csv_out w;

	assert_non_null(f);
	sb_csv_out_init(&w, f, raw);
	for (size_t i = 0; i < n; i++) {
		if (kinds[i] == TEXT)
			sb_csv_text(&w, cells[i]);
		else
			sb_csv_value(&w, cells[i]);
	}
	sb_csv_end(&w);
	fclose(f);
	return buf;
}

/* Check that text cell s is written as want (guarded) and as raw_want
 * (raw). */
static void text_is(const char *s, const char *want, const char *raw_want)
{
	kind k[] = {TEXT};
	const char *cells[] = {s};
	char *got = row(false, 1, k, cells);

	assert_string_equal(got, want);
	free(got);
	got = row(true, 1, k, cells);
	assert_string_equal(got, raw_want);
	free(got);
}

/* Check that value cell s is written as want, guarded or raw alike unless
 * raw_want says otherwise. */
static void value_is(const char *s, const char *want, const char *raw_want)
{
	kind k[] = {VALUE};
	const char *cells[] = {s};
	char *got = row(false, 1, k, cells);

	assert_string_equal(got, want);
	free(got);
	got = row(true, 1, k, cells);
	assert_string_equal(got, raw_want);
	free(got);
}

/* Each of the six bytes guarded, and only at the start. */
static void test_guard_each_byte(void **state)
{
	(void)state;
	text_is("=1+1", "'=1+1\n", "=1+1\n");
	text_is("+1", "'+1\n", "+1\n");
	text_is("-1", "'-1\n", "-1\n");
	text_is("-0.5", "'-0.5\n", "-0.5\n");        /* free text: guarded even when it reads as a number */
	text_is("@SUM(A1)", "'@SUM(A1)\n", "@SUM(A1)\n");
	text_is("\tx", "'\tx\n", "\tx\n");
	text_is("\rx", "\"'\rx\"\n", "\"\rx\"\n");   /* CR also needs quotes */
	/* not at the start, or another byte: as it is */
	text_is("a=1", "a=1\n", "a=1\n");
	text_is(" =1", " =1\n", " =1\n");
	text_is("'=1", "'=1\n", "'=1\n");
	text_is("\n=1", "\"\n=1\"\n", "\"\n=1\"\n");  /* LF is no formula start (only quoting) */
	text_is("#x", "#x\n", "#x\n");
	text_is("", "\n", "\n");
}

/* The guard inside RFC 4180 quotes: the ' goes after the opening quote. */
static void test_guard_and_quotes(void **state)
{
	(void)state;
	text_is("=a,b", "\"'=a,b\"\n", "\"=a,b\"\n");
	text_is("=\"x\"", "\"'=\"\"x\"\"\"\n", "\"=\"\"x\"\"\"\n");
	text_is("-a\nb", "\"'-a\nb\"\n", "\"-a\nb\"\n");
	text_is("plain, text", "\"plain, text\"\n", "\"plain, text\"\n");
}

/* Values: numbers bare (negative ones too), anything else guarded. */
static void test_values(void **state)
{
	(void)state;
	value_is("-0.5", "-0.5\n", "-0.5\n");
	value_is("-0.500000000", "-0.500000000\n", "-0.500000000\n");
	value_is("+3", "+3\n", "+3\n");
	value_is("-1.5E-3", "-1.5E-3\n", "-1.5E-3\n");
	value_is("-.5", "-.5\n", "-.5\n");
	value_is("-5.", "-5.\n", "-5.\n");
	value_is("2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z\n", "2026-11-01T00:00:00Z\n");
	/* not numbers: guarded */
	value_is("-", "'-\n", "-\n");
	value_is("-.", "'-.\n", "-.\n");
	value_is("-1e", "'-1e\n", "-1e\n");
	value_is("-1-1", "'-1-1\n", "-1-1\n");
	value_is("--1", "'--1\n", "--1\n");
	value_is("=1", "'=1\n", "=1\n");
	value_is("-1,5", "\"'-1,5\"\n", "\"-1,5\"\n");
}

/* NULL is an empty cell; cells are separated by commas; a row ends with a
 * newline and the next row starts without a comma. */
static void test_rows(void **state)
{
	kind k[] = {VALUE, TEXT, TEXT, VALUE};
	const char *cells[] = {"INV-1", NULL, "@acme", "-0.06"};
	char *buf = NULL, *got;
	size_t len = 0;
	FILE *f;
	sb_csv_out w;

	(void)state;
	got = row(false, 4, k, cells);
	assert_string_equal(got, "INV-1,,'@acme,-0.06\n");
	free(got);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	sb_csv_out_init(&w, f, false);
	sb_csv_text(&w, "a");
	sb_csv_text(&w, "b");
	sb_csv_end(&w);
	sb_csv_text(&w, "+c");
	sb_csv_end(&w);
	fclose(f);
	assert_string_equal(buf, "a,b\n'+c\n");
	free(buf);
}

/* The two predicates on their own. */
static void test_predicates(void **state)
{
	(void)state;
	assert_true(sb_csv_formula("="));
	assert_true(sb_csv_formula("\r"));
	assert_false(sb_csv_formula(""));
	assert_false(sb_csv_formula(NULL));
	assert_false(sb_csv_formula("\n"));
	assert_false(sb_csv_formula("x="));
	assert_true(sb_csv_number("0"));
	assert_true(sb_csv_number("-0.5"));
	assert_true(sb_csv_number("1e9"));
	assert_true(sb_csv_number("1E+9"));
	assert_false(sb_csv_number(""));
	assert_false(sb_csv_number(NULL));
	assert_false(sb_csv_number("+"));
	assert_false(sb_csv_number("."));
	assert_false(sb_csv_number("1..2"));
	assert_false(sb_csv_number("1e+"));
	assert_false(sb_csv_number("0x10"));
	assert_false(sb_csv_number(" 1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guard_each_byte),
		cmocka_unit_test(test_guard_and_quotes),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_predicates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
