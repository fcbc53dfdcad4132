/* money.c: nanodollar parsing, arithmetic, rounding and formatting (see
 * money.h).  Decimal text is read digit by digit and rounded on its exact
 * decimal digits; no double takes part except in sb_money_from_double. */
#include "ledger/money.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* Exponents are saturated at this magnitude while they are read: any
 * exponent that large already puts a nonzero mantissa far outside int64
 * nanodollars (or rounds it to 0), and the saturation keeps the digit
 * position arithmetic below from overflowing. */
#define EXPONENT_CAP INT64_C(1000000000000000)

/* Powers of ten that fit in int64, 10^0 .. 10^18. */
static const int64_t pow10_table[19] = {
	INT64_C(1), INT64_C(10), INT64_C(100), INT64_C(1000), INT64_C(10000),
	INT64_C(100000), INT64_C(1000000), INT64_C(10000000),
	INT64_C(100000000), INT64_C(1000000000), INT64_C(10000000000),
	INT64_C(100000000000), INT64_C(1000000000000),
	INT64_C(10000000000000), INT64_C(100000000000000),
	INT64_C(1000000000000000), INT64_C(10000000000000000),
	INT64_C(100000000000000000), INT64_C(1000000000000000000)
};

/* True when c is an ASCII decimal digit. */
static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The mantissa of a parsed number: its integer digits and its fraction
 * digits, read as one digit sequence. */
struct mantissa {
	const char *int_digits;   /* digits before the point */
	size_t int_len;           /* how many */
	const char *frac_digits;  /* digits after the point */
	size_t frac_len;          /* how many */
};

/* Digit k (0-based) of the sequence int_digits followed by frac_digits. */
static int mantissa_digit(const struct mantissa *m, size_t k)
{
	if (k < m->int_len)
		return m->int_digits[k] - '0';
	return m->frac_digits[k - m->int_len] - '0';
}

/* Turn the exact value m * 10^exponent into a nanodollar magnitude,
 * rounded half to even, in *magnitude (at most 10^19, so it fits in
 * uint64).  Returns SB_MONEY_RANGE when the magnitude reaches 10^19
 * before rounding. */
static int mantissa_to_nanos(const struct mantissa *m, int64_t exponent,
                             uint64_t *magnitude)
{
	size_t ndigits = m->int_len + m->frac_len;
	size_t first = 0;
	int64_t first_power;
	int64_t last_power;
	uint64_t acc = 0;
	int round_digit = 0;
	bool sticky = false;

	while (first < ndigits && mantissa_digit(m, first) == 0)
		first++;
	if (first == ndigits) {
		*magnitude = 0;
		return SB_MONEY_OK;
	}
	/* Digit k stands for digit * 10^power nanodollars, where power falls
	 * by one from one digit to the next. */
	first_power = (int64_t)m->int_len - 1 - (int64_t)first + exponent + 9;
	if (first_power > 18)
		return SB_MONEY_RANGE;
	for (size_t k = first; k < ndigits; k++) {
		int64_t power = first_power - (int64_t)(k - first);
		int digit = mantissa_digit(m, k);

		if (power >= 0) {
			acc = acc * 10 + (uint64_t)digit;
		} else if (power == -1) {
			round_digit = digit;
		} else if (digit != 0) {
			sticky = true;
			break;
		}
	}
	last_power = first_power - (int64_t)(ndigits - 1 - first);
	if (last_power > 0)
		acc *= (uint64_t)pow10_table[last_power];
	if (round_digit > 5 || (round_digit == 5 && (sticky || acc % 2 != 0)))
		acc++;
	*magnitude = acc;
	return SB_MONEY_OK;
}

/* Parse decimal text into nanodollars: sign, mantissa, exponent, then
 * exact rounding of the digits past the ninth decimal (see money.h). */
int sb_money_parse(const char *s, size_t len, int64_t *out)
{
	struct mantissa m;
	size_t i = 0;
	bool negative = false;
	int64_t exponent = 0;
	uint64_t magnitude;
	int rc;

	if (i < len && (s[i] == '+' || s[i] == '-')) {
		negative = s[i] == '-';
		i++;
	}
	m.int_digits = s + i;
	while (i < len && is_digit(s[i]))
		i++;
	m.int_len = (size_t)(s + i - m.int_digits);
	m.frac_digits = s + i;
	m.frac_len = 0;
	if (i < len && s[i] == '.') {
		i++;
		m.frac_digits = s + i;
		while (i < len && is_digit(s[i]))
			i++;
		m.frac_len = (size_t)(s + i - m.frac_digits);
	}
	if (m.int_len + m.frac_len == 0)
		return SB_MONEY_SYNTAX;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		bool exponent_negative = false;
		size_t exponent_start;

		i++;
		if (i < len && (s[i] == '+' || s[i] == '-')) {
			exponent_negative = s[i] == '-';
			i++;
		}
		exponent_start = i;
		for (; i < len && is_digit(s[i]); i++)
			if (exponent < EXPONENT_CAP)
				exponent = exponent * 10 + (s[i] - '0');
		if (i == exponent_start)
			return SB_MONEY_SYNTAX;
		if (exponent_negative)
			exponent = -exponent;
	}
	if (i != len)
		return SB_MONEY_SYNTAX;

	rc = mantissa_to_nanos(&m, exponent, &magnitude);
	if (rc != SB_MONEY_OK)
		return rc;
	if (!negative) {
		if (magnitude > (uint64_t)INT64_MAX)
			return SB_MONEY_RANGE;
		*out = (int64_t)magnitude;
	} else {
		if (magnitude > (uint64_t)INT64_MAX + 1)
			return SB_MONEY_RANGE;
		*out = magnitude == (uint64_t)INT64_MAX + 1
		       ? INT64_MIN : -(int64_t)magnitude;
	}
	return SB_MONEY_OK;
}

