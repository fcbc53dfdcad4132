/* cmd_import.c: import runs FILE..., import billing --format F FILE... */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/words.h"
#include "importers/billing.h"
#include "importers/import.h"
#include "ledger/period.h"
#include "ledger/quote.h"
#include "ledger/timefmt.h"

enum { MAX_SHOWN_REJECTS = 20 };

/* Options of the import commands. */
typedef struct import_cli {
	sb_import_opts opts;   /* what the driver gets */
	int64_t shown;         /* rejects printed for the current file */
	bool progress;         /* print progress lines (stderr is a terminal) */
	const char *format;    /* import billing: --format */
	const char *interval;  /* import billing: --interval */
	const char *delimiter; /* import billing: --delimiter */
	char **files;          /* the FILE operands */
	int n_files;           /* how many */
} import_cli;

/* Print a rejected line on stderr, the first MAX_SHOWN_REJECTS of a file. */
static void on_reject(void *ctx, const char *source, int64_t line_no, const char *reason)
{
	import_cli *ic = ctx;

	char name[SB_QUOTE_BUFSZ];

	if (ic->shown++ < MAX_SHOWN_REJECTS)
		cli_warn("%s:%lld: %s", sb_quote(source, SB_QUOTE_IF_NEEDED, name, sizeof name),
		         (long long)line_no, reason);
}

/* A progress line on a terminal. */
static void on_progress(void *ctx, const char *source, int64_t done, int64_t total)
{
	import_cli *ic = ctx;
	char name[SB_QUOTE_BUFSZ];

	if (!ic->progress)
		return;
	sb_quote(source, SB_QUOTE_IF_NEEDED, name, sizeof name);
	if (total > 0)
		fprintf(stderr, "\rsbledger: %s: %lld%%", name, (long long)(done * 100 / total));
	else
		fprintf(stderr, "\rsbledger: %s: %lld MB", name, (long long)(done >> 20));
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
	case 't': return cli_int(cli, "--threads", arg, &ic->opts.threads);
	default: return SB_EUSAGE;
	}
}

static const struct option import_options[] = {
	{"strict", no_argument, NULL, 's'},
	{"replace", no_argument, NULL, 'r'},
	{"force", no_argument, NULL, 'F'},
	{"chunk", required_argument, NULL, 'c'},
	{"threads", required_argument, NULL, 't'},
	{NULL, 0, NULL, 0},
};

/* Print what the import of one file did. */
static void print_result(sb_cli *cli, const char *path, const sb_import_result *r)
{
	const sb_batch *b = &r->batch;
	char replaced[48] = "", name[SB_QUOTE_BUFSZ];

	path = sb_quote(path, SB_QUOTE_IF_NEEDED, name, sizeof name);
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

/* import runs: its options and at least one FILE. */
static int parse_import_runs(sb_cli *cli, int argc, char **argv, void *opts)
{
	import_cli *ic = opts;
	int first = 0;
	int rc;

	ic->progress = cli->stderr_tty && !cli->quiet;
	if ((rc = cli_getopt(cli, argc, argv, import_options, on_import_opt, ic, &first)) != 0)
		return rc;
	if (first >= argc)
		return cli_usage(cli, "no FILE given (use - for standard input)");
	ic->opts.events = (sb_import_events){on_reject, on_progress, ic};
	ic->opts.pause_path = cli_test_pause();
	ic->opts.words = cli_words;
	cli_test_import_opts(&ic->opts);
	ic->files = argv + first;
	ic->n_files = argc - first;
	return 0;
}

/* import runs: import run-usage JSON Lines files. */
static int run_import_runs(sb_cli *cli, sb_db *db, void *opts)
{
	import_cli *ic = opts;
	int status = 0;

	for (int i = 0; i < ic->n_files; i++) {
		sb_import_result r;
		sb_err e;
		char name[SB_QUOTE_BUFSZ];
		int rc;
		sb_err_clear(&e);
		ic->shown = 0;
		rc = sb_import_runs(db, ic->files[i], &ic->opts, &r, &e);
		if (ic->progress)
			fputs("\r\033[K", stderr);
		if (ic->shown > MAX_SHOWN_REJECTS)
			cli_warn("%s: ... and %lld more rejected lines",
			         sb_quote(ic->files[i], SB_QUOTE_IF_NEEDED, name, sizeof name),
			         (long long)(ic->shown - MAX_SHOWN_REJECTS));
		if (rc == SB_OK || (rc == SB_EDATA && (r.batch.id > 0)))
			print_result(cli, ic->files[i], &r);
		status = sb_code_worst(status, cli_report(&e));
		if (rc != SB_OK && rc != SB_EDATA && rc != SB_ENOINPUT)
			break;
	}
	return status;
}

/* Handle one option of import billing. */
static int on_billing_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	import_cli *ic = ctx;

	switch (val) {
	case 'f': ic->format = arg; return 0;
	case 'i': ic->interval = arg; return 0;
	case 's': ic->opts.strict = true; return 0;
	case 'S': ic->opts.supersede = true; return 0;
	case 'F': ic->opts.force = true; return 0;
	case 'c': return cli_int(cli, "--chunk", arg, &ic->opts.chunk);
	case 'd': ic->delimiter = arg; return 0;
	case 'P': {
		sb_period period;
		int rc = cli_period(cli, arg, &period);
		if (rc != 0)
			return rc;
		ic->opts.has_period = true;
		ic->opts.period_from_ms = period.from_ms;
		ic->opts.period_to_ms = period.to_ms;
		return 0;
	}
	default: return SB_EUSAGE;
	}
}

