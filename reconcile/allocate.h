/* allocate.h: splitting one amount over several shares by largest
 * remainder (docs/rules.md: the lines add up to the amount exactly).
 *
 * A pure function: no ledger, no allocation, no rounding mode to choose.
 * The unit is the caller's (cents for invoices, nanodollars elsewhere).
 */
#ifndef SB_ALLOCATE_H
#define SB_ALLOCATE_H

#include <stddef.h>
#include <stdint.h>

/* Result of sb_allocate. */
enum sb_alloc_rc {
	SB_ALLOC_OK = 0,
	SB_ALLOC_NO_WEIGHT = -1,   /* every weight is 0 (or n is 0): nothing to split by */
	SB_ALLOC_BAD_WEIGHT = -2   /* a weight is negative, or the weights' sum overflows */
};

/* Split total (in whole units, any sign) over n shares in proportion to
 * weights[0..n), writing out[0..n).  Each share first gets the floor of
 * its exact quota |total| x w / sum(w); the units left over (fewer than
 * n) go one each to the shares with the largest remainders, ties to the
 * lower index; a negative total is split as its magnitude and negated, so
 * a credit splits like a charge.  The shares always add up to total.
 * out is untouched unless SB_ALLOC_OK is returned. */
int sb_allocate(int64_t total, const int64_t *weights, size_t n, int64_t *out);

#endif
