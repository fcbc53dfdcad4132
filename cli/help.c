/* help.c: the help a user reads, made from the command table (help.h). */
#include "cli/help.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

const sb_command_group sb_command_groups[] = {
	{"The ledger", sb_ledger_commands},
	{"Importing", sb_import_commands},
	{"Billing lines and exchange rates", sb_billing_commands},
	{"Rate cards, backends and token prices", sb_rates_commands},
	{"Reconciliation", sb_reconcile_commands},
	{"Explaining a drift", sb_explain_commands},
	{"Reports", sb_report_commands},
	{"Invoices and export", sb_invoice_commands},
	{"Provider APIs", sb_fetch_commands},
	{"The nightly job", sb_nightly_commands},
	{"Flags", sb_flags_commands},
	{NULL, NULL},
};

/* What sbledger is, for --help and the man page. */
static const char about[] =
	"sbledger brings what AI-agent code sandboxes report they cost (the\n"
	"agent SDK's SandboxUsage: computed) and what the providers bill (billed)\n"
	"into one ledger (a SQLite file, or a PostgreSQL database for a team),\n"
	"reconciles them per backend and per session,\n"
	"explains the drift, and makes summaries, budgets and invoices.\n";

/* The global options, for --help and the man page. */
static const char global_options[] =
	"  --db LEDGER        the ledger (else $SBLEDGER_DB, else ./sbledger.db): a\n"
	"                     SQLite file, or postgresql://USER@HOST:PORT/DBNAME (no\n"
	"                     password in it: ~/.pgpass or PGPASSWORD); 'sbledger\n"
	"                     init' creates it\n"
	"  --busy-timeout MS  wait up to MS milliseconds for another command that\n"
	"                     writes the ledger (default 30000), then exit 75\n"
	"  -q, --quiet        print nothing but what needs a look: warnings,\n"
	"                     flags, errors (for cron)\n"
	"  -h, --help         this list; after a command, that command's help\n"
	"  --version          print the version of sbledger\n";

const char cli_help_periods[] =
	"A period (--period P) is half open, [from, to), in UTC:\n"
	"  2026                    the year\n"
	"  2026-11                 the month\n"
	"  2026-11-29              the day\n"
	"  FROM..TO                from FROM up to TO, TO excluded; each end a\n"
	"                          year, month, date or RFC 3339 timestamp with an\n"
	"                          offset, standing for the instant that starts it\n"
	"                          (2026-11-01..2026-11-16 is the first 15 days;\n"
	"                          2026-11-29T06:00:00Z..2026-11-29T18:00:00Z)\n"
	"  today, yesterday        the UTC day of now, and the day before\n"
	"  this-month, last-month  the UTC month of now, and the month before\n"
	"A run belongs to the period holding its started_at, a billing line to\n"
	"the one holding its charge start.\n";

/* The exit statuses, for --help and the man page. */
static const char exit_statuses[] =
	"  0   success\n"
	"  1   reconciliation flagged something (only with --fail-on-drift)\n"
	"  64  usage error: a wrong option or argument\n"
	"  65  bad input data: rejected lines (the valid ones are committed\n"
	"      unless --strict), a batch, invoice, customer or tag that does not\n"
	"      exist, a ledger file with more than one hard link\n"
	"  66  an input file or the ledger is missing or unreadable, or the\n"
	"      ledger is an empty file\n"
	"  69  a provider refused (401, 402, other 4xx, a redirect refused)\n"
	"  70  internal error\n"
	"  74  I/O error (a full disk, standard output closed); a closed pipe\n"
	"      ends sbledger quietly by SIGPIPE, as git does (141 in a shell)\n"
	"  75  try again later: the ledger locked past --busy-timeout, 429 or\n"
	"      5xx after the retries, a response cut off, a file that changed\n"
	"      while it was read\n";

/* The environment, for the man page. */
static const char environment[] =
	"  SBLEDGER_DB         the ledger when --db is not given\n"
	"  DEEPINFRA_API_KEY   the DeepInfra key of 'fetch' and 'nightly --fetch'\n"
	"  VERCEL_TOKEN        the Vercel token (VERCEL_TEAM_ID or VERCEL_TEAM_SLUG\n"
	"                      names a team)\n"
	"  SBLEDGER_DEEPINFRA_URL, SBLEDGER_VERCEL_URL\n"
	"                      another host for a provider (as --base-url)\n"
	"  SBLEDGER_CA_BUNDLE  a CA bundle to trust instead of the system's\n"
	"  SBLEDGER_HTTP_TIMEOUT_MS, SBLEDGER_HTTP_RETRIES, SBLEDGER_HTTP_BACKOFF_MS\n"
	"                      the defaults of --timeout, --retries and the backoff\n"
	"  SBLEDGER_NOW        an RFC 3339 timestamp that stands for now (tests)\n";

