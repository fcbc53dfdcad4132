/* cmd_ledger.c: the commands about the ledger itself: init, check,
 * batches, rejects. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/out.h"
#include "ledger/check.h"
#include "ledger/copy.h"

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

/* check's options. */
typedef struct check_opts {
	bool fingerprint;     /* --fingerprint */
} check_opts;

static const struct option check_options[] = {
	{"fingerprint", no_argument, NULL, 'p'},
	{NULL, 0, NULL, 0},
};

static int on_check_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	(void)cli;
	(void)arg;
	if (val != 'p')
		return SB_EUSAGE;
	((check_opts *)ctx)->fingerprint = true;
	return 0;
}

static int parse_check(sb_cli *cli, int argc, char **argv, void *opts)
{
	return no_operands(cli, argc, argv, check_options, on_check_opt, opts);
}

/* copy's options. */
typedef struct copy_opts {
	const char *from;     /* --from LEDGER */
	const char *to;       /* --to LEDGER */
} copy_opts;

static const struct option copy_options[] = {
	{"from", required_argument, NULL, 'f'},
	{"to", required_argument, NULL, 't'},
	{NULL, 0, NULL, 0},
};

static int on_copy_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	copy_opts *co = ctx;

	(void)cli;
	if (val == 'f')
		co->from = arg;
	else if (val == 't')
		co->to = arg;
	else
		return SB_EUSAGE;
	return 0;
}

static int parse_copy(sb_cli *cli, int argc, char **argv, void *opts)
{
	copy_opts *co = opts;
	int rc = no_operands(cli, argc, argv, copy_options, on_copy_opt, co);

	if (rc != 0)
		return rc;
	if (co->from == NULL || co->to == NULL)
		return cli_usage(cli, "needs both --from LEDGER and --to LEDGER");
	if (strcmp(co->from, co->to) == 0)
		return cli_usage(cli, "--from and --to name the same ledger");
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
	         sb_db_created(db) ? "created" : "ready:", sb_db_shown(db), sb_db_schema_version(db));
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

/* What the check could not look at: a note on stderr. */
static void on_note(void *ctx, const char *note)
{
	(void)ctx;
	cli_warn("note: %s", note);
}

/* One line of check --fingerprint: the file, its rows, its sum. */
static void on_print(void *ctx, const char *name, const char *what, size_t what_len, int64_t rows,
                     const char hex[65])
{
	(void)ctx;
	(void)what;
	(void)what_len;
	printf("%-32s %12lld  %s\n", name + strlen("fingerprint/"), (long long)rows, hex);
}

/* check: integrity_check and the ledger's own invariants (ledger/check.h),
 * or with --fingerprint what the ledger holds (ledger/copy.h). */
static int run_check(sb_cli *cli, sb_db *db, void *opts)
{
	sb_check_events ev = {on_problem, on_check, on_note, cli};
	const check_opts *co = opts;
	int64_t problems = 0;

	if (co->fingerprint)
		return sb_ledger_fingerprint(db, on_print, NULL, &cli->err) == SB_OK ? 0 : cli_report(&cli->err);
	if (sb_ledger_check(db, &ev, &problems, &cli->err) != SB_OK)
		return cli_report(&cli->err);
	if (problems > 0) {
		cli_warn("%s: %lld %s found", sb_db_shown(db), (long long)problems,
		         problems == 1 ? "problem" : "problems");
		return SB_EDATA;
	}
	return 0;
}

/* copy: every row of --from into --to (made when missing), checked by
 * their fingerprints before it is committed. */
static int run_copy(sb_cli *cli, sb_db *db, void *opts)
{
	const copy_opts *co = opts;
	sb_db *from = NULL, *to = NULL;
	sb_copy_counts n;
	int status = 0;

	(void)db;
	if (sb_db_open(co->from, 0, cli->busy_ms, &from, &cli->err) != SB_OK ||
	    sb_db_open(co->to, SB_DB_CREATE | SB_DB_WRITE, cli->busy_ms, &to, &cli->err) != SB_OK)
		status = cli_report(&cli->err);
	if (status == 0) {
		sb_db_set_clock(from, cli_clock());
		sb_db_set_clock(to, cli_clock());
		if (sb_ledger_copy(from, to, &n, &cli->err) != SB_OK)
			status = cli_report(&cli->err);
		else
			cli_info(cli, "copied %s to %s: %lld tables, %lld rows; %lld fingerprints equal", sb_db_shown(from),
			         sb_db_shown(to), (long long)n.tables, (long long)n.rows, (long long)n.checked);
	}
	sb_db_close(to);
	sb_db_close(from);
	return status;
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
	{"check", parse_check, run_check, sizeof(check_opts), CMD_READS, "[--fingerprint]",
	 "Check the ledger: the storage's own integrity check (SQLite's\n"
	 "integrity_check; on PostgreSQL the state of its indexes, constraints and\n"
	 "triggers), foreign keys, and the ledger's invariants (each run's\n"
	 "aggregates agree with its executions, every batch keeps as many rejected\n"
	 "lines as it counts, no two live billing lines share a key, the day rollups\n"
	 "hold the sums of the runs, each finalized invoice's total is its lines and\n"
	 "its lines the runs it claims, no run is claimed twice, the triggers that\n"
	 "keep invoices from changing are there, ...).  Prints 'ok' and the name of\n"
	 "each check that holds, 'FAIL' and up to 20 offending rows of each that\n"
	 "does not.\n"
	 "Exit 0 when all hold, 65 when one does not.\n"
	 "  --fingerprint  check nothing: print what the ledger holds, one line per\n"
	 "                 table (its rows and a SHA-256 sum over them, whatever their\n"
	 "                 order and ids), equal for two ledgers that hold the same\n"
	 "                 runs, bills, reconciliations and invoices\n",
	 "check the ledger's integrity and invariants", check_options,
	 "sbledger check\n"
	 "sbledger --quiet check     # prints only what fails\n"
	 "sbledger check --fingerprint\n"},
	{"copy", parse_copy, run_copy, sizeof(copy_opts), CMD_OWN_LEDGER, "--from LEDGER --to LEDGER",
	 "Copy a ledger, exactly (its ids too), into another of either engine: a\n"
	 "SQLite file into a PostgreSQL database or back.  The ledger copied into is\n"
	 "made when missing, and must hold no batch, reconciliation or invoice yet\n"
	 "(65 otherwise); what init seeded there is replaced.  The copy is one\n"
	 "transaction, committed only when every table's fingerprint (check\n"
	 "--fingerprint) equals the original's.  --db is not read.\n"
	 "  --from LEDGER  the ledger to copy (a file, or a postgresql:// URL)\n"
	 "  --to LEDGER    the ledger to copy into\n",
	 "copy a ledger into another, SQLite or PostgreSQL", copy_options,
	 "sbledger copy --from ledger.db --to postgresql://sbledger@db.internal/sbledger\n"
	 "sbledger copy --from postgresql://sbledger@db.internal/sbledger --to back.db\n"},
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
