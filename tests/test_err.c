/* test_err.c: the error value (ledger/err.c): first error wins, a
 * prefix added in front, and a message too long for it cut with "..."
 * on a character boundary, never silently shorter: exactly at the limit
 * (1023 bytes) whole, one past it cut. */
#include "tests/support/support.h"

#include <string.h>

/* A string of n copies of c (n < 2048). */
static const char *repeat(char c, size_t n)
{
	static char buf[2048];

	memset(buf, c, n);
	buf[n] = '\0';
	return buf;
}

/* First error wins; clear starts again. */
static void test_first_wins(void **state)
{
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_int_equal(sb_fail(&e, SB_EDATA, "first %d", 1), SB_EDATA);
	assert_int_equal(sb_fail(&e, SB_EIO, "second"), SB_EDATA);
	assert_string_equal(e.msg, "first 1");
	sb_err_prefix(&e, "%s", "runs.jsonl");
	assert_string_equal(e.msg, "runs.jsonl: first 1");
	sb_err_clear(&e);
	sb_err_prefix(&e, "nothing");
	assert_int_equal(e.code, SB_OK);
	assert_string_equal(e.msg, "");
}

/* A message of 1023 bytes is whole; of 1024 it is cut to 1020 and "...". */
static void test_cut_at_the_limit(void **state)
{
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	sb_fail(&e, SB_EDATA, "%s", repeat('a', SB_ERR_MSG_MAX - 1));
	assert_int_equal(strlen(e.msg), SB_ERR_MSG_MAX - 1);
	assert_null(strstr(e.msg, "..."));
	sb_err_clear(&e);
	sb_fail(&e, SB_EDATA, "%sb", repeat('a', SB_ERR_MSG_MAX - 1));
	assert_int_equal(strlen(e.msg), SB_ERR_MSG_MAX - 1);
	assert_string_equal(e.msg + SB_ERR_MSG_MAX - 4, "...");
	assert_int_equal(e.msg[SB_ERR_MSG_MAX - 5], 'a');
}

/* The cut never splits a UTF-8 character: "é" (2 bytes) across the cut
 * point goes whole. */
static void test_cut_on_a_character(void **state)
{
	char text[SB_ERR_MSG_MAX + 8];
	sb_err e;

	(void)state;
	/* 1019 'a', then "é" at bytes 1019-1020, then more: the cut at 1020
	 * would split it, so it goes at 1019 */
	memset(text, 'a', SB_ERR_MSG_MAX - 5);
	memcpy(text + SB_ERR_MSG_MAX - 5, "\xc3\xa9zzzzzz", 9);
	sb_err_clear(&e);
	sb_fail(&e, SB_EDATA, "%s", text);
	assert_int_equal(strlen(e.msg), SB_ERR_MSG_MAX - 2);
	assert_string_equal(e.msg + SB_ERR_MSG_MAX - 5, "...");
}

/* A prefix is cut at 511 bytes, so the message keeps its room; a prefix
 * and message together too long end with "...". */
static void test_prefix_cut(void **state)
{
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	sb_fail(&e, SB_EDATA, "what is wrong");
	sb_err_prefix(&e, "%s", repeat('p', 600));
	assert_int_equal(strlen(e.msg), 511 + strlen(": what is wrong"));
	assert_memory_equal(e.msg + 508, "...: what is wrong", 18);
	sb_err_clear(&e);
	sb_fail(&e, SB_EDATA, "%s", repeat('m', 800));
	sb_err_prefix(&e, "%s", repeat('p', 300));
	assert_int_equal(strlen(e.msg), SB_ERR_MSG_MAX - 1);
	assert_memory_equal(e.msg + 298, "pp: mm", 6);
	assert_string_equal(e.msg + SB_ERR_MSG_MAX - 4, "...");
	/* exactly fitting: 300 + 2 + 721 = 1023 bytes, whole */
	sb_err_clear(&e);
	sb_fail(&e, SB_EDATA, "%s", repeat('m', 721));
	sb_err_prefix(&e, "%s", repeat('p', 300));
	assert_int_equal(strlen(e.msg), SB_ERR_MSG_MAX - 1);
	assert_null(strstr(e.msg, "..."));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_wins),
		cmocka_unit_test(test_cut_at_the_limit),
		cmocka_unit_test(test_cut_on_a_character),
		cmocka_unit_test(test_prefix_cut),
	};

	return cmocka_run_group_tests_name("err", tests, NULL, NULL);
}
