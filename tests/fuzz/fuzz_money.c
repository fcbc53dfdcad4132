/* fuzz_money.c: decimal money text (ledger/money.h, sb_money_parse) and
 * the arithmetic around it.
 *
 * The input is decimal text.  sb_money_parse must agree with a slow
 * reference written here from the rules of docs/rules.md (exact
 * digits, half to even past the ninth decimal, int64 range); what it
 * parses must format (9 decimals) and parse back to itself; formatting
 * with fewer decimals must equal sb_money_round then formatting; and the
 * first 24 bytes, read as numbers, drive sb_div_round_even (the result
 * is the nearest quotient, ties to even) and sb_money_from_double.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "ledger/money.h"
#include "tests/fuzz/fuzz.h"

/* The reference parser: SB_MONEY_OK, SB_MONEY_SYNTAX or SB_MONEY_RANGE. */
static int ref_parse(const char *s, size_t len, int64_t *out)
{
	char digits[8192];
	size_t n = 0, i = 0, frac_len = 0, mantissa = 0;
	bool negative = false, exp_negative = false;
	int64_t exponent = 0, e10;
	unsigned __int128 value = 0;

	if (i < len && (s[i] == '+' || s[i] == '-'))
		negative = s[i++] == '-';
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, mantissa++)
		if (n > 0 || s[i] != '0')
			digits[n++] = s[i];
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, mantissa++, frac_len++)
			if (n > 0 || s[i] != '0')
				digits[n++] = s[i];
	if (mantissa == 0)
		return SB_MONEY_SYNTAX;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t start;
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			exp_negative = s[i++] == '-';
		for (start = i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			if (exponent < INT64_C(1000000000))
				exponent = exponent * 10 + (s[i] - '0');
		if (i == start)
			return SB_MONEY_SYNTAX;
	}
	if (i != len)
		return SB_MONEY_SYNTAX;
	if (exp_negative)
		exponent = -exponent;
	/* the value is digits[0..n) x 10^e10 nanodollars; trailing zeros
	 * move into the exponent */
	e10 = exponent + 9 - (int64_t)frac_len;
	while (n > 0 && digits[n - 1] == '0')
		n--, e10++;
	if (n == 0) {
		*out = 0;
		return SB_MONEY_OK;
	}
	if (e10 >= 0) {
		if ((int64_t)n + e10 > 19)
			return SB_MONEY_RANGE;
		for (size_t k = 0; k < n; k++)
			value = value * 10 + (unsigned)(digits[k] - '0');
		for (int64_t k = 0; k < e10; k++)
			value *= 10;
	} else {
		int64_t k = -e10;   /* digits past the nanodollar */
		int64_t whole = (int64_t)n - k;
		int first;          /* the first digit past the nanodollar */
		bool rest;          /* a nonzero digit after it */
		if (whole > 19)
			return SB_MONEY_RANGE;
		for (int64_t j = 0; j < whole; j++)
			value = value * 10 + (unsigned)(digits[j] - '0');
		if (whole < 0) {
			first = 0;
			rest = true;
		} else {
			first = digits[whole] - '0';
			rest = whole + 1 < (int64_t)n;   /* trailing zeros were stripped */
		}
		if (first > 5 || (first == 5 && (rest || value % 2 == 1)))
			value++;
	}
	if (!negative) {
		if (value > (unsigned __int128)INT64_MAX)
			return SB_MONEY_RANGE;
		*out = (int64_t)value;
	} else {
		if (value > (unsigned __int128)INT64_MAX + 1)
			return SB_MONEY_RANGE;
		*out = (int64_t)(-(__int128)value);
	}
	return SB_MONEY_OK;
}

/* sb_div_round_even(num, den) is the nearest integer to num/den, ties to
 * even, or SB_MONEY_RANGE exactly when that does not fit in int64. */
static void check_division(__int128 num, int64_t den)
{
	int64_t q = 0;
	int rc = sb_div_round_even(num, den, &q);

	if (den <= 0) {
		FUZZ_CHECK(rc == SB_MONEY_RANGE);
		return;
	}
	if (rc == SB_MONEY_OK) {
		__int128 r = num - (__int128)q * den;   /* small: q is about num/den */
		__int128 twice = 2 * (r < 0 ? -r : r);
		FUZZ_CHECK(twice <= den);
		if (twice == den)
			FUZZ_CHECK(q % 2 == 0);
	} else {
		__int128 fq = num / den;   /* truncated: within one of the answer */
		FUZZ_CHECK(rc == SB_MONEY_RANGE);
		FUZZ_CHECK(fq <= (__int128)INT64_MIN + 1 || fq >= (__int128)INT64_MAX - 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	int64_t got = 0, want = 0, again = 0;
	int rc, ref;
	char buf[SB_MONEY_BUFSZ], wide[SB_MONEY_BUFSZ + 16];

	if (size > 4096)
		return 0;
	rc = sb_money_parse(s, size, &got);
	ref = ref_parse(s, size, &want);
	FUZZ_CHECK(rc == ref);
	if (rc == SB_MONEY_OK) {
		FUZZ_CHECK(got == want);
		sb_money_format(got, 9, buf);
		FUZZ_CHECK(sb_money_parse(buf, strlen(buf), &again) == SB_MONEY_OK);
		FUZZ_CHECK(again == got);
		for (int d = 0; d < 9; d++) {
			int64_t rounded = 0;
			char shown[SB_MONEY_BUFSZ], full[SB_MONEY_BUFSZ];
			sb_money_format(got, d, shown);
			if (sb_money_round(got, d, &rounded) != SB_MONEY_OK)
				continue;
			sb_money_format(rounded, 9, full);
			snprintf(wide, sizeof wide, "%s%s%.*s", shown, d == 0 ? "." : "", 9 - d,
			         "000000000");
			/* -0.4 cents shows as 0.00, not -0.00: compare magnitudes */
			FUZZ_CHECK(strcmp(wide + (wide[0] == '-'), full + (full[0] == '-')) == 0);
		}
	}
	if (size >= 24) {
		__int128 num;
		int64_t den;
		double x;
		memcpy(&num, data, sizeof num);
		memcpy(&den, data + 16, sizeof den);
		check_division(num, den);
		check_division((__int128)den, (int64_t)(num & 0x7fffffff) + 1);
		memcpy(&x, data + 8, sizeof x);
		if (sb_money_from_double(x, &got) == SB_MONEY_OK) {
			FUZZ_CHECK(isfinite(x));
			FUZZ_CHECK(fabsl((long double)got - (long double)(x * 1e9)) <= 0.5L);
		}
	}
	return 0;
}
