/* period.c: --period values as half-open UTC millisecond ranges (see
 * period.h and docs/rules.md). */
#include "ledger/period.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ledger/timefmt.h"

#define PERIOD_FORMS "use 2026, 2026-11, 2026-11-29, FROM..TO, today, " \
                     "yesterday, this-month or last-month"

/* True when s[0..n) are all ASCII decimal digits. */
static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* The value of the n digits at s (n small enough for an int). */
static int digits_value(const char *s, size_t n)
{
	int value = 0;

	for (size_t i = 0; i < n; i++)
		value = value * 10 + (s[i] - '0');
	return value;
}

/* The month [from, to) starting on the first of month in year, where
 * month may run one past either end of 1..12. */
static void month_span(int64_t year, int month, sb_period *span)
{
	if (month < 1) {
		month += 12;
		year--;
	} else if (month > 12) {
		month -= 12;
		year++;
	}
	span->from_ms = sb_days_from_civil_ms(year, month, 1);
	span->to_ms = month == 12 ? sb_days_from_civil_ms(year + 1, 1, 1)
	                          : sb_days_from_civil_ms(year, month + 1, 1);
}

/* Parse a calendar period "YYYY", "YYYY-MM" or "YYYY-MM-DD" from s[0..len)
 * into the span it names; false when s is none of them or names no real
 * month or day. */
static bool parse_calendar(const char *s, size_t len, sb_period *span)
{
	int64_t day_ms;

	if (len == 4 && all_digits(s, 4)) {
		int year = digits_value(s, 4);

		span->from_ms = sb_days_from_civil_ms(year, 1, 1);
		span->to_ms = sb_days_from_civil_ms(year + 1, 1, 1);
		return true;
	}
	if (len == 7 && all_digits(s, 4) && s[4] == '-' && all_digits(s + 5, 2)) {
		int month = digits_value(s + 5, 2);

		if (month < 1 || month > 12)
			return false;
		month_span(digits_value(s, 4), month, span);
		return true;
	}
	if (len == 10 && sb_date_parse(s, len, &day_ms) == SB_TIME_OK) {
		span->from_ms = day_ms;
		span->to_ms = day_ms + SB_MS_PER_DAY;
		return true;
	}
	return false;
}

/* Parse one end of FROM..TO into the instant that starts it: a calendar
 * period's first millisecond, or an RFC 3339 timestamp (offset required).
 * Returns an sb_time_rc. */
static int parse_end(const char *s, size_t len, int64_t *ms)
{
	sb_period span;

	if (parse_calendar(s, len, &span)) {
		*ms = span.from_ms;
		return SB_TIME_OK;
	}
	return sb_time_parse(s, len, 0, ms);
}

/* Parse a period: the relative words, FROM..TO split at the first "..",
 * or a calendar year, month or day. */
int sb_period_parse(const char *text, int64_t now_ms, sb_period *out, sb_err *e)
{
	const char *dots;
	sb_period span;
	int64_t year;
	int month, day;

	if (text == NULL)
		text = "";
	if (strcmp(text, "today") == 0 || strcmp(text, "yesterday") == 0) {
		span.from_ms = sb_day_start(now_ms);
		if (text[0] == 'y')
			span.from_ms -= SB_MS_PER_DAY;
		span.to_ms = span.from_ms + SB_MS_PER_DAY;
	} else if (strcmp(text, "this-month") == 0
	           || strcmp(text, "last-month") == 0) {
		sb_civil_from_ms(now_ms, &year, &month, &day);
		month_span(year, text[0] == 'l' ? month - 1 : month, &span);
	} else if ((dots = strstr(text, "..")) != NULL) {
		size_t from_len = (size_t)(dots - text);
		const char *to_text = dots + 2;
		int from_rc = parse_end(text, from_len, &span.from_ms);
		int to_rc = parse_end(to_text, strlen(to_text), &span.to_ms);

		if (from_rc == SB_TIME_NO_OFFSET || to_rc == SB_TIME_NO_OFFSET)
			return sb_fail(e, SB_EUSAGE,
			               "period '%s' is not understood: a timestamp "
			               "needs an offset such as Z or +02:00 (%s)",
			               text, PERIOD_FORMS);
		if (from_rc != SB_TIME_OK || to_rc != SB_TIME_OK)
			return sb_fail(e, SB_EUSAGE,
			               "period '%s' is not understood (%s)", text,
			               PERIOD_FORMS);
		if (span.to_ms <= span.from_ms)
			return sb_fail(e, SB_EUSAGE,
			               "period '%s' is empty: TO must come after "
			               "FROM (%s)", text, PERIOD_FORMS);
	} else if (!parse_calendar(text, strlen(text), &span)) {
		return sb_fail(e, SB_EUSAGE, "period '%s' is not understood (%s)",
		               text, PERIOD_FORMS);
	}
	*out = span;
	return SB_OK;
}

/* Write one end of a FROM..TO name: the date at a UTC midnight, else the
 * full timestamp. */
static char *end_name(int64_t ms, char buf[SB_TIME_BUFSZ])
{
	if (ms == sb_day_start(ms))
		return sb_date_format(ms, buf);
	return sb_time_format(ms, buf);
}

/* Name the period: a year, month or day when it is exactly one, else
 * "FROM..TO" from end_name, so that the name parses back to the period. */
char *sb_period_name(const sb_period *p, char buf[96])
{
	char from_text[SB_TIME_BUFSZ];
	char to_text[SB_TIME_BUFSZ];
	int64_t year;
	int month, day;
	sb_period month_of_from;

	sb_civil_from_ms(p->from_ms, &year, &month, &day);
	month_span(year, month, &month_of_from);
	if (p->from_ms == month_of_from.from_ms) {
		if (month == 1 && p->to_ms == sb_days_from_civil_ms(year + 1, 1, 1)) {
			snprintf(buf, 96, "%04" PRId64, year);
			return buf;
		}
		if (p->to_ms == month_of_from.to_ms) {
			snprintf(buf, 96, "%04" PRId64 "-%02d", year, month);
			return buf;
		}
	}
	if (p->from_ms == sb_day_start(p->from_ms)
	    && p->to_ms == p->from_ms + SB_MS_PER_DAY)
		return sb_date_format(p->from_ms, buf);
	snprintf(buf, 96, "%s..%s", end_name(p->from_ms, from_text),
	         end_name(p->to_ms, to_text));
	return buf;
}
