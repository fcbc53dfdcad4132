/* grow.h: one growth rule for the arrays the library builds.
 *
 * An array is a pointer, a count of the elements it holds and a capacity
 * allocated.  sb_grow makes room for one more element: it doubles the
 * capacity (from 16) when the array is full, and says out of memory in e
 * once.  The caller owns the array and frees it.
 */
#ifndef SB_GROW_H
#define SB_GROW_H

#include <stddef.h>

#include "ledger/err.h"

/* Room for element n of size bytes in *list (*cap allocated): SB_OK, the
 * array moved perhaps; SB_EINTERNAL in e when out of memory, *list and
 * *cap untouched (still the caller's). */
int sb_grow(void *list, size_t n, size_t *cap, size_t size, sb_err *e);

/* sb_grow for a typed array: SB_GROW(&arr, n, &cap, e). */
#define SB_GROW(listp, n, capp, e) sb_grow((listp), (n), (capp), sizeof **(listp), (e))

#endif
