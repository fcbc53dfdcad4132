/* cmd_nightly.c: nightly, the job cron runs (docs/providers.md).
 *
 * Imports every new file of the inbox (DIR/runs/ and DIR/billing/FORMAT/,
 * a file already in the ledger being known by its SHA-256), fetches from
 * the providers asked for, reconciles the period and stores the result,
 * writes OUT/PERIOD/reconcile.json, summary.csv and report.html (the
 * summary page of reconcile/html.h), and
 * prints one line per backend.  The ledger's write lock is held from start
 * to end, so a second nightly waits for the first (or exits 75 after the
 * busy timeout).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/fetch.h"
#include "importers/billing.h"
#include "importers/import.h"
#include "importers/provider.h"
#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "reconcile/html.h"
#include "reconcile/reconcile.h"
#include "reconcile/summary.h"

enum { MAX_SHOWN_REJECTS = 20, MAX_PROVIDERS = 16 };

/* Options and running totals of a nightly run. */
typedef struct nightly {
	sb_cli *cli;                 /* the running command */
	const char *inbox;           /* --inbox as given */
	char root[PATH_MAX];         /* the inbox, resolved */
	const char *out;             /* --out (default ./reports) */
	bool has_period;             /* --period given */
	sb_period period;            /* the period (default yesterday) */
	const char *fetch;           /* --fetch LIST, or NULL */
	bool fail_on_drift;          /* --fail-on-drift */
	bool supersede;              /* --supersede: billing files supersede earlier lines */
	bool verbose;                /* --verbose: trace fetches */
	int status;                  /* the worst exit status so far */
	long files;                  /* files imported now */
	long already;                /* files found already imported */
	long rejected;               /* records rejected by this run's imports and fetches */
	long shown;                  /* rejects printed for the current file */
} nightly;

/* Fold a step's status into the run's. */
static void note(nightly *n, int status)
{
	n->status = sb_code_worst(n->status, status);
}

/* ---- imports ------------------------------------------------------------ */

/* Print a rejected record, the first MAX_SHOWN_REJECTS of a file. */
static void on_reject(void *ctx, const char *source, int64_t line_no, const char *reason)
{
	nightly *n = ctx;

	if (n->shown++ < MAX_SHOWN_REJECTS)
		cli_warn("%s:%lld: %s", source, (long long)line_no, reason);
}

/* The resolved path of path when it lies inside the inbox (malloc'd), else
 * NULL with a warning: the nightly job never follows a symlink out of its
 * inbox. */
static char *inside(nightly *n, const char *path)
{
	char *real = realpath(path, NULL);
	size_t rl = strlen(n->root);

	if (real == NULL) {
		cli_warn("%s: %s", path, strerror(errno));
		note(n, SB_ENOINPUT);
		return NULL;
	}
	if (strncmp(real, n->root, rl) != 0 || (real[rl] != '/' && real[rl] != '\0')) {
		cli_warn("%s: leads out of the inbox (to %s): not followed", path, real);
		note(n, SB_ENOINPUT);
		free(real);
		return NULL;
	}
	return real;
}

/* Skip dot files: a file being written should be named .NAME until it is
 * whole, then renamed. */
static int visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Import one file: runs when format is NULL, else billing of format. */
static void import_one(nightly *n, sb_db *db, const char *format, const char *path)
{
	sb_import_opts o = {0};
	sb_import_result r;
	sb_err e;

	sb_err_clear(&e);
	memset(&r, 0, sizeof r);
	o.supersede = format != NULL && n->supersede;
	o.events = (sb_import_events){on_reject, NULL, n};
	o.pause_path = cli_test_pause();
	n->shown = 0;
	if (format == NULL)
		sb_import_runs(db, path, &o, &r, &e);
	else
		sb_import_billing(db, format, path, &o, &r, &e);
	if (n->shown > MAX_SHOWN_REJECTS)
		cli_warn("%s: ... and %ld more rejected records", path, n->shown - MAX_SHOWN_REJECTS);
	if (r.already > 0) {
		n->already++;
	} else if (r.batch.id > 0) {
		n->files++;
		n->rejected += (long)r.batch.rejected;
		cli_info(n->cli, "batch %lld: %s: %lld accepted, %lld duplicates, %lld rejected",
		         (long long)r.batch.id, path, (long long)r.batch.accepted,
		         (long long)r.batch.duplicates, (long long)r.batch.rejected);
	}
	note(n, cli_report(&e));
}

