/* words.c: the library's ways out in the command line's words (see
 * words.h). */
#include "cli/words.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ledger/err.h"
#include "ledger/quote.h"

/* How this sbledger was run (cli_words_invoked); NULL: "sbledger". */
static const sb_invocation *invoked;

/* What each way out of enum sb_hint is on the command line: the text
 * that replaces its library words, {1} and {2} standing for what the
 * words' first and second %s stood for, {0} for the words a command the
 * user runs begins with (sb_invocation_words: the program as invoked, the
 * ledger as given), {p} for the program alone (init names the ledger the
 * library found missing, which a copy's --from or --to can be).  NULL:
 * rendered by a function (price) or left as the library says it. */
static const char *const cli_text[SB_HINT_COUNT] = {
	[SB_HINT_BUSY] = "try again later or raise --busy-timeout",
	[SB_HINT_INIT_EMPTY] = "make it one with '{p} --db {1} init'",
	[SB_HINT_INIT_MISSING] = "create one with '{p} --db {1} init'",
	[SB_HINT_REJECTS] = "see '{0} rejects --batch {1}'",
	[SB_HINT_STRICT] = "(--strict: nothing of the file was imported)",
	[SB_HINT_SUPERSEDE] = "--supersede replaces it",
	[SB_HINT_REPLACE] = "import it again with --replace to keep this version",
	[SB_HINT_PERIOD_REISSUED] = "give --period P, the period the reissued statement covers",
	[SB_HINT_PERIOD_USAGE] = "give the import --period P, the period the usage report covers",
	[SB_HINT_PERIOD_END] = "the end of --period",
	[SB_HINT_PERIOD_START] = "the start of --period",
	[SB_HINT_PERIOD_GIVEN] = "--period {1}",
	[SB_HINT_NO_PERIOD] = "no --period",
	[SB_HINT_DELIMITER] = "give --delimiter {1}",
	[SB_HINT_FORMAT] = "(required by --format {1})",
	[SB_HINT_INTERVAL] = "(an hourly report needs --interval h)",
	[SB_HINT_RESUME_SUPERSEDING] = "was begun with --supersede: run it again with --supersede (and {1}) to complete it",
	[SB_HINT_RESUME_PLAIN] = "was begun without --supersede: run it again without --supersede to complete it, then import the file with --supersede --force",
	[SB_HINT_MAX_BYTES] = "(--max-bytes)",
	[SB_HINT_CA] = "--cacert FILE or SBLEDGER_CA_BUNDLE trusts another CA",
	[SB_HINT_BASE_URL] = "check --base-url",
	[SB_HINT_KEY] = "{2} is not set: export the {1} key in it (keys are read from the environment only)",
	[SB_HINT_TAG] = "(is --by tag:{1} the right tag?)",
	[SB_HINT_ONE_CUSTOMER] = "finalize the other customers one at a time with --customer",
	[SB_HINT_PRICE] = NULL,
};

enum { MAX_ARGS = 2, ARG_MAX = 512 };

/* The pricing command for model's shell word (as sb_quote wrote it):
 * the options first and "--" before the word when the model starts with
 * '-' (a word "-2+3", "'-2+3'" or "$'-..."), so that it is not taken for
 * an option. */
static const char *price_from_word(const char *word, char *buf, size_t cap)
{
	bool dash = word[0] == '-' || strncmp(word, "'-", 2) == 0 || strncmp(word, "$'-", 3) == 0;
	char run[CLI_INVOKED_MAX];

	cli_invoked_words(run, sizeof run);
	if (dash)
		snprintf(buf, cap, "%s prices set --input-per-m X --output-per-m Y -- %s", run, word);
	else
		snprintf(buf, cap, "%s prices set %s --input-per-m X --output-per-m Y", run, word);
	return buf;
}

void cli_words_invoked(const sb_invocation *inv)
{
	invoked = inv;
}

const char *cli_invoked_words(char *buf, size_t cap)
{
	return sb_invocation_words(invoked, buf, cap);
}

const char *cli_invoked_program(char *buf, size_t cap)
{
	return sb_invocation_words(&(sb_invocation){invoked != NULL ? invoked->program : NULL, NULL}, buf, cap);
}

const char *cli_price_command(const char *model, char *buf, size_t cap)
{
	char word[SB_QUOTE_BUFSZ];

	return price_from_word(sb_quote(model, SB_QUOTE_ALWAYS, word, sizeof word), buf, cap);
}

