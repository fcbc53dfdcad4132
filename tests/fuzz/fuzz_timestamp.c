/* fuzz_timestamp.c: RFC 3339 timestamps and dates (ledger/timefmt.h).
 *
 * The first byte picks the flags (naive UTC allowed or not); the rest is
 * the text.  A parsed timestamp must format (UTC, 'Z') and parse back to
 * the same millisecond; a parse with SB_TIME_NAIVE_UTC must accept all
 * that one without it accepts, with the same result; a date must be a
 * UTC midnight that formats back to its text.  The last 8 bytes, read as
 * an int64, must survive civil_from_ms and days_from_civil.
 */
#include <string.h>

#include "ledger/timefmt.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int flags = fuzz_byte(&data, &size) & 1 ? SB_TIME_NAIVE_UTC : 0;
	const char *s = (const char *)data;
	char buf[SB_TIME_BUFSZ];
	int64_t ms = 0, again = 0, naive = 0;
	int rc;

	if (size > 256)
		return 0;
	rc = sb_time_parse(s, size, flags, &ms);
	FUZZ_CHECK(rc == SB_TIME_OK || rc == SB_TIME_SYNTAX || rc == SB_TIME_NO_OFFSET ||
	           rc == SB_TIME_RANGE || rc == SB_TIME_OUTSIDE);
	if (rc == SB_TIME_OK) {
		FUZZ_CHECK(sb_time_parse(s, size, SB_TIME_NAIVE_UTC, &naive) == SB_TIME_OK);
		FUZZ_CHECK(naive == ms);
		/* every time taken is inside the calendar, so it formats
		 * with four-digit years and reads back as itself */
		FUZZ_CHECK(sb_time_in_calendar(ms));
		sb_time_format(ms, buf);
		FUZZ_CHECK(sb_time_parse(buf, strlen(buf), 0, &again) == SB_TIME_OK);
		FUZZ_CHECK(again == ms);
	}
	if (rc == SB_TIME_NO_OFFSET)
		FUZZ_CHECK(flags == 0 && sb_time_parse(s, size, SB_TIME_NAIVE_UTC, &naive) == SB_TIME_OK);
	if (sb_date_parse(s, size, &ms) == SB_TIME_OK) {
		FUZZ_CHECK(ms % SB_MS_PER_DAY == 0);
		sb_date_format(ms, buf);
		FUZZ_CHECK(strlen(buf) == size && memcmp(buf, s, size) == 0);
	}
	if (size >= 8) {
		int64_t year;
		int month, day;
		memcpy(&ms, data + size - 8, sizeof ms);
		ms /= 4;   /* keep year arithmetic well inside int64 */
		sb_civil_from_ms(ms, &year, &month, &day);
		FUZZ_CHECK(month >= 1 && month <= 12 && day >= 1 && day <= 31);
		again = sb_days_from_civil_ms(year, month, day);
		FUZZ_CHECK(again <= ms && ms - again < SB_MS_PER_DAY);
		sb_time_format(ms, buf);
		sb_date_format(ms, buf);
	}
	return 0;
}
