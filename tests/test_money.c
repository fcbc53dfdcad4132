/* test_money.c: nanodollar parsing, conversion, arithmetic, rounding and
 * formatting (ledger/money.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"

/* A value no call below should produce, to see that *out stays untouched
 * on failure. */
#define UNTOUCHED INT64_C(-777777777777)

/* Parse text and fail at the caller's line unless the result is want_rc
 * and, on success, want_nanos; on failure *out must stay untouched. */
static void check_parse_len(const char *text, size_t len, int want_rc,
                            int64_t want_nanos, const char *file, int line)
{
	int64_t nanos = UNTOUCHED;
	int rc = sb_money_parse(text, len, &nanos);
	int64_t want = want_rc == SB_MONEY_OK ? want_nanos : UNTOUCHED;

	if (rc != want_rc || nanos != want) {
		print_error("sb_money_parse(\"%.*s\") gave rc %d nanos %" PRId64
		            ", want rc %d nanos %" PRId64 "\n", (int)len, text, rc,
		            nanos, want_rc, want);
		_fail(file, line);
	}
}

#define assert_parse(text, nanos) \
	check_parse_len(text, strlen(text), SB_MONEY_OK, nanos, __FILE__, __LINE__)
#define assert_parse_fails(text, rc) \
	check_parse_len(text, strlen(text), rc, 0, __FILE__, __LINE__)

/* Format nanos and fail at the caller's line unless the text is want. */
static void check_format(int64_t nanos, int decimals, const char *want,
                         const char *file, int line)
{
	char buf[SB_MONEY_BUFSZ];
	char *got = sb_money_format(nanos, decimals, buf);

	if (got != buf || strcmp(got, want) != 0) {
		print_error("sb_money_format(%" PRId64 ", %d) gave \"%s\", want "
		            "\"%s\"\n", nanos, decimals, buf, want);
		_fail(file, line);
	}
}

#define assert_format(nanos, decimals, want) \
	check_format(nanos, decimals, want, __FILE__, __LINE__)

/* Divide and fail at the caller's line unless the result is want_rc and,
 * on success, want. */
static void check_div(__int128 num, int64_t den, int want_rc, int64_t want,
                      const char *file, int line)
{
	int64_t quotient = UNTOUCHED;
	int rc = sb_div_round_even(num, den, &quotient);

	if (rc != want_rc || quotient != (want_rc == SB_MONEY_OK ? want : UNTOUCHED)) {
		print_error("sb_div_round_even(%" PRId64 "..., %" PRId64 ") gave rc "
		            "%d quotient %" PRId64 ", want rc %d quotient %" PRId64
		            "\n", (int64_t)num, den, rc, quotient, want_rc, want);
		_fail(file, line);
	}
}

#define assert_div(num, den, want) \
	check_div(num, den, SB_MONEY_OK, want, __FILE__, __LINE__)
#define assert_div_fails(num, den) \
	check_div(num, den, SB_MONEY_RANGE, 0, __FILE__, __LINE__)

/* Integers, fractions, signs and leading or trailing zeros. */
static void parse_plain_forms(void **state)
{
	(void)state;
	assert_parse("0", 0);
	assert_parse("12", INT64_C(12000000000));
	assert_parse("12.", INT64_C(12000000000));
	assert_parse(".5", INT64_C(500000000));
	assert_parse("0.012665333", INT64_C(12665333));
	assert_parse("+1", INT64_C(1000000000));
	assert_parse("-1.25", INT64_C(-1250000000));
	assert_parse("-0", 0);
	assert_parse("-0.000", 0);
	assert_parse("007.10", INT64_C(7100000000));
	assert_parse("1.000000000", INT64_C(1000000000));
	assert_parse("0.000000001", 1);
	assert_parse("0.00000001", 10);
	assert_parse("-0.000000001", -1);
	assert_parse("123456.789012345", INT64_C(123456789012345));
}