/* Import every visible regular file of dir (inside the inbox), in name
 * order: runs when format is NULL, else billing of format. */
static void import_dir(nightly *n, sb_db *db, const char *dir, const char *format)
{
	struct dirent **names = NULL;
	int count;
	char *real = inside(n, dir);

	if (real == NULL)
		return;
	if ((count = scandir(real, &names, visible, alphasort)) < 0) {
		cli_warn("%s: %s", dir, strerror(errno));
		note(n, SB_ENOINPUT);
		free(real);
		return;
	}
	for (int i = 0; i < count; i++) {
		char path[PATH_MAX];
		char *file;
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		if ((file = inside(n, path)) != NULL) {
			if (stat(file, &st) != 0) {
				cli_warn("%s: %s", path, strerror(errno));
				note(n, SB_ENOINPUT);
			} else if (S_ISREG(st.st_mode)) {
				import_one(n, db, format, file);
			} else if (!S_ISDIR(st.st_mode)) {
				cli_warn("%s: not a regular file: skipped", path);
				note(n, SB_ENOINPUT);
			}
			free(file);
		}
		free(names[i]);
	}
	free(names);
	free(real);
}

/* The inbox: runs first, then each billing format's directory. */
static void import_inbox(nightly *n, sb_db *db)
{
	char dir[PATH_MAX];
	struct dirent **names = NULL;
	struct stat st;
	int count;

	snprintf(dir, sizeof dir, "%s/runs", n->root);
	if (lstat(dir, &st) == 0)
		import_dir(n, db, dir, NULL);
	snprintf(dir, sizeof dir, "%s/billing", n->root);
	if (lstat(dir, &st) != 0)
		return;
	{
		char *real = inside(n, dir);
		if (real == NULL)
			return;
		count = scandir(real, &names, visible, alphasort);
		free(real);
	}
	if (count < 0) {
		cli_warn("%s: %s", dir, strerror(errno));
		note(n, SB_ENOINPUT);
		return;
	}
	for (int i = 0; i < count; i++) {
		char sub[PATH_MAX];
		const sb_bill_format *f = sb_bill_format_find(names[i]->d_name);
		snprintf(sub, sizeof sub, "%s/%s", dir, names[i]->d_name);
		if (stat(sub, &st) != 0 || !S_ISDIR(st.st_mode)) {
			cli_warn("%s: billing files go in %s/FORMAT/ (one of %s): skipped", sub, dir,
			         sb_bill_format_names());
			note(n, SB_EDATA);
		} else if (f == NULL) {
			cli_warn("%s: '%s' is not a billing format (one of %s): skipped", sub,
			         names[i]->d_name, sb_bill_format_names());
			note(n, SB_EDATA);
		} else {
			import_dir(n, db, sub, f->name);
		}
		free(names[i]);
	}
	free(names);
}

/* ---- fetches ------------------------------------------------------------ */

/* The providers of --fetch into list; a usage status for an unknown one. */
static int parse_fetch(sb_cli *cli, const char *text, const sb_provider **list, size_t *n)
{
	char buf[512], names[256];
	char *save = NULL;

	*n = 0;
	if (text == NULL)
		return 0;
	snprintf(buf, sizeof buf, "%s", text);
	for (char *tok = strtok_r(buf, ", ", &save); tok != NULL; tok = strtok_r(NULL, ", ", &save)) {
		const sb_provider *p = sb_provider_find(tok);
		if (p == NULL)
			return cli_usage(cli, "--fetch: no provider '%s' (one of %s)", tok,
			                 sb_provider_names(NULL, names, sizeof names));
		if (*n >= MAX_PROVIDERS)
			return cli_usage(cli, "--fetch: too many providers");
		list[(*n)++] = p;
	}
	return 0;
}

/* Every endpoint of each provider: the catalog as of now, the others for
 * the period. */