static const struct option billing_options[] = {
	{"period", required_argument, NULL, 'P'},
	{"delimiter", required_argument, NULL, 'd'},
	{"format", required_argument, NULL, 'f'},
	{"interval", required_argument, NULL, 'i'},
	{"strict", no_argument, NULL, 's'},
	{"supersede", no_argument, NULL, 'S'},
	{"force", no_argument, NULL, 'F'},
	{"chunk", required_argument, NULL, 'c'},
	{NULL, 0, NULL, 0},
};

/* Print what the billing import of one file did. */
static void print_billing_result(sb_cli *cli, const char *path, const sb_import_result *r,
                                 bool supersede)
{
	const sb_batch *b = &r->batch;
	char skipped[48] = "", superseded[64] = "", name[SB_QUOTE_BUFSZ];

	path = sb_quote(path, SB_QUOTE_IF_NEEDED, name, sizeof name);
	if (r->already > 0) {
		cli_info(cli, "%s: already imported as batch %lld (--force reads it again)", path,
		         (long long)r->already);
		return;
	}
	if (b->skipped > 0)
		snprintf(skipped, sizeof skipped, ", %lld skipped", (long long)b->skipped);
	if (supersede)
		snprintf(superseded, sizeof superseded, ", %lld earlier %s superseded",
		         (long long)r->superseded, r->superseded == 1 ? "line" : "lines");
	cli_info(cli, "batch %lld: %s: %lld accepted, %lld duplicates, %lld rejected%s%s%s",
	         (long long)b->id, path, (long long)b->accepted, (long long)b->duplicates,
	         (long long)b->rejected, skipped, superseded,
	         b->resumed ? " (resumed an interrupted import)" : "");
}

/* import billing: --format and its options, checked, and at least one
 * FILE. */