const sb_command *cli_find_command(int argc, char **argv, int *words)
{
	const sb_command *one = NULL;

	*words = 1;
	if (argc < 1)
		return NULL;
	for (const sb_command_group *g = sb_command_groups; g->title != NULL; g++) {
		for (const sb_command *c = g->commands; c->name != NULL; c++) {
			const char *sp = strchr(c->name, ' ');
			if (sp == NULL) {
				if (strcmp(c->name, argv[0]) == 0)
					one = c;
			} else if (argc > 1 && strncmp(c->name, argv[0], (size_t)(sp - c->name)) == 0 &&
			           argv[0][sp - c->name] == '\0' && strcmp(sp + 1, argv[1]) == 0) {
				*words = 2;
				return c;
			}
		}
	}
	return one;
}

/* The length of the usage word at u: up to a space outside brackets (a
 * bracketed or parenthesized group is one word). */
static size_t usage_word(const char *u)
{
	size_t n = 0;
	int depth = 0;

	for (; u[n] != '\0' && (depth > 0 || (u[n] != ' ' && u[n] != '\n')); n++) {
		if (u[n] == '[' || u[n] == '(')
			depth++;
		else if ((u[n] == ']' || u[n] == ')') && depth > 0)
			depth--;
	}
	return n;
}

void cli_help_usage(FILE *f, const char *prefix, const sb_command *cmd)
{
	size_t indent = strlen(prefix) + strlen(cmd->name) + 1, col;
	const char *u = cmd->usage;

	if (indent > 40)
		indent = strlen(prefix);
	fprintf(f, "%s%s", prefix, cmd->name);
	col = indent - 1;
	while (*u != '\0') {
		size_t len;
		while (*u == ' ' || *u == '\n')
			u++;
		if ((len = usage_word(u)) == 0)
			break;
		if (col + 1 + len > 79 && col > indent) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)len, u);
		col += len;
		u += len;
	}
	fputc('\n', f);
}

/* Print text, indented by two spaces a line. */
static void indented(FILE *f, const char *text)
{
	while (*text != '\0') {
		size_t len = strcspn(text, "\n");
		fprintf(f, "  %.*s\n", (int)len, text);
		text += len + (text[len] == '\n');
	}
}

/* The widest command name of all. */
static size_t name_width(void)
{
	size_t w = 0;

	for (const sb_command_group *g = sb_command_groups; g->title != NULL; g++)
		for (const sb_command *c = g->commands; c->name != NULL; c++)
			if (strlen(c->name) > w)
				w = strlen(c->name);
	return w;
}

void cli_help_commands(FILE *f)
{
	int w = (int)name_width();

	fputs("usage: sbledger [--db PATH] [--busy-timeout MS] [--quiet] COMMAND [OPTIONS] [ARGS]\n"
	      "       sbledger help COMMAND     (the same as sbledger COMMAND --help)\n"
	      "       sbledger --version\n\n", f);
	fputs(about, f);
	fputs("\nGlobal options, before or after the command:\n", f);
	fputs(global_options, f);
	for (const sb_command_group *g = sb_command_groups; g->title != NULL; g++) {
		fprintf(f, "\n%s:\n", g->title);
		for (const sb_command *c = g->commands; c->name != NULL; c++)
			fprintf(f, "  %-*s  %s\n", w, c->name, c->summary);
	}
	fputs("\n'sbledger help COMMAND' (or 'sbledger COMMAND --help') explains a command:\n"
	      "its options, its output and examples.  'man sbledger' has all of it.\n"
	      "\nExit status:\n", f);
	fputs(exit_statuses, f);
}

/* Print the commands whose name is prefix and a word more, aligned, under
 * heading (when there are any); returns how many. */
static int subcommands(FILE *f, const char *heading, const char *prefix)
{
	size_t len = strlen(prefix);
	int n = 0, w = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (const sb_command_group *g = sb_command_groups; g->title != NULL; g++) {
			for (const sb_command *c = g->commands; c->name != NULL; c++) {
				if (strncmp(c->name, prefix, len) != 0 || c->name[len] != ' ')
					continue;
				if (pass == 0) {
					if ((int)strlen(c->name) > w)
						w = (int)strlen(c->name);
					continue;
				}
				if (f != NULL && n == 0)
					fputs(heading, f);
				if (f != NULL)
					fprintf(f, "  %-*s  %s\n", w, c->name, c->summary);
				n++;
			}
		}
	}
	return n;
}

void cli_help_command(FILE *f, const sb_command *cmd)
{
	char heading[96];

	cli_help_usage(f, "usage: sbledger ", cmd);
	fprintf(f, "\n%s", cmd->help);
	if (cli_takes(cmd, "period", 6))
		fprintf(f, "\n%s", cli_help_periods);
	snprintf(heading, sizeof heading, "\nSubcommands of %s:\n", cmd->name);
	subcommands(f, heading, cmd->name);
	fputs("\nExamples:\n", f);
	indented(f, cmd->examples);
}

bool cli_help_group(FILE *f, const char *word)
{
	char heading[128];

	snprintf(heading, sizeof heading, "usage: sbledger %s SUBCOMMAND [OPTIONS] [ARGS]\n\n", word);
	if (subcommands(f, heading, word) == 0)
		return false;
	if (f != NULL)
		fprintf(f, "\n'sbledger help %s SUBCOMMAND' explains one.\n", word);
	return true;
}

