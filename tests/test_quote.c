/* test_quote.c: names quoted for messages (ledger/quote.h). */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ledger/quote.h"

/* sb_quote of name into a buffer of cap bytes equals want. */
static void check(const char *name, int how, size_t cap, const char *want)
{
	char buf[SB_QUOTE_BUFSZ];

	assert_true(cap <= sizeof buf);
	assert_string_equal(sb_quote(name, how, buf, cap), want);
}

/* Plain names stay as they are only when asked; everything else is
 * single-quoted, a quote inside written as the shell reads it. */
static void test_plain_and_quoted(void **state)
{
	(void)state;
	check("modal", SB_QUOTE_IF_NEEDED, 64, "modal");
	check("inbox/runs/a-1_b.jsonl", SB_QUOTE_IF_NEEDED, 64, "inbox/runs/a-1_b.jsonl");
	check("modal", SB_QUOTE_ALWAYS, 64, "'modal'");
	check("", SB_QUOTE_IF_NEEDED, 64, "''");
	check(NULL, SB_QUOTE_IF_NEEDED, 64, "''");
	check("my file", SB_QUOTE_IF_NEEDED, 64, "'my file'");
	check("a~b", SB_QUOTE_IF_NEEDED, 64, "'a~b'");
	check("it's", SB_QUOTE_ALWAYS, 64, "'it'\\''s'");
	check("$HOME", SB_QUOTE_IF_NEEDED, 64, "'$HOME'");
	check("-2+3", SB_QUOTE_IF_NEEDED, 64, "-2+3");
	check("-2+3", SB_QUOTE_ALWAYS, 64, "'-2+3'");
	check("caf\xc3\xa9", SB_QUOTE_IF_NEEDED, 64, "'caf\xc3\xa9'");   /* UTF-8 kept */
}

/* A control character (C0, DEL, C1) or a byte that is not UTF-8 turns
 * the name into $'...' with every such byte escaped: the text holds no
 * control character. */
static void test_control_characters_escaped(void **state)
{
	char buf[SB_QUOTE_BUFSZ];

	(void)state;
	check("a\nsbledger: all clear", SB_QUOTE_IF_NEEDED, 64, "$'a\\nsbledger: all clear'");
	check("t\tab", SB_QUOTE_ALWAYS, 64, "$'t\\tab'");
	check("\x1b[31mred", SB_QUOTE_ALWAYS, 64, "$'\\e[31mred'");
	check("cr\r", SB_QUOTE_ALWAYS, 64, "$'cr\\r'");
	check("del\x7f", SB_QUOTE_ALWAYS, 64, "$'del\\x7F'");
	check("bell\a", SB_QUOTE_ALWAYS, 64, "$'bell\\x07'");
	check("csi\xc2\x9b", SB_QUOTE_ALWAYS, 64, "$'csi\\u009B'");
	check("nbsp\xc2\xa0", SB_QUOTE_ALWAYS, 64, "'nbsp\xc2\xa0'");
	check("bad\xff", SB_QUOTE_ALWAYS, 64, "$'bad\\xFF'");
	check("cut\xe2\x82", SB_QUOTE_ALWAYS, 64, "$'cut\\xE2\\x82'");
	check("it's\n", SB_QUOTE_ALWAYS, 64, "$'it\\'s\\n'");
	check("back\\slash\n", SB_QUOTE_ALWAYS, 64, "$'back\\\\slash\\n'");
	check("back\\slash", SB_QUOTE_ALWAYS, 64, "'back\\slash'");
	sb_quote("x\n\x1b\x7f\xc2\x85\x01y", SB_QUOTE_IF_NEEDED, buf, sizeof buf);
	for (const char *p = buf; *p != '\0'; p++)
		assert_true((unsigned char)*p >= 0x20 && (unsigned char)*p != 0x7f);
}

/* A name longer than the buffer is cut at a character, its quote closed,
 * "..." after it; exactly fitting is not cut. */