static int parse_import_billing(sb_cli *cli, int argc, char **argv, void *opts)
{
	import_cli *ic = opts;
	int first = 0;
	int rc;

	ic->progress = cli->stderr_tty && !cli->quiet;
	if ((rc = cli_getopt(cli, argc, argv, billing_options, on_billing_opt, ic, &first)) != 0)
		return rc;
	if (ic->format == NULL)
		return cli_usage(cli, "--format is required (one of %s)", sb_bill_format_names());
	if (sb_bill_format_find(ic->format) == NULL)
		return cli_usage(cli, "--format '%s' is not one of %s", ic->format, sb_bill_format_names());
	if (ic->interval != NULL) {
		if (strcmp(ic->format, "modal") != 0)
			return cli_usage(cli, "--interval applies to --format modal only");
		if (strcmp(ic->interval, "d") == 0)
			ic->opts.interval_ms = SB_MS_PER_DAY;
		else if (strcmp(ic->interval, "h") == 0)
			ic->opts.interval_ms = SB_MS_PER_DAY / 24;
		else
			return cli_usage(cli, "--interval '%s' is not d (a day) or h (an hour)", ic->interval);
	}
	if (ic->delimiter != NULL) {
		const sb_bill_format *f = sb_bill_format_find(ic->format);
		if (!(f->shapes & SB_REC_CSV))
			return cli_usage(cli, "--delimiter applies to CSV formats only (focus, modal)");
		if (strcmp(ic->delimiter, ",") != 0 && strcmp(ic->delimiter, ";") != 0)
			return cli_usage(cli, "--delimiter '%s' is not ',' or ';'", ic->delimiter);
		ic->opts.delimiter = ic->delimiter[0];
	}
	if (ic->opts.has_period && !ic->opts.supersede && strcmp(ic->format, "daytona") != 0)
		return cli_usage(cli, "--period is the period a --supersede import covers (or, for --format daytona, the period of rows without times): give --supersede too");
	if (first >= argc)
		return cli_usage(cli, "no FILE given (use - for standard input)");
	ic->opts.events = (sb_import_events){on_reject, on_progress, ic};
	ic->opts.pause_path = cli_test_pause();
	ic->opts.words = cli_words;
	ic->files = argv + first;
	ic->n_files = argc - first;
	return 0;
}

/* import billing: import provider billing exports in one format. */
static int run_import_billing(sb_cli *cli, sb_db *db, void *opts)
{
	import_cli *ic = opts;
	int status = 0;

	for (int i = 0; i < ic->n_files; i++) {
		sb_import_result r;
		sb_err e;
		char name[SB_QUOTE_BUFSZ];
		int rc;
		sb_err_clear(&e);
		ic->shown = 0;
		rc = sb_import_billing(db, ic->format, ic->files[i], &ic->opts, &r, &e);
		if (ic->progress)
			fputs("\r\033[K", stderr);
		if (ic->shown > MAX_SHOWN_REJECTS)
			cli_warn("%s: ... and %lld more rejected records",
			         sb_quote(ic->files[i], SB_QUOTE_IF_NEEDED, name, sizeof name),
			         (long long)(ic->shown - MAX_SHOWN_REJECTS));
		if (rc == SB_OK || (rc == SB_EDATA && (r.batch.id > 0)))
			print_billing_result(cli, ic->files[i], &r, ic->opts.supersede);
		status = sb_code_worst(status, cli_report(&e));
		if (rc != SB_OK && rc != SB_EDATA && rc != SB_ENOINPUT)
			break;
	}
	return status;
}

