/* test_period.c: --period values and their names (ledger/period.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ledger/period.h"
#include "ledger/timefmt.h"

#define HOUR_MS INT64_C(3600000)
#define FORMS "(use 2026, 2026-11, 2026-11-29, FROM..TO, today, yesterday, " \
              "this-month or last-month)"

/* The UTC midnight starting a date. */
static int64_t midnight(int64_t year, int month, int day)
{
	return sb_days_from_civil_ms(year, month, day);
}

/* 2026-11-29T15:30:00Z, the "now" of most tests. */
static int64_t now_nov29(void)
{
	return midnight(2026, 11, 29) + 15 * HOUR_MS + 30 * 60000;
}

/* Parse text at now_ms and fail at the caller's line unless it gives
 * [from_ms, to_ms) with no error. */
static void check_period(const char *text, int64_t now_ms, int64_t from_ms,
                         int64_t to_ms, const char *file, int line)
{
	sb_period period = {-1, -1};
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_period_parse(text, now_ms, &period, &e);
	if (rc != SB_OK || e.code != SB_OK || period.from_ms != from_ms
	    || period.to_ms != to_ms) {
		print_error("sb_period_parse(\"%s\") gave rc %d [%" PRId64 ", %"
		            PRId64 ") \"%s\", want [%" PRId64 ", %" PRId64 ")\n",
		            text, rc, period.from_ms, period.to_ms, e.msg, from_ms,
		            to_ms);
		_fail(file, line);
	}
}

#define assert_period(text, now_ms, from_ms, to_ms) \
	check_period(text, now_ms, from_ms, to_ms, __FILE__, __LINE__)

/* Parse text and fail at the caller's line unless it is refused with
 * SB_EUSAGE, a message starting "period 'TEXT' is " + problem and ending
 * with the accepted forms, and *out untouched. */
static void check_refused(const char *text, const char *problem,
                          const char *file, int line)
{
	sb_period period = {-1, -1};
	char want[SB_ERR_MSG_MAX];
	sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_period_parse(text, now_nov29(), &period, &e);
	snprintf(want, sizeof want, "period '%s' is %s", text, problem);
	if (rc != SB_EUSAGE || e.code != SB_EUSAGE
	    || strncmp(e.msg, want, strlen(want)) != 0
	    || strlen(e.msg) < strlen(FORMS)
	    || strcmp(e.msg + strlen(e.msg) - strlen(FORMS), FORMS) != 0
	    || period.from_ms != -1 || period.to_ms != -1) {
		print_error("sb_period_parse(\"%s\") gave rc %d [%" PRId64 ", %"
		            PRId64 ") \"%s\", want refusal \"%s...%s\"\n", text, rc,
		            period.from_ms, period.to_ms, e.msg, want, FORMS);
		_fail(file, line);
	}
}

#define assert_not_understood(text) \
	check_refused(text, "not understood", __FILE__, __LINE__)
#define assert_empty(text) \
	check_refused(text, "empty", __FILE__, __LINE__)

/* Name p and fail at the caller's line unless the name is want and parses
 * back to p. */
static void check_name(sb_period p, const char *want, const char *file,
                       int line)
{
	char buf[96];
	sb_period back = {-1, -1};
	sb_err e;

	sb_err_clear(&e);
	if (sb_period_name(&p, buf) != buf || strcmp(buf, want) != 0
	    || sb_period_parse(buf, 0, &back, &e) != SB_OK
	    || back.from_ms != p.from_ms || back.to_ms != p.to_ms) {
		print_error("sb_period_name([%" PRId64 ", %" PRId64 ")) gave \"%s\""
		            ", want \"%s\" (parsed back: [%" PRId64 ", %" PRId64
		            ") %s)\n", p.from_ms, p.to_ms, buf, want, back.from_ms,
		            back.to_ms, e.msg);
		_fail(file, line);
	}
}

#define assert_name(from_ms, to_ms, want) \
	check_name((sb_period){from_ms, to_ms}, want, __FILE__, __LINE__)

