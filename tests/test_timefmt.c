/* test_timefmt.c: RFC 3339 parsing and formatting, civil date arithmetic
 * (ledger/timefmt.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/timefmt.h"

/* A value no call below should produce, to see that *ms_out stays
 * untouched on failure. */
#define UNTOUCHED INT64_C(-777777777777777)

/* 2026-11-29T00:00:00Z and 2026-11-29T02:00:00Z. */
#define NOV29_MS INT64_C(1795910400000)
#define NOV29_2AM_MS INT64_C(1795917600000)
#define HOUR_MS INT64_C(3600000)
#define MINUTE_MS INT64_C(60000)

/* Parse text with flags and fail at the caller's line unless the result
 * is want_rc and, on success, want_ms; on failure *ms_out must stay
 * untouched. */
static void check_time(const char *text, int flags, int want_rc,
                       int64_t want_ms, const char *file, int line)
{
	int64_t ms = UNTOUCHED;
	int rc = sb_time_parse(text, strlen(text), flags, &ms);
	int64_t want = want_rc == SB_TIME_OK ? want_ms : UNTOUCHED;

	if (rc != want_rc || ms != want) {
		print_error("sb_time_parse(\"%s\", %d) gave rc %d ms %" PRId64
		            ", want rc %d ms %" PRId64 "\n", text, flags, rc, ms,
		            want_rc, want);
		_fail(file, line);
	}
}

#define assert_time(text, ms) \
	check_time(text, 0, SB_TIME_OK, ms, __FILE__, __LINE__)
#define assert_time_fails(text, rc) \
	check_time(text, 0, rc, 0, __FILE__, __LINE__)

/* The calendar's edges, 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z:
 * taken at each, refused one millisecond past each, however the offset
 * puts it there; a naive UTC time too. */
static void parse_calendar_edges(void **state)
{
	(void)state;
	assert_time("0000-01-01T00:00:00Z", SB_TIME_MIN_MS);
	assert_time("0000-01-01T01:00:00+01:00", SB_TIME_MIN_MS);
	assert_time("9999-12-31T23:59:59.999Z", SB_TIME_MAX_MS);
	assert_time("9999-12-31T22:59:59.999-01:00", SB_TIME_MAX_MS);
	assert_time_fails("0000-01-01T00:59:59.999+01:00", SB_TIME_OUTSIDE);
	assert_time_fails("0000-01-01T00:30:00+01:00", SB_TIME_OUTSIDE);
	assert_time_fails("0000-01-01T00:00:00+00:01", SB_TIME_OUTSIDE);
	assert_time_fails("9999-12-31T23:00:00-01:00", SB_TIME_OUTSIDE);
	assert_time_fails("9999-12-31T23:30:00-01:00", SB_TIME_OUTSIDE);
	assert_time_fails("9999-12-31T23:59:59.999-00:01", SB_TIME_OUTSIDE);
	check_time("9999-12-31T23:59:59.999", SB_TIME_NAIVE_UTC, SB_TIME_OK, SB_TIME_MAX_MS, __FILE__, __LINE__);
	check_time("0000-01-01 00:00:00", SB_TIME_NAIVE_UTC, SB_TIME_OK, SB_TIME_MIN_MS, __FILE__, __LINE__);
	assert_int_equal(SB_TIME_MIN_MS, sb_days_from_civil_ms(0, 1, 1));
	assert_int_equal(SB_TIME_MAX_MS, sb_days_from_civil_ms(10000, 1, 1) - 1);
	assert_true(sb_time_in_calendar(SB_TIME_MIN_MS) && sb_time_in_calendar(SB_TIME_MAX_MS));
	assert_false(sb_time_in_calendar(SB_TIME_MIN_MS - 1) || sb_time_in_calendar(SB_TIME_MAX_MS + 1));
}

/* Parse a date and fail at the caller's line unless the result is want_rc
 * and, on success, want_ms. */
