/* cmd_import.c: import runs FILE... */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "importers/import.h"

enum { MAX_SHOWN_REJECTS = 20 };

/* Options of the import commands. */
typedef struct import_cli {
	sb_import_opts opts;   /* what the driver gets */
	int64_t shown;         /* rejects printed for the current file */
	bool progress;         /* print progress lines (stderr is a terminal) */
} import_cli;

/* Print a rejected line on stderr, the first MAX_SHOWN_REJECTS of a file. */
static void on_reject(void *ctx, const char *source, int64_t line_no, const char *reason)
{
	import_cli *ic = ctx;

	if (ic->shown++ < MAX_SHOWN_REJECTS)
		cli_warn("%s:%lld: %s", source, (long long)line_no, reason);
}

/* A progress line on a terminal. */
static void on_progress(void *ctx, const char *source, int64_t done, int64_t total)
{
	import_cli *ic = ctx;

	if (!ic->progress)
		return;
	if (total > 0)
		fprintf(stderr, "\rsbledger: %s: %lld%%", source, (long long)(done * 100 / total));
	else
		fprintf(stderr, "\rsbledger: %s: %lld MB", source, (long long)(done >> 20));
}

/* Handle one option of import runs. */
static int on_import_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	import_cli *ic = ctx;

	switch (val) {
	case 's': ic->opts.strict = true; return 0;
	case 'r': ic->opts.replace = true; return 0;
	case 'F': ic->opts.force = true; return 0;
	case 'c': return cli_int(cli, "--chunk", arg, &ic->opts.chunk);
	default: return SB_EUSAGE;
	}
}

static const struct option import_options[] = {
	{"strict", no_argument, NULL, 's'},
	{"replace", no_argument, NULL, 'r'},
	{"force", no_argument, NULL, 'F'},
	{"chunk", required_argument, NULL, 'c'},
	{NULL, 0, NULL, 0},
};

/* Print what the import of one file did. */
static void print_result(sb_cli *cli, const char *path, const sb_import_result *r)
{
	const sb_batch *b = &r->batch;
	char replaced[48] = "";

	if (r->already > 0) {
		cli_info(cli, "%s: already imported as batch %lld (--force reads it again)", path,
		         (long long)r->already);
		return;
	}
	if (b->replaced > 0)
		snprintf(replaced, sizeof replaced, " (%lld replaced)", (long long)b->replaced);
	cli_info(cli, "batch %lld: %s: %lld accepted%s, %lld duplicates, %lld rejected%s",
	         (long long)b->id, path, (long long)b->accepted, replaced,
	         (long long)b->duplicates, (long long)b->rejected,
	         b->resumed ? " (resumed an interrupted import)" : "");
}

/* import runs: import run-usage JSON Lines files. */
static int cmd_import_runs(sb_cli *cli, int argc, char **argv)
{
	import_cli ic = {{0}, 0, cli->stderr_tty && !cli->quiet};
	sb_db *db = NULL;
	int first = 0, status = 0;
	int rc = cli_getopt(cli, argc, argv, import_options, on_import_opt, &ic, &first);

	if (rc != 0)
		return rc;
	if (first >= argc)
		return cli_usage(cli, "no FILE given (use - for standard input)");
	ic.opts.events = (sb_import_events){on_reject, on_progress, &ic};
	if (cli_open(cli, 0, &db) != SB_OK)
		return cli_report(&cli->err);
	for (int i = first; i < argc; i++) {
		sb_import_result r;
		sb_err e;
		sb_err_clear(&e);
		ic.shown = 0;
		rc = sb_import_runs(db, argv[i], &ic.opts, &r, &e);
		if (ic.progress)
			fputs("\r\033[K", stderr);
		if (ic.shown > MAX_SHOWN_REJECTS)
			cli_warn("%s: ... and %lld more rejected lines", argv[i],
			         (long long)(ic.shown - MAX_SHOWN_REJECTS));
		if (rc == SB_OK || (rc == SB_EDATA && (r.batch.id > 0)))
			print_result(cli, argv[i], &r);
		status = sb_code_worst(status, cli_report(&e));
		if (rc != SB_OK && rc != SB_EDATA && rc != SB_ENOINPUT)
			break;
	}
	sb_db_close(db);
	return status;
}

const sb_command sb_import_commands[] = {
	{"import runs", cmd_import_runs, CMD_WRITES, "[--strict] [--replace] [--force] FILE...",
	 "Import run-usage records (JSON Lines, one run per line; - reads standard\n"
	 "input).  Each file is a batch; a file already imported whole is not read\n"
	 "again.  A run_id already in the ledger is a duplicate when the record is\n"
	 "the same, a conflict (rejected) when it differs.  Rejected lines are kept\n"
	 "with their reasons (sbledger rejects); the valid ones are committed.  A\n"
	 "killed import resumes where it stopped when run again.\n"
	 "\n"
	 "  --strict    all or nothing: one bad line keeps nothing of the file\n"
	 "  --replace   a conflicting record replaces the stored one (the old one\n"
	 "              is kept in the run history)\n"
	 "  --force     read a file again though a batch has it already\n"
	 "  --chunk N   records per commit (default 5000)\n"
	 "\n"
	 "Exit 0 when every line was stored or a duplicate, 65 when any was\n"
	 "rejected or a file held no records, 66 when a file cannot be read.\n"},
	{NULL, NULL, 0, NULL, NULL},
};
