/* main.c: sbledger's entry point: global options, the command table,
 * the ledger each command needs (opened here, never by a command), and
 * the exit status.
 *
 *   sbledger [--db PATH] [--busy-timeout MS] [--quiet] COMMAND [OPTIONS] [ARGS]
 *
 * Global options may stand before or after the command.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "cli/words.h"
#include "ledger/money.h"

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
			cli_help_commands(stdout);
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
			/* an empty path names no ledger: opened, it made "-lock"
			 * here and took the directory for a ledger of many links */
			if (value[0] == '\0')
				return cli_usage(cli, "--db needs a path: an empty one names no ledger");
			cli->db_path = value;
			cli->invoked.db = value;
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

/* Is a an option asking for help? */
static bool is_help(const char *a)
{
	return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

/* sbledger help [COMMAND]: the list of commands, or one command's help, or
 * the subcommands of a group, on stdout. */
static int help(sb_cli *cli, int argc, char **argv)
{
	const sb_command *cmd;
	int words = 0;

	if (argc == 0) {
		cli_help_commands(stdout);
		return 0;
	}
	if (argc == 1 && (strcmp(argv[0], "help") == 0 || is_help(argv[0]))) {
		fputs("usage: sbledger help [COMMAND]\n"
		      "\n"
		      "Explain COMMAND: its options, what it prints and examples (the same as\n"
		      "'sbledger COMMAND --help'); a group (import, report, fetch, export) lists\n"
		      "its commands.  Without COMMAND, list every command with a line on what\n"
		      "it does.  'man sbledger' has all of it.\n"
		      "\n"
		      "Examples:\n"
		      "  sbledger help import billing\n"
		      "  sbledger help report\n",
		      stdout);
		return 0;
	}
	cmd = cli_find_command(argc, argv, &words);
	if (cmd != NULL && words == argc) {
		cli_help_command(stdout, cmd);
		return 0;
	}
	if (cmd == NULL && argc == 1 && cli_help_group(stdout, argv[0]))
		return 0;
	return cli_usage(cli, "help: no command '%s%s%s' ('%s --help' lists them)", argv[0],
	                 argc > 1 ? " " : "", argc > 1 ? argv[1] : "",
	                 cli_invoked_program((char[CLI_INVOKED_MAX]){0}, CLI_INVOKED_MAX));
}

/* argv[0] is no command: the subcommands of a group (on stdout after
 * --help, else a usage error), or an unknown command. */
static int no_command(sb_cli *cli, int argc, char **argv)
{
	if (!cli_help_group(NULL, argv[0]))
		return cli_usage(cli, "unknown command '%s'", argv[0]);
	if (argc > 1 && is_help(argv[1])) {
		cli_help_group(stdout, argv[0]);
		return 0;
	}
	if (argc > 1 && argv[1][0] != '-')
		fprintf(stderr, "sbledger: %s: no subcommand '%s'\n", argv[0], argv[1]);
	else
		fprintf(stderr, "sbledger: %s: which one?\n", argv[0]);
	cli_help_group(stderr, argv[0]);
	return SB_EUSAGE;
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

/* Open the ledger as cli->ledger says into *db (NULL when the command
 * needs none, or opens its own), its clock the command line's
 * (cli_clock: SBLEDGER_NOW when set): SB_OK, or the error in cli->err. */
static int open_ledger(sb_cli *cli, sb_db **db)
{
	int flags = 0;

	*db = NULL;
	if (!(cli->ledger & (CMD_READS | CMD_WRITES | CMD_CREATES)))
		return SB_OK;
	if (cli->ledger & (CMD_WRITES | CMD_CREATES))
		flags |= SB_DB_WRITE;
	if (cli->ledger & CMD_CREATES)
		flags |= SB_DB_CREATE;
	if (sb_db_open(cli->db_path, flags, cli->busy_ms, db, &cli->err) != SB_OK)
		return cli->err.code;
	sb_db_set_clock(*db, cli_clock());
	return SB_OK;
}

/* Run cmd (its own arguments in argv, argv[0] its name): parse them, open
 * the ledger as its row (and its options) say, run it, close the ledger.
 * Returns the exit status. */
static int run_command(sb_cli *cli, const sb_command *cmd, int argc, char **argv)
{
	void *opts = NULL;
	sb_db *db = NULL;
	int status;

	if (cmd->opts_size > 0 && (opts = calloc(1, cmd->opts_size)) == NULL) {
		cli_warn("out of memory");
		return SB_EINTERNAL;
	}
	cli->cmd = cmd;
	cli->ledger = cmd->flags & CMD_LEDGER;
	status = cmd->parse(cli, argc, argv, opts);
	if (status == 0 && open_ledger(cli, &db) != SB_OK) {
		status = cli_report(&cli->err);
		if (cli->unopened != NULL)
			status = cli->unopened(cli, opts, status);
	} else if (status == 0)
		status = cmd->run(cli, db, opts);
	sb_db_close(db);
	free(opts);
	return status < 0 ? 0 : status;   /* -1: --help was answered */
}

int main(int argc, char **argv)
{
	sb_cli cli = {0};
	const sb_command *cmd;
	int words = 1, status;
	bool stdout_closed = reserve_std_fds();

	/* a closed pipe ends sbledger quietly, as it ends git (141 in a
	 * shell), whatever the caller left SIGPIPE at; the fetches ignore it
	 * while they talk to a provider (cli_fetch_run) */
	signal(SIGPIPE, SIG_DFL);
	sb_err_clear(&cli.err);
	cli.db_path = getenv("SBLEDGER_DB");
	if (cli.db_path == NULL || cli.db_path[0] == '\0')
		cli.db_path = "./sbledger.db";
	/* a command the messages suggest begins as this one was run: argv[0]
	 * when it names the program by a path (cron's ./sbledger), else
	 * sbledger as found on PATH; --db once global_options has seen it */
	if (argv[0] != NULL && strchr(argv[0], '/') != NULL)
		cli.invoked.program = argv[0];
	cli_words_invoked(&cli.invoked);
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
		cli_help_commands(stderr);
		status = SB_EUSAGE;
		goto out;
	}
	if (strcmp(argv[1], "help") == 0) {
		status = help(&cli, argc - 2, argv + 2);
		goto out;
	}
	cmd = cli_find_command(argc - 1, argv + 1, &words);
	if (cmd == NULL) {
		status = no_command(&cli, argc - 1, argv + 1);
		goto out;
	}
	/* the command sees its own name as argv[0] */
	status = run_command(&cli, cmd, argc - words, argv + words);
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