/* Whole UTC years, leap or not. */
static void years(void **state)
{
	(void)state;
	assert_period("2026", 0, midnight(2026, 1, 1), midnight(2027, 1, 1));
	assert_period("2024", 0, midnight(2024, 1, 1),
	              midnight(2024, 1, 1) + 366 * SB_MS_PER_DAY);
	assert_period("1970", 0, 0, 365 * SB_MS_PER_DAY);
	assert_period("1969", 0, -365 * SB_MS_PER_DAY, 0);
}

/* Whole UTC months, December running into the next year. */
static void months(void **state)
{
	(void)state;
	assert_period("2026-11", 0, midnight(2026, 11, 1), midnight(2026, 12, 1));
	assert_period("2026-12", 0, midnight(2026, 12, 1), midnight(2027, 1, 1));
	assert_period("2026-01", 0, midnight(2026, 1, 1), midnight(2026, 2, 1));
	assert_period("2024-02", 0, midnight(2024, 2, 1),
	              midnight(2024, 2, 1) + 29 * SB_MS_PER_DAY);
	assert_period("2026-02", 0, midnight(2026, 2, 1),
	              midnight(2026, 2, 1) + 28 * SB_MS_PER_DAY);
}

/* Whole UTC days, the last of a year and of a leap February. */
static void days(void **state)
{
	(void)state;
	assert_period("2026-11-29", 0, midnight(2026, 11, 29),
	              midnight(2026, 11, 30));
	assert_period("2026-12-31", 0, midnight(2026, 12, 31),
	              midnight(2027, 1, 1));
	assert_period("2024-02-29", 0, midnight(2024, 2, 29),
	              midnight(2024, 3, 1));
	assert_period("1969-12-31", 0, -SB_MS_PER_DAY, 0);
}

/* today and yesterday: the UTC day holding now, and the one before. */
static void today_and_yesterday(void **state)
{
	int64_t new_year = midnight(2027, 1, 1);

	(void)state;
	assert_period("today", now_nov29(), midnight(2026, 11, 29),
	              midnight(2026, 11, 30));
	assert_period("yesterday", now_nov29(), midnight(2026, 11, 28),
	              midnight(2026, 11, 29));
	assert_period("today", new_year, new_year, new_year + SB_MS_PER_DAY);
	assert_period("today", new_year - 1, midnight(2026, 12, 31), new_year);
	assert_period("yesterday", new_year, midnight(2026, 12, 31), new_year);
	assert_period("yesterday", midnight(2024, 3, 1) + 5,
	              midnight(2024, 2, 29), midnight(2024, 3, 1));
	assert_period("today", -1, -SB_MS_PER_DAY, 0);
	assert_period("yesterday", -1, -2 * SB_MS_PER_DAY, -SB_MS_PER_DAY);
}

/* this-month and last-month, across year ends and leap Februaries. */
static void this_and_last_month(void **state)
{
	(void)state;
	assert_period("this-month", now_nov29(), midnight(2026, 11, 1),
	              midnight(2026, 12, 1));
	assert_period("last-month", now_nov29(), midnight(2026, 10, 1),
	              midnight(2026, 11, 1));
	assert_period("this-month", midnight(2026, 12, 31) + 1,
	              midnight(2026, 12, 1), midnight(2027, 1, 1));
	assert_period("last-month", midnight(2027, 1, 15), midnight(2026, 12, 1),
	              midnight(2027, 1, 1));
	assert_period("last-month", midnight(2027, 1, 1), midnight(2026, 12, 1),
	              midnight(2027, 1, 1));
	assert_period("this-month", midnight(2027, 1, 1) - 1,
	              midnight(2026, 12, 1), midnight(2027, 1, 1));
	assert_period("last-month", midnight(2024, 3, 31), midnight(2024, 2, 1),
	              midnight(2024, 3, 1));
	assert_period("this-month", midnight(2026, 2, 10), midnight(2026, 2, 1),
	              midnight(2026, 3, 1));
	assert_period("last-month", -1, midnight(1969, 11, 1),
	              midnight(1969, 12, 1));
}

