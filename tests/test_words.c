/* test_words.c: the library's ways out in the command line's words
 * (cli/words.h over ledger/err.h). */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/words.h"
#include "ledger/err.h"
#include "ledger/quote.h"

/* cli_words of msg equals want. */
static void check(const char *msg, const char *want)
{
	char buf[SB_ERR_MSG_MAX + 256];

	snprintf(buf, sizeof buf, "%s", msg);
	cli_words(buf, sizeof buf);
	assert_string_equal(buf, want);
}

/* Every way out has library words that name no option, and the command
 * line has its own words for each. */
static void test_every_hint_has_words(void **state)
{
	(void)state;
	assert_string_equal(sb_hint_words(SB_HINT_NONE), "");
	assert_string_equal(sb_hint_words(SB_HINT_COUNT), "");
	assert_string_equal(sb_hint_words(-1), "");
	for (int h = SB_HINT_NONE + 1; h < SB_HINT_COUNT; h++) {
		const char *w = sb_hint_words(h);
		char buf[SB_ERR_MSG_MAX], filled[SB_ERR_MSG_MAX];
		assert_true(strlen(w) > 0);
		assert_null(strstr(w, "--"));          /* the library names no option */
		assert_null(strstr(w, "sbledger"));    /* nor a command */
		/* the words, their placeholders filled, become something else */
		snprintf(filled, sizeof filled, "%s", w);
		for (char *p; (p = strstr(filled, "%s")) != NULL;)
			memcpy(p, "xx", 2);
		snprintf(buf, sizeof buf, "%s", filled);
		cli_words(buf, sizeof buf);
		assert_string_not_equal(buf, filled);
	}
}

/* The words become today's command-line text wherever they stand, their
 * arguments carried over, the rest of the message untouched. */
static void test_words_become_flags(void **state)
{
	(void)state;
	check("already billed by batch 3; " SB_WORDS_SUPERSEDE, "already billed by batch 3; --supersede replaces it");
	check("x.csv:4: already billed by batch 3; " SB_WORDS_SUPERSEDE " (and more)",
	      "x.csv:4: already billed by batch 3; --supersede replaces it (and more)");
	check("bad.jsonl: 6 lines rejected " SB_WORDS_STRICT "; its rejected records are kept with batch 12",
	      "bad.jsonl: 6 lines rejected (--strict: nothing of the file was imported); see 'sbledger rejects --batch 12'");
	check("l.db: an empty file, not a ledger; make it one by initialising 'my l.db'",
	      "l.db: an empty file, not a ledger; make it one with 'sbledger --db 'my l.db' init'");
	check("no key for vercel was given (its key is kept in VERCEL_TOKEN)",
	      "VERCEL_TOKEN is not set: export the vercel key in it (keys are read from the environment only)");
	check("batch 1, an interrupted import of this file, was begun superseding: run it again superseding "
	      "(and with the period 2026-11-01T00:00:00Z..2026-11-02T00:00:00Z given) to complete it",
	      "batch 1, an interrupted import of this file, was begun with --supersede: run it again with "
	      "--supersede (and --period 2026-11-01T00:00:00Z..2026-11-02T00:00:00Z) to complete it");
	check("batch 1, an interrupted import of this file, was begun with no period given, not the period "
	      "A..B given: run it again as it was begun to complete it",
	      "batch 1, an interrupted import of this file, was begun with no --period, not --period A..B: "
	      "run it again as it was begun to complete it");
	check("it is the one column 'a;b'; if the file is separated by ';', give the delimiter ';'",
	      "it is the one column 'a;b'; if the file is separated by ';', give --delimiter ';'");
	check("no customer 'acme': no run has a tag 'cutsomer' (is the tag cutsomer the right one?)",
	      "no customer 'acme': no run has a tag 'cutsomer' (is --by tag:cutsomer the right tag?)");
	/* twice the same words, and two different ones */
	check(SB_WORDS_BASE_URL "; " SB_WORDS_BASE_URL, "check --base-url; check --base-url");
	check("a (" SB_WORDS_MAX_BYTES "); " SB_WORDS_BASE_URL, "a ((--max-bytes)); check --base-url");
	/* nothing to do */
	check("the ledger is fine", "the ledger is fine");
	check("", "");
}

/* Words the command line already put in are left alone (a reason
 * reworded when stored, then quoted in an error, is reworded once). */