static void check_date(const char *text, int want_rc, int64_t want_ms,
                       const char *file, int line)
{
	int64_t ms = UNTOUCHED;
	int rc = sb_date_parse(text, strlen(text), &ms);
	int64_t want = want_rc == SB_TIME_OK ? want_ms : UNTOUCHED;

	if (rc != want_rc || ms != want) {
		print_error("sb_date_parse(\"%s\") gave rc %d ms %" PRId64
		            ", want rc %d ms %" PRId64 "\n", text, rc, ms, want_rc,
		            want);
		_fail(file, line);
	}
}

#define assert_date(text, ms) \
	check_date(text, SB_TIME_OK, ms, __FILE__, __LINE__)
#define assert_date_fails(text, rc) \
	check_date(text, rc, 0, __FILE__, __LINE__)

/* UTC with 'Z' or 'z', and the three date-time separators. */
static void parse_utc(void **state)
{
	(void)state;
	assert_time("1970-01-01T00:00:00Z", 0);
	assert_time("2026-11-29T02:00:00Z", NOV29_2AM_MS);
	assert_time("2026-11-29T02:00:00z", NOV29_2AM_MS);
	assert_time("2026-11-29t02:00:00Z", NOV29_2AM_MS);
	assert_time("2026-11-29 02:00:00Z", NOV29_2AM_MS);
	assert_time("2024-02-29T12:34:56Z", INT64_C(1709210096000));
	assert_time("9999-12-31T23:59:59Z", INT64_C(253402300799000));
	assert_time("2026-12-31T23:59:59Z", INT64_C(1798761599000));
}

/* Offsets east and west of UTC move the instant the other way. */
static void parse_offsets(void **state)
{
	(void)state;
	assert_time("2026-11-29T02:00:00.125+02:00", NOV29_MS + 125);
	assert_time("2026-11-29T02:00:00+00:00", NOV29_2AM_MS);
	assert_time("2026-11-29T02:00:00-00:00", NOV29_2AM_MS);
	assert_time("2026-11-28T20:30:00-05:30", NOV29_2AM_MS);
	assert_time("2026-11-29T07:30:00+05:30", NOV29_2AM_MS);
	assert_time("2026-11-30T01:59:00+23:59", NOV29_2AM_MS);
	assert_time("2026-11-28T02:01:00-23:59", NOV29_2AM_MS);
	assert_time("2027-01-01T01:00:00+01:00", INT64_C(1798761600000));
	assert_time("1969-12-31T19:00:00-05:00", 0);
}

/* A fraction of any length keeps its first three digits, truncated. */
static void parse_fractions(void **state)
{
	(void)state;
	assert_time("2026-11-29T02:00:00.1Z", NOV29_2AM_MS + 100);
	assert_time("2026-11-29T02:00:00.12Z", NOV29_2AM_MS + 120);
	assert_time("2026-11-29T02:00:00.123Z", NOV29_2AM_MS + 123);
	assert_time("2026-11-29T02:00:00.1239Z", NOV29_2AM_MS + 123);
	assert_time("2026-11-29T02:00:00.12399Z", NOV29_2AM_MS + 123);
	assert_time("2026-11-29T02:00:00.123999Z", NOV29_2AM_MS + 123);
	assert_time("2026-11-29T02:00:00.1239999Z", NOV29_2AM_MS + 123);
	assert_time("2026-11-29T02:00:00.12399999Z", NOV29_2AM_MS + 123);
	assert_time("2026-11-29T02:00:00.999999999Z", NOV29_2AM_MS + 999);
	assert_time("2026-11-29T02:00:00.000000001Z", NOV29_2AM_MS);
	assert_time("2026-11-29T02:00:00.0009999999999999999999999Z",
	            NOV29_2AM_MS);
	assert_time("2026-11-29T02:00:00.050+01:00",
	            NOV29_2AM_MS - HOUR_MS + 50);
}