/* E-notation moves the point, in either direction and either case. */
static void parse_exponents(void **state)
{
	(void)state;
	assert_parse("1.5E-3", INT64_C(1500000));
	assert_parse("1.5e-3", INT64_C(1500000));
	assert_parse("12.34E2", INT64_C(1234000000000));
	assert_parse("2e+2", INT64_C(200000000000));
	assert_parse("2E2", INT64_C(200000000000));
	assert_parse("-2E0", INT64_C(-2000000000));
	assert_parse("1E-9", 1);
	assert_parse("1E-8", 10);
	assert_parse("3e-7", 300);
	assert_parse("1E-10", 0);
	assert_parse(".5E1", INT64_C(5000000000));
	assert_parse("5.E-1", INT64_C(500000000));
	assert_parse("0E+400", 0);
	assert_parse("0.000E400", 0);
	assert_parse("-0e99999999999999999999999999", 0);
	assert_parse("1E-400", 0);
	assert_parse("9E-99999999999999999999999", 0);
	assert_parse("123456789012345678901234567890E-20",
	             INT64_C(1234567890123456789));
	assert_parse("9.223372036854775807E9", INT64_MAX);
	assert_parse("0.00001E+13", INT64_C(100000000000000000));
	assert_parse_fails("0.00001E+18", SB_MONEY_RANGE);
	assert_parse_fails("1E+400", SB_MONEY_RANGE);
	assert_parse_fails("-1E+400", SB_MONEY_RANGE);
	assert_parse_fails("1E+99999999999999999999999", SB_MONEY_RANGE);
	assert_parse_fails("1E10", SB_MONEY_RANGE);
}

