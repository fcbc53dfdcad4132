/* names.c: looking up the names of the stored enums (see names.h). */
#include "ledger/names.h"

#include <stdio.h>
#include <string.h>

int sb_name_index(const char *const *names, size_t n, const char *name)
{
	if (name == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (names[i] != NULL && strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

int sb_name_parse(const char *const *names, size_t n, const char *what, const char *name,
                  int *index, sb_err *e)
{
	char known[256] = "";
	size_t len = 0;
	int i = sb_name_index(names, n, name);

	if (i >= 0) {
		*index = i;
		return SB_OK;
	}
	for (size_t k = 0; k < n && len < sizeof known; k++) {
		if (names[k] == NULL)
			continue;
		int w = snprintf(known + len, sizeof known - len, "%s%s", len > 0 ? ", " : "", names[k]);
		if (w < 0)
			break;
		len += (size_t)w;
	}
	if (name == NULL)
		return sb_fail(e, SB_EDATA, "a value is missing where %s was expected (%s)", what, known);
	return sb_fail(e, SB_EDATA, "'%s' is not %s this sbledger knows (%s)", name, what, known);
}