static void fetch_all(nightly *n, sb_db *db, const sb_provider *const *list, size_t count)
{
	cli_fetch cf = {n->cli, n->verbose, 0};
	sb_fetch_opts o;
	sb_err e;

	sb_err_clear(&e);
	memset(&o, 0, sizeof o);
	if (sb_http_opts_init(&o.http, &e) != SB_OK) {
		note(n, cli_report(&e));
		return;
	}
	cli_fetch_events(&cf, &o);
	for (size_t i = 0; i < count; i++) {
		for (const sb_endpoint *ep = list[i]->endpoints; ep->what != NULL; ep++) {
			int rc;
			o.has_period = ep->period != SB_QUERY_NONE;
			o.period = n->period;
			rc = cli_fetch_run(&cf, db, list[i], ep, &o);
			if (cf.shown > 0)
				n->rejected += cf.shown;
			note(n, rc);
		}
	}
}

/* ---- reports ------------------------------------------------------------ */

/* mkdir -p path (mode 0700 for new directories). */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0700) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

/* A report file being written: NAME.tmp, renamed to NAME when whole. */
typedef struct report_file {
	char path[PATH_MAX];        /* the final name */
	char tmp[PATH_MAX];         /* where it is written */
	FILE *f;                    /* open on tmp */
} report_file;