/* FROM..TO with dates, months, years, timestamps and mixes of them. */
static void from_to(void **state)
{
	int64_t two_am = midnight(2026, 11, 29) + 2 * HOUR_MS;

	(void)state;
	assert_period("2026-11-01..2026-12-01", 0, midnight(2026, 11, 1),
	              midnight(2026, 12, 1));
	assert_period("2026-11-01..2026-11-02", 0, midnight(2026, 11, 1),
	              midnight(2026, 11, 2));
	assert_period("2026..2027", 0, midnight(2026, 1, 1),
	              midnight(2027, 1, 1));
	assert_period("2026..2028", 0, midnight(2026, 1, 1),
	              midnight(2028, 1, 1));
	assert_period("2026-11..2027-02", 0, midnight(2026, 11, 1),
	              midnight(2027, 2, 1));
	assert_period("2026-11-29T02:00:00Z..2026-11-29T04:00:00+01:00", 0,
	              two_am, two_am + HOUR_MS);
	assert_period("2026-11-29T02:00:00.125Z..2026-11-29T02:00:00.126Z", 0,
	              two_am + 125, two_am + 126);
	assert_period("2026-11-29..2026-11-29T12:00:00Z", 0,
	              midnight(2026, 11, 29), midnight(2026, 11, 29) + 12 * HOUR_MS);
	assert_period("2026-11-29T12:00:00.5z..2026-12", 0,
	              midnight(2026, 11, 29) + 12 * HOUR_MS + 500,
	              midnight(2026, 12, 1));
	assert_period("2026..2026-02-01", 0, midnight(2026, 1, 1),
	              midnight(2026, 2, 1));
	assert_period("2026-11-28T23:00:00-01:00..2026-11-30", 0,
	              midnight(2026, 11, 29), midnight(2026, 11, 30));
	assert_period("1969-12-31..1970-01-01", 0, -SB_MS_PER_DAY, 0);
}

/* Text that is no period, and ends that are no instant. */
static void refuses_unknown_forms(void **state)
{
	static const char *const bad[] = {
		"", "xyz", "2026-13", "2026-00", "2026-11-31", "2025-02-29",
		"2026-11-00", "20260", "226", "2026-1", "2026-11-9", "2026/11",
		"202611", "2026-11-29T00:00:00Z", "Today", "TODAY", " today",
		"today ", "tomorrow", "this month", "last_month", "this-year",
		"-2026", "+2026", "2026 ", "..", "2026..", "..2026", "2026...2027",
		"2026..2027..2028", "2026..today", "today..2027", "2026-13..2027",
		"2026-11-29T25:00:00Z..2026-12", "2026.11", "2026-11-29T00:00Z..2027",
		"2026..2027 ", "2026.2027",
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_not_understood(bad[i]);
}

/* The exact message for an unknown form, and a NULL text. */
static void refusal_message(void **state)
{
	sb_period period = {-1, -1};
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_period_parse("xyz", 0, &period, &e), SB_EUSAGE);
	assert_string_equal(e.msg, "period 'xyz' is not understood " FORMS);
	sb_err_clear(&e);
	assert_int_equal(sb_period_parse(NULL, 0, &period, &e), SB_EUSAGE);
	assert_string_equal(e.msg, "period '' is not understood " FORMS);
	assert_int_equal(period.from_ms, -1);
}

/* A timestamp end without an offset is refused, saying why. */
static void refuses_end_without_offset(void **state)
{
	(void)state;
	assert_not_understood("2026-11-29T00:00:00..2026-11-30");
	assert_not_understood("2026-11-29..2026-11-29T12:00:00");
	check_refused("2026-11-29T00:00:00..2026-11-30",
	              "not understood: a timestamp needs an offset", __FILE__,
	              __LINE__);
}

