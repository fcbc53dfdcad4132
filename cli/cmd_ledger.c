/* cmd_ledger.c: the commands about the ledger itself: init, check,
 * batches, rejects. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/out.h"
#include "ledger/check.h"

/* Options shared by the listing commands. */
typedef struct list_opts {
	sb_format fmt;        /* --format */
	bool has_batch;       /* --batch given */
	int64_t batch;        /* --batch N */
} list_opts;

/* Handle one option of a listing command. */
static int on_list_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	list_opts *lo = ctx;

	if (val == 'f')
		return cli_format(cli, arg, 1u << FMT_TABLE | 1u << FMT_CSV | 1u << FMT_JSON, &lo->fmt);
	if (val == 'b') {
		lo->has_batch = true;
		return cli_int(cli, "--batch", arg, &lo->batch);
	}
	return SB_EUSAGE;
}

static const struct option batches_options[] = {
	{"format", required_argument, NULL, 'f'},
	{NULL, 0, NULL, 0},
};

static const struct option rejects_options[] = {
	{"batch", required_argument, NULL, 'b'},
	{"format", required_argument, NULL, 'f'},
	{NULL, 0, NULL, 0},
};

/* Reject any option: for commands that take none. */
static int on_no_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	(void)ctx;
	(void)val;
	(void)arg;
	return cli_usage(cli, "takes no options");
}

/* Parse a command's options and refuse operands; -1 after --help. */
static int no_operands(sb_cli *cli, int argc, char **argv, const struct option *opts,
                       int (*on_opt)(sb_cli *, void *, int, const char *), void *ctx)
{
	int first = 0;
	int rc = cli_getopt(cli, argc, argv, opts, on_opt, ctx, &first);

	if (rc != 0)
		return rc;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	return 0;
}

/* init and check: no options, no operands. */
static int parse_none(sb_cli *cli, int argc, char **argv, void *opts)
{
	(void)opts;
	return no_operands(cli, argc, argv, NULL, on_no_opt, NULL);
}

/* init: create the ledger, or check and migrate an existing one (main
 * opened it, creating it when missing). */
static int run_init(sb_cli *cli, sb_db *db, void *opts)
{
	(void)opts;
	cli_info(cli, "%s ledger %s (schema version %d)",
	         sb_db_created(db) ? "created" : "ready:", cli->db_path, sb_db_schema_version(db));
	return 0;
}

enum { SHOWN_PER_CHECK = 20 };   /* rows of a failing check printed */

/* A row that breaks a check: the first SHOWN_PER_CHECK printed. */
static void on_problem(void *ctx, const char *row, int64_t index)
{
	(void)ctx;
	if (index < SHOWN_PER_CHECK)
		printf("FAIL %s\n", row);
}

/* A check ran: 'ok' and what it holds, or how many rows were not shown. */
static void on_check(void *ctx, const char *what, size_t what_len, int64_t problems)
{
	sb_cli *cli = ctx;

	if (problems > SHOWN_PER_CHECK)
		printf("FAIL ... and %lld more\n", (long long)(problems - SHOWN_PER_CHECK));
	if (problems == 0)
		cli_info(cli, "ok   %.*s", (int)what_len, what);
}

/* check: integrity_check and the ledger's own invariants (ledger/check.h). */
static int run_check(sb_cli *cli, sb_db *db, void *opts)
{
	sb_check_events ev = {on_problem, on_check, cli};
	int64_t problems = 0;

	(void)opts;
	if (sb_ledger_check(db, &ev, &problems, &cli->err) != SB_OK)
		return cli_report(&cli->err);
	if (problems > 0) {
		cli_warn("%s: %lld %s found", cli->db_path, (long long)problems,
		         problems == 1 ? "problem" : "problems");
		return SB_EDATA;
	}
	return 0;
}

/* The columns of batches. */
static const sb_col batch_cols[] = {
	{"batch_id", COL_INT, 0}, {"kind", COL_TEXT, 0}, {"format", COL_TEXT, 0},
	{"source", COL_TEXT, SB_KEEP_END(40)}, {"sha256", COL_TEXT, 15}, {"status", COL_TEXT, 0},
	{"started_at", COL_TIME, 0}, {"ended_at", COL_TIME, 0}, {"accepted", COL_INT, 0},
	{"duplicates", COL_INT, 0}, {"rejected", COL_INT, 0}, {"replaced", COL_INT, 0},
	{"skipped", COL_INT, 0},
};

/* batches and rejects: their options, no operands. */
static int parse_list(sb_cli *cli, int argc, char **argv, void *opts)
{
	list_opts *lo = opts;

	lo->fmt = FMT_TABLE;
	return no_operands(cli, argc, argv, cli->cmd->options, on_list_opt, lo);
}

