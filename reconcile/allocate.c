/* allocate.c: largest-remainder allocation (see allocate.h). */
#include "reconcile/allocate.h"

int sb_allocate(int64_t total, const int64_t *weights, size_t n, int64_t *out)
{
	__int128 sum = 0, magnitude = total < 0 ? -(__int128)total : (__int128)total;
	__int128 given = 0;
	int64_t left;

	for (size_t i = 0; i < n; i++) {
		if (weights[i] < 0)
			return SB_ALLOC_BAD_WEIGHT;
		sum += weights[i];
		if (sum > INT64_MAX)
			return SB_ALLOC_BAD_WEIGHT;
	}
	if (sum == 0)
		return SB_ALLOC_NO_WEIGHT;
	/* floors first; magnitude x weight fits: both below 2^63 */
	for (size_t i = 0; i < n; i++) {
		__int128 quota = magnitude * weights[i];
		out[i] = (int64_t)(quota / sum);
		given += out[i];
	}
	/* fewer than n units remain: hand them out one at a time to the
	 * largest remainder not yet served (n is small: a customer list) */
	left = (int64_t)(magnitude - given);
	while (left > 0) {
		size_t best = n;
		__int128 best_rem = -1;
		for (size_t i = 0; i < n; i++) {
			__int128 quota = magnitude * weights[i];
			__int128 rem = quota - (__int128)out[i] * sum;
			/* a share already topped up has rem < 0 now */
			if (rem > best_rem) {
				best_rem = rem;
				best = i;
			}
		}
		out[best]++;
		left--;
	}
	if (total < 0)
		for (size_t i = 0; i < n; i++)
			out[i] = -out[i];
	return SB_ALLOC_OK;
}
