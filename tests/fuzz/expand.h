/* expand.h: long inputs from short ones, for the readers' fuzz targets.
 *
 * The readers keep at most 64 KiB of a record past their maximum, a limit
 * libFuzzer's short inputs never reach.  fuzz_expand turns each 0xFF byte
 * followed by a byte c into 40,000 copies of c (at most 3 times), so that
 * a few bytes of input make a line, element or cell far past it.
 */
#ifndef SB_FUZZ_EXPAND_H
#define SB_FUZZ_EXPAND_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { FUZZ_EXPAND_RUN = 40000, FUZZ_EXPAND_MAX = 3 };

/* The expanded copy of data[0..size) (the caller frees it), its length in
 * *len. */
static inline char *fuzz_expand(const uint8_t *data, size_t size, size_t *len)
{
	size_t runs = 0, n = 0;
	char *out;

	for (size_t i = 0; i + 1 < size && runs < FUZZ_EXPAND_MAX; i++)
		if (data[i] == 0xFF)
			runs++, i++;
	out = malloc(size + runs * FUZZ_EXPAND_RUN + 1);
	if (out == NULL)
		abort();
	runs = 0;
	for (size_t i = 0; i < size; i++) {
		if (data[i] == 0xFF && i + 1 < size && runs < FUZZ_EXPAND_MAX) {
			memset(out + n, data[i + 1], FUZZ_EXPAND_RUN);
			n += FUZZ_EXPAND_RUN;
			runs++;
			i++;
		} else {
			out[n++] = (char)data[i];
		}
	}
	out[n] = '\0';
	*len = n;
	return out;
}

#endif