/* ---- the man page ---------------------------------------------------- */

/* Write one line of text escaped for roff: backslashes, minus signs, and a
 * leading dot or quote that would be read as a request. */
static void roff_line(FILE *f, const char *s, size_t len)
{
	if (len > 0 && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", f);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\')
			fputs("\\e", f);
		else if (s[i] == '-')
			fputs("\\-", f);
		else
			fputc(s[i], f);
	}
	fputc('\n', f);
}

/* Text as roff, line by line: a run of indented lines (option lists,
 * examples, tables) is kept as it is laid out, a run of other lines is a
 * filled paragraph; a blank line ends either. */
static void roff_text(FILE *f, const char *text)
{
	int mode = 0;   /* 0 between runs, 1 in a paragraph, 2 in a literal run */

	while (*text != '\0') {
		size_t len = strcspn(text, "\n");
		int want = len == 0 ? 0 : text[0] == ' ' ? 2 : 1;
		if (want != mode) {
			if (mode == 2)
				fputs(".fi\n", f);
			if (want != 0)
				fputs(want == 2 ? ".PP\n.nf\n" : ".PP\n", f);
			mode = want;
		}
		if (len > 0)
			roff_line(f, text, len);
		text += len + (text[len] == '\n');
	}
	if (mode == 2)
		fputs(".fi\n", f);
}

/* Lines of text, each as it is laid out, in a literal run. */
static void roff_literal(FILE *f, const char *text, const char *indent)
{
	fputs(".PP\n.nf\n", f);
	while (*text != '\0') {
		size_t len = strcspn(text, "\n");
		fputs(indent, f);
		roff_line(f, text, len);
		text += len + (text[len] == '\n');
	}
	fputs(".fi\n", f);
}

void cli_help_man(FILE *f)
{
	fprintf(f, ".\\\" sbledger.1: made by tools/mkman.c from the command table; do not edit.\n"
	           ".TH SBLEDGER 1 \"\" \"sbledger %s\" \"User Commands\"\n"
	           ".SH NAME\n"
	           "sbledger \\- a ledger and reconciliation tool for what AI\\-agent code sandboxes cost\n"
	           ".SH SYNOPSIS\n"
	           ".nf\n"
	           "\\fBsbledger\\fR [\\fB\\-\\-db\\fR \\fIPATH\\fR] [\\fB\\-\\-busy\\-timeout\\fR \\fIMS\\fR] "
	           "[\\fB\\-\\-quiet\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n"
	           "\\fBsbledger help\\fR \\fICOMMAND\\fR\n"
	           "\\fBsbledger \\-\\-version\\fR\n"
	           ".fi\n"
	           ".SH DESCRIPTION\n", SB_VERSION);
	roff_text(f, about);
	fputs(".SH GLOBAL OPTIONS\n", f);
	roff_text(f, global_options);
	fputs(".SH COMMANDS\n", f);
	for (const sb_command_group *g = sb_command_groups; g->title != NULL; g++) {
		for (const sb_command *c = g->commands; c->name != NULL; c++) {
			char *usage = NULL;
			size_t size = 0;
			FILE *u = open_memstream(&usage, &size);
			fprintf(f, ".SS \"sbledger %s\"\n", c->name);
			fputs(".PP\n", f);
			roff_line(f, c->summary, strlen(c->summary));
			if (u != NULL) {
				cli_help_usage(u, "sbledger ", c);
				fclose(u);
				if (usage != NULL)
					roff_literal(f, usage, "");
			}
			free(usage);
			roff_text(f, c->help);
			if (cli_takes(c, "period", 6))
				fputs(".PP\nThe period forms are under PERIODS below.\n", f);
			fputs(".PP\nExamples:\n", f);
			roff_literal(f, c->examples, "  ");
		}
	}
	fputs(".SH PERIODS\n", f);
	roff_text(f, cli_help_periods);
	fputs(".SH EXIT STATUS\n", f);
	roff_text(f, exit_statuses);
	fputs(".SH ENVIRONMENT\n", f);
	roff_text(f, environment);
	fputs(".SH FILES\n"
	      ".TP\n\\&./sbledger.db\n"
	      "the ledger when neither \\-\\-db nor SBLEDGER_DB names one; beside it\n"
	      "its \\-wal, \\-shm and \\-lock files (all mode 0600)\n"
	      ".SH SEE ALSO\n"
	      "\\fBsqlite3\\fR(1), \\fBpsql\\fR(1), and the project's docs: docs/rules.md (money, time, periods,\n"
	      "the ledger), docs/formats\\-runs.md and docs/formats\\-billing.md (what is\n"
	      "imported), docs/reconcile.md, docs/reports.md, docs/providers.md (the APIs and\n"
	      "the nightly job), docs/postgresql.md (a PostgreSQL ledger).\n", f);
}
