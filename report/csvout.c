/* csvout.c: the one CSV cell writer (see csvout.h). */
#include "report/csvout.h"

#include <string.h>

void sb_csv_out_init(sb_csv_out *w, FILE *f, bool raw)
{
	w->f = f;
	w->raw = raw;
	w->cells = 0;
}

bool sb_csv_formula(const char *s)
{
	return s != NULL && s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL;
}

bool sb_csv_number(const char *s)
{
	const char *p = s;
	size_t digits = 0;

	if (s == NULL)
		return false;
	if (*p == '+' || *p == '-')
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		digits++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			digits++;
	if (digits == 0)
		return false;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

/* Write one cell: the separator, then s (NULL: nothing) with a leading '
 * when guard is set, quoted when it needs it. */
static void cell(sb_csv_out *w, const char *s, bool guard)
{
	if (w->cells++ > 0)
		fputc(',', w->f);
	if (s == NULL)
		return;
	if (strpbrk(s, ",\"\r\n") == NULL) {
		if (guard)
			fputc('\'', w->f);
		fputs(s, w->f);
		return;
	}
	fputc('"', w->f);
	if (guard)
		fputc('\'', w->f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', w->f);
		fputc(*s, w->f);
	}
	fputc('"', w->f);
}

void sb_csv_text(sb_csv_out *w, const char *s)
{
	cell(w, s, !w->raw && sb_csv_formula(s));
}

void sb_csv_value(sb_csv_out *w, const char *s)
{
	cell(w, s, !w->raw && sb_csv_formula(s) && !sb_csv_number(s));
}

void sb_csv_end(sb_csv_out *w)
{
	fputc('\n', w->f);
	w->cells = 0;
}
