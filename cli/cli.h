/* cli.h: the command-line layer: the command table, options shared by all
 * commands, output formats, and the mapping of errors to messages and exit
 * statuses (docs/rules.md).  Only this layer prints or exits.
 */
#ifndef SB_CLI_H
#define SB_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "importers/import.h"
#include "ledger/db.h"
#include "ledger/err.h"
#include "ledger/quote.h"
#include "report/out.h"

#define SB_VERSION "0.1.0"

struct option;

/* What every command gets. */
typedef struct sb_cli {
	const char *db_path;       /* --db, $SBLEDGER_DB or ./sbledger.db */
	sb_invocation invoked;     /* the program as run, --db as given: what a suggested
	                              command begins with (cli_words_invoked) */
	int busy_ms;               /* --busy-timeout */
	bool quiet;                /* --quiet: no informational output */
	bool stderr_tty;           /* stderr is a terminal (progress lines) */
	bool csv_raw;              /* --raw: CSV free text as it is (commands flagged CMD_CSV) */
	const struct sb_command *cmd; /* the command running */
	unsigned ledger;           /* what main opens the ledger for: the row's CMD_READS,
	                              CMD_WRITES, ... flag, which the command's parse may change
	                              for the options given (reconcile --dry-run only reads) */
	/* what the command's parse asks main to do when the ledger cannot be
	 * opened (nightly's heartbeat), with the command's options and the
	 * exit status of that failure; returns the exit status (NULL: nothing) */
	int (*unopened)(struct sb_cli *cli, void *opts, int status);
	sb_err err;                /* the error to report */
} sb_cli;

/* Flags of a command.  The first four say what it needs of the ledger
 * (at most one; none: it never opens it): main opens the ledger (--db)
 * after the command's parse and before its run, and closes it after, so
 * that no handler opens it, a usage error or --help touches nothing, and
 * a writer holds the write lock from its first read to its last write. */
enum {
	CMD_READS = 1,       /* opened to read (no write lock) */
	CMD_WRITES = 2,      /* opened holding the ledger's write lock */
	CMD_CREATES = 4,     /* init: as CMD_WRITES, and created when missing */
	CMD_OWN_LEDGER = 8,  /* opens the ledgers it names itself (two at once:
	                        copy --from/--to): main opens none, run gets NULL */
	CMD_CSV = 16         /* writes CSV: takes --raw (cli_getopt handles it) */
};

/* The flags that say what a command needs of the ledger. */
#define CMD_LEDGER (CMD_READS | CMD_WRITES | CMD_CREATES | CMD_OWN_LEDGER)

/* A command is two steps.  parse reads argc/argv (argv[0] the command's
 * name) into opts (opts_size zeroed bytes main allocated, NULL when the
 * row's opts_size is 0) and checks everything that needs no ledger: it
 * returns 0 to go on, -1 when --help was answered (exit 0), else the exit
 * status (64 for a usage error), and never opens the ledger.  run does the
 * work with db, the ledger main opened as cli->ledger says (NULL when it
 * says none or CMD_OWN_LEDGER), which main closes after; it returns the
 * exit status. */
typedef int (*sb_cmd_parse_fn)(sb_cli *cli, int argc, char **argv, void *opts);
typedef int (*sb_cmd_run_fn)(sb_cli *cli, sb_db *db, void *opts);

/* One entry of the command table.  The help a user reads (`sbledger
 * COMMAND --help`, `sbledger --help`, the man page) is made from these
 * fields alone (cli/help.c), and tests/test_help.c holds every row to
 * them: a summary, every option it takes (cli_takes: `options`, and --raw
 * when flagged CMD_CSV) explained in `help` on a line of its own
 * ("  --NAME ...") and named in `usage`, and examples. */
typedef struct sb_command {
	const char *name;     /* "import runs" */
	sb_cmd_parse_fn parse; /* its arguments into its options (see above) */
	sb_cmd_run_fn run;    /* the command itself, with the ledger open */
	size_t opts_size;     /* the size of what parse fills and run reads (0: nothing) */
	unsigned flags;       /* CMD_*: what it needs of the ledger, CMD_CSV */
	const char *usage;    /* the arguments; a line break continues them */
	const char *help;     /* what it does, then one "  --NAME ..." line per option */
	const char *summary;  /* one line for the list of commands (lower case, no period) */
	const struct option *options; /* what the handler gives cli_getopt (NULL: none) */
	const char *examples; /* command lines, one a line, "sbledger NAME ..." (# comments) */
} sb_command;

/* The commands of each group, ended by a {NULL} entry (cli/cmd_*.c). */
extern const sb_command sb_ledger_commands[];
extern const sb_command sb_import_commands[];
extern const sb_command sb_rates_commands[];
extern const sb_command sb_report_commands[];
extern const sb_command sb_reconcile_commands[];
extern const sb_command sb_invoice_commands[];
extern const sb_command sb_billing_commands[];
extern const sb_command sb_fetch_commands[];
extern const sb_command sb_nightly_commands[];
extern const sb_command sb_flags_commands[];
extern const sb_command sb_explain_commands[];

