/* test_help.c: the command table (cli/cmd_NAME.c) against the help made from it
 * (cli/help.c).  Every row is held to the same rules, so that a command
 * added or an option added without its explanation fails here:
 *
 *   - a summary: one line, lower case, no final period, short enough for
 *     the aligned list of 'sbledger --help' (at most 60 bytes);
 *   - every option of the row's list (what its handler parses, which
 *     cli_getopt checks at run time) explained in the help on a line of
 *     its own, "  --NAME ... explanation", and named in the usage (or the
 *     usage says [OPTIONS]); and no explanation of an option it does not
 *     take;
 *   - examples, each a command line of that very command;
 *   - the help as printed: the usage, the text, the period forms where
 *     --period is taken, and the Examples block last;
 *   - the list of commands, the groups (import, report, ...) and the man
 *     page hold every command.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <getopt.h>

#include "cli/cli.h"
#include "cli/help.h"

/* What f printed into a memstream, allocated. */
typedef struct captured {
	char *text;   /* the output, NUL-terminated */
	size_t size;  /* its length */
	FILE *f;      /* the stream while open */
} captured;

static void capture_start(captured *c)
{
	c->text = NULL;
	c->size = 0;
	c->f = open_memstream(&c->text, &c->size);
	assert_non_null(c->f);
}

static char *capture_end(captured *c)
{
	assert_int_equal(fclose(c->f), 0);
	return c->text;
}

/* Does some line of text start with two or more spaces, then "--name"
 * (ended by a space, '=' or the end of the line), then, after a gap of
 * two spaces or more, an explanation? */
static bool explained(const char *text, const char *name)
{
	size_t nlen = strlen(name);

	for (const char *line = text; *line != '\0';) {
		size_t len = strcspn(line, "\n");
		const char *p = line;
		while (*p == ' ')
			p++;
		if (p - line >= 2 && strncmp(p, "--", 2) == 0 && strncmp(p + 2, name, nlen) == 0 &&
		    (p[2 + nlen] == ' ' || p[2 + nlen] == '=' || p[2 + nlen] == '\n' || p[2 + nlen] == '\0')) {
			const char *gap = strstr(p, "  ");
			if (gap != NULL && gap < line + len) {
				while (*gap == ' ')
					gap++;
				if (gap < line + len)
					return true;
			}
		}
		line += len + (line[len] == '\n');
	}
	return false;
}

/* Does cmd take option name (its first len bytes)?  What cli_getopt
 * parses: the row's options, and --raw when it is flagged CMD_CSV. */
static bool takes(const sb_command *cmd, const char *name, size_t len)
{
	return cli_takes(cmd, name, len);
}

/* Fail, naming the command and what is wrong. */
static void row_fails(const sb_command *cmd, const char *what, const char *detail)
{
	print_error("'%s': %s%s%s\n", cmd->name, what, detail != NULL ? ": " : "", detail != NULL ? detail : "");
	fail();
}

/* Skip the words of an example line that stand before the command: NAME=VALUE
 * assignments, "sbledger", global options.  Returns where the command's name
 * should start, or NULL when the line is no sbledger command. */
static const char *example_command(const char *line)
{
	const char *p = line;

	while (strncmp(p, "sbledger ", 9) != 0) {
		const char *eq = strchr(p, '='), *sp = strchr(p, ' ');
		if (eq == NULL || sp == NULL || eq > sp || eq == p)
			return NULL;
		p = sp + 1;
	}
	p += 9;
	for (;;) {
		if (strncmp(p, "--db ", 5) == 0 || strncmp(p, "--busy-timeout ", 15) == 0) {
			p = strchr(p, ' ') + 1;
			p = strchr(p, ' ');
			if (p == NULL)
				return NULL;
			p++;
		} else if (strncmp(p, "--quiet ", 8) == 0 || strncmp(p, "-q ", 3) == 0) {
			p = strchr(p, ' ') + 1;
		} else {
			return p;
		}
	}
}

