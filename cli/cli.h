/* cli.h: the command-line layer: the command table, options shared by all
 * commands, output formats, and the mapping of errors to messages and exit
 * statuses (docs/rules.md).  Only this layer prints or exits.
 */
#ifndef SB_CLI_H
#define SB_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "importers/import.h"
#include "ledger/db.h"
#include "ledger/err.h"

/* What every command gets. */
typedef struct sb_cli {
	const char *db_path;       /* --db, $SBLEDGER_DB or ./sbledger.db */
	int busy_ms;               /* --busy-timeout */
	bool quiet;                /* --quiet: no informational output */
	bool stderr_tty;           /* stderr is a terminal (progress lines) */
	bool csv_raw;              /* --raw: CSV free text as it is (commands flagged CMD_CSV) */
	const struct sb_command *cmd; /* the command running */
	sb_err err;                /* the error to report */
} sb_cli;

/* Flags of a command. */
enum {
	CMD_WRITES = 1,  /* takes the ledger's write lock */
	CMD_CSV = 2      /* writes CSV: takes --raw (cli_getopt handles it) */
};

typedef int (*sb_cmd_fn)(sb_cli *cli, int argc, char **argv);

/* One entry of the command table. */
typedef struct sb_command {
	const char *name;     /* "import runs" */
	sb_cmd_fn fn;         /* its handler: returns an exit status */
	unsigned flags;       /* CMD_* */
	const char *usage;    /* one line: the arguments */
	const char *help;     /* what it does, its options (lines) */
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

/* Open the ledger for the running command (write lock when it writes);
 * returns SB_OK or the exit status after recording the error. */
int cli_open(sb_cli *cli, int flags, sb_db **db);

/* Report a usage error for the running command (message and its usage
 * line on stderr) and return 64. */
int cli_usage(sb_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "sbledger: MESSAGE" on stderr (warnings, rejected lines). */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print an informational line on stdout unless --quiet. */
void cli_info(sb_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse the common options of a command with getopt_long.  `longopts`
 * lists the command's own options (ended by a zero entry); for each one
 * found, `on_opt(cli, ctx, val, optarg)` is called and returns 0 or a
 * usage exit status.  --help prints the command's help and returns -1
 * (the caller then exits 0).  A command flagged CMD_CSV also takes --raw,
 * which sets cli->csv_raw and turns the formula guard of the CSV listings
 * off (sb_out_set_csv_raw).  On success *first is the index of the first
 * operand. */
struct option;
int cli_getopt(sb_cli *cli, int argc, char **argv, const struct option *longopts,
               int (*on_opt)(sb_cli *cli, void *ctx, int val, const char *arg),
               void *ctx, int *first);

/* Output formats. */
typedef enum { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_HTML } sb_format;

/* Parse a --format value among those allowed (bit 1<<FMT_*). */
int cli_format(sb_cli *cli, const char *arg, unsigned allowed, sb_format *out);

/* Parse a --period value. */
struct sb_period;
int cli_period(sb_cli *cli, const char *arg, struct sb_period *out);

/* Parse a money amount (exact decimal, >= 0) given to option name. */
int cli_money(sb_cli *cli, const char *name, const char *arg, int64_t *nanos);

/* Parse a non-negative integer given to option name. */
int cli_int(sb_cli *cli, const char *name, const char *arg, int64_t *out);

/* Parse a duration given to option name: a whole number of hours
 * ("72"), or with a unit s, m, h or d ("72h", "3d", "90m"), at most ten
 * years, into milliseconds. */
int cli_duration(sb_cli *cli, const char *name, const char *arg, int64_t *ms);

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

/* Create path and wait until it is removed (polling every 10 ms): the
 * test hooks. */
void cli_test_wait(const char *path);

/* Map e to its exit status, printing "sbledger: MESSAGE"; 0 when clear. */
int cli_report(const sb_err *e);

#endif
