/* money.h: money as signed 64-bit nanodollars (1 USD = 1,000,000,000).
 *
 * No double ever holds a sum or a stored amount.  Decimal text is parsed
 * exactly, digit by digit, JSON numbers too (from their text, kept by
 * importers/json_in.h).  Every rounding here is half to even, and every sum is
 * checked for overflow: an overflow is an error, never a wrap.
 * Nothing here allocates.
 */
#ifndef SB_MONEY_H
#define SB_MONEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_NANOS_PER_USD INT64_C(1000000000)

/* Result of the parsing and arithmetic calls. */
enum sb_money_rc {
	SB_MONEY_OK = 0,
	SB_MONEY_SYNTAX = -1,   /* not a decimal number */
	SB_MONEY_RANGE = -2     /* does not fit in int64 nanodollars */
};

/* Parse the decimal text s[0..len) into nanodollars.  Accepts an optional
 * sign, digits with an optional fraction ("12", "12.", ".5", "0.012665333"),
 * and an optional exponent ("1.5E-3", "2e+2").  No spaces, no thousands
 * separators, no "NaN"/"Inf".  Digits past the ninth decimal are rounded
 * half to even (on the exact decimal value, not a double).  "-0" is 0.
 * Returns SB_MONEY_OK, SB_MONEY_SYNTAX or SB_MONEY_RANGE; *out is written
 * only on success. */
int sb_money_parse(const char *s, size_t len, int64_t *out);

/* No importer calls this any more (JSON numbers are parsed from their
 * text by sb_money_parse); kept for its tests until it is removed.
 * Convert a double to nanodollars: x * 1e9 rounded to the nearest
 * integer, ties to even (llrint under the default rounding mode).
 * SB_MONEY_RANGE for NaN, infinities and values past int64. */
int sb_money_from_double(double x, int64_t *out);

/* *out = a + b, or SB_MONEY_RANGE on overflow (*out untouched). */
int sb_money_add(int64_t a, int64_t b, int64_t *out);

/* *out = a - b, or SB_MONEY_RANGE on overflow (*out untouched). */
int sb_money_sub(int64_t a, int64_t b, int64_t *out);

/* num / den rounded half to even, for den > 0; the quotient must fit in
 * int64 (SB_MONEY_RANGE otherwise).  The one division of the program:
 * cost_for_ms, token cost, per-line pricing and cents all come here. */
int sb_div_round_even(__int128 num, int64_t den, int64_t *out);

/* Round nanodollars to 10^-decimals USD (decimals 0..9), half to even,
 * returning the result still in nanodollars (e.g. decimals 2 gives a
 * multiple of 10,000,000).  SB_MONEY_RANGE when the rounded value does not
 * fit. */
int sb_money_round(int64_t nanos, int decimals, int64_t *out);

/* Longest text sb_money_format writes, with its NUL. */
#define SB_MONEY_BUFSZ 32

/* Format nanodollars as a decimal with exactly `decimals` places (0..9),
 * rounding half to even when decimals < 9; a leading '-' for negative
 * values (never "-0.00").  Writes at most SB_MONEY_BUFSZ bytes to buf and
 * returns buf. */
char *sb_money_format(int64_t nanos, int decimals, char buf[SB_MONEY_BUFSZ]);

#endif