/* The checks of one row. */
static void check_row(const sb_command *cmd)
{
	size_t len;

	if (cmd->parse == NULL || cmd->run == NULL || cmd->usage == NULL || cmd->help == NULL)
		row_fails(cmd, "a parse and a run, usage and help are required", NULL);
	/* what it needs of the ledger (main opens it): the one ledger --db
	 * names, or, for copy alone, the two it names itself */
	switch (cmd->flags & CMD_LEDGER) {
	case CMD_READS:
	case CMD_WRITES:
	case CMD_CREATES:
		break;
	case CMD_OWN_LEDGER:
		if (strcmp(cmd->name, "copy") != 0)
			row_fails(cmd, "only copy opens its own ledgers (CMD_OWN_LEDGER)", NULL);
		break;
	default:
		row_fails(cmd, "the row must say what it needs of the ledger: CMD_READS, CMD_WRITES or CMD_CREATES",
		          NULL);
	}
	/* the summary */
	if (cmd->summary == NULL || cmd->summary[0] == '\0')
		row_fails(cmd, "no summary", NULL);
	len = strlen(cmd->summary);
	if (len > 60 || strchr(cmd->summary, '\n') != NULL)
		row_fails(cmd, "the summary is not one line of at most 60 bytes", cmd->summary);
	if (cmd->summary[len - 1] == '.' || (cmd->summary[0] >= 'A' && cmd->summary[0] <= 'Z'))
		row_fails(cmd, "the summary is not a lower-case phrase without a period", cmd->summary);
	/* the help text */
	len = strlen(cmd->help);
	if (len == 0 || cmd->help[len - 1] != '\n' || strstr(cmd->help, "\n\n\n") != NULL)
		row_fails(cmd, "the help must end with a line break and have no two blank lines", NULL);
	if (strstr(cmd->help, "Examples:") != NULL)
		row_fails(cmd, "the examples belong in the examples field", NULL);
	/* every option explained, and in the usage */
	for (const struct option *o = cmd->options; o != NULL && o->name != NULL; o++) {
		char word[64];
		if (!explained(cmd->help, o->name))
			row_fails(cmd, "an option has no explanation line (\"  --NAME ARG  what it does\")", o->name);
		snprintf(word, sizeof word, "--%s", o->name);
		if (strstr(cmd->usage, word) == NULL && strstr(cmd->usage, "[OPTIONS]") == NULL)
			row_fails(cmd, "an option is missing from the usage line", o->name);
		if (strcmp(o->name, "help") == 0)
			row_fails(cmd, "--help is every command's; cli_getopt adds it", NULL);
	}
	/* --raw, which cli_getopt adds to every command flagged CMD_CSV: the
	 * same rule as the row's own options */
	if (cmd->flags & CMD_CSV) {
		if (!explained(cmd->help, "raw"))
			row_fails(cmd, "an option has no explanation line (\"  --NAME ARG  what it does\")", "raw");
		if (strstr(cmd->usage, "--raw") == NULL && strstr(cmd->usage, "[OPTIONS]") == NULL)
			row_fails(cmd, "an option is missing from the usage line", "raw");
		for (const struct option *o = cmd->options; o != NULL && o->name != NULL; o++)
			if (strcmp(o->name, "raw") == 0)
				row_fails(cmd, "--raw of a CMD_CSV row is cli_getopt's; the row must not list it", NULL);
	}
	/* a command that can write CSV is flagged CMD_CSV, so that --raw is
	 * there to turn its formula guard off */
	if (strstr(cmd->usage, "csv") != NULL && !(cmd->flags & CMD_CSV))
		row_fails(cmd, "its usage offers CSV but the row is not flagged CMD_CSV", cmd->usage);
	/* no explanation of an option the command does not take */
	for (const char *line = cmd->help; *line != '\0';) {
		size_t n = strcspn(line, "\n");
		const char *p = line;
		while (*p == ' ')
			p++;
		if (p - line >= 2 && strncmp(p, "--", 2) == 0) {
			size_t w = strcspn(p + 2, " =\n");
			if (!takes(cmd, p + 2, w)) {
				char opt[64];
				snprintf(opt, sizeof opt, "--%.*s", (int)(w < 50 ? w : 50), p + 2);
				row_fails(cmd, "the help explains an option the command does not take", opt);
			}
		}
		line += n + (line[n] == '\n');
	}
	/* the examples: each line a command line of this command */
	len = cmd->examples != NULL ? strlen(cmd->examples) : 0;
	if (len == 0 || cmd->examples[len - 1] != '\n')
		row_fails(cmd, "no examples (lines ending with a line break)", NULL);
	for (const char *line = cmd->examples; *line != '\0';) {
		size_t n = strcspn(line, "\n");
		const char *name = example_command(line);
		size_t nlen = strlen(cmd->name);
		if (name == NULL || strncmp(name, cmd->name, nlen) != 0 ||
		    (name[nlen] != ' ' && name[nlen] != '\n' && name[nlen] != '\0'))
			row_fails(cmd, "an example is not a command line of this command", line);
		line += n + (line[n] == '\n');
	}
}

