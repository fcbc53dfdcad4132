/* err.c: the error value of the library core (see err.h). */
#include "ledger/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* After a print of n bytes into buf (cap bytes with the NUL): a text
 * that did not fit ends with "..." (cut on a UTF-8 character boundary) so
 * that it is never taken for the whole of it. */
static void mark_cut(char *buf, size_t cap, int n)
{
	size_t at = cap - 4;

	if (n >= 0 && (size_t)n < cap)
		return;
	while (at > 0 && ((unsigned char)buf[at] & 0xC0) == 0x80)
		at--;
	memcpy(buf + at, "...", 4);
}

void sb_err_clear(sb_err *e)
{
	e->code = SB_OK;
	e->hint = SB_HINT_NONE;
	e->msg[0] = '\0';
}

const char *sb_hint_words(int hint)
{
	static const char *const words[SB_HINT_COUNT] = {
		[SB_HINT_NONE] = "",
		[SB_HINT_BUSY] = SB_WORDS_BUSY,
		[SB_HINT_INIT_EMPTY] = SB_WORDS_INIT_EMPTY,
		[SB_HINT_INIT_MISSING] = SB_WORDS_INIT_MISSING,
		[SB_HINT_REJECTS] = SB_WORDS_REJECTS,
		[SB_HINT_STRICT] = SB_WORDS_STRICT,
		[SB_HINT_SUPERSEDE] = SB_WORDS_SUPERSEDE,
		[SB_HINT_REPLACE] = SB_WORDS_REPLACE,
		[SB_HINT_PERIOD_REISSUED] = SB_WORDS_PERIOD_REISSUED,
		[SB_HINT_PERIOD_USAGE] = SB_WORDS_PERIOD_USAGE,
		[SB_HINT_PERIOD_END] = SB_WORDS_PERIOD_END,
		[SB_HINT_PERIOD_START] = SB_WORDS_PERIOD_START,
		[SB_HINT_PERIOD_GIVEN] = SB_WORDS_PERIOD_GIVEN,
		[SB_HINT_NO_PERIOD] = SB_WORDS_NO_PERIOD,
		[SB_HINT_DELIMITER] = SB_WORDS_DELIMITER,
		[SB_HINT_FORMAT] = SB_WORDS_FORMAT,
		[SB_HINT_INTERVAL] = SB_WORDS_INTERVAL,
		[SB_HINT_RESUME_SUPERSEDING] = SB_WORDS_RESUME_SUPERSEDING,
		[SB_HINT_RESUME_PLAIN] = SB_WORDS_RESUME_PLAIN,
		[SB_HINT_MAX_BYTES] = SB_WORDS_MAX_BYTES,
		[SB_HINT_CA] = SB_WORDS_CA,
		[SB_HINT_BASE_URL] = SB_WORDS_BASE_URL,
		[SB_HINT_KEY] = SB_WORDS_KEY,
		[SB_HINT_TAG] = SB_WORDS_TAG,
		[SB_HINT_ONE_CUSTOMER] = SB_WORDS_ONE_CUSTOMER,
		[SB_HINT_PRICE] = SB_WORDS_PRICE,
	};

	return hint > SB_HINT_NONE && hint < SB_HINT_COUNT && words[hint] != NULL ? words[hint] : "";
}

int sb_err_hint(sb_err *e, int hint)
{
	if (e->code != SB_OK && e->hint == SB_HINT_NONE)
		e->hint = hint;
	return e->code;
}

int sb_vfail(sb_err *e, int code, const char *fmt, va_list ap)
{
	if (e->code != SB_OK)
		return e->code;
	e->code = code;
	e->hint = SB_HINT_NONE;
	mark_cut(e->msg, sizeof e->msg, vsnprintf(e->msg, sizeof e->msg, fmt, ap));
	return code;
}

int sb_fail(sb_err *e, int code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sb_vfail(e, code, fmt, ap);
	va_end(ap);
	return rc;
}

int sb_fail_hint(sb_err *e, int code, int hint, const char *fmt, ...)
{
	va_list ap;

	if (e->code != SB_OK)
		return e->code;
	e->code = code;
	e->hint = hint;
	va_start(ap, fmt);
	mark_cut(e->msg, sizeof e->msg, vsnprintf(e->msg, sizeof e->msg, fmt, ap));
	va_end(ap);
	return code;
}

void sb_err_prefix(sb_err *e, const char *fmt, ...)
{
	char prefix[512];   /* at most half the message: what is wrong keeps its room */
	char msg[SB_ERR_MSG_MAX];
	va_list ap;

	if (e->code == SB_OK)
		return;
	va_start(ap, fmt);
	mark_cut(prefix, sizeof prefix, vsnprintf(prefix, sizeof prefix, fmt, ap));
	va_end(ap);
	mark_cut(msg, sizeof msg, snprintf(msg, sizeof msg, "%s: %s", prefix, e->msg));
	memcpy(e->msg, msg, sizeof msg);
}

/* Seriousness of each exit code, most serious last. */
static int rank(int code)
{
	/* the contract's order, most urgent first: 70, 74, 75, 69, 66, 64, 65, 1, 0 */
	static const int order[] = {SB_OK, SB_FLAGGED, SB_EDATA, SB_EUSAGE,
	                            SB_ENOINPUT, SB_EREFUSED, SB_ETEMP, SB_EIO,
	                            SB_EINTERNAL};
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (order[i] == code)
			return (int)i;
	return (int)(sizeof order / sizeof order[0]);
}

int sb_code_worst(int a, int b)
{
	return rank(a) >= rank(b) ? a : b;
}