/* Convert a double number of dollars to nanodollars with llrint(x * 1e9),
 * refusing NaN, infinities and products outside int64. */
int sb_money_from_double(double x, int64_t *out)
{
	double scaled = x * 1e9;

	/* -2^63 and 2^63 are exact doubles, every double between them rounds
	 * to an int64, and NaN fails both comparisons. */
	if (!(scaled >= -9223372036854775808.0 && scaled < 9223372036854775808.0))
		return SB_MONEY_RANGE;
	*out = (int64_t)llrint(scaled);
	return SB_MONEY_OK;
}

/* a + b, refusing to wrap. */
int sb_money_add(int64_t a, int64_t b, int64_t *out)
{
	int64_t sum;

	if (__builtin_add_overflow(a, b, &sum))
		return SB_MONEY_RANGE;
	*out = sum;
	return SB_MONEY_OK;
}

/* a - b, refusing to wrap. */
int sb_money_sub(int64_t a, int64_t b, int64_t *out)
{
	int64_t difference;

	if (__builtin_sub_overflow(a, b, &difference))
		return SB_MONEY_RANGE;
	*out = difference;
	return SB_MONEY_OK;
}

/* num / den rounded half to even: take the floor quotient and the
 * remainder in [0, den), then round up when the remainder is past half of
 * den, or exactly half and the floor is odd.  den <= 0 is refused with
 * SB_MONEY_RANGE. */
int sb_div_round_even(__int128 num, int64_t den, int64_t *out)
{
	__int128 quotient;
	__int128 remainder;

	if (den <= 0)
		return SB_MONEY_RANGE;
	quotient = num / den;
	remainder = num % den;
	if (remainder < 0) {
		quotient -= 1;
		remainder += den;
	}
	if (2 * remainder > den || (2 * remainder == den && quotient % 2 != 0))
		quotient += 1;
	if (quotient < INT64_MIN || quotient > INT64_MAX)
		return SB_MONEY_RANGE;
	*out = (int64_t)quotient;
	return SB_MONEY_OK;
}

/* Round nanos to a multiple of 10^(9 - decimals), half to even.  decimals
 * outside 0..9 is refused with SB_MONEY_RANGE. */
int sb_money_round(int64_t nanos, int decimals, int64_t *out)
{
	int64_t unit;
	int64_t units;
	int64_t rounded;

	if (decimals < 0 || decimals > 9)
		return SB_MONEY_RANGE;
	unit = pow10_table[9 - decimals];
	if (sb_div_round_even(nanos, unit, &units) != SB_MONEY_OK)
		return SB_MONEY_RANGE;
	if (__builtin_mul_overflow(units, unit, &rounded))
		return SB_MONEY_RANGE;
	*out = rounded;
	return SB_MONEY_OK;
}

/* Write nanos with exactly `decimals` places: round to a count of
 * 10^-decimals dollars (half to even, which cannot overflow since it
 * divides), then write that count's digits from the right, the point
 * after `decimals` of them, and a '-' for a negative count.  decimals is
 * clamped to 0..9. */
char *sb_money_format(int64_t nanos, int decimals, char buf[SB_MONEY_BUFSZ])
{
	char text[SB_MONEY_BUFSZ];
	size_t pos = sizeof text;
	int64_t units = 0;
	uint64_t magnitude;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	sb_div_round_even(nanos, pow10_table[9 - decimals], &units);
	magnitude = units < 0 ? (uint64_t)0 - (uint64_t)units : (uint64_t)units;
	text[--pos] = '\0';
	for (int k = 0; k < decimals; k++) {
		text[--pos] = (char)('0' + magnitude % 10);
		magnitude /= 10;
	}
	if (decimals > 0)
		text[--pos] = '.';
	do {
		text[--pos] = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude != 0);
	if (units < 0)
		text[--pos] = '-';
	memcpy(buf, text + pos, sizeof text - pos);
	return buf;
}