static void test_every_row(void **state)
{
	size_t rows = 0;

	(void)state;
	for (const sb_command_group *g = sb_command_groups; g->title != NULL; g++) {
		for (const sb_command *c = g->commands; c->name != NULL; c++) {
			int words = 0;
			char buf[64], *argv[3];
			check_row(c);
			/* found by its own words, and no other row has its name */
			snprintf(buf, sizeof buf, "%s", c->name);
			argv[0] = buf;
			argv[1] = strchr(buf, ' ');
			if (argv[1] != NULL)
				*argv[1]++ = '\0';
			argv[2] = NULL;
			assert_ptr_equal(cli_find_command(argv[1] != NULL ? 2 : 1, argv, &words), c);
			rows++;
		}
	}
	assert_true(rows >= 28);   /* every command of the table was seen */
}

static void test_help_as_printed(void **state)
{
	(void)state;
	for (const sb_command_group *g = sb_command_groups; g->title != NULL; g++) {
		for (const sb_command *c = g->commands; c->name != NULL; c++) {
			captured cap;
			char *text, *examples, head[80], *last;
			capture_start(&cap);
			cli_help_command(cap.f, c);
			text = capture_end(&cap);
			snprintf(head, sizeof head, "usage: sbledger %s", c->name);
			if (strncmp(text, head, strlen(head)) != 0)
				row_fails(c, "the help does not start with its usage", text);
			if (strstr(text, c->help) == NULL)
				row_fails(c, "the help text is not printed whole", NULL);
			/* the period forms wherever --period is taken */
			if (takes(c, "period", 6) != (strstr(text, cli_help_periods) != NULL))
				row_fails(c, "the period forms must be printed exactly when --period is taken", NULL);
			/* a command that starts others (rates: rates set, rates import)
			 * lists them with their summaries */
			for (const sb_command_group *g2 = sb_command_groups; g2->title != NULL; g2++) {
				for (const sb_command *sub = g2->commands; sub->name != NULL; sub++) {
					size_t len = strlen(c->name);
					char line[160];
					if (strncmp(sub->name, c->name, len) != 0 || sub->name[len] != ' ')
						continue;
					snprintf(line, sizeof line, "\n  %s ", sub->name);
					if (strstr(text, "\nSubcommands of ") == NULL || strstr(text, line) == NULL)
						row_fails(c, "its help does not list its subcommand", sub->name);
				}
			}
			/* the examples block last: nothing after it but its lines */
			examples = strstr(text, "\nExamples:\n");
			if (examples == NULL)
				row_fails(c, "no Examples block", NULL);
			last = examples + strlen("\nExamples:\n");
			for (const char *e = c->examples; *e != '\0';) {
				size_t n = strcspn(e, "\n");
				if (strncmp(last, "  ", 2) != 0 || strncmp(last + 2, e, n) != 0 || last[2 + n] != '\n')
					row_fails(c, "the Examples block is not the examples, indented, last", last);
				last += 2 + n + 1;
				e += n + (e[n] == '\n');
			}
			if (*last != '\0')
				row_fails(c, "something follows the Examples block", last);
			free(text);
		}
	}
}

static void test_list_of_commands(void **state)
{
	captured cap;
	char *text;

	(void)state;
	capture_start(&cap);
	cli_help_commands(cap.f);
	text = capture_end(&cap);
	/* the global options and --version */
	for (const char *opt = "--db PATH\0--busy-timeout MS\0--quiet\0--help\0--version\0"; *opt != '\0';
	     opt += strlen(opt) + 1)
		if (strstr(text, opt) == NULL) {
			print_error("sbledger --help does not list %s\n", opt);
			fail();
		}
	/* each command once, with its summary, in one aligned column */
	{
		long column = -1;
		for (const sb_command_group *g = sb_command_groups; g->title != NULL; g++) {
			for (const sb_command *c = g->commands; c->name != NULL; c++) {
				char line[160];
				const char *at, *summary;
				snprintf(line, sizeof line, "\n  %s ", c->name);
				if ((at = strstr(text, line)) == NULL)
					row_fails(c, "missing from sbledger --help", NULL);
				summary = at + strlen(line);
				while (*summary == ' ')
					summary++;
				if (strncmp(summary, c->summary, strlen(c->summary)) != 0 ||
				    summary[strlen(c->summary)] != '\n')
					row_fails(c, "its line in sbledger --help is not its summary", summary);
				if (column >= 0 && summary - at != column)
					row_fails(c, "the summaries are not aligned", NULL);
				column = summary - at;
			}
		}
	}
	free(text);
}

