/* cli.c: what every command shares: messages, usage errors, parsing
 * option values (see cli.h). */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/help.h"
#include "cli/words.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"

/* Write the message fmt, ap as one line on f after prefix: a control
 * character that reached it all the same (names are quoted where they
 * are put in: ledger/quote.h) is written escaped (\n, \t, \r, \e, \xHH),
 * so that a message is always one line and never drives the terminal. */
static void put_line(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	char small[1024], *text = small;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= (int)sizeof small && (text = malloc((size_t)n + 1)) != NULL)
		vsnprintf(text, (size_t)n + 1, fmt, again);
	else if (text == NULL)
		text = small;
	va_end(again);
	fputs(prefix, f);
	for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
		if (*p >= 0x20 && *p != 0x7F) {
			fputc(*p, f);
			continue;
		}
		switch (*p) {
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		case 0x1B: fputs("\\e", f); break;
		default: fprintf(f, "\\x%02X", *p); break;
		}
	}
	fputc('\n', f);
	if (text != small)
		free(text);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_line(stderr, "sbledger: ", fmt, ap);
	va_end(ap);
}

void cli_info(sb_cli *cli, const char *fmt, ...)
{
	va_list ap;

	if (cli->quiet)
		return;
	va_start(ap, fmt);
	put_line(stdout, "", fmt, ap);
	va_end(ap);
}

int64_t cli_now_ms(void)
{
	const char *fixed = getenv("SBLEDGER_NOW");
	int64_t ms;

	if (fixed != NULL && sb_time_parse(fixed, strlen(fixed), 0, &ms) == SB_TIME_OK)
		return ms;
	return sb_clock_system_ms();
}

/* cli_now_ms as a clock function. */
static int64_t now_ms(void *ctx)
{
	(void)ctx;
	return cli_now_ms();
}

sb_clock cli_clock(void)
{
	return (sb_clock){now_ms, NULL};
}

const char *cli_test_pause(void)
{
	const char *path = getenv("SBLEDGER_TEST_PAUSE");

	return path != NULL && path[0] != '\0' ? path : NULL;
}

void cli_test_import_opts(sb_import_opts *o)
{
	const char *min = getenv("SBLEDGER_TEST_BULK_MIN");
	const char *rebuild = getenv("SBLEDGER_TEST_PAUSE_REBUILD");

	if (min != NULL && min[0] >= '0' && min[0] <= '9')
		o->bulk_min = strtoll(min, NULL, 10);
	o->rebuild_pause_path = rebuild != NULL && rebuild[0] != '\0' ? rebuild : NULL;
}

const char *cli_test_pause_checked(void)
{
	const char *path = getenv("SBLEDGER_TEST_PAUSE_CHECKED");

	return path != NULL && path[0] != '\0' ? path : NULL;
}

char *cli_absolute(const char *path, char *buf, size_t cap)
{
	char cwd[PATH_MAX];
	int n;

	if (path[0] == '/') {
		n = snprintf(buf, cap, "%s", path);
	} else {
		if (getcwd(cwd, sizeof cwd) == NULL)
			return NULL;
		while (path[0] == '.' && path[1] == '/')
			for (path += 2; path[0] == '/'; path++)
				;
		if (strcmp(path, ".") == 0)
			path = "";
		n = snprintf(buf, cap, "%s%s%s", cwd, strcmp(cwd, "/") != 0 && path[0] != '\0' ? "/" : "", path);
	}
	return n >= 0 && (size_t)n < cap ? buf : NULL;
}

int cli_report(const sb_err *e)
{
	char msg[SB_ERR_MSG_MAX + CLI_INVOKED_MAX + 256];   /* room for the commands it suggests */

	if (e->code == SB_OK)
		return 0;
	if (e->msg[0] != '\0') {
		snprintf(msg, sizeof msg, "%s", e->msg);
		cli_words(msg, sizeof msg);
		cli_warn("%s", msg);
	}
	return e->code;
}

