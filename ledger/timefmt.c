/* timefmt.c: RFC 3339 parsing and formatting over UTC milliseconds (see
 * timefmt.h).  Date arithmetic is Howard Hinnant's days-from-civil and
 * civil-from-days, exact for the proleptic Gregorian calendar. */
#include "ledger/timefmt.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

/* True when c is an ASCII decimal digit. */
static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Read exactly n digits at s[*pos] into *value and advance *pos; false
 * when there are fewer than n digits there. */
static bool read_digits(const char *s, size_t len, size_t *pos, int n,
                        int *value)
{
	int acc = 0;

	for (int k = 0; k < n; k++) {
		if (*pos >= len || !is_digit(s[*pos]))
			return false;
		acc = acc * 10 + (s[*pos] - '0');
		(*pos)++;
	}
	*value = acc;
	return true;
}

/* True when s[*pos] is c; advances *pos past it. */
static bool read_char(const char *s, size_t len, size_t *pos, char c)
{
	if (*pos >= len || s[*pos] != c)
		return false;
	(*pos)++;
	return true;
}

/* True for a Gregorian leap year. */
static bool is_leap_year(int year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/* Number of days in the month (1..12) of the year. */
static int days_in_month(int year, int month)
{
	static const int days[12] = {31, 28, 31, 30, 31, 30,
	                             31, 31, 30, 31, 30, 31};

	if (month == 2 && is_leap_year(year))
		return 29;
	return days[month - 1];
}

/* A calendar date read from text. */
struct civil_date {
	int year;   /* 0000..9999 */
	int month;  /* 1..12 once checked */
	int day;    /* 1..31 once checked */
};

/* Read "YYYY-MM-DD" at s[*pos], advancing *pos; false on a syntax error.
 * The fields are not range checked. */
static bool read_date(const char *s, size_t len, size_t *pos,
                      struct civil_date *date)
{
	return read_digits(s, len, pos, 4, &date->year)
	       && read_char(s, len, pos, '-')
	       && read_digits(s, len, pos, 2, &date->month)
	       && read_char(s, len, pos, '-')
	       && read_digits(s, len, pos, 2, &date->day);
}

/* True when the month and the day exist in the year. */
static bool date_in_range(const struct civil_date *date)
{
	return date->month >= 1 && date->month <= 12 && date->day >= 1
	       && date->day <= days_in_month(date->year, date->month);
}

/* Parse "YYYY-MM-DDThh:mm:ss[.frac](Z|+hh:mm|-hh:mm)": first the whole
 * syntax, then the ranges of the fields, then whether an offset is
 * missing; the fraction keeps its first three digits. */
int sb_time_parse(const char *s, size_t len, int flags, int64_t *ms_out)
{
	struct civil_date date;
	size_t pos = 0;
	int hour, minute, second;
	int frac_ms = 0;
	bool has_offset = true;
	int offset_sign = 0;
	int offset_hour = 0, offset_minute = 0;
	int64_t ms;

	if (!read_date(s, len, &pos, &date))
		return SB_TIME_SYNTAX;
	if (pos >= len || (s[pos] != 'T' && s[pos] != 't' && s[pos] != ' '))
		return SB_TIME_SYNTAX;
	pos++;
	if (!read_digits(s, len, &pos, 2, &hour)
	    || !read_char(s, len, &pos, ':')
	    || !read_digits(s, len, &pos, 2, &minute)
	    || !read_char(s, len, &pos, ':')
	    || !read_digits(s, len, &pos, 2, &second))
		return SB_TIME_SYNTAX;
	if (read_char(s, len, &pos, '.')) {
		size_t frac_start = pos;
		int scale = 100;

		for (; pos < len && is_digit(s[pos]); pos++) {
			frac_ms += (s[pos] - '0') * scale;
			scale /= 10;
		}
		if (pos == frac_start)
			return SB_TIME_SYNTAX;
	}
	if (pos == len) {
		has_offset = false;
	} else if (s[pos] == 'Z' || s[pos] == 'z') {
		pos++;
	} else if (s[pos] == '+' || s[pos] == '-') {
		offset_sign = s[pos] == '+' ? 1 : -1;
		pos++;
		if (!read_digits(s, len, &pos, 2, &offset_hour)
		    || !read_char(s, len, &pos, ':')
		    || !read_digits(s, len, &pos, 2, &offset_minute))
			return SB_TIME_SYNTAX;
	} else {
		return SB_TIME_SYNTAX;
	}
	if (pos != len)
		return SB_TIME_SYNTAX;

	if (!date_in_range(&date) || hour > 23 || minute > 59 || second > 59
	    || offset_hour > 23 || offset_minute > 59)
		return SB_TIME_RANGE;
	if (!has_offset && !(flags & SB_TIME_NAIVE_UTC))
		return SB_TIME_NO_OFFSET;

	ms = sb_days_from_civil_ms(date.year, date.month, date.day)
	     + ((int64_t)hour * 3600 + minute * 60 + second) * 1000 + frac_ms
	     - (int64_t)offset_sign * (offset_hour * 60 + offset_minute) * 60000;
	if (!sb_time_in_calendar(ms))
		return SB_TIME_OUTSIDE;
	*ms_out = ms;
	return SB_TIME_OK;
}

int sb_time_in_calendar(int64_t ms)
{
	return ms >= SB_TIME_MIN_MS && ms <= SB_TIME_MAX_MS;
}

/* Parse exactly "YYYY-MM-DD" into its UTC midnight. */
int sb_date_parse(const char *s, size_t len, int64_t *ms_out)
{
	struct civil_date date;
	size_t pos = 0;

	if (!read_date(s, len, &pos, &date) || pos != len)
		return SB_TIME_SYNTAX;
	if (!date_in_range(&date))
		return SB_TIME_RANGE;
	*ms_out = sb_days_from_civil_ms(date.year, date.month, date.day);
	return SB_TIME_OK;
}

/* Days from 1970-01-01 to the date (Hinnant's days_from_civil: count in
 * 400-year eras of years starting on March 1), times a day's ms. */
int64_t sb_days_from_civil_ms(int64_t year, int month, int day)
{
	int64_t era;
	int64_t year_of_era;
	int64_t day_of_year;
	int64_t day_of_era;

	year -= month <= 2;
	era = (year >= 0 ? year : year - 399) / 400;
	year_of_era = year - era * 400;
	day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5
	              + day - 1;
	day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100
	             + day_of_year;
	return (era * 146097 + day_of_era - 719468) * SB_MS_PER_DAY;
}

/* The date holding ms: floor ms to whole days since the epoch, then
 * Hinnant's civil_from_days. */
void sb_civil_from_ms(int64_t ms, int64_t *year, int *month, int *day)
{
	int64_t days = ms / SB_MS_PER_DAY;
	int64_t era;
	int64_t day_of_era;
	int64_t year_of_era;
	int64_t day_of_year;
	int64_t month_from_march;

	if (ms % SB_MS_PER_DAY < 0)
		days--;
	days += 719468;
	era = (days >= 0 ? days : days - 146096) / 146097;
	day_of_era = days - era * 146097;
	year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524
	               - day_of_era / 146096) / 365;
	day_of_year = day_of_era
	              - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
	month_from_march = (5 * day_of_year + 2) / 153;
	*day = (int)(day_of_year - (153 * month_from_march + 2) / 5 + 1);
	*month = (int)(month_from_march < 10 ? month_from_march + 3
	                                      : month_from_march - 9);
	*year = year_of_era + era * 400 + (*month <= 2);
}