static void test_groups(void **state)
{
	static const char *const groups[] = {"import", "report", "fetch", "export", "rates", "prices",
	                                     "tolerance", "fx"};

	(void)state;
	for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
		captured cap;
		char *text;
		size_t len = strlen(groups[i]);
		int listed = 0;
		capture_start(&cap);
		assert_true(cli_help_group(cap.f, groups[i]));
		text = capture_end(&cap);
		for (const sb_command_group *g = sb_command_groups; g->title != NULL; g++) {
			for (const sb_command *c = g->commands; c->name != NULL; c++) {
				char line[160];
				if (strncmp(c->name, groups[i], len) != 0 || c->name[len] != ' ')
					continue;
				snprintf(line, sizeof line, "  %s ", c->name);
				if (strstr(text, line) == NULL || strstr(text, c->summary) == NULL)
					row_fails(c, "missing from its group's list", groups[i]);
				listed++;
			}
		}
		assert_true(listed >= 1);
		free(text);
	}
	assert_false(cli_help_group(NULL, "impor"));
	assert_false(cli_help_group(NULL, "init"));
	assert_true(cli_help_group(NULL, "import"));
}

static void test_man_page(void **state)
{
	captured cap;
	char *text;
	size_t examples = 0, rows = 0;

	(void)state;
	capture_start(&cap);
	cli_help_man(cap.f);
	text = capture_end(&cap);
	assert_non_null(strstr(text, ".TH SBLEDGER 1 "));
	for (const char *sh = ".SH NAME\0.SH SYNOPSIS\0.SH COMMANDS\0.SH PERIODS\0.SH EXIT STATUS\0.SH ENVIRONMENT\0";
	     *sh != '\0'; sh += strlen(sh) + 1)
		assert_non_null(strstr(text, sh));
	for (const sb_command_group *g = sb_command_groups; g->title != NULL; g++) {
		for (const sb_command *c = g->commands; c->name != NULL; c++) {
			char ss[96];
			snprintf(ss, sizeof ss, ".SS \"sbledger %s\"\n", c->name);
			if (strstr(text, ss) == NULL)
				row_fails(c, "missing from the man page", NULL);
			rows++;
		}
	}
	for (const char *p = text; (p = strstr(p, "\nExamples:\n")) != NULL; p++)
		examples++;
	assert_int_equal(examples, rows);
	/* nothing that roff would read as a request by accident */
	for (const char *line = text; *line != '\0';) {
		size_t n = strcspn(line, "\n");
		if (line[0] == '\'') {
			print_error("a man page line starts with a quote: %.*s\n", (int)n, line);
			fail();
		}
		/* a line starting with a dot is one of the requests the page
		 * is made of: a line of text starting with one (./sbledger.db)
		 * would be read as an unknown request and vanish from the page */
		if (line[0] == '.') {
			size_t w = strcspn(line, " \n");
			bool known = strncmp(line, ".\\\"", 3) == 0;
			for (const char *rq = ".TH\0.SH\0.SS\0.PP\0.TP\0.nf\0.fi\0"; *rq != '\0' && !known;
			     rq += strlen(rq) + 1)
				known = w == strlen(rq) && strncmp(line, rq, w) == 0;
			if (!known) {
				print_error("a man page line of text starts with a dot: %.*s\n", (int)n, line);
				fail();
			}
		}
		line += n + (line[n] == '\n');
	}
	free(text);
}

static void test_explained(void **state)
{
	(void)state;
	/* the rule itself, at its edges */
	assert_true(explained("  --period P    the runs\n", "period"));
	assert_true(explained("x\n  --strict  all or nothing", "strict"));
	assert_true(explained("    --by day      one a day\n", "by"));
	assert_false(explained("  --period P\n", "period"));              /* no explanation */
	assert_false(explained("  --period P the runs\n", "period"));     /* no gap of two spaces */
	assert_false(explained("--period P    the runs\n", "period"));    /* not indented */
	assert_false(explained("  --periods P    the runs\n", "period")); /* another option */
	assert_false(explained("Use --period P    to choose\n", "period"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explained),
		cmocka_unit_test(test_every_row),
		cmocka_unit_test(test_help_as_printed),
		cmocka_unit_test(test_list_of_commands),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_man_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