int cli_usage(sb_cli *cli, const char *fmt, ...)
{
	char program[CLI_INVOKED_MAX];
	va_list ap;

	fputs("sbledger: ", stderr);
	if (cli->cmd != NULL)
		fprintf(stderr, "%s: ", cli->cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (cli->cmd != NULL) {
		cli_help_usage(stderr, "usage: sbledger ", cli->cmd);
		fprintf(stderr, "(see '%s %s --help')\n", cli_invoked_program(program, sizeof program),
		        cli->cmd->name);
	} else {
		fprintf(stderr, "usage: sbledger [--db PATH] COMMAND [OPTIONS] [ARGS] (see '%s --help')\n",
		        cli_invoked_program(program, sizeof program));
	}
	return SB_EUSAGE;
}

int cli_format(sb_cli *cli, const char *arg, unsigned allowed, sb_format *out)
{
	static const char *const names[] = {"table", "csv", "json", "html"};
	char list[64] = "";

	for (unsigned i = 0; i < 4; i++) {
		if (!(allowed & (1u << i)))
			continue;
		if (strcmp(arg, names[i]) == 0) {
			*out = (sb_format)i;
			return SB_OK;
		}
		strcat(list, list[0] ? ", " : "");
		strcat(list, names[i]);
	}
	return cli_usage(cli, "--format '%s' is not one of %s", arg, list);
}

int cli_period(sb_cli *cli, const char *arg, sb_period *out)
{
	sb_err e;

	sb_err_clear(&e);
	if (sb_period_parse(arg, cli_now_ms(), out, &e) != SB_OK)
		return cli_usage(cli, "%s", e.msg);
	return SB_OK;
}

int cli_money(sb_cli *cli, const char *name, const char *arg, int64_t *nanos)
{
	if (sb_money_parse(arg, strlen(arg), nanos) != SB_MONEY_OK)
		return cli_usage(cli, "%s '%s' is not a decimal amount", name, arg);
	if (*nanos < 0)
		return cli_usage(cli, "%s '%s' is negative", name, arg);
	return SB_OK;
}

int cli_int(sb_cli *cli, const char *name, const char *arg, int64_t *out)
{
	char *end = NULL;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno == ERANGE && end != arg && *end == '\0' && v > 0)
		return cli_usage(cli, "%s '%s' is too large (at most %lld)", name, arg, LLONG_MAX);
	if (errno != 0 || end == arg || *end != '\0' || v < 0)
		return cli_usage(cli, "%s '%s' is not a non-negative whole number", name, arg);
	*out = (int64_t)v;
	return SB_OK;
}

int cli_catch_up(sb_cli *cli, const char *arg, int64_t *days)
{
	if (cli_int(cli, "--catch-up", arg, days) != 0)
		return SB_EUSAGE;
	return *days <= 36600 ? 0 : cli_usage(cli, "--catch-up: '%s' days is more than a century (36600)", arg);
}

int cli_duration(sb_cli *cli, const char *name, const char *arg, int64_t *ms)
{
	static const struct { char unit; int64_t ms; } units[] = {
		{'s', 1000}, {'m', 60000}, {'h', 3600000}, {'d', 86400000},
	};
	char *end = NULL;
	long long v;
	int64_t per = 3600000;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno == 0 && end != arg && *arg >= '0' && *arg <= '9' && v >= 0 && *end != '\0' &&
	    end[1] == '\0') {
		per = 0;
		for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
			if (units[i].unit == *end)
				per = units[i].ms;
	}
	if (errno != 0 || end == arg || *arg < '0' || *arg > '9' || v < 0 || per == 0 ||
	    (*end != '\0' && end[1] != '\0'))
		return cli_usage(cli, "%s '%s' is not a duration (a whole number of hours, or with a unit: 72h, 3d, 90m, 30s)",
		                 name, arg);
	if (v > 3650LL * 86400000 / per)
		return cli_usage(cli, "%s '%s' is longer than ten years", name, arg);
	*ms = (int64_t)v * per;
	return SB_OK;
}

/* The value getopt_long returns for --raw (no command uses it). */
#define OPT_RAW 0x152

bool cli_takes(const sb_command *cmd, const char *name, size_t len)
{
	if ((cmd->flags & CMD_CSV) && len == 3 && strncmp(name, "raw", 3) == 0)
		return true;
	for (const struct option *o = cmd->options; o != NULL && o->name != NULL; o++)
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
			return true;
	return false;
}

/* A usage error for an option the running command does not take, naming
 * the commands of its group that do ("fetch billing and fetch usage take
 * it"), for an option given to the wrong one of them. */
