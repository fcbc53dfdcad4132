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
	e->msg[0] = '\0';
}

int sb_fail(sb_err *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (e->code != SB_OK)
		return e->code;
	e->code = code;
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
	static const int order[] = {SB_OK, SB_FLAGGED, SB_EDATA, SB_ENOINPUT,
	                            SB_EUSAGE, SB_EREFUSED, SB_ETEMP, SB_EIO,
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