static void test_cut(void **state)
{
	(void)state;
	check("abcdef", SB_QUOTE_ALWAYS, 9, "'abcdef'");       /* 8 bytes and the NUL */
	check("abcdefg", SB_QUOTE_ALWAYS, 9, "'abc'...");
	check("abcdef", SB_QUOTE_IF_NEEDED, 7, "abcdef");
	check("abcdefg", SB_QUOTE_IF_NEEDED, 7, "");            /* too small to quote */
	check("abcdefghij", SB_QUOTE_IF_NEEDED, 10, "'abcd'...");
	check("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", SB_QUOTE_ALWAYS, 10, "'\xc3\xa9\xc3\xa9'...");
	check("\n\n\n\n", SB_QUOTE_ALWAYS, 12, "$'\\n\\n\\n\\n'");
	check("\n\n\n\n", SB_QUOTE_ALWAYS, 11, "$'\\n\\n'...");
}

/* What the shell makes of a quoted word is the name: each quoted name,
 * given to printf '%s' by sh -c, prints exactly the name (bash for the
 * $'...' forms, which POSIX sh reads only since POSIX.1-2024). */
static void test_shell_reads_the_name(void **state)
{
	static const char *const names[] = {
		"plain", "my file", "it's", "'", "''", "-2+3", "a\"b", "$HOME", "`id`", "a\\b",
		"semi;colon", "star*", "a\nb", "tab\there", "esc\x1b[0m", "q'\n",
	};
	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char q[SB_QUOTE_BUFSZ], out[256] = "";
		FILE *f;
		size_t n;
		sb_quote(names[i], SB_QUOTE_IF_NEEDED, q, sizeof q);
		/* the word goes through a file so that no second shell reads it */
		char script[] = "/tmp/sbledger-quote-XXXXXX", run[64];
		int fd = mkstemp(script);
		assert_true(fd >= 0);
		f = fdopen(fd, "w");
		assert_non_null(f);
		fprintf(f, "printf '%%s' %s\n", q);
		fclose(f);
		snprintf(run, sizeof run, "bash %s", script);
		f = popen(run, "r");
		assert_non_null(f);
		n = fread(out, 1, sizeof out - 1, f);
		out[n] = '\0';
		assert_int_equal(pclose(f), 0);
		remove(script);
		assert_string_equal(out, names[i]);
	}
}

static void test_is_option(void **state)
{
	(void)state;
	assert_true(sb_quote_is_option("-2+3"));
	assert_true(sb_quote_is_option("--x"));
	assert_false(sb_quote_is_option("2-3"));
	assert_false(sb_quote_is_option(""));
	assert_false(sb_quote_is_option(NULL));
}

/* The words a suggested command begins with: the program as run (one
 * word), "--db" and the ledger only when the ledger was given so. */
static void test_invocation_words(void **state)
{
	char buf[SB_INVOCATION_BUFSZ];

	(void)state;
	assert_string_equal(sb_invocation_words(NULL, buf, sizeof buf), "sbledger");
	assert_string_equal(sb_invocation_words(&(sb_invocation){NULL, NULL}, buf, sizeof buf), "sbledger");
	assert_string_equal(sb_invocation_words(&(sb_invocation){"./sbledger", NULL}, buf, sizeof buf),
	                    "./sbledger");
	assert_string_equal(sb_invocation_words(&(sb_invocation){NULL, "ledger.db"}, buf, sizeof buf),
	                    "sbledger --db ledger.db");
	assert_string_equal(sb_invocation_words(&(sb_invocation){"/opt/my bin/sbledger", "it's.db"}, buf, sizeof buf),
	                    "'/opt/my bin/sbledger' --db 'it'\\''s.db'");
	assert_string_equal(sb_invocation_words(&(sb_invocation){"./sbledger", "postgresql://u@h/d?sslmode=require"},
	                                        buf, sizeof buf),
	                    "./sbledger --db 'postgresql://u@h/d?sslmode=require'");
	assert_string_equal(sb_invocation_words(&(sb_invocation){"./sbledger", "a\nb"}, buf, sizeof buf),
	                    "./sbledger --db $'a\\nb'");
	/* cut to the buffer, never past it */
	assert_string_equal(sb_invocation_words(&(sb_invocation){"./sbledger", "l.db"}, buf, 11), "./sbledger");
	assert_string_equal(sb_invocation_words(&(sb_invocation){"./sbledger", "l.db"}, buf, 4), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_and_quoted),
		cmocka_unit_test(test_control_characters_escaped),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_shell_reads_the_name),
		cmocka_unit_test(test_is_option),
		cmocka_unit_test(test_invocation_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