/* Instants before the epoch, down to year 1 and year 0. */
static void parse_before_epoch(void **state)
{
	(void)state;
	assert_time("1969-12-31T23:59:59.999Z", -1);
	assert_time("1969-12-31T23:59:59.9999Z", -1);
	assert_time("1969-12-31T23:59:59Z", -1000);
	assert_time("1969-07-20T20:17:40Z", INT64_C(-14182940000));
	assert_time("1900-01-01T00:00:00Z", INT64_C(-2208988800000));
	assert_time("1600-02-29T00:00:00Z", INT64_C(-11670998400000));
	assert_time("0001-01-01T00:00:00Z", INT64_C(-62135596800000));
	assert_time("0000-01-01T00:00:00Z", INT64_C(-62167219200000));
}

/* Days of the month, with the Gregorian leap years. */
static void parse_validates_days(void **state)
{
	(void)state;
	assert_time("2024-02-29T00:00:00Z", INT64_C(1709164800000));
	assert_time("2000-02-29T00:00:00Z", INT64_C(951782400000));
	assert_time_fails("2025-02-29T00:00:00Z", SB_TIME_RANGE);
	assert_time_fails("1900-02-29T00:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2100-02-29T00:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2024-02-30T00:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2026-04-31T00:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2026-06-31T00:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2026-09-31T00:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2026-11-31T00:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2026-01-32T00:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2026-01-00T00:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2026-00-10T00:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2026-13-01T00:00:00Z", SB_TIME_RANGE);
	assert_time("2026-01-31T00:00:00Z", INT64_C(1769817600000));
	assert_time("2026-12-31T00:00:00Z", INT64_C(1798675200000));
}

/* Hours, minutes, seconds and offsets past their ends; no leap second. */
static void parse_validates_clock(void **state)
{
	(void)state;
	assert_time("2026-11-29T23:59:59Z", NOV29_MS + SB_MS_PER_DAY - 1000);
	assert_time_fails("2026-11-29T24:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2026-11-29T25:00:00Z", SB_TIME_RANGE);
	assert_time_fails("2026-11-29T02:60:00Z", SB_TIME_RANGE);
	assert_time_fails("2026-11-29T02:00:60Z", SB_TIME_RANGE);
	assert_time_fails("2016-12-31T23:59:60Z", SB_TIME_RANGE);
	assert_time_fails("2026-11-29T02:00:00+24:00", SB_TIME_RANGE);
	assert_time_fails("2026-11-29T02:00:00-24:00", SB_TIME_RANGE);
	assert_time_fails("2026-11-29T02:00:00+02:60", SB_TIME_RANGE);
}

/* A missing offset is refused unless the caller says the text is UTC. */
static void parse_missing_offset(void **state)
{
	(void)state;
	assert_time_fails("2026-11-29T02:00:00", SB_TIME_NO_OFFSET);
	assert_time_fails("2026-11-29T02:00:00.125", SB_TIME_NO_OFFSET);
	assert_time_fails("2026-11-29 02:00:00", SB_TIME_NO_OFFSET);
	check_time("2026-11-29T02:00:00", SB_TIME_NAIVE_UTC, SB_TIME_OK,
	           NOV29_2AM_MS, __FILE__, __LINE__);
	check_time("2026-11-29 02:00:00.125", SB_TIME_NAIVE_UTC, SB_TIME_OK,
	           NOV29_2AM_MS + 125, __FILE__, __LINE__);
	check_time("2026-11-29T04:00:00+02:00", SB_TIME_NAIVE_UTC, SB_TIME_OK,
	           NOV29_2AM_MS, __FILE__, __LINE__);
	check_time("2026-11-29T02:00:00Z", SB_TIME_NAIVE_UTC, SB_TIME_OK,
	           NOV29_2AM_MS, __FILE__, __LINE__);
	check_time("2026-02-30T02:00:00", SB_TIME_NAIVE_UTC, SB_TIME_RANGE, 0,
	           __FILE__, __LINE__);
	check_time("2026-11-29T02:00", SB_TIME_NAIVE_UTC, SB_TIME_SYNTAX, 0,
	           __FILE__, __LINE__);
	check_time("2026-11-29T02:00:00", 2, SB_TIME_NO_OFFSET, 0, __FILE__,
	           __LINE__);
}