/* Text that is not a plain decimal number. */
static void parse_rejects_syntax(void **state)
{
	static const char *const bad[] = {
		"", "-", "+", ".", "-.", "+.", "1e", "1e+", "1E-", "e5", ".e5",
		"-e5", "1.2.3", "1,000", "1,5", " 1", "1 ", "\t1", "1\n", "NaN",
		"nan", "inf", "Inf", "-inf", "Infinity", "0x10", "0X1", "1e5.5",
		"--1", "+-1", "-+1", "1_000", "$1", "1$", "1e1e1", "1ee1", "1..2",
		"1.e", "E", "\xd9\xa1", "1d2", "1f", "1.5%", "Z", "0b1", "1e 2"
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_parse_fails(bad[i], SB_MONEY_SYNTAX);
}

/* The length bounds the text: a NUL inside it is not a digit, and digits
 * past it are not read. */
static void parse_respects_length(void **state)
{
	(void)state;
	check_parse_len("1\0", 2, SB_MONEY_SYNTAX, 0, __FILE__, __LINE__);
	check_parse_len("123", 2, SB_MONEY_OK, INT64_C(12000000000), __FILE__,
	                __LINE__);
	check_parse_len("1.5E-3x", 6, SB_MONEY_OK, INT64_C(1500000), __FILE__,
	                __LINE__);
	check_parse_len("7", 0, SB_MONEY_SYNTAX, 0, __FILE__, __LINE__);
}

/* Every prefix of a number, copied to a malloc'd buffer of exactly its
 * length (AddressSanitizer catches a read past it; cmocka's test_malloc
 * would pad it), is refused or parsed as that prefix alone. */
static void parse_reads_nothing_past_length(void **state)
{
	static const char full[] = "-12.5E-3";
	static const int want_rc[] = {
		SB_MONEY_SYNTAX, SB_MONEY_SYNTAX, SB_MONEY_OK, SB_MONEY_OK,
		SB_MONEY_OK, SB_MONEY_OK, SB_MONEY_SYNTAX, SB_MONEY_SYNTAX,
		SB_MONEY_OK
	};
	static const int64_t want_nanos[] = {
		UNTOUCHED, UNTOUCHED, INT64_C(-1000000000), INT64_C(-12000000000),
		INT64_C(-12000000000), INT64_C(-12500000000), UNTOUCHED, UNTOUCHED,
		INT64_C(-12500000)
	};

	(void)state;
	for (size_t len = 0; len < sizeof full; len++) {
		char *copy = malloc(len > 0 ? len : 1);
		int64_t nanos = UNTOUCHED;
		int rc;

		assert_non_null(copy);
		memcpy(copy, full, len);
		rc = sb_money_parse(copy, len, &nanos);
		free(copy);
		assert_int_equal(rc, want_rc[len]);
		assert_int_equal(nanos, want_nanos[len]);
	}
}

/* Digits past the ninth decimal round half to even on the exact digits. */
static void parse_rounds_half_even(void **state)
{
	(void)state;
	assert_parse("0.0000000005", 0);
	assert_parse("0.0000000015", 2);
	assert_parse("0.0000000025", 2);
	assert_parse("0.0000000035", 4);
	assert_parse("0.00000000250", 2);
	assert_parse("0.00000000250000000001", 3);
	assert_parse("0.0000000024999", 2);
	assert_parse("0.0000000006", 1);
	assert_parse("0.00000000049999999999", 0);
	assert_parse("0.00000000050000000001", 1);
	assert_parse("-0.0000000005", 0);
	assert_parse("-0.0000000015", -2);
	assert_parse("-0.0000000025", -2);
	assert_parse("-0.00000000250001", -3);
	assert_parse("-0.0000000026", -3);
	assert_parse("2.5E-9", 2);
	assert_parse("3.5e-9", 4);
	assert_parse("5E-10", 0);
	assert_parse("15E-10", 2);
	assert_parse("0.0126653335", INT64_C(12665334));
	assert_parse("0.0126653325", INT64_C(12665332));
	assert_parse("0.9999999995", INT64_C(1000000000));
	assert_parse("0.9999999994999", INT64_C(999999999));
}

/* The int64 edges, and digit strings far longer than 19 digits. */
static void parse_range_edges(void **state)
{
	char text[2100];

	(void)state;
	assert_parse("9223372036.854775807", INT64_MAX);
	assert_parse("-9223372036.854775808", INT64_MIN);
	assert_parse("9223372036.8547758074", INT64_MAX);
	assert_parse("9223372036.85477580749999999", INT64_MAX);
	assert_parse_fails("9223372036.854775808", SB_MONEY_RANGE);
	assert_parse_fails("9223372036.8547758075", SB_MONEY_RANGE);
	assert_parse_fails("-9223372036.854775809", SB_MONEY_RANGE);
	assert_parse_fails("10000000000", SB_MONEY_RANGE);
	assert_parse_fails("99999999999999999999", SB_MONEY_RANGE);
	assert_parse_fails("-99999999999999999999.5", SB_MONEY_RANGE);

	memset(text, '0', 1000);
	strcpy(text + 1000, "1.5");
	assert_parse(text, INT64_C(1500000000));

	strcpy(text, "1.");
	memset(text + 2, '0', 2000);
	text[2002] = '\0';
	assert_parse(text, INT64_C(1000000000));

	strcpy(text, "1.0000000005");
	memset(text + 12, '0', 1000);
	text[1012] = '\0';
	assert_parse(text, INT64_C(1000000000));
	strcpy(text + 1012, "1");
	assert_parse(text, INT64_C(1000000001));

	strcpy(text, "9223372036.8547758074");
	memset(text + 21, '9', 1000);
	text[1021] = '\0';
	assert_parse(text, INT64_MAX);
}

/* JSON doubles become nanodollars by rounding x * 1e9 once. */
static void from_double_converts(void **state)
{
	/* 9223372036.854776 * 1e9 is 2^63, one past INT64_MAX. */
	static const double bad[] = {NAN, -NAN, INFINITY, -INFINITY, 1e20,
	                             -1e20, 9.3e9, -9.3e9, 9223372036.854776,
	                             -9223372036.854778};
	int64_t nanos;

	(void)state;
	assert_int_equal(sb_money_from_double(0.0015, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 1500000);
	assert_int_equal(sb_money_from_double(0.21121499999999999, &nanos),
	                 SB_MONEY_OK);
	assert_int_equal(nanos, 211215000);
	assert_int_equal(sb_money_from_double(0.0005, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 500000);
	assert_int_equal(sb_money_from_double(-1.5, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, INT64_C(-1500000000));
	assert_int_equal(sb_money_from_double(-0.0, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 0);
	assert_int_equal(sb_money_from_double(9.2e9, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, INT64_C(9200000000000000000));
	/* These products are exact ties in binary: they go to even. */
	assert_int_equal(sb_money_from_double(2.5e-9, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 2);
	assert_int_equal(sb_money_from_double(3.5e-9, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 4);
	assert_int_equal(sb_money_from_double(-2.5e-9, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, -2);
	assert_int_equal(sb_money_from_double(5e-10, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 0);
	/* The products are -2^63, then the last double below 2^63. */
	assert_int_equal(sb_money_from_double(-9223372036.854776, &nanos),
	                 SB_MONEY_OK);
	assert_int_equal(nanos, INT64_MIN);
	assert_int_equal(sb_money_from_double(9223372036.854774, &nanos),
	                 SB_MONEY_OK);
	assert_int_equal(nanos, INT64_C(9223372036854774784));
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		nanos = UNTOUCHED;
		assert_int_equal(sb_money_from_double(bad[i], &nanos),
		                 SB_MONEY_RANGE);
		assert_int_equal(nanos, UNTOUCHED);
	}
}

/* Sums and differences refuse to wrap and leave *out alone when they do. */
static void add_sub_check_overflow(void **state)
{
	int64_t nanos;

	(void)state;
	assert_int_equal(sb_money_add(5, -7, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, -2);
	assert_int_equal(sb_money_add(INT64_MAX, INT64_MIN, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, -1);
	assert_int_equal(sb_money_add(INT64_MIN, 0, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, INT64_MIN);
	assert_int_equal(sb_money_sub(-1, INT64_MAX, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, INT64_MIN);
	assert_int_equal(sb_money_sub(10, 25, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, -15);

	nanos = UNTOUCHED;
	assert_int_equal(sb_money_add(INT64_MAX, 1, &nanos), SB_MONEY_RANGE);
	assert_int_equal(sb_money_add(INT64_MIN, -1, &nanos), SB_MONEY_RANGE);
	assert_int_equal(sb_money_sub(0, INT64_MIN, &nanos), SB_MONEY_RANGE);
	assert_int_equal(sb_money_sub(INT64_MIN, 1, &nanos), SB_MONEY_RANGE);
	assert_int_equal(sb_money_sub(INT64_MAX, -1, &nanos), SB_MONEY_RANGE);
	assert_int_equal(nanos, UNTOUCHED);
}

/* Division rounds half to even for both signs of the numerator. */
static void div_rounds_half_even(void **state)
{
	(void)state;
	assert_div(5, 2, 2);
	assert_div(7, 2, 4);
	assert_div(3, 2, 2);
	assert_div(1, 2, 0);
	assert_div(-1, 2, 0);
	assert_div(-3, 2, -2);
	assert_div(-5, 2, -2);
	assert_div(-7, 2, -4);
	assert_div(10, 4, 2);
	assert_div(-10, 4, -2);
	assert_div(14, 4, 4);
	assert_div(-14, 4, -4);
	assert_div(5, 3, 2);
	assert_div(-5, 3, -2);
	assert_div(4, 3, 1);
	assert_div(-4, 3, -1);
	assert_div(6, 3, 2);
	assert_div(-6, 3, -2);
	assert_div(0, 7, 0);
	assert_div(9, 1, 9);
	assert_div(-9, 1, -9);
	assert_div(-9, 10, -1);
	assert_div(-11, 10, -1);
	assert_div(-15, 10, -2);
	assert_div(-25, 10, -2);
	assert_div(-26, 10, -3);
	/* cost_for_ms: 0.06 USD a minute for 1 ms is 1000 nanos exactly. */
	assert_div((__int128)60000000 * 1, 60000, 1000);
}

/* The numerator may exceed int64; the quotient may not. */
static void div_checks_range(void **state)
{
	__int128 max = INT64_MAX;
	__int128 min = INT64_MIN;

	(void)state;
	assert_div(max * 1000 + 499, 1000, INT64_MAX);
	assert_div(min * 3, 3, INT64_MIN);
	assert_div(min * 1000 - 500, 1000, INT64_MIN);
	assert_div(max * 2, 2, INT64_MAX);
	assert_div(max * 2 - 1, 2, INT64_MAX - 1);
	assert_div_fails(max * 2 + 1, 2);
	assert_div_fails(max * 1000 + 500, 1000);
	assert_div_fails(max + 1, 1);
	assert_div_fails(min - 1, 1);
	assert_div_fails(min * 1000 - 501, 1000);
	assert_div_fails(10, 0);
	assert_div_fails(10, -2);
}

/* Rounding to a number of decimals stays in nanodollars. */
static void round_to_decimals(void **state)
{
	int64_t nanos;

	(void)state;
	assert_int_equal(sb_money_round(125000000, 2, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 120000000);
	assert_int_equal(sb_money_round(135000000, 2, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 140000000);
	assert_int_equal(sb_money_round(-125000000, 2, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, -120000000);
	assert_int_equal(sb_money_round(125000001, 2, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 130000000);
	assert_int_equal(sb_money_round(-135000000, 2, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, -140000000);
	assert_int_equal(sb_money_round(12665333, 9, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 12665333);
	assert_int_equal(sb_money_round(12665500, 6, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, 12666000);
	assert_int_equal(sb_money_round(INT64_C(2500000000), 0, &nanos),
	                 SB_MONEY_OK);
	assert_int_equal(nanos, INT64_C(2000000000));
	assert_int_equal(sb_money_round(INT64_C(3500000000), 0, &nanos),
	                 SB_MONEY_OK);
	assert_int_equal(nanos, INT64_C(4000000000));
	assert_int_equal(sb_money_round(INT64_MAX, 2, &nanos), SB_MONEY_OK);
	assert_int_equal(nanos, INT64_C(9223372036850000000));

	nanos = UNTOUCHED;
	assert_int_equal(sb_money_round(INT64_MAX, 0, &nanos), SB_MONEY_RANGE);
	assert_int_equal(sb_money_round(INT64_MIN, 1, &nanos), SB_MONEY_RANGE);
	assert_int_equal(sb_money_round(5, 10, &nanos), SB_MONEY_RANGE);
	assert_int_equal(sb_money_round(5, -1, &nanos), SB_MONEY_RANGE);
	assert_int_equal(nanos, UNTOUCHED);
}

/* Ledger amounts: exactly nine decimals, a '-' for negatives. */
static void format_nine_decimals(void **state)
{
	(void)state;
	assert_format(12665333, 9, "0.012665333");
	assert_format(0, 9, "0.000000000");
	assert_format(-1, 9, "-0.000000001");
	assert_format(INT64_C(1000000000), 9, "1.000000000");
	assert_format(INT64_C(-12340000000), 9, "-12.340000000");
	assert_format(INT64_MAX, 9, "9223372036.854775807");
	assert_format(INT64_MIN, 9, "-9223372036.854775808");
}

/* Tables: six decimals, half to even. */
static void format_six_decimals(void **state)
{
	(void)state;
	assert_format(12665333, 6, "0.012665");
	assert_format(12665500, 6, "0.012666");
	assert_format(12664500, 6, "0.012664");
	assert_format(12664501, 6, "0.012665");
	assert_format(-12665333, 6, "-0.012665");
	assert_format(-12665500, 6, "-0.012666");
	assert_format(-500, 6, "0.000000");
	assert_format(-1500, 6, "-0.000002");
	assert_format(INT64_MAX, 6, "9223372036.854776");
}

/* Invoices: two decimals, half to even, never "-0.00". */
static void format_two_decimals(void **state)
{
	(void)state;
	assert_format(125000000, 2, "0.12");
	assert_format(135000000, 2, "0.14");
	assert_format(-125000000, 2, "-0.12");
	assert_format(-135000000, 2, "-0.14");
	assert_format(-1000000, 2, "0.00");
	assert_format(-5000000, 2, "0.00");
	assert_format(-5000001, 2, "-0.01");
	assert_format(-15000000, 2, "-0.02");
	assert_format(INT64_C(12345000000), 2, "12.34");
	assert_format(INT64_C(12345000001), 2, "12.35");
	assert_format(INT64_C(1234000000000), 2, "1234.00");
	assert_format(INT64_C(995000000), 2, "1.00");
	assert_format(INT64_MIN, 2, "-9223372036.85");
}

/* Zero decimals, and decimals outside 0..9 clamped. */
static void format_other_decimals(void **state)
{
	(void)state;
	assert_format(INT64_C(2500000000), 0, "2");
	assert_format(INT64_C(-2500000000), 0, "-2");
	assert_format(INT64_C(-400000000), 0, "0");
	assert_format(INT64_MAX, 0, "9223372037");
	assert_format(INT64_MIN, 0, "-9223372037");
	assert_format(INT64_C(125000000), 1, "0.1");
	assert_format(12665333, 12, "0.012665333");
	assert_format(INT64_C(1500000000), -3, "2");
}

/* Formatting with nine decimals and parsing back gives the same value. */
static void format_parse_round_trip(void **state)
{
	static const int64_t values[] = {0, 1, -1, 12665333, INT64_MAX,
	                                 INT64_MIN, INT64_C(-98765432123456)};
	char buf[SB_MONEY_BUFSZ];
	int64_t nanos;

	(void)state;
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		sb_money_format(values[i], 9, buf);
		assert_true(strlen(buf) < SB_MONEY_BUFSZ);
		assert_int_equal(sb_money_parse(buf, strlen(buf), &nanos),
		                 SB_MONEY_OK);
		assert_int_equal(nanos, values[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_plain_forms),
		cmocka_unit_test(parse_exponents),
		cmocka_unit_test(parse_rejects_syntax),
		cmocka_unit_test(parse_respects_length),
		cmocka_unit_test(parse_reads_nothing_past_length),
		cmocka_unit_test(parse_rounds_half_even),
		cmocka_unit_test(parse_range_edges),
		cmocka_unit_test(from_double_converts),
		cmocka_unit_test(add_sub_check_overflow),
		cmocka_unit_test(div_rounds_half_even),
		cmocka_unit_test(div_checks_range),
		cmocka_unit_test(round_to_decimals),
		cmocka_unit_test(format_nine_decimals),
		cmocka_unit_test(format_six_decimals),
		cmocka_unit_test(format_two_decimals),
		cmocka_unit_test(format_other_decimals),
		cmocka_unit_test(format_parse_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
