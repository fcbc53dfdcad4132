/* fuzz.h: what the libFuzzer targets of tests/fuzz/ share.
 *
 * Each target is one file, fuzz_NAME.c, defining LLVMFuzzerTestOneInput
 * over one parser's pure entry point.  Besides "no crash, no sanitizer
 * report, no leak", each checks properties of what the parser returns
 * (round trips, positions that match the input, a resumed reader that
 * agrees with an uninterrupted one); a broken property aborts, which
 * libFuzzer reports as a crash and saves as an input to replay.
 *
 * Build and run: `make fuzz` (long runs) and `make check` (the corpus
 * replayed plus a short burst each); see tests/fuzz/run.sh.
 */
#ifndef SB_FUZZ_H
#define SB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Abort with the failed condition when c is false. */
#define FUZZ_CHECK(c)                                                              \
	do {                                                                       \
		if (!(c)) {                                                        \
			fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, \
			        __LINE__, #c);                                     \
			abort();                                                   \
		}                                                                  \
	} while (0)

/* The entry point libFuzzer calls for each input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Take one byte off the front of the input (0 when it is empty): the
 * targets read their options (chunk sizes, flags) this way, so that the
 * fuzzer explores them with the data. */
static inline uint8_t fuzz_byte(const uint8_t **data, size_t *size)
{
	uint8_t b = 0;

	if (*size > 0) {
		b = **data;
		(*data)++;
		(*size)--;
	}
	return b;
}

/* A copy of data[0..size) with a NUL after it (the caller frees it), for
 * parsers that take C strings. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	for (size_t i = 0; i < size; i++)
		s[i] = (char)data[i];
	s[size] = '\0';
	return s;
}

#endif
