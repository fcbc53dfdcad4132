/* grow.c: one growth rule (see grow.h). */
#include "ledger/grow.h"

#include <stdlib.h>
#include <string.h>

int sb_grow(void *list, size_t n, size_t *cap, size_t size, sb_err *e)
{
	void *old, *more;
	size_t ncap;

	if (n < *cap)
		return SB_OK;
	ncap = *cap > 0 ? 2 * *cap : 16;
	if (ncap < n + 1 || ncap > (size_t)-1 / size)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	memcpy(&old, list, sizeof old);
	if ((more = realloc(old, ncap * size)) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	memcpy(list, &more, sizeof more);
	*cap = ncap;
	return SB_OK;
}