/* Text that is not an RFC 3339 date-time. */
static void parse_rejects_syntax(void **state)
{
	static const char *const bad[] = {
		"",
		"2026-11-29",
		"2026-11-29T",
		"2026-11-29T02:00Z",
		"2026-11-29T2:00:00Z",
		"2026-11-29T02:0:00Z",
		"2026-11-29T02:00:0Z",
		"26-11-29T02:00:00Z",
		"02026-11-29T02:00:00Z",
		"+2026-11-29T02:00:00Z",
		"2026/11/29T02:00:00Z",
		"2026-1-29T02:00:00Z",
		"2026-11-9T02:00:00Z",
		"2026-11-29X02:00:00Z",
		"2026-11-29_02:00:00Z",
		"2026-11-29T02:00:00.Z",
		"2026-11-29T02:00:00,5Z",
		"2026-11-29T02:00:00Zjunk",
		"2026-11-29T02:00:00Z ",
		" 2026-11-29T02:00:00Z",
		"2026-11-29T02:00:00+0200",
		"2026-11-29T02:00:00+02",
		"2026-11-29T02:00:00+2:00",
		"2026-11-29T02:00:00+02:00:00",
		"2026-11-29T02:00:00GMT",
		"2026-11-29T02:00:00UTC",
		"2026-11-29T02:00:00 Z",
		"2026-11-29T02:00:00ZZ",
		"2026-11-29T02:00:00.125.5Z",
		"2026-11-29T02:00:00-",
		"2026-11-29T02-00-00Z",
		"2026-11-29T02:00:00\n",
		"1764381600",
		"now",
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_time_fails(bad[i], SB_TIME_SYNTAX);
}

/* The length bounds the text: what lies past it is not read. */
static void parse_respects_length(void **state)
{
	int64_t ms = UNTOUCHED;

	(void)state;
	assert_int_equal(sb_time_parse("2026-11-29T02:00:00Zjunk", 20, 0, &ms),
	                 SB_TIME_OK);
	assert_int_equal(ms, NOV29_2AM_MS);
	assert_int_equal(sb_time_parse("2026-11-29T02:00:00+02:00", 19, 0, &ms),
	                 SB_TIME_NO_OFFSET);
	assert_int_equal(sb_time_parse("2026-11-29T02:00:00Z", 10, 0, &ms),
	                 SB_TIME_SYNTAX);
	assert_int_equal(sb_date_parse("2026-11-29T02", 10, &ms), SB_TIME_OK);
	assert_int_equal(ms, NOV29_MS);
}

/* Every prefix of a timestamp, copied to a malloc'd buffer of exactly its
 * length (AddressSanitizer catches a read past it; cmocka's test_malloc
 * would pad it), is refused or, where it is a complete date-time,
 * accepted. */
static void parse_reads_nothing_past_length(void **state)
{
	static const char full[] = "2026-11-29T02:00:00.125+02:00";
	int64_t ms;

	(void)state;
	for (size_t len = 0; len < sizeof full - 1; len++) {
		char *copy = malloc(len > 0 ? len : 1);
		bool complete = len == 19 || (len >= 21 && len <= 23);
		int time_rc, date_rc;

		assert_non_null(copy);
		memcpy(copy, full, len);
		time_rc = sb_time_parse(copy, len, SB_TIME_NAIVE_UTC, &ms);
		date_rc = sb_date_parse(copy, len, &ms);
		free(copy);
		assert_int_equal(time_rc, complete ? SB_TIME_OK : SB_TIME_SYNTAX);
		assert_int_equal(date_rc, len == 10 ? SB_TIME_OK : SB_TIME_SYNTAX);
	}
}

/* Calendar dates alone. */
static void date_parse_forms(void **state)
{
	(void)state;
	assert_date("1970-01-01", 0);
	assert_date("2026-11-29", NOV29_MS);
	assert_date("2024-02-29", INT64_C(1709164800000));
	assert_date("1969-12-31", -SB_MS_PER_DAY);
	assert_date_fails("2023-02-29", SB_TIME_RANGE);
	assert_date_fails("1900-02-29", SB_TIME_RANGE);
	assert_date_fails("2026-13-01", SB_TIME_RANGE);
	assert_date_fails("2026-11-00", SB_TIME_RANGE);
	assert_date_fails("2026-11-29T00:00:00Z", SB_TIME_SYNTAX);
	assert_date_fails("2026-11-29 ", SB_TIME_SYNTAX);
	assert_date_fails("2026-1-29", SB_TIME_SYNTAX);
	assert_date_fails("2026-11", SB_TIME_SYNTAX);
	assert_date_fails("20261129", SB_TIME_SYNTAX);
	assert_date_fails("", SB_TIME_SYNTAX);
}

/* Known dates, and civil_from_ms inverting days_from_civil day by day
 * across leap years, centuries and the epoch. */
static void civil_arithmetic(void **state)
{
	int64_t year;
	int month, day;
	int64_t expect_year = -1000;
	int expect_month = 1, expect_day = 1;
	int64_t first = sb_days_from_civil_ms(-1000, 1, 1) / SB_MS_PER_DAY;
	int64_t last = sb_days_from_civil_ms(3000, 1, 1) / SB_MS_PER_DAY;

	(void)state;
	assert_int_equal(sb_days_from_civil_ms(1970, 1, 1), 0);
	assert_int_equal(sb_days_from_civil_ms(2000, 3, 1),
	                 11017 * SB_MS_PER_DAY);
	assert_int_equal(sb_days_from_civil_ms(2026, 11, 29), NOV29_MS);
	assert_int_equal(sb_days_from_civil_ms(1969, 12, 31), -SB_MS_PER_DAY);

	sb_civil_from_ms(-1, &year, &month, &day);
	assert_int_equal(year, 1969);
	assert_int_equal(month, 12);
	assert_int_equal(day, 31);
	sb_civil_from_ms(-SB_MS_PER_DAY, &year, &month, &day);
	assert_int_equal(day, 31);
	sb_civil_from_ms(-SB_MS_PER_DAY - 1, &year, &month, &day);
	assert_int_equal(day, 30);
	sb_civil_from_ms(NOV29_2AM_MS, &year, &month, &day);
	assert_int_equal(year, 2026);
	assert_int_equal(month, 11);
	assert_int_equal(day, 29);

	for (int64_t days = first; days < last; days++) {
		int64_t ms = days * SB_MS_PER_DAY;
		bool leap;
		int month_days;

		sb_civil_from_ms(ms + 12345, &year, &month, &day);
		if (year != expect_year || month != expect_month
		    || day != expect_day)
			fail_msg("day %" PRId64 " is %" PRId64 "-%d-%d, want %" PRId64
			         "-%d-%d", days, year, month, day, expect_year,
			         expect_month, expect_day);
		assert_int_equal(sb_days_from_civil_ms(year, month, day), ms);
		leap = (expect_year % 4 == 0 && expect_year % 100 != 0)
		       || expect_year % 400 == 0;
		month_days = expect_month == 2 ? (leap ? 29 : 28)
		           : (expect_month == 4 || expect_month == 6
		              || expect_month == 9 || expect_month == 11) ? 30 : 31;
		if (++expect_day > month_days) {
			expect_day = 1;
			if (++expect_month > 12) {
				expect_month = 1;
				expect_year++;
			}
		}
	}
	assert_int_equal(expect_year, 3000);
}

/* Output is UTC with 'Z', milliseconds only when not zero. */
static void format_timestamps(void **state)
{
	char buf[SB_TIME_BUFSZ];

	(void)state;
	assert_string_equal(sb_time_format(0, buf), "1970-01-01T00:00:00Z");
	assert_string_equal(sb_time_format(NOV29_2AM_MS, buf),
	                    "2026-11-29T02:00:00Z");
	assert_string_equal(sb_time_format(NOV29_MS + 125, buf),
	                    "2026-11-29T00:00:00.125Z");
	assert_string_equal(sb_time_format(NOV29_MS + 5, buf),
	                    "2026-11-29T00:00:00.005Z");
	assert_string_equal(sb_time_format(NOV29_MS + 1, buf),
	                    "2026-11-29T00:00:00.001Z");
	assert_string_equal(sb_time_format(NOV29_MS + SB_MS_PER_DAY - 1, buf),
	                    "2026-11-29T23:59:59.999Z");
	assert_string_equal(sb_time_format(-1, buf), "1969-12-31T23:59:59.999Z");
	assert_string_equal(sb_time_format(INT64_C(-62135596800000), buf),
	                    "0001-01-01T00:00:00Z");
	assert_string_equal(sb_time_format(INT64_C(1709210096000), buf),
	                    "2024-02-29T12:34:56Z");
	assert_ptr_equal(sb_time_format(0, buf), buf);
}

/* The day holding an instant, before and after the epoch. */
static void format_dates(void **state)
{
	char buf[SB_TIME_BUFSZ];

	(void)state;
	assert_string_equal(sb_date_format(0, buf), "1970-01-01");
	assert_string_equal(sb_date_format(NOV29_2AM_MS, buf), "2026-11-29");
	assert_string_equal(sb_date_format(NOV29_MS - 1, buf), "2026-11-28");
	assert_string_equal(sb_date_format(-1, buf), "1969-12-31");
	assert_string_equal(sb_date_format(INT64_C(951782400000), buf),
	                    "2000-02-29");
	assert_ptr_equal(sb_date_format(0, buf), buf);
	/* the ends of the years a timestamp can have, and one past each */
	assert_string_equal(sb_date_format(sb_days_from_civil_ms(0, 1, 1), buf), "0000-01-01");
	assert_string_equal(sb_date_format(sb_days_from_civil_ms(0, 1, 1) - 1, buf), "-001-12-31");
	assert_string_equal(sb_date_format(sb_days_from_civil_ms(10000, 1, 1) - 1, buf), "9999-12-31");
	assert_string_equal(sb_date_format(sb_days_from_civil_ms(10000, 1, 1), buf), "10000-01-01");
	assert_string_equal(sb_date_format(sb_days_from_civil_ms(1000, 10, 9), buf), "1000-10-09");
}

/* Formatting an instant and parsing it back gives the same instant. */
static void format_parse_round_trip(void **state)
{
	static const int64_t values[] = {
		0, 1, -1, 999, NOV29_2AM_MS + 7, INT64_C(-14182940000),
		INT64_C(253402300799999), INT64_C(951782400000) - 1,
		INT64_C(-62167219200000)
	};
	char buf[SB_TIME_BUFSZ];
	int64_t ms;

	(void)state;
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		sb_time_format(values[i], buf);
		assert_int_equal(sb_time_parse(buf, strlen(buf), 0, &ms),
		                 SB_TIME_OK);
		assert_int_equal(ms, values[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_utc),
		cmocka_unit_test(parse_offsets),
		cmocka_unit_test(parse_calendar_edges),
		cmocka_unit_test(parse_fractions),
		cmocka_unit_test(parse_before_epoch),
		cmocka_unit_test(parse_validates_days),
		cmocka_unit_test(parse_validates_clock),
		cmocka_unit_test(parse_missing_offset),
		cmocka_unit_test(parse_rejects_syntax),
		cmocka_unit_test(parse_respects_length),
		cmocka_unit_test(parse_reads_nothing_past_length),
		cmocka_unit_test(date_parse_forms),
		cmocka_unit_test(civil_arithmetic),
		cmocka_unit_test(format_timestamps),
		cmocka_unit_test(format_dates),
		cmocka_unit_test(format_parse_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
