/* test_allocate.c: largest-remainder allocation (reconcile/allocate.c):
 * exact splits, remainders handed to the largest fractions, ties to the
 * lower index, credits, zero weights, and the sum always equal to the
 * amount. */
#include "tests/support/support.h"

#include <stdint.h>

#include "reconcile/allocate.h"

/* Split total over weights and check the shares against want. */
static void check_split(int64_t total, const int64_t *weights, size_t n, const int64_t *want)
{
	int64_t out[16];
	int64_t sum = 0;

	assert_true(n <= 16);
	assert_int_equal(sb_allocate(total, weights, n, out), SB_ALLOC_OK);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(out[i], want[i]);
		sum += out[i];
	}
	assert_int_equal(sum, total);
}

/* An amount that divides evenly needs no remainders. */
static void test_exact(void **state)
{
	(void)state;
	/* 100 cents by 1:3 -> 25, 75 */
	check_split(100, (const int64_t[]){1, 3}, 2, (const int64_t[]){25, 75});
	/* 0 over anything -> zeros */
	check_split(0, (const int64_t[]){5, 7}, 2, (const int64_t[]){0, 0});
}

/* The classic thirds: 1.00 USD over three equal shares. */
static void test_thirds(void **state)
{
	(void)state;
	/* 100 / 3 = 33 r 1 each (remainders equal): the one cent left goes
	 * to the lowest index -> 34, 33, 33 */
	check_split(100, (const int64_t[]){1, 1, 1}, 3, (const int64_t[]){34, 33, 33});
	/* 200 / 3 = 66 r 2 each: two cents left -> 67, 67, 66 */
	check_split(200, (const int64_t[]){7, 7, 7}, 3, (const int64_t[]){67, 67, 66});
}

/* Remainders ranked by size, not by position. */
static void test_largest_remainder(void **state)
{
	(void)state;
	/* 10 cents by 0.1 : 0.3 : 0.6 of computed, weights in nanodollars
	 * 100000000, 300000000, 600000000 (sum 10^9):
	 *   quotas 1.0, 3.0, 6.0 -> exact, 1, 3, 6 */
	check_split(10, (const int64_t[]){100000000, 300000000, 600000000}, 3,
	            (const int64_t[]){1, 3, 6});
	/* 7 cents by 2 : 3 : 5 (sum 10):
	 *   quotas 1.4, 2.1, 3.5 -> floors 1, 2, 3 (6 given), 1 left;
	 *   remainders 0.4, 0.1, 0.5 -> the 0.5 wins: 1, 2, 4 */
	check_split(7, (const int64_t[]){2, 3, 5}, 3, (const int64_t[]){1, 2, 4});
	/* 11 cents by 2 : 3 : 5: quotas 2.2, 3.3, 5.5 -> floors 2, 3, 5 (10),
	 * 1 left; remainders 0.2, 0.3, 0.5 -> third: 2, 3, 6 */
	check_split(11, (const int64_t[]){2, 3, 5}, 3, (const int64_t[]){2, 3, 6});
	/* 13 cents by 2 : 3 : 5: quotas 2.6, 3.9, 6.5 -> floors 2, 3, 6 (11),
	 * 2 left; remainders 0.6, 0.9, 0.5 -> second then first: 3, 4, 6 */
	check_split(13, (const int64_t[]){2, 3, 5}, 3, (const int64_t[]){3, 4, 6});
}

/* A credit splits like a charge, negated. */
static void test_negative(void **state)
{
	(void)state;
	/* -100 by 1:1:1 -> -(34, 33, 33) */
	check_split(-100, (const int64_t[]){1, 1, 1}, 3, (const int64_t[]){-34, -33, -33});
}

/* A share of weight 0 gets nothing, even with units left over. */
static void test_zero_weight(void **state)
{
	(void)state;
	/* 5 by 0 : 1 : 1: quotas 0, 2.5, 2.5 -> 0, 2, 2 and 1 left; remainders
	 * 0, 0.5, 0.5 -> tie to the lower index: 0, 3, 2 */
	check_split(5, (const int64_t[]){0, 1, 1}, 3, (const int64_t[]){0, 3, 2});
}

/* Nothing to split by, or a bad weight: an error, out untouched. */
static void test_errors(void **state)
{
	int64_t out[3] = {-7, -7, -7};

	(void)state;
	assert_int_equal(sb_allocate(100, (const int64_t[]){0, 0, 0}, 3, out), SB_ALLOC_NO_WEIGHT);
	assert_int_equal(sb_allocate(100, NULL, 0, out), SB_ALLOC_NO_WEIGHT);
	assert_int_equal(sb_allocate(100, (const int64_t[]){1, -1, 3}, 3, out), SB_ALLOC_BAD_WEIGHT);
	assert_int_equal(sb_allocate(100, (const int64_t[]){INT64_MAX, 1}, 2, out), SB_ALLOC_BAD_WEIGHT);
	assert_int_equal(out[0], -7);
	assert_int_equal(out[2], -7);
}

/* Large amounts and weights do not overflow the exact quotas. */
static void test_large(void **state)
{
	int64_t out[2];

	(void)state;
	/* INT64_MAX over 1:1: 4611686018427387903 r 1 each; the one unit
	 * left goes to the first */
	assert_int_equal(sb_allocate(INT64_MAX, (const int64_t[]){INT64_MAX / 2, INT64_MAX / 2}, 2, out),
	                 SB_ALLOC_OK);
	assert_int_equal(out[0], INT64_MAX / 2 + 1);
	assert_int_equal(out[1], INT64_MAX / 2);
}

/* The sum is the amount for many pseudo-random splits. */
static void test_sum_invariant(void **state)
{
	uint64_t x = 88172645463325252u;

	(void)state;
	for (int round = 0; round < 2000; round++) {
		int64_t w[16] = {0}, out[16], sum = 0, total;
		size_t n = 1 + (size_t)(round % 16);
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			w[i] = (int64_t)(x % 1000000007u);
		}
		w[0] += 1;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		total = (int64_t)(x % 2000000) - 1000000;
		assert_int_equal(sb_allocate(total, w, n, out), SB_ALLOC_OK);
		for (size_t i = 0; i < n; i++) {
			/* each share is its floor or one more */
			__int128 quota = (__int128)(total < 0 ? -total : total) * w[i];
			__int128 sw = 0;
			int64_t mag = out[i] < 0 ? -out[i] : out[i];
			for (size_t k = 0; k < n; k++)
				sw += w[k];
			assert_true((__int128)mag * sw <= quota + sw);
			assert_true((__int128)mag * sw >= quota - sw);
			sum += out[i];
		}
		assert_int_equal(sum, total);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_thirds),
		cmocka_unit_test(test_largest_remainder),
		cmocka_unit_test(test_negative),
		cmocka_unit_test(test_zero_weight),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_sum_invariant),
	};

	return cmocka_run_group_tests_name("allocate", tests, NULL, NULL);
}