/* Open dir/name for writing (mode 0600: finance data). */
static bool report_open(report_file *rf, const char *dir, const char *name)
{
	int fd;

	snprintf(rf->path, sizeof rf->path, "%s/%s", dir, name);
	snprintf(rf->tmp, sizeof rf->tmp, "%s/.%s.tmp", dir, name);
	fd = open(rf->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	rf->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (rf->f == NULL) {
		cli_warn("%s: cannot write: %s", rf->tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	return true;
}

/* Close rf and put it in place; false (with a message) when anything of it
 * could not be written. */
static bool report_close(report_file *rf)
{
	bool ok = !ferror(rf->f);

	ok = fflush(rf->f) == 0 && ok;
	ok = fsync(fileno(rf->f)) == 0 && ok;
	ok = fclose(rf->f) == 0 && ok;
	if (ok && rename(rf->tmp, rf->path) == 0)
		return true;
	cli_warn("%s: cannot write: %s", rf->path, strerror(errno != 0 ? errno : EIO));
	unlink(rf->tmp);
	return false;
}

/* A money cell: 9 decimals, or empty when absent. */
static void csv_money(FILE *f, bool has, int64_t nanos)
{
	char buf[SB_MONEY_BUFSZ];

	if (has)
		fputs(sb_money_format(nanos, 9, buf), f);
}

/* A text cell, quoted when it holds a comma, a quote or a line break. */
static void csv_text(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* summary.csv: 'report summary --by backend --format csv' of the period. */
static void write_summary_csv(FILE *f, const sb_summary *s)
{
	fputs("key,runs,exec_count,total_duration_ms,cpu_ms,memory_peak_mb,bytes_read,bytes_written,"
	      "computed_cost_usd,billed_cost_usd,card_cost_usd,token_cost_usd\n", f);
	for (size_t i = 0; i < s->n_rows; i++) {
		const sb_usage *u = &s->rows[i].u;
		int64_t token = 0;
		bool has_token = sb_usage_token_nanos(u, &token);
		csv_text(f, s->rows[i].key);
		fprintf(f, ",%lld,%lld,%lld,%lld,%lld,%lld,%lld,", (long long)u->runs,
		        (long long)u->exec_count, (long long)u->total_duration_ms, (long long)u->cpu_ms,
		        (long long)u->memory_peak_mb, (long long)u->bytes_read,
		        (long long)u->bytes_written);
		csv_money(f, true, u->computed_nanos);
		fputc(',', f);
		csv_money(f, u->has_billed, u->billed_nanos);
		fputc(',', f);
		csv_money(f, u->has_card, u->card_nanos);
		fputc(',', f);
		csv_money(f, has_token, token);
		fputc('\n', f);
	}
}

/* Write the three report files into OUT/PERIOD; false when one failed. */
static bool write_reports(nightly *n, const sb_recon *r, const sb_summary *s, char *dir,
                          size_t cap)
{
	char name[96];
	report_file rf;
	json_t *json;
	bool ok = true;

	sb_period_name(&n->period, name);
	snprintf(dir, cap, "%s/%s", n->out, name);
	if (make_dirs(dir) != 0) {
		cli_warn("%s: cannot create the directory: %s", dir, strerror(errno));
		return false;
	}
	if (report_open(&rf, dir, "reconcile.json")) {
		json = sb_recon_json(r);
		if (json == NULL || json_dumpf(json, rf.f, JSON_INDENT(1)) != 0)
			ok = false;
		fputc('\n', rf.f);
		json_decref(json);
		ok = report_close(&rf) && ok;
	} else {
		ok = false;
	}
	if (report_open(&rf, dir, "summary.csv")) {
		write_summary_csv(rf.f, s);
		ok = report_close(&rf) && ok;
	} else {
		ok = false;
	}
	if (report_open(&rf, dir, "report.html")) {
		sb_err e;
		sb_err_clear(&e);
		if (sb_html_summary(rf.f, s, sb_now_ms(), &e) != SB_OK)
			cli_report(&e);
		ok = report_close(&rf) && ok && e.code == SB_OK;
	} else {
		ok = false;
	}
	return ok;
}

/* One line per backend on stdout. */
static void print_backends(const sb_recon *r)
{
	char c[SB_MONEY_BUFSZ], b[SB_MONEY_BUFSZ], d[SB_MONEY_BUFSZ];

	for (size_t i = 0; i < r->n_backends; i++) {
		const sb_recon_backend *be = &r->backends[i];
		int64_t drift = 0;
		bool has_drift = be->has_billed &&
		                 sb_money_sub(be->billed_nanos, be->computed_nanos, &drift) == SB_MONEY_OK;
		printf("%-12s %-12s computed %s  billed %s  drift %s%s%s%s\n", be->backend, be->status,
		       sb_money_format(be->computed_nanos, 6, c),
		       be->has_billed ? sb_money_format(be->billed_nanos, 6, b) : "-",
		       has_drift ? sb_money_format(drift, 6, d) : "-",
		       be->explain.verdict != NULL ? "  (" : "",
		       be->explain.verdict != NULL ? be->explain.verdict : "",
		       be->explain.verdict != NULL ? ")" : "");
	}
}

/* ---- the command -------------------------------------------------------- */

/* Handle one option of nightly. */
static int on_nightly_opt(sb_cli *cli, void *ctx, int val, const char *arg)
{
	nightly *n = ctx;

	switch (val) {
	case 'i': n->inbox = arg; return 0;
	case 'o': n->out = arg; return 0;
	case 'p':
		n->has_period = true;
		return cli_period(cli, arg, &n->period);
	case 'f': n->fetch = arg; return 0;
	case 'F': n->fail_on_drift = true; return 0;
	case 's': n->supersede = true; return 0;
	case 'v': n->verbose = true; return 0;
	default: return SB_EUSAGE;
	}
}

static const struct option nightly_options[] = {
	{"inbox", required_argument, NULL, 'i'},
	{"out", required_argument, NULL, 'o'},
	{"period", required_argument, NULL, 'p'},
	{"fetch", required_argument, NULL, 'f'},
	{"fail-on-drift", no_argument, NULL, 'F'},
	{"supersede", no_argument, NULL, 's'},
	{"verbose", no_argument, NULL, 'v'},
	{NULL, 0, NULL, 0},
};

/* nightly --inbox DIR: import, fetch, reconcile, report. */
static int cmd_nightly(sb_cli *cli, int argc, char **argv)
{
	nightly n;
	const sb_provider *providers[MAX_PROVIDERS];
	size_t n_providers = 0;
	sb_recon_opts ro;
	sb_recon *r = NULL;
	sb_summary *s = NULL;
	sb_db *db = NULL;
	struct stat st;
	char dir[PATH_MAX], name[96];
	bool attention;
	int first = 0, rc;

	memset(&n, 0, sizeof n);
	n.cli = cli;
	n.out = "reports";
	if ((rc = cli_getopt(cli, argc, argv, nightly_options, on_nightly_opt, &n, &first)) != 0)
		return rc;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	if (n.inbox == NULL)
		return cli_usage(cli, "--inbox DIR is required (DIR/runs/, DIR/billing/FORMAT/)");
	if ((rc = parse_fetch(cli, n.fetch, providers, &n_providers)) != 0)
		return rc;
	if (!n.has_period && (rc = cli_period(cli, "yesterday", &n.period)) != 0)
		return rc;
	if (realpath(n.inbox, n.root) == NULL || stat(n.root, &st) != 0) {
		cli_warn("%s: %s", n.inbox, strerror(errno));
		return SB_ENOINPUT;
	}
	if (!S_ISDIR(st.st_mode)) {
		cli_warn("%s: not a directory (the inbox holds runs/ and billing/FORMAT/)", n.inbox);
		return SB_ENOINPUT;
	}
	if (cli_open(cli, 0, &db) != SB_OK)
		return cli_report(&cli->err);

	import_inbox(&n, db);
	fetch_all(&n, db, providers, n_providers);

	memset(&ro, 0, sizeof ro);
	ro.period = n.period;
	ro.abs_nanos = SB_DEFAULT_ABS_NANOS;
	ro.rel_ppb = SB_DEFAULT_REL_PPB;
	if (sb_reconcile(db, &ro, &r, &cli->err) != SB_OK || sb_recon_store(db, r, &cli->err) != SB_OK ||
	    sb_summary_build(db, &n.period, "backend", &s, &cli->err) != SB_OK) {
		note(&n, cli_report(&cli->err));
		sb_summary_free(s);
		sb_recon_free(r);
		sb_db_close(db);
		return n.status;
	}
	if (!write_reports(&n, r, s, dir, sizeof dir))
		note(&n, SB_EIO);
	if (n.fail_on_drift && r->flagged > 0)
		note(&n, SB_FLAGGED);
	attention = r->flagged > 0 || n.status != SB_OK;
	if (!cli->quiet || attention) {
		sb_period_name(&n.period, name);
		print_backends(r);
		printf("nightly %s: %ld %s imported, %ld already in the ledger, %ld %s rejected; "
		       "%lld flagged; reconciliation %lld; reports in %s/\n", name, n.files,
		       n.files == 1 ? "file" : "files", n.already, n.rejected,
		       n.rejected == 1 ? "record" : "records", (long long)r->flagged,
		       (long long)r->recon_id, dir);
	}
	sb_summary_free(s);
	sb_recon_free(r);
	sb_db_close(db);
	return n.status;
}

const sb_command sb_nightly_commands[] = {
	{"nightly", cmd_nightly, CMD_WRITES,
	 "--inbox DIR [--period P] [--out DIR] [--fetch LIST] [--fail-on-drift] [--supersede] "
	 "[--verbose]",
	 "The job cron runs.  Imports every file of DIR/runs/ (run-usage JSON Lines)\n"
	 "and DIR/billing/FORMAT/ (billing files of FORMAT: focus, modal, ...) not\n"
	 "yet in the ledger (a file is known by its SHA-256, so each is read once;\n"
	 "names starting with '.' are skipped, and nothing outside DIR is followed),\n"
	 "fetches from the providers of --fetch (the catalog now, usage and billing\n"
	 "for the period), reconciles period P and stores the result, writes\n"
	 "OUT/PERIOD/reconcile.json, summary.csv and report.html, and prints one\n"
	 "line per backend and a line of totals.\n"
	 "\n"
	 "  --inbox DIR       the inbox: DIR/runs/ and DIR/billing/FORMAT/ (required)\n"
	 "  --period P        the period to reconcile (default yesterday, UTC)\n"
	 "  --out DIR         where the reports go, in DIR/PERIOD/ (default ./reports)\n"
	 "  --fetch LIST      providers to fetch from, comma separated:\n"
	 "                    deepinfra,vercel (keys from the environment)\n"
	 "  --fail-on-drift   exit 1 when a backend or session is flagged\n"
	 "  --supersede       billing files supersede the lines of earlier batches\n"
	 "                    inside their span (for providers that reissue exports)\n"
	 "  --verbose         trace the fetches on stderr\n"
	 "\n"
	 "With --quiet nothing is printed unless something needs a look (a flag, a\n"
	 "rejected record, an error), so that cron mails only then.  The ledger's\n"
	 "write lock is held throughout: a second nightly waits for the first, and\n"
	 "exits 75 after --busy-timeout.\n"
	 "\n"
	 "Exit 0; 1 with --fail-on-drift when something is flagged; 65 when a record\n"
	 "was rejected; 66 an inbox file unreadable or leading out of the inbox; 69\n"
	 "or 75 when a fetch failed (the rest still runs); the worst of these.\n",
	 "the cron job: import, fetch, reconcile, write the reports", nightly_options,
	 "sbledger nightly --inbox inbox --fail-on-drift\n"
	 "sbledger --db ledger.db --quiet nightly --inbox inbox --out reports --fetch deepinfra,vercel --fail-on-drift\n"
	 "sbledger nightly --inbox inbox --period 2026-11 --out reports\n"},
	{NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL},
};