/* batches: list import batches. */
static int run_batches(sb_cli *cli, sb_db *db, void *opts)
{
	const list_opts *lo = opts;

	return cli_list(cli, db, lo->fmt, batch_cols, sizeof batch_cols / sizeof batch_cols[0], "batch_list",
	                NULL, NULL);
}

/* Bind the batch of rejects (NULL: every batch). */
static void bind_batch(sb_db *db, sb_stmt *st, const void *ctx)
{
	const list_opts *lo = ctx;

	sb_bind_i64_opt(db, st, ":batch_id", lo->has_batch, lo->batch);
}

/* rejects: list rejected lines with their reasons. */
static int run_rejects(sb_cli *cli, sb_db *db, void *opts)
{
	static const sb_col cols[] = {
		{"batch_id", COL_INT, 0}, {"line", COL_INT, 0}, {"reason", COL_TEXT, 0},
		{"content", COL_TEXT, 50}, {"length", COL_COUNT, 0},
	};
	const list_opts *lo = opts;
	int rc;

	if (lo->has_batch && (rc = cli_batch_known(cli, db, lo->batch)) != SB_OK)
		return rc;
	return cli_list(cli, db, lo->fmt, cols, sizeof cols / sizeof cols[0], "reject_list", bind_batch, lo);
}

const sb_command sb_ledger_commands[] = {
	{"init", parse_none, run_init, 0, CMD_CREATES, "",
	 "Create the ledger (mode 0600, for it holds finance data) with its schema,\n"
	 "the seeded rate cards and the backends' capabilities; or check and\n"
	 "migrate an existing one.  Idempotent: running it again changes nothing.\n"
	 "Every other command refuses a ledger that does not exist and names\n"
	 "'sbledger init'.  A file that is not a ledger (another program's SQLite\n"
	 "database, not SQLite at all, or a ledger of a newer sbledger) is refused\n"
	 "and left untouched (65).  An empty file (0 bytes) is no ledger yet: every\n"
	 "other command refuses it (66) and init makes a ledger of it.  A ledger\n"
	 "file with more than one hard link is refused by every command, init too\n"
	 "(65; copy a ledger with sqlite3's .backup instead).\n",
	 "create the ledger, or check and migrate an existing one", NULL,
	 "sbledger init\n"
	 "sbledger --db /srv/sbledger/ledger.db init\n"},
	{"check", parse_none, run_check, 0, CMD_READS, "",
	 "Check the ledger: SQLite's integrity check, foreign keys, and the ledger's\n"
	 "invariants (each run's aggregates agree with its executions, every batch\n"
	 "keeps as many rejected lines as it counts, no two live billing lines share\n"
	 "a key, the day rollups hold the sums of the runs, ...).  Prints 'ok' and\n"
	 "the name of each check that holds, 'FAIL' and up to 20 offending rows of\n"
	 "each that does not.  Exit 0 when all hold, 65 when one does not.\n",
	 "check the ledger's integrity and invariants", NULL,
	 "sbledger check\n"
	 "sbledger --quiet check     # prints only what fails\n"},
	{"batches", parse_list, run_batches, sizeof(list_opts), CMD_READS | CMD_CSV,
	 "[--format table|csv|json] [--raw]",
	 "List the import batches, oldest first: each file, standard input or\n"
	 "provider response imported, with its kind, format, source, SHA-256,\n"
	 "status (running, complete, interrupted, failed), start and end, and its\n"
	 "counts (accepted, duplicates, rejected, replaced, skipped).  A table cuts\n"
	 "a long source from the left, keeping the file name, and a SHA-256 to its\n"
	 "first 12 digits; csv and json give them whole.\n"
	 "\n"
	 "  --format F   table (default), csv or json\n"
	 "  --raw        CSV: no ' before free text starting with = + - @ tab CR\n",
	 "list the import batches: sources, SHA-256, status, counts", batches_options,
	 "sbledger batches\n"
	 "sbledger batches --format json\n"},
	{"rejects", parse_list, run_rejects, sizeof(list_opts), CMD_READS | CMD_CSV,
	 "[--batch N] [--format table|csv|json] [--raw]",
	 "List the rejected lines: each kept verbatim (its first 64 KiB) with its\n"
	 "batch, line number, reason and full length, in batch and line order.\n"
	 "\n"
	 "  --batch N    only the lines batch N rejected (65 when there is no\n"
	 "               batch N)\n"
	 "  --format F   table (default), csv or json\n"
	 "  --raw        CSV: no ' before free text starting with = + - @ tab CR\n",
	 "list the rejected lines, verbatim, with their reasons", rejects_options,
	 "sbledger rejects\n"
	 "sbledger rejects --batch 2 --format csv > rejected.csv\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