/* TO at or before FROM is an empty period. */
static void refuses_empty(void **state)
{
	(void)state;
	assert_empty("2027..2026");
	assert_empty("2026-11-29..2026-11-29");
	assert_empty("2026-11-30..2026-11-29");
	assert_empty("2026-11..2026-11-01");
	assert_empty("2026-12..2026-11-30T23:59:59.999Z");
	assert_empty("2026-11-29T02:00:00Z..2026-11-29T03:00:00+01:00");
	assert_empty("2026-11-29T02:00:00.001Z..2026-11-29T02:00:00Z");
}

/* Names: a year, month or day when the period is exactly one, else
 * FROM..TO; every name parses back to its period. */
static void names(void **state)
{
	int64_t two_am = midnight(2026, 11, 29) + 2 * HOUR_MS;

	(void)state;
	assert_name(midnight(2026, 1, 1), midnight(2027, 1, 1), "2026");
	assert_name(midnight(2024, 1, 1), midnight(2025, 1, 1), "2024");
	assert_name(midnight(2026, 11, 1), midnight(2026, 12, 1), "2026-11");
	assert_name(midnight(2026, 12, 1), midnight(2027, 1, 1), "2026-12");
	assert_name(midnight(2026, 1, 1), midnight(2026, 2, 1), "2026-01");
	assert_name(midnight(2024, 2, 1), midnight(2024, 3, 1), "2024-02");
	assert_name(midnight(2026, 11, 29), midnight(2026, 11, 30), "2026-11-29");
	assert_name(midnight(2026, 12, 31), midnight(2027, 1, 1), "2026-12-31");
	assert_name(midnight(2026, 12, 1), midnight(2026, 12, 2), "2026-12-01");
	assert_name(-SB_MS_PER_DAY, 0, "1969-12-31");
	assert_name(midnight(2026, 11, 1), midnight(2026, 11, 15),
	            "2026-11-01..2026-11-15");
	assert_name(midnight(2026, 1, 1), midnight(2028, 1, 1),
	            "2026-01-01..2028-01-01");
	assert_name(midnight(2026, 11, 1), midnight(2027, 1, 1),
	            "2026-11-01..2027-01-01");
	assert_name(midnight(2026, 11, 2), midnight(2026, 12, 2),
	            "2026-11-02..2026-12-02");
	assert_name(two_am, two_am + HOUR_MS,
	            "2026-11-29T02:00:00Z..2026-11-29T03:00:00Z");
	assert_name(midnight(2026, 11, 29), midnight(2026, 11, 29) + 12 * HOUR_MS
	            + 500, "2026-11-29..2026-11-29T12:00:00.500Z");
	assert_name(two_am, two_am + SB_MS_PER_DAY,
	            "2026-11-29T02:00:00Z..2026-11-30T02:00:00Z");
}

/* The name of what the relative words give on a given day. */
static void names_of_relative_periods(void **state)
{
	sb_period period;
	sb_err e;
	char buf[96];

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_period_parse("last-month", midnight(2027, 1, 5),
	                                 &period, &e), SB_OK);
	assert_string_equal(sb_period_name(&period, buf), "2026-12");
	assert_int_equal(sb_period_parse("yesterday", midnight(2027, 1, 1),
	                                 &period, &e), SB_OK);
	assert_string_equal(sb_period_name(&period, buf), "2026-12-31");
	assert_int_equal(sb_period_parse("this-month", now_nov29(), &period, &e),
	                 SB_OK);
	assert_string_equal(sb_period_name(&period, buf), "2026-11");
	assert_int_equal(e.code, SB_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(years),
		cmocka_unit_test(months),
		cmocka_unit_test(days),
		cmocka_unit_test(today_and_yesterday),
		cmocka_unit_test(this_and_last_month),
		cmocka_unit_test(from_to),
		cmocka_unit_test(refuses_unknown_forms),
		cmocka_unit_test(refusal_message),
		cmocka_unit_test(refuses_end_without_offset),
		cmocka_unit_test(refuses_empty),
		cmocka_unit_test(names),
		cmocka_unit_test(names_of_relative_periods),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