/* Does cmd take the option --NAME (the first len bytes of name): one of
 * its row's `options`, or --raw when the row is flagged CMD_CSV.  The
 * help, its test and the usage errors all ask this, so that --raw is
 * explained and named in the usage of every command that takes it. */
bool cli_takes(const sb_command *cmd, const char *name, size_t len);

/* Report a usage error for the running command (message and its usage
 * line on stderr) and return 64. */
int cli_usage(sb_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "sbledger: MESSAGE" on stderr (warnings, rejected lines), one
 * line: a control character in it is written escaped (\n, \xHH). */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print an informational line on stdout unless --quiet (one line, as
 * cli_warn). */
void cli_info(sb_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse the common options of a command with getopt_long.  `longopts`
 * lists the command's own options (ended by a zero entry) and must be the
 * `options` of its command table row (else an internal error, 70: the
 * help would not describe what is parsed); for each one found,
 * `on_opt(cli, ctx, val, optarg)` is called and returns 0 or a usage exit
 * status.  A command flagged CMD_CSV also takes --raw (not in its row's
 * `options`: cli_getopt adds it), which sets cli->csv_raw: the command
 * hands it to what writes its CSV, which then leaves the formula guard
 * off.  --help
 * prints the command's help and returns -1 (the caller then exits 0).  On
 * success *first is the index of the first operand. */
int cli_getopt(sb_cli *cli, int argc, char **argv, const struct option *longopts,
               int (*on_opt)(sb_cli *cli, void *ctx, int val, const char *arg),
               void *ctx, int *first);

/* Parse a --format value among those allowed (bit 1<<FMT_*; sb_format is
 * report/out.h's). */
int cli_format(sb_cli *cli, const char *arg, unsigned allowed, sb_format *out);

/* Parse a --period value. */
struct sb_period;
int cli_period(sb_cli *cli, const char *arg, struct sb_period *out);

/* Parse a money amount (exact decimal, >= 0) given to option name. */
int cli_money(sb_cli *cli, const char *name, const char *arg, int64_t *nanos);

/* Parse a non-negative integer given to option name. */
int cli_int(sb_cli *cli, const char *name, const char *arg, int64_t *out);

/* Parse --catch-up DAYS: how many days back (a century at most, so that
 * the reach stays a time). */
int cli_catch_up(sb_cli *cli, const char *arg, int64_t *days);

/* Parse a duration given to option name: a whole number of hours
 * ("72"), or with a unit s, m, h or d ("72h", "3d", "90m"), at most ten
 * years, into milliseconds. */
int cli_duration(sb_cli *cli, const char *name, const char *arg, int64_t *ms);

/* Check that batch batch_id exists in db (the running command's
 * ledger): SB_OK, or the exit status (65 when there is no such batch)
 * after recording the error in cli->err and printing it. */
int cli_batch_known(sb_cli *cli, sb_db *db, int64_t batch_id);

/* The time now in UTC ms: $SBLEDGER_NOW (an RFC 3339 timestamp) when
 * set, for reproducible tests, else the system clock.  The command line
 * reads it; the library is handed it (cli_clock). */
int64_t cli_now_ms(void);

/* cli_now_ms as the clock of a ledger (ledger/clock.h): main gives it to
 * every ledger it opens for a command, and a command that opens its own
 * (CMD_OWN_LEDGER) gives it to each of them. */
sb_clock cli_clock(void);

/* The test hook of imports ($SBLEDGER_TEST_PAUSE: a file an import
 * creates after its first chunk's commit, then waits until it is gone;
 * importers/import.h), or NULL. */
const char *cli_test_pause(void);

/* The test hook of nightly ($SBLEDGER_TEST_PAUSE_CHECKED: a file nightly
 * creates once it has checked an inbox file, before importing it, then
 * waits until it is gone), or NULL. */
const char *cli_test_pause_checked(void);

/* Tests only: the run import's test settings from the environment: the
 * smallest input that drops the indexes (SBLEDGER_TEST_BULK_MIN, bytes;
 * 0 when unset: the default) and the pause once they are built again
 * (SBLEDGER_TEST_PAUSE_REBUILD, NULL when unset). */
void cli_test_import_opts(sb_import_opts *o);

/* path as an absolute path, into buf: as it is when it begins with '/',
 * else after the working directory, its leading "./" left out; nothing
 * resolved (links and ".." stay as the user named them).  Returns buf,
 * or NULL when the working directory is unknown or it does not fit. */
char *cli_absolute(const char *path, char *buf, size_t cap);

/* Map e to its exit status, printing "sbledger: MESSAGE" with the ways
 * out it names in the command line's words (cli/words.h); 0 when clear. */
int cli_report(const sb_err *e);

#endif
