/* err.c: the error value of the library core (see err.h). */
#include "ledger/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return code;
}

void sb_err_prefix(sb_err *e, const char *fmt, ...)
{
	char prefix[512];
	char old[SB_ERR_MSG_MAX];
	va_list ap;

	if (e->code == SB_OK)
		return;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof prefix, fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof old);
	snprintf(e->msg, sizeof e->msg, "%s: %s", prefix, old);
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
