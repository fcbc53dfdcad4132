/* fuzz_period.c: --period values (ledger/period.h, sb_period_parse).
 *
 * The first 4 bytes move "now" (for today, yesterday, this-month,
 * last-month) within a few centuries of 2026; the rest is the text.  A
 * parsed period is never empty, and its name (sb_period_name) parses back
 * to the same period; a failure is a usage error with a message.
 */
#include <string.h>

#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int64_t now = sb_days_from_civil_ms(2026, 11, 30);
	int64_t low = sb_days_from_civil_ms(1, 1, 1), high = sb_days_from_civil_ms(9999, 1, 1);
	uint32_t shift = 0;
	sb_period p, back;
	sb_err e;
	char name[96];
	char *text;

	if (size > 512)
		return 0;
	for (int i = 0; i < 4; i++)
		shift = shift << 8 | fuzz_byte(&data, &size);
	now += (int64_t)(shift % (200u * 366u * 86400u)) * 1000 - INT64_C(100) * 366 * SB_MS_PER_DAY;
	text = fuzz_cstr(data, size);
	sb_err_clear(&e);
	if (sb_period_parse(text, now, &p, &e) == SB_OK) {
		FUZZ_CHECK(e.code == SB_OK);
		FUZZ_CHECK(p.from_ms < p.to_ms);
		sb_period_name(&p, name);
		if (p.from_ms >= low && p.to_ms <= high) {
			sb_err_clear(&e);
			FUZZ_CHECK(sb_period_parse(name, now, &back, &e) == SB_OK);
			FUZZ_CHECK(back.from_ms == p.from_ms && back.to_ms == p.to_ms);
		}
	} else {
		FUZZ_CHECK(e.code == SB_EUSAGE && e.msg[0] != '\0');
	}
	free(text);
	return 0;
}