const sb_command sb_import_commands[] = {
	{"import runs", parse_import_runs, run_import_runs, sizeof(import_cli), CMD_WRITES,
	 "[--strict] [--replace] [--force] [--chunk N] [--threads N] FILE...",
	 "Import run-usage records (JSON Lines, one run per line; - reads standard\n"
	 "input).  Each file is a batch; a file already imported whole is not read\n"
	 "again (unless --replace is new to it).  A run_id already in the ledger is\n"
	 "a duplicate when the record is the same, a conflict (rejected) when it\n"
	 "differs.  Rejected lines are kept with their reasons (sbledger rejects);\n"
	 "the valid ones are committed.  A killed import resumes where it stopped\n"
	 "when run again.  A file of 32 MiB or more and at least twice the ledger's\n"
	 "size (without --replace) is stored without the ledger's secondary\n"
	 "indexes, built again at its end; commands that read the ledger wait for\n"
	 "it meanwhile (up to --busy-timeout).  What a record holds and every rule\n"
	 "it is checked by: docs/formats-runs.md.\n"
	 "\n"
	 "  --strict      all or nothing: one bad line keeps nothing of the file\n"
	 "  --replace     a conflicting record replaces the stored one (the old one\n"
	 "                is kept in the run history)\n"
	 "  --force       read a file again though a batch has it already\n"
	 "  --chunk N     records per commit (default 50000)\n"
	 "  --threads N   threads parsing records (default, or 0: one per online\n"
	 "                CPU, at most 8; at most 16); 1 parses on the thread that\n"
	 "                writes.  The ledger comes out the same whatever N is\n"
	 "\n"
	 "Exit 0 when every line was stored or a duplicate, 65 when any was\n"
	 "rejected or a file held no records, 66 when a file cannot be read.\n",
	 "import run-usage records (JSON Lines)", import_options,
	 "sbledger import runs runs.jsonl\n"
	 "sbledger import runs --strict day-1.jsonl day-2.jsonl\n"
	 "sbledger import runs - < today.jsonl\n"
	 "sbledger import runs --replace corrected.jsonl\n"},
	{"import billing", parse_import_billing, run_import_billing, sizeof(import_cli), CMD_WRITES,
	 "--format F [--interval d|h] [--delimiter C] [--period P] [--strict] [--supersede] [--force] [--chunk N] FILE...",
	 "Import provider billing exports as billing lines.  Formats:\n"
	 "  record           SandboxBillingRecord JSON (line_id is the key)\n"
	 "  focus            FinOps FOCUS 1.x, CSV with a header (',' or ';') or JSON\n"
	 "  modal            modal billing report, --json or --csv\n"
	 "  daytona          Daytona usage API, per-sandbox usage\n"
	 "  e2b-events       E2B lifecycle events, API array or webhook bodies\n"
	 "                   (metered: vCPU and memory time, priced at reconciliation)\n"
	 "  deepinfra-usage  DeepInfra GET /payment/usage (total_cost in cents)\n"
	 "Each file is a batch, as with import runs (read again when --supersede,\n"
	 "--period, --delimiter or --interval differ from its batch's, so that the\n"
	 "way out a rejected line names works).  Each charge is counted once:\n"
	 "a line whose key (the format's id, else the SHA-256 of the normalized\n"
	 "line and its ordinal among identical rows of the file) is live already\n"
	 "is a duplicate, or with other content a conflict (rejected); a line that\n"
	 "is the same charge as a live line of another batch is rejected naming\n"
	 "it.  Every JSON format reads JSON values one after another (JSON Lines,\n"
	 "pretty-printed objects, arrays).  Rejected records are kept with their\n"
	 "reasons (sbledger rejects); see docs/formats-billing.md for what each\n"
	 "format reads.\n"
	 "\n"
	 "  --format F     the format of every FILE (required)\n"
	 "  --interval I   modal: d (default) when the report has a row per day,\n"
	 "                 h when it has one per hour\n"
	 "  --delimiter C  CSV: fields separated by C, ',' or ';' (default: told\n"
	 "                 from the header line)\n"
	 "  --period P     the period each FILE covers: what --supersede replaces,\n"
	 "                 and for daytona the charge period of rows without times\n"
	 "  --supersede    a reissued export replaces what it covers: lines of\n"
	 "                 other batches with its keys, the same charges as its\n"
	 "                 lines, and lines of its format and backends inside\n"
	 "                 --period P (without it the span of its lines, which\n"
	 "                 must all be of one length); superseded lines are kept,\n"
	 "                 no longer live, once the file's last chunk commits\n"
	 "                 (the file is read once: standard input may supersede)\n"
	 "  --strict       all or nothing: one bad record keeps nothing of the file\n"
	 "  --force        read a file again though a batch has it already\n"
	 "  --chunk N      records per commit (default 5000)\n"
	 "\n"
	 "Exit 0 when every record was stored, a duplicate or skipped, 65 when any\n"
	 "was rejected or a file held nothing, 66 when a file cannot be read, 64\n"
	 "when a --supersede file without --period has lines of several lengths.\n",
	 "import provider billing exports (FOCUS, Modal, E2B, ...)", billing_options,
	 "sbledger import billing --format focus vercel-2026-11.csv\n"
	 "sbledger import billing --format focus --delimiter ';' focus-eu.csv\n"
	 "sbledger import billing --format modal --interval h modal-hourly.json\n"
	 "sbledger import billing --format modal --supersede modal-nov-reissued.json\n"
	 "sbledger import billing --format focus --supersede --period 2026-11 - < reissued.csv\n"
	 "sbledger import billing --format daytona --period 2026-11 daytona-nov.json\n"
	 "sbledger import billing --format e2b-events events.json\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
