/* main.c: sbledger's entry point: global options, the command table,
 * and the exit status.
 *
 *   sbledger [--db PATH] [--busy-timeout MS] [--quiet] COMMAND [OPTIONS] [ARGS]
 *
 * Global options may stand before or after the command.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "cli/cli.h"
#include "cli/out.h"
#include "ledger/money.h"
#include "ledger/period.h"

#define SB_VERSION "0.1.0"

/* The value getopt_long returns for --raw (no command uses it). */
#define OPT_RAW 0x152

static const sb_command *const groups[] = {
	sb_ledger_commands, sb_import_commands, sb_rates_commands, sb_report_commands,
	sb_reconcile_commands, sb_billing_commands, sb_fetch_commands, sb_nightly_commands,
	sb_invoice_commands,
};

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("sbledger: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_info(sb_cli *cli, const char *fmt, ...)
{
	va_list ap;

	if (cli->quiet)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
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

void cli_test_wait(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return;
	close(fd);
	while (access(path, F_OK) == 0)
		usleep(10000);
}

int cli_report(const sb_err *e)
{
	if (e->code == SB_OK)
		return 0;
	if (e->msg[0] != '\0')
		cli_warn("%s", e->msg);
	return e->code;
}

int cli_usage(sb_cli *cli, const char *fmt, ...)
{
	va_list ap;

	fputs("sbledger: ", stderr);
	if (cli->cmd != NULL)
		fprintf(stderr, "%s: ", cli->cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (cli->cmd != NULL)
		fprintf(stderr, "usage: sbledger %s%s%s\n(see 'sbledger %s --help')\n", cli->cmd->name,
		        cli->cmd->usage[0] ? " " : "", cli->cmd->usage, cli->cmd->name);
	else
		fputs("usage: sbledger [--db PATH] COMMAND [OPTIONS] [ARGS] (see 'sbledger --help')\n", stderr);
	return SB_EUSAGE;
}

int cli_open(sb_cli *cli, int flags, sb_db **db)
{
	if (cli->cmd != NULL && (cli->cmd->flags & CMD_WRITES))
		flags |= SB_DB_WRITE;
	if (sb_db_open(cli->db_path, flags, cli->busy_ms, db, &cli->err) != SB_OK)
		return cli->err.code;
	return SB_OK;
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
	if (sb_period_parse(arg, sb_now_ms(), out, &e) != SB_OK)
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
	if (errno != 0 || end == arg || *end != '\0' || v < 0)
		return cli_usage(cli, "%s '%s' is not a non-negative whole number", name, arg);
	*out = (int64_t)v;
	return SB_OK;
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

/* Print the help of cmd on stdout. */
static void print_help(const sb_command *cmd)
{
	printf("usage: sbledger [--db PATH] %s%s%s\n\n%s", cmd->name, cmd->usage[0] ? " " : "",
	       cmd->usage, cmd->help);
	if (cmd->help[0] != '\0' && cmd->help[strlen(cmd->help) - 1] != '\n')
		putchar('\n');
}

int cli_getopt(sb_cli *cli, int argc, char **argv, const struct option *longopts,
               int (*on_opt)(sb_cli *cli, void *ctx, int val, const char *arg),
               void *ctx, int *first)
{
	struct option opts[40];
	size_t n = 0;
	int c, rc;

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
			print_help(cli->cmd);
			return -1;
		}
		if (c == '?')
			return cli_usage(cli, "unknown option %s", argv[optind - 1]);
		if (c == ':')
			return cli_usage(cli, "option %s needs a value", argv[optind - 1]);
		if (c == OPT_RAW) {
			cli->csv_raw = true;
			sb_out_set_csv_raw(true);
			continue;
		}
		if ((rc = on_opt(cli, ctx, c, optarg)) != 0)
			return rc;
	}
	*first = optind;
	return 0;
}

/* Print every command, one line each. */
static void print_commands(FILE *f)
{
	fputs("usage: sbledger [--db PATH] [--busy-timeout MS] [--quiet] COMMAND [OPTIONS] [ARGS]\n\n"
	      "The ledger is --db PATH, else $SBLEDGER_DB, else ./sbledger.db.\n\ncommands:\n", f);
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
		for (const sb_command *c = groups[g]; c->name != NULL; c++)
			fprintf(f, "  %-16s%s%s\n", c->name, c->usage[0] ? " " : "", c->usage);
	fputs("\n'sbledger COMMAND --help' tells more.  Exit status: 0 ok, 1 drift flagged,\n"
	      "64 usage, 65 bad input, 66 missing input, 69 provider refused, 70 internal,\n"
	      "74 I/O error, 75 try again later.\n", f);
}

/* The command named by argv[0] (and argv[1] for two-word commands); sets
 * *words to how many arguments its name took. */
static const sb_command *find_command(int argc, char **argv, int *words)
{
	const sb_command *one = NULL;

	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		for (const sb_command *c = groups[g]; c->name != NULL; c++) {
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
	*words = 1;
	return one;
}

/* Print the subcommands of group word (import -> import runs, ...);
 * false when word is no group. */
static bool print_group(const char *word)
{
	size_t len = strlen(word);
	bool any = false;

	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		for (const sb_command *c = groups[g]; c->name != NULL; c++) {
			if (strncmp(c->name, word, len) == 0 && c->name[len] == ' ') {
				if (!any)
					fprintf(stderr, "sbledger: %s: which one?\n", word);
				fprintf(stderr, "  sbledger %s %s\n", c->name, c->usage);
				any = true;
			}
		}
	}
	return any;
}

/* Take the global options out of argv (anywhere before "--"), leaving the
 * command and its own arguments.  Returns 0, a usage status, or -1 when
 * the global --help or --version was answered. */
static int global_options(sb_cli *cli, int *argc, char **argv)
{
	int out = 1;
	bool seen_command = false;

	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		const char *value = NULL;
		if (strcmp(a, "--") == 0) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		if (strcmp(a, "--db") == 0 || strcmp(a, "--busy-timeout") == 0) {
			if (i + 1 >= *argc)
				return cli_usage(cli, "option %s needs a value", a);
			value = argv[++i];
		} else if (strncmp(a, "--db=", 5) == 0 || strncmp(a, "--busy-timeout=", 15) == 0) {
			value = strchr(a, '=') + 1;
		} else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
			cli->quiet = true;
			continue;
		} else if (!seen_command && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
			print_commands(stdout);
			return -1;
		} else if (!seen_command && strcmp(a, "--version") == 0) {
			printf("sbledger %s\n", SB_VERSION);
			return -1;
		} else {
			if (a[0] != '-')
				seen_command = true;
			argv[out++] = argv[i];
			continue;
		}
		if (strncmp(a, "--db", 4) == 0) {
			cli->db_path = value;
		} else {
			int64_t ms = 0;
			if (cli_int(cli, "--busy-timeout", value, &ms) != SB_OK)
				return SB_EUSAGE;
			cli->busy_ms = ms > 86400000 ? 86400000 : (int)ms;
		}
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

/* Keep descriptors 0, 1 and 2 taken: one the caller closed would go to
 * the next file opened (the ledger's write lock, a report) and what is
 * written to that stream would land in it.  A closed one is given
 * /dev/null; returns true when standard output was closed, so that the
 * output is known not to have been written. */
static bool reserve_std_fds(void)
{
	bool stdout_closed = false;

	for (int fd = 0; fd <= 2; fd++) {
		int null_fd;
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		if (fd == STDOUT_FILENO)
			stdout_closed = true;
		null_fd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (null_fd >= 0 && null_fd != fd) {
			dup2(null_fd, fd);
			close(null_fd);
		}
	}
	return stdout_closed;
}

int main(int argc, char **argv)
{
	sb_cli cli = {0};
	const sb_command *cmd;
	int words = 1, status;
	bool stdout_closed = reserve_std_fds();

	signal(SIGPIPE, SIG_IGN);
	sb_err_clear(&cli.err);
	cli.db_path = getenv("SBLEDGER_DB");
	if (cli.db_path == NULL || cli.db_path[0] == '\0')
		cli.db_path = "./sbledger.db";
	cli.busy_ms = 30000;
	cli.stderr_tty = isatty(STDERR_FILENO) != 0;

	/* libcrypto's default context (SHA-256 of files, records and lines)
	 * made now: when memory runs out while OpenSSL 3 makes it on first
	 * use, a later call dereferences its missing lock */
	if (OSSL_LIB_CTX_get0_global_default() == NULL) {
		cli_warn("out of memory (initializing libcrypto)");
		status = SB_EINTERNAL;
		goto out;
	}
	status = global_options(&cli, &argc, argv);
	if (status != 0) {
		if (status < 0)
			status = 0;   /* --help or --version was answered */
		goto out;
	}
	if (argc < 2) {
		print_commands(stderr);
		status = SB_EUSAGE;
		goto out;
	}
	if (strcmp(argv[1], "help") == 0) {
		print_commands(stdout);
		goto out;
	}
	cmd = find_command(argc - 1, argv + 1, &words);
	if (cmd == NULL) {
		if (print_group(argv[1]))
			status = SB_EUSAGE;
		else
			status = cli_usage(&cli, "unknown command '%s'", argv[1]);
		goto out;
	}
	cli.cmd = cmd;
	/* the handler sees its own name as argv[0] */
	status = cmd->fn(&cli, argc - words, argv + words);
	if (status < 0)
		status = 0;
out:
	if (stdout_closed) {
		cli_warn("cannot write the output: %s", strerror(EBADF));
		status = sb_code_worst(status, SB_EIO);
	} else if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		cli_warn("cannot write the output: %s", strerror(errno != 0 ? errno : EIO));
		status = sb_code_worst(status, SB_EIO);
	}
	return status;
}