static int unknown_option(sb_cli *cli, const char *arg)
{
	const char *cmd = cli->cmd != NULL ? cli->cmd->name : "";
	size_t group = strcspn(cmd, " "), len;
	char others[256] = "";
	int n = 0;

	if (strncmp(arg, "--", 2) != 0)
		return cli_usage(cli, "unknown option %s", arg);
	len = strcspn(arg + 2, "=");
	for (const sb_command_group *g = sb_command_groups; g->title != NULL; g++) {
		for (const sb_command *c = g->commands; c->name != NULL; c++) {
			if (c == cli->cmd || strncmp(c->name, cmd, group) != 0 ||
			    (c->name[group] != ' ' && c->name[group] != '\0'))
				continue;
			if (!cli_takes(c, arg + 2, len) || strlen(others) + strlen(c->name) + 8 >= sizeof others)
				continue;
			if (n++ > 0)
				strcat(others, " and ");
			strcat(others, c->name);
		}
	}
	if (n == 0)
		return cli_usage(cli, "unknown option %s", arg);
	return cli_usage(cli, "unknown option %.*s (%s %s it)", (int)(len + 2), arg, others, n == 1 ? "takes" : "take");
}

/* Is word "--NAME=VALUE" for an option NAME (of value val) that takes no
 * value?  getopt_long then sets optopt to val, as for an unknown short
 * option. */
static bool long_with_value(const struct option *opts, const char *word, int val)
{
	size_t len = strcspn(word, "=");

	if (strncmp(word, "--", 2) != 0 || word[len] != '=')
		return false;
	for (; opts->name != NULL; opts++)
		if (opts->val == val && opts->has_arg == no_argument && strlen(opts->name) == len - 2 &&
		    strncmp(opts->name, word + 2, len - 2) == 0)
			return true;
	return false;
}

int cli_getopt(sb_cli *cli, int argc, char **argv, const struct option *longopts,
               int (*on_opt)(sb_cli *cli, void *ctx, int val, const char *arg),
               void *ctx, int *first)
{
	struct option opts[40];
	size_t n = 0;
	int c, rc;

	if (cli->cmd != NULL && longopts != cli->cmd->options) {
		cli_warn("internal error: '%s' parses other options than its command table row lists",
		         cli->cmd->name);
		return SB_EINTERNAL;
	}
	for (; longopts != NULL && longopts[n].name != NULL && n < 37; n++)
		opts[n] = longopts[n];
	opts[n++] = (struct option){"help", no_argument, NULL, 'h'};
	if (cli->cmd != NULL && (cli->cmd->flags & CMD_CSV))
		opts[n++] = (struct option){"raw", no_argument, NULL, OPT_RAW};
	opts[n] = (struct option){NULL, 0, NULL, 0};
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'h') {
			cli_help_command(stdout, cli->cmd);
			return -1;
		}
		if (c == '?' && optopt != 0 && !long_with_value(opts, argv[optind - 1], optopt)) {
			/* a short option, perhaps inside a cluster ("-xy", a name
			 * such as "-2+3"): optind may still point at its word */
			char shown[3] = {'-', (char)optopt, '\0'};
			return unknown_option(cli, shown);
		}
		if (c == '?' && optopt != 0)
			return cli_usage(cli, "option %.*s takes no value", (int)strcspn(argv[optind - 1], "="),
			                 argv[optind - 1]);
		if (c == '?')
			return unknown_option(cli, argv[optind - 1]);
		if (c == ':')
			return cli_usage(cli, "option %s needs a value", argv[optind - 1]);
		if (c == OPT_RAW) {
			cli->csv_raw = true;
			continue;
		}
		if ((rc = on_opt(cli, ctx, c, optarg)) != 0)
			return rc;
	}
	*first = optind;
	return 0;
}

int cli_batch_known(sb_cli *cli, sb_db *db, int64_t batch_id)
{
	sb_stmt *st;
	bool exists = false;
	int64_t newest = 0;

	if ((st = sb_db_stmt(db, "batch_exists", &cli->err)) != NULL) {
		sb_bind_i64(db, st, ":batch_id", batch_id);
		if (sb_db_step(db, st, &cli->err) == SB_ROW) {
			exists = sb_col_int(st, 0) != 0;
			newest = sb_col_i64(st, 1);
		}
		sb_stmt_reset(st);
	}
	if (cli->err.code == SB_OK && !exists) {
		char run[CLI_INVOKED_MAX];
		if (newest > 0)
			sb_fail(&cli->err, SB_EDATA, "no batch %lld in %s (the newest is batch %lld; '%s batches' lists them)",
			        (long long)batch_id, sb_db_shown(db), (long long)newest,
			        cli_invoked_words(run, sizeof run));
		else
			sb_fail(&cli->err, SB_EDATA, "no batch %lld in %s: nothing has been imported into it yet",
			        (long long)batch_id, sb_db_shown(db));
	}
	return cli->err.code == SB_OK ? SB_OK : cli_report(&cli->err);
}