/* One occurrence of a way out's words in a message. */
typedef struct found {
	size_t at, len;                /* where in the message, how long */
	char args[MAX_ARGS][ARG_MAX];  /* what the placeholders stood for */
	size_t n_args;                 /* how many */
} found;

/* Find the words w (literal text and %s placeholders) in msg from offset
 * from on, into *f.  A placeholder matches the shortest text up to the
 * literal that follows it (the rest of the message when none does), never
 * a line break and never empty. */
static bool find(const char *msg, size_t from, const char *w, found *f)
{
	char lit[MAX_ARGS + 1][256];
	size_t n_lit = 0;
	const char *start;

	/* the literal parts of w */
	for (const char *p = w;;) {
		const char *ph = strstr(p, "%s");
		size_t len = ph != NULL ? (size_t)(ph - p) : strlen(p);
		if (n_lit > MAX_ARGS || len >= sizeof lit[0])
			return false;
		memcpy(lit[n_lit], p, len);
		lit[n_lit++][len] = '\0';
		if (ph == NULL)
			break;
		p = ph + 2;
	}
	for (start = msg + from; (start = lit[0][0] != '\0' ? strstr(start, lit[0]) : NULL) != NULL;
	     start++) {
		const char *p = start + strlen(lit[0]);
		bool ok = true;
		f->n_args = 0;
		for (size_t i = 1; i < n_lit && ok; i++) {
			const char *end = lit[i][0] != '\0' ? strstr(p, lit[i]) : p + strlen(p);
			const char *nl = memchr(p, '\n', end != NULL ? (size_t)(end - p) : 0);
			if (end == NULL || end == p || nl != NULL || (size_t)(end - p) >= ARG_MAX) {
				ok = false;
				break;
			}
			memcpy(f->args[f->n_args], p, (size_t)(end - p));
			f->args[f->n_args++][end - p] = '\0';
			p = end + strlen(lit[i]);
		}
		if (ok) {
			f->at = (size_t)(start - msg);
			f->len = (size_t)(p - start);
			return true;
		}
	}
	return false;
}

/* The command line's text of hint for f into out. */
static void render(int hint, const found *f, char *out, size_t cap)
{
	const char *t = cli_text[hint];
	size_t used = 0;

	out[0] = '\0';
	if (hint == SB_HINT_PRICE) {
		char cmd[2 * ARG_MAX + CLI_INVOKED_MAX];
		/* the argument is the model as the library quoted it: one shell word */
		snprintf(out, cap, "(%s)", price_from_word(f->args[0], cmd, sizeof cmd));
		return;
	}
	for (; *t != '\0' && used + 1 < cap; t++) {
		if (t[0] == '{' && (t[1] == '0' || t[1] == 'p') && t[2] == '}') {
			char run[CLI_INVOKED_MAX];
			if (t[1] == '0')
				cli_invoked_words(run, sizeof run);
			else
				cli_invoked_program(run, sizeof run);
			used += (size_t)snprintf(out + used, cap - used, "%s", run);
			if (used >= cap)
				used = cap - 1;
			t += 2;
			continue;
		}
		if (t[0] == '{' && (t[1] == '1' || t[1] == '2') && t[2] == '}') {
			size_t k = (size_t)(t[1] - '1');
			used += (size_t)snprintf(out + used, cap - used, "%s", k < f->n_args ? f->args[k] : "");
			if (used >= cap)
				used = cap - 1;
			t += 2;
			continue;
		}
		out[used++] = *t;
		out[used] = '\0';
	}
}

void cli_words(char *msg, size_t cap)
{
	enum { TEXT_MAX = 2 * ARG_MAX + CLI_INVOKED_MAX + 256 };
	char out[SB_ERR_MSG_MAX + TEXT_MAX];

	for (int hint = SB_HINT_NONE + 1; hint < SB_HINT_COUNT; hint++) {
		const char *w = sb_hint_words(hint);
		size_t from = 0;
		found f;
		if (w[0] == '\0' || (cli_text[hint] == NULL && hint != SB_HINT_PRICE))
			continue;
		while (find(msg, from, w, &f)) {
			char text[TEXT_MAX];
			size_t tlen;
			render(hint, &f, text, sizeof text);
			tlen = strlen(text);
			snprintf(out, sizeof out, "%.*s%s%s", (int)f.at, msg, text, msg + f.at + f.len);
			snprintf(msg, cap, "%s", out);
			from = f.at + tlen;
			if (from >= strlen(msg))
				break;
		}
	}
}