int64_t sb_day_start(int64_t ms)
{
	int64_t rem = ms % SB_MS_PER_DAY;

	return rem < 0 ? ms - rem - SB_MS_PER_DAY : ms - rem;
}

/* "YYYY-MM-DDThh:mm:ss[.mmm]Z" for ms. */
char *sb_time_format(int64_t ms, char buf[SB_TIME_BUFSZ])
{
	int64_t year;
	int month, day;
	int64_t in_day = ms - sb_day_start(ms);
	int millis = (int)(in_day % 1000);
	int seconds = (int)(in_day / 1000);

	sb_civil_from_ms(ms, &year, &month, &day);
	if (millis != 0)
		snprintf(buf, SB_TIME_BUFSZ,
		         "%04" PRId64 "-%02d-%02dT%02d:%02d:%02d.%03dZ", year,
		         month, day, seconds / 3600, seconds / 60 % 60,
		         seconds % 60, millis);
	else
		snprintf(buf, SB_TIME_BUFSZ,
		         "%04" PRId64 "-%02d-%02dT%02d:%02d:%02dZ", year, month,
		         day, seconds / 3600, seconds / 60 % 60, seconds % 60);
	return buf;
}

/* "YYYY-MM-DD" for the UTC day holding ms. */
char *sb_date_format(int64_t ms, char buf[SB_TIME_BUFSZ])
{
	int64_t year;
	int month, day;

	sb_civil_from_ms(ms, &year, &month, &day);
	/* the years a timestamp can have (0000 to 9999) by hand: the run
	 * writer formats one date per run */
	if (year >= 0 && year <= 9999) {
		buf[0] = (char)('0' + year / 1000);
		buf[1] = (char)('0' + year / 100 % 10);
		buf[2] = (char)('0' + year / 10 % 10);
		buf[3] = (char)('0' + year % 10);
		buf[4] = '-';
		buf[5] = (char)('0' + month / 10);
		buf[6] = (char)('0' + month % 10);
		buf[7] = '-';
		buf[8] = (char)('0' + day / 10);
		buf[9] = (char)('0' + day % 10);
		buf[10] = '\0';
		return buf;
	}
	snprintf(buf, SB_TIME_BUFSZ, "%04" PRId64 "-%02d-%02d", year, month, day);
	return buf;
}