static void test_words_once(void **state)
{
	(void)state;
	check("x; --supersede replaces it", "x; --supersede replaces it");
	check("see 'sbledger rejects --batch 3'", "see 'sbledger rejects --batch 3'");
}

/* A placeholder never reaches across a line break and is never empty. */
static void test_placeholder_edges(void **state)
{
	(void)state;
	check("its rejected records are kept with batch \n", "its rejected records are kept with batch \n");
	check("its rejected records are kept with batch ", "its rejected records are kept with batch ");
	check("the period \n given", "the period \n given");
	check("the period  given", "the period  given");   /* an empty argument */
	check("the period 2026-11 given", "--period 2026-11");
}

/* The command that prices a model: the model one shell word; after the
 * options and "--" when it starts with '-'; the library's words become it
 * with the model the library quoted. */
static void test_price_command(void **state)
{
	char buf[512];

	(void)state;
	assert_string_equal(cli_price_command("gpt-x", buf, sizeof buf),
	                    "sbledger prices set 'gpt-x' --input-per-m X --output-per-m Y");
	assert_string_equal(cli_price_command("-2+3", buf, sizeof buf),
	                    "sbledger prices set --input-per-m X --output-per-m Y -- '-2+3'");
	assert_string_equal(cli_price_command("it's", buf, sizeof buf),
	                    "sbledger prices set 'it'\\''s' --input-per-m X --output-per-m Y");
	assert_string_equal(cli_price_command("-a\nb", buf, sizeof buf),
	                    "sbledger prices set --input-per-m X --output-per-m Y -- $'-a\\nb'");
	check("model 'm' has no price, so the invoice of 'c' cannot charge its tokens (the model 'm' needs a price)",
	      "model 'm' has no price, so the invoice of 'c' cannot charge its tokens (sbledger prices set 'm' --input-per-m X --output-per-m Y)");
	check("model '-2+3' has no price (the model '-2+3' needs a price)",
	      "model '-2+3' has no price (sbledger prices set --input-per-m X --output-per-m Y -- '-2+3')");
}

/* A message that grows is cut at the buffer, never past it. */
static void test_cut(void **state)
{
	char buf[64];   /* "a: " and the words: 54 bytes; reworded: 65 */

	(void)state;
	snprintf(buf, sizeof buf, "%s", "a: " SB_WORDS_PERIOD_USAGE);
	cli_words(buf, sizeof buf);
	assert_int_equal(strlen(buf), sizeof buf - 1);
	assert_memory_equal(buf, "a: give the import --period P, the period the usage report cove", 63);
}

/* Once main has said how sbledger was run, every command the words
 * suggest begins so: the program as invoked, --db as given (init names
 * the ledger the library found missing, with the program as invoked). */
static void test_commands_as_invoked(void **state)
{
	sb_invocation cron = {"./sbledger", "my ledger.db"};
	sb_invocation env = {"./sbledger", NULL};   /* the ledger from $SBLEDGER_DB */
	char buf[512];

	(void)state;
	cli_words_invoked(&cron);
	check("x.jsonl: 1 line rejected; its rejected records are kept with batch 10",
	      "x.jsonl: 1 line rejected; see './sbledger --db 'my ledger.db' rejects --batch 10'");
	check("'my l.db': no ledger here; create one by initialising 'my l.db'",
	      "'my l.db': no ledger here; create one with './sbledger --db 'my l.db' init'");
	assert_string_equal(cli_price_command("m", buf, sizeof buf),
	                    "./sbledger --db 'my ledger.db' prices set 'm' --input-per-m X --output-per-m Y");
	assert_string_equal(cli_invoked_program(buf, sizeof buf), "./sbledger");
	cli_words_invoked(&env);
	check("x.jsonl: 1 line rejected; its rejected records are kept with batch 10",
	      "x.jsonl: 1 line rejected; see './sbledger rejects --batch 10'");
	check("model '-2+3' has no price (the model '-2+3' needs a price)",
	      "model '-2+3' has no price (./sbledger prices set --input-per-m X --output-per-m Y -- '-2+3')");
	cli_words_invoked(NULL);
	check("x.jsonl: 1 line rejected; its rejected records are kept with batch 10",
	      "x.jsonl: 1 line rejected; see 'sbledger rejects --batch 10'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_hint_has_words),
		cmocka_unit_test(test_words_become_flags),
		cmocka_unit_test(test_words_once),
		cmocka_unit_test(test_placeholder_edges),
		cmocka_unit_test(test_price_command),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_commands_as_invoked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
