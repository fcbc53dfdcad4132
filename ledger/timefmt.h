/* timefmt.h: timestamps as int64 milliseconds since the Unix epoch, UTC.
 *
 * Input is RFC 3339 (2026-11-29T02:00:00Z, 2026-11-29T02:00:00.125+02:00);
 * an offset is required unless the caller says the format is UTC without
 * one (Modal's naive times).  Output is RFC 3339 in UTC with 'Z'.
 * Nothing here allocates.
 */
#ifndef SB_TIMEFMT_H
#define SB_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

#define SB_MS_PER_DAY INT64_C(86400000)

/* Flags for sb_time_parse. */
enum {
	SB_TIME_NAIVE_UTC = 1   /* a timestamp without offset is UTC (Modal) */
};

/* Result of sb_time_parse. */
enum sb_time_rc {
	SB_TIME_OK = 0,
	SB_TIME_SYNTAX = -1,     /* not an RFC 3339 date-time */
	SB_TIME_NO_OFFSET = -2,  /* well formed but no offset, and not allowed */
	SB_TIME_RANGE = -3,      /* a field out of range (month 13, Feb 30, 25:00) */
	SB_TIME_OUTSIDE = -4     /* valid, but its UTC instant is outside the calendar
	                            (SB_TIME_MIN_MS .. SB_TIME_MAX_MS) */
};

/* The calendar every stored time lies in: 0000-01-01T00:00:00.000Z ..
 * 9999-12-31T23:59:59.999Z, both included.  A time an offset pushes
 * outside (0000-01-01T00:30:00+01:00) would land on a day of year -1 or
 * 10000, which no period written with four-digit years holds, so that
 * one report counted it and another not. */
#define SB_TIME_MIN_MS INT64_C(-62167219200000)
#define SB_TIME_MAX_MS INT64_C(253402300799999)

/* What a message says of a time sb_time_parse found SB_TIME_OUTSIDE,
 * after the field's name and text. */
#define SB_TIME_OUTSIDE_WORDS "is outside the calendar once in UTC (0000-01-01T00:00:00Z .. 9999-12-31T23:59:59.999Z)"

/* True when ms lies in the calendar (SB_TIME_MIN_MS .. SB_TIME_MAX_MS). */
int sb_time_in_calendar(int64_t ms);

/* Parse an RFC 3339 date-time s[0..len) into UTC milliseconds.
 * Form: YYYY-MM-DD('T'|'t'|' ')hh:mm:ss[.frac](Z|z|+hh:mm|-hh:mm).
 * The fraction may have any number of digits; digits past the third are
 * dropped (truncated toward the earlier millisecond).  Leap seconds (:60)
 * are out of range.  With SB_TIME_NAIVE_UTC a missing offset means UTC.
 * A time whose UTC instant falls outside the calendar is SB_TIME_OUTSIDE.
 * Returns an sb_time_rc; *ms_out is written only on success. */
int sb_time_parse(const char *s, size_t len, int flags, int64_t *ms_out);

/* Parse a calendar date "YYYY-MM-DD" into the UTC midnight starting it.
 * Same return codes as sb_time_parse. */
int sb_date_parse(const char *s, size_t len, int64_t *ms_out);

/* Milliseconds of 00:00:00Z on the given proleptic Gregorian date
 * (month 1..12, day 1..31; no range check). */
int64_t sb_days_from_civil_ms(int64_t year, int month, int day);

/* Break UTC milliseconds into a civil date (the day holding ms; floors
 * for times before the epoch). */
void sb_civil_from_ms(int64_t ms, int64_t *year, int *month, int *day);

/* The UTC midnight starting the day that holds ms (floors before 1970). */
int64_t sb_day_start(int64_t ms);

/* Longest text sb_time_format writes, with its NUL. */
#define SB_TIME_BUFSZ 40

/* Format ms as RFC 3339 UTC: "2026-11-29T02:00:00Z", with ".125" before
 * the 'Z' only when the milliseconds are not zero.  Returns buf. */
char *sb_time_format(int64_t ms, char buf[SB_TIME_BUFSZ]);

/* Format the UTC day holding ms as "YYYY-MM-DD".  Returns buf. */
char *sb_date_format(int64_t ms, char buf[SB_TIME_BUFSZ]);

#endif
