/* cmd_nightly.c: nightly, the job cron runs (docs/providers.md).
 *
 * Imports every new file of the inbox (DIR/runs/ and DIR/billing/FORMAT/,
 * a file already in the ledger being known by its SHA-256), fetches from
 * the providers asked for, reconciles the period and stores the result,
 * judges again every earlier stored period left pending (or unbilled and
 * now past the billing lag) and the period that ended the billing lag ago
 * when it was never judged (docs/reconcile.md, "The nightly job"), writes
 * OUT/PERIOD/reconcile.json, summary.csv and report.html (the summary page
 * of reconcile/html.h) for each period judged, and prints one line per
 * backend, the counts, and the command that lists the flagged sessions.
 * Each inbox file is opened first and checked on its descriptor (a regular
 * file whose resolved path lies inside the inbox), and that descriptor is
 * what is imported.  The ledger's write lock is held from start
 * to end, so a second nightly waits for the first (or exits 75 after the
 * busy timeout).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
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
#include "importers/source.h"
#include "ledger/csvout.h"
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
	bool has_lag;                /* --billing-lag given */
	int64_t billing_lag_ms;      /* --billing-lag */
	const char *lag_arg;         /* --billing-lag as given */
	bool supersede;              /* --supersede: billing files supersede earlier lines */
	bool verbose;                /* --verbose: trace fetches */
	int status;                  /* the worst exit status so far */
	long files;                  /* files imported now */
	long already;                /* files found already imported */
	long rejected;               /* records rejected by this run's imports and fetches */
	long shown;                  /* rejects printed for the current file */
	bool paused;                 /* the test hook of cli_test_pause_checked was taken */
	const sb_provider *providers[MAX_PROVIDERS]; /* --fetch */
	size_t n_providers;          /* how many */
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

/* Print a path into buf (cap bytes): true, or false with a warning when
 * it is longer than cap - 1 bytes (naming its start and its end), so
 * that a path cut short is never opened, or shown as if it were another
 * file. */
static bool path_print(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool path_print(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	char *full = NULL;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	if (len >= 0 && (size_t)len < cap)
		return true;
	va_start(ap, fmt);
	if (vasprintf(&full, fmt, ap) < 0)
		full = NULL;
	va_end(ap);
	cli_warn("%.40s...%s: the path is longer than %zu bytes", buf,
	         full != NULL && len > 40 ? full + len - 40 : "", cap - 1);
	free(full);
	return false;
}

/* The file descriptor fd has open, as an absolute path without links
 * (malloc'd): from /proc/self/fd, else the name shown resolved now, when
 * it still names the same file; NULL when it cannot be told. */
static char *fd_real(int fd, const char *shown)
{
	char link[64], buf[PATH_MAX];
	ssize_t len;

	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	len = readlink(link, buf, sizeof buf - 1);
	if (len > 0 && buf[0] == '/') {
		buf[len] = '\0';
		return strdup(buf);
	}
	{
		struct stat a, b;
		char *real = realpath(shown, NULL);
		if (real != NULL && stat(real, &a) == 0 && fstat(fd, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			return real;
		free(real);
	}
	return NULL;
}

/* The resolved path of descriptor fd when it lies inside the inbox
 * (malloc'd), else NULL with a warning naming shown: the nightly job
 * never follows a link out of its inbox.  The check is made on the
 * descriptor, after the open, so that what was checked is what is read. */
static char *inside(nightly *n, int fd, const char *shown)
{
	char *real = fd_real(fd, shown);
	size_t rl = strlen(n->root);

	if (real == NULL) {
		cli_warn("%s: cannot tell where it leads: not followed", shown);
		note(n, SB_ENOINPUT);
		return NULL;
	}
	if (strncmp(real, n->root, rl) != 0 || (real[rl] != '/' && real[rl] != '\0')) {
		cli_warn("%s: leads out of the inbox (to %s): not followed", shown, real);
		note(n, SB_ENOINPUT);
		free(real);
		return NULL;
	}
	return real;
}

/* Open the directory name of directory dirfd (shown in messages) and
 * check it lies inside the inbox: its descriptor, or -1 (with a warning
 * unless it is simply not there). */
static int open_dir(nightly *n, int dirfd, const char *name, const char *shown)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *real;
	struct stat st;

	if (fd < 0) {
		/* absent is fine; a dangling link, a loop or a file is not */
		if (errno != ENOENT || fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			cli_warn("%s: %s", shown, strerror(errno));
			note(n, SB_ENOINPUT);
		}
		return -1;
	}
	if ((real = inside(n, fd, shown)) == NULL) {
		close(fd);
		return -1;
	}
	free(real);
	return fd;
}

/* Open the entry name of directory dirfd (shown in messages) for reading
 * when it is a regular file inside the inbox: its descriptor, its
 * resolved path in *real (malloc'd); -1 for a directory (skipped without
 * a word, as nightly reads no deeper) or, with a warning, anything else.
 * It is opened first with O_PATH (nothing read, a device or FIFO not
 * opened), checked on that descriptor, then opened for reading through
 * the descriptor itself (/proc/self/fd), never through the name again. */
static int open_file(nightly *n, int dirfd, const char *name, const char *shown, char **real)
{
	int pfd = openat(dirfd, name, O_PATH | O_CLOEXEC);
	int fd = -1;
	struct stat st, rst;
	char again[64];

	*real = NULL;
	if (pfd < 0) {
		cli_warn("%s: %s", shown, strerror(errno));
		note(n, SB_ENOINPUT);
		return -1;
	}
	if ((*real = inside(n, pfd, shown)) == NULL) {
		close(pfd);
		return -1;
	}
	if (fstat(pfd, &st) != 0) {
		cli_warn("%s: %s", shown, strerror(errno));
		note(n, SB_ENOINPUT);
		goto skip;
	}
	if (S_ISDIR(st.st_mode))
		goto skip;
	if (!S_ISREG(st.st_mode)) {
		cli_warn("%s: not a regular file: skipped", shown);
		note(n, SB_ENOINPUT);
		goto skip;
	}
	snprintf(again, sizeof again, "/proc/self/fd/%d", pfd);
	fd = open(again, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 && errno == ENOENT)   /* no /proc: the name, then the same file */
		fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		cli_warn("%s: %s", shown, strerror(errno));
		note(n, SB_ENOINPUT);
		goto skip;
	}
	if (fstat(fd, &rst) != 0 || rst.st_dev != st.st_dev || rst.st_ino != st.st_ino) {
		cli_warn("%s: changed while it was opened: skipped", shown);
		note(n, SB_ETEMP);
		close(fd);
		goto skip;
	}
	close(pfd);
	return fd;
skip:
	close(pfd);
	free(*real);
	*real = NULL;
	return -1;
}

/* Skip dot files: a file being written should be named .NAME until it is
 * whole, then renamed. */
static int visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Import the open file fd (named real): runs when format is NULL, else
 * billing of format.  The descriptor is the one that was checked. */
static void import_one(nightly *n, sb_db *db, const char *format, int fd, const char *real)
{
	sb_import_opts o = {0};
	sb_import_result r;
	sb_source *src = NULL;
	sb_err e;

	sb_err_clear(&e);
	memset(&r, 0, sizeof r);
	o.supersede = format != NULL && n->supersede;
	o.events = (sb_import_events){on_reject, NULL, n};
	o.pause_path = cli_test_pause();
	cli_test_import_opts(&o);
	n->shown = 0;
	if (sb_source_fdopen(fd, real, &src, &e) == SB_OK) {
		if (format == NULL)
			sb_import_runs_source(db, src, &o, &r, &e);
		else
			sb_import_billing_source(db, format, src, &o, &r, &e);
	}
	sb_source_close(src);
	if (n->shown > MAX_SHOWN_REJECTS)
		cli_warn("%s: ... and %ld more rejected records", real, n->shown - MAX_SHOWN_REJECTS);
	if (r.already > 0) {
		n->already++;
	} else if (r.batch.id > 0 && e.code != SB_ETEMP) {
		n->files++;
		n->rejected += (long)r.batch.rejected;
		cli_info(n->cli, "batch %lld: %s: %lld accepted, %lld duplicates, %lld rejected",
		         (long long)r.batch.id, real, (long long)r.batch.accepted,
		         (long long)r.batch.duplicates, (long long)r.batch.rejected);
	}
	note(n, cli_report(&e));
}

/* Import every visible regular file of the directory dirfd (shown as
 * dir), in name order: runs when format is NULL, else billing of
 * format.  Closes dirfd. */
static void import_dir(nightly *n, sb_db *db, int dirfd, const char *dir, const char *format)
{
	struct dirent **names = NULL;
	int count = scandirat(dirfd, ".", &names, visible, alphasort);

	if (count < 0) {
		cli_warn("%s: %s", dir, strerror(errno));
		note(n, SB_ENOINPUT);
		close(dirfd);
		return;
	}
	for (int i = 0; i < count; i++) {
		char path[PATH_MAX];
		char *real = NULL;
		int fd;
		if (!path_print(path, sizeof path, "%s/%s", dir, names[i]->d_name))
			note(n, SB_ENOINPUT);
		else if ((fd = open_file(n, dirfd, names[i]->d_name, path, &real)) >= 0) {
			if (cli_test_pause_checked() != NULL && !n->paused) {
				n->paused = true;
				cli_test_wait(cli_test_pause_checked());
			}
			import_one(n, db, format, fd, real);
			free(real);
		}
		free(names[i]);
	}
	free(names);
	close(dirfd);
}

/* The inbox: runs first, then each billing format's directory.  Every
 * directory is opened from the one above it and checked on its
 * descriptor. */
static void import_inbox(nightly *n, sb_db *db)
{
	char dir[PATH_MAX];
	struct dirent **names = NULL;
	int root, fd, billing, count;

	if ((root = open(n->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		cli_warn("%s: %s", n->inbox, strerror(errno));
		note(n, SB_ENOINPUT);
		return;
	}
	if (!path_print(dir, sizeof dir, "%s/runs", n->root))
		note(n, SB_ENOINPUT);
	else if ((fd = open_dir(n, root, "runs", dir)) >= 0)
		import_dir(n, db, fd, dir, NULL);
	if (!path_print(dir, sizeof dir, "%s/billing", n->root)) {
		note(n, SB_ENOINPUT);
		close(root);
		return;
	}
	billing = open_dir(n, root, "billing", dir);
	close(root);
	if (billing < 0)
		return;
	if ((count = scandirat(billing, ".", &names, visible, alphasort)) < 0) {
		cli_warn("%s: %s", dir, strerror(errno));
		note(n, SB_ENOINPUT);
		close(billing);
		return;
	}
	for (int i = 0; i < count; i++) {
		char sub[PATH_MAX];
		const sb_bill_format *f = sb_bill_format_find(names[i]->d_name);
		int sfd = openat(billing, names[i]->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (!path_print(sub, sizeof sub, "%s/%s", dir, names[i]->d_name)) {
			note(n, SB_ENOINPUT);
		} else if (sfd < 0) {
			cli_warn("%s: billing files go in %s/FORMAT/ (one of %s): skipped", sub, dir,
			         sb_bill_format_names());
			note(n, SB_EDATA);
		} else if (f == NULL) {
			cli_warn("%s: '%s' is not a billing format (one of %s): skipped", sub,
			         names[i]->d_name, sb_bill_format_names());
			note(n, SB_EDATA);
		} else {
			char *real = inside(n, sfd, sub);
			if (real != NULL) {
				free(real);
				import_dir(n, db, sfd, sub, f->name);
				sfd = -1;
			}
		}
		if (sfd >= 0)
			close(sfd);
		free(names[i]);
	}
	free(names);
	close(billing);
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

	if (!path_print(rf->path, sizeof rf->path, "%s/%s", dir, name) ||
	    !path_print(rf->tmp, sizeof rf->tmp, "%s/.%s.tmp", dir, name))
		return false;
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
static void csv_money(sb_csv_out *w, bool has, int64_t nanos)
{
	char buf[SB_MONEY_BUFSZ];

	sb_csv_value(w, has ? sb_money_format(nanos, 9, buf) : NULL);
}

/* An integer cell. */
static void csv_int(sb_csv_out *w, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%lld", (long long)v);
	sb_csv_value(w, buf);
}

/* summary.csv: 'report summary --by backend --format csv' of the period,
 * through the one CSV writer (free text guarded: the file is for
 * spreadsheets; nightly has no --raw). */
static void write_summary_csv(FILE *f, const sb_summary *s)
{
	static const char *const header[] = {
		"key", "runs", "exec_count", "total_duration_ms", "cpu_ms", "memory_peak_mb", "bytes_read",
		"bytes_written", "computed_cost_usd", "billed_cost_usd", "card_cost_usd", "token_cost_usd",
	};
	sb_csv_out w;

	sb_csv_out_init(&w, f, false);
	for (size_t i = 0; i < sizeof header / sizeof header[0]; i++)
		sb_csv_value(&w, header[i]);
	sb_csv_end(&w);
	for (size_t i = 0; i < s->n_rows; i++) {
		const sb_usage *u = &s->rows[i].u;
		int64_t token = 0;
		bool has_token = sb_usage_token_nanos(u, &token);
		sb_csv_text(&w, s->rows[i].key);
		csv_int(&w, u->runs);
		csv_int(&w, u->exec_count);
		csv_int(&w, u->total_duration_ms);
		csv_int(&w, u->cpu_ms);
		csv_int(&w, u->memory_peak_mb);
		csv_int(&w, u->bytes_read);
		csv_int(&w, u->bytes_written);
		csv_money(&w, true, u->computed_nanos);
		csv_money(&w, u->has_billed, u->billed_nanos);
		csv_money(&w, u->has_card, u->card_nanos);
		csv_money(&w, has_token, token);
		sb_csv_end(&w);
	}
}

/* Write the three report files of period p into OUT/PERIOD; false when
 * one failed. */
static bool write_reports(nightly *n, const sb_period *p, const sb_recon *r, const sb_summary *s,
                          char *dir, size_t cap)
{
	char name[96], *text;
	report_file rf;
	bool ok = true;

	sb_period_name(p, name);
	if (!path_print(dir, cap, "%s/%s", n->out, name)) {
		dir[0] = '\0';
		return false;
	}
	if (make_dirs(dir) != 0) {
		cli_warn("%s: cannot create the directory: %s", dir, strerror(errno));
		return false;
	}
	/* the whole text first: a half-dumped result is never put in place */
	if ((text = sb_recon_json_text(r, JSON_INDENT(1))) == NULL) {
		cli_warn("%s/reconcile.json: out of memory while writing the result", dir);
		ok = false;
	} else if (report_open(&rf, dir, "reconcile.json")) {
		fputs(text, rf.f);
		fputc('\n', rf.f);
		ok = report_close(&rf) && ok;
	} else {
		ok = false;
	}
	free(text);
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

/* One line per backend on stdout: status, figures, the verdict, its
 * flagged sessions, and its window where it is not the period. */
static void print_backends(const sb_recon *r)
{
	char c[SB_MONEY_BUFSZ], b[SB_MONEY_BUFSZ], d[SB_MONEY_BUFSZ];
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];

	for (size_t i = 0; i < r->n_backends; i++) {
		const sb_recon_backend *be = &r->backends[i];
		printf("%-12s %-12s computed %s  billed %s  drift %s", be->backend, sb_recon_status_name(be->status),
		       sb_money_format(be->computed_nanos, 6, c),
		       be->has_billed ? sb_money_format(be->billed_nanos, 6, b) : "-",
		       be->has_drift ? sb_money_format(be->drift_nanos, 6, d) : "-");
		if (be->explain.verdict != SB_VERDICT_NONE)
			printf("  (%s)", sb_verdict_name(be->explain.verdict));
		if (be->sessions_flagged > 0)
			printf("  (%lld session%s flagged)", (long long)be->sessions_flagged,
			       be->sessions_flagged == 1 ? "" : "s");
		if (be->status == SB_STATUS_UNBILLED && !be->flagged) {
			__int128 due = (__int128)be->window.to_ms + r->opts.billing_lag_ms;
			printf("  (no bill yet: flagged if none by %s)",
			       due <= INT64_MAX ? sb_time_format((int64_t)due, from) : "never");
		} else if (be->status == SB_STATUS_UNBILLED) {
			printf("  (flagged: no bill, and its window ended more than the billing lag ago)");
		}
		if (be->window.from_ms != r->opts.period.from_ms || be->window.to_ms != r->opts.period.to_ms)
			printf("  window %s .. %s", sb_time_format(be->window.from_ms, from),
			       sb_time_format(be->window.to_ms, to));
		if (be->status == SB_STATUS_PENDING)
			printf("  (not ended: judged again later)");
		putchar('\n');
	}
}

/* "N backends, M sessions flagged[, K pending]" into buf. */
static const char *counts(const sb_recon *r, char buf[128])
{
	int n = snprintf(buf, 128, "%lld backend%s, %lld session%s flagged", (long long)r->flagged_backends,
	                 r->flagged_backends == 1 ? "" : "s", (long long)r->flagged_sessions,
	                 r->flagged_sessions == 1 ? "" : "s");

	if (r->pending > 0 && n > 0 && n < 128)
		snprintf(buf + n, 128 - (size_t)n, ", %lld pending", (long long)r->pending);
	return buf;
}

/* The previous period of p's shape: the day, month or year before a whole
 * day, month or year, else the span of the same length just before. */
static sb_period prev_period(const sb_period *p)
{
	char name[96];
	size_t len = strlen(sb_period_name(p, name));
	sb_period q = {p->from_ms - (p->to_ms - p->from_ms), p->from_ms};
	int64_t year;
	int month, day;

	sb_civil_from_ms(p->from_ms, &year, &month, &day);
	if (len == 4)
		q.from_ms = sb_days_from_civil_ms(year - 1, 1, 1);
	else if (len == 7)
		q.from_ms = month == 1 ? sb_days_from_civil_ms(year - 1, 12, 1)
		                       : sb_days_from_civil_ms(year, month - 1, 1);
	return q;
}

/* The period that ended --billing-lag ago: the latest period of P's
 * shape before P whose next period also ended more than the lag before
 * now, so that even a window reaching past its end (a grid off the UTC
 * edges) ended more than the lag ago.  False when there is none within
 * reach (P far in the future). */
static bool lag_period(const sb_period *p, int64_t now_ms, int64_t lag_ms, sb_period *out)
{
	sb_period q = *p;

	for (int i = 0; i < 100000; i++) {
		if ((__int128)now_ms - q.to_ms > lag_ms) {
			*out = prev_period(&q);
			return true;
		}
		q = prev_period(&q);
	}
	return false;
}

/* Append s to buf (at most cap bytes with the NUL) as one shell word,
 * quoted when it holds anything but letters, digits and -_./:. */
static void shell_word(char *buf, size_t cap, const char *s)
{
	size_t n = strlen(buf);
	bool plain = s[0] != '\0' && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                                           "0123456789-_./:") == strlen(s);

	if (plain) {
		snprintf(buf + n, cap - n, "%s", s);
		return;
	}
	snprintf(buf + n, cap - n, "'");
	for (; *s != '\0'; s++) {
		n = strlen(buf);
		snprintf(buf + n, cap - n, *s == '\'' ? "'\\''" : "%c", *s);
	}
	n = strlen(buf);
	snprintf(buf + n, cap - n, "'");
}

/* The periods judged tonight beyond the nightly one. */
typedef struct extra {
	sb_period period;       /* the period */
	const char *why;        /* why it is judged again */
	bool first_time;        /* never judged before: stored only when it has backends */
	sb_recon *r;            /* its result, NULL until judged (or when it failed) */
	char dir[PATH_MAX];     /* where its reports are */
	bool reports_ok;        /* they were all written */
} extra;

/* The command that lists the flagged sessions of period p (as this
 * nightly judged it: its ledger, its billing lag), on stdout. */
static void print_sessions_command(const nightly *n, const sb_period *p)
{
	char cmd[PATH_MAX + 256] = "sbledger ", name[96];

	if (strcmp(n->cli->db_path, "./sbledger.db") != 0) {
		strcat(cmd, "--db ");
		shell_word(cmd, sizeof cmd, n->cli->db_path);
		strcat(cmd, " ");
	}
	strcat(cmd, "reconcile --period ");
	shell_word(cmd, sizeof cmd, sb_period_name(p, name));
	if (n->has_lag) {
		strcat(cmd, " --billing-lag ");
		shell_word(cmd, sizeof cmd, n->lag_arg);
	}
	printf("flagged sessions: %s --dry-run\n", cmd);
}

/* Reconcile period p as nightly does (default and per-backend tolerances,
 * its billing lag), store the result and its summary, and write its
 * reports into *dir.  *out gets the result (the caller frees it), NULL on
 * an error (reported).  *reports_ok says whether every report was
 * written. */
static void judge(nightly *n, sb_db *db, const sb_period *p, bool store_empty, sb_recon **out,
                  char *dir, size_t cap, bool *reports_ok)
{
	sb_recon_opts ro;
	sb_summary *s = NULL;
	sb_recon *r = NULL;

	*out = NULL;
	*reports_ok = false;
	dir[0] = '\0';
	memset(&ro, 0, sizeof ro);
	ro.period = *p;
	ro.abs_nanos = SB_DEFAULT_ABS_NANOS;
	ro.rel_ppb = SB_DEFAULT_REL_PPB;
	ro.has_lag = n->has_lag;
	ro.billing_lag_ms = n->billing_lag_ms;
	if (sb_reconcile(db, &ro, &r, &n->cli->err) != SB_OK) {
		note(n, cli_report(&n->cli->err));
		return;
	}
	if (!store_empty && r->n_backends == 0) {
		*out = r;
		return;
	}
	if (sb_recon_store(db, r, &n->cli->err) != SB_OK ||
	    sb_summary_build(db, p, "backend", &s, &n->cli->err) != SB_OK) {
		note(n, cli_report(&n->cli->err));
		sb_summary_free(s);
		sb_recon_free(r);
		return;
	}
	*reports_ok = write_reports(n, p, r, s, dir, cap);
	if (!*reports_ok)
		note(n, SB_EIO);
	if (n->fail_on_drift && r->flagged > 0)
		note(n, SB_FLAGGED);
	sb_summary_free(s);
	*out = r;
}

/* The earlier periods to judge again tonight (recon_reopen), then the
 * period that ended --billing-lag ago when it was never judged, into
 * *list (malloc'd, the caller frees it). */
static int extra_periods(nightly *n, sb_db *db, extra **list, size_t *count)
{
	sqlite3_stmt *st = sb_db_stmt(db, "recon_reopen", &n->cli->err);
	int64_t now_ms = sb_now_ms(), lag_ms = n->has_lag ? n->billing_lag_ms : SB_DEFAULT_LAG_MS;
	sb_period lag;
	extra *more;
	int rc;

	*list = NULL;
	*count = 0;
	if (st == NULL)
		return n->cli->err.code;
	sb_bind_i64(db, st, ":from_ms", n->period.from_ms);
	sb_bind_i64(db, st, ":to_ms", n->period.to_ms);
	sb_bind_i64(db, st, ":now_ms", now_ms);
	sb_bind_i64(db, st, ":lag_ms", lag_ms);
	while ((rc = sb_db_step(db, st, &n->cli->err)) == SQLITE_ROW) {
		if ((more = realloc(*list, (*count + 1) * sizeof *more)) == NULL) {
			sqlite3_reset(st);
			return sb_fail(&n->cli->err, SB_EINTERNAL, "out of memory");
		}
		*list = more;
		memset(&more[*count], 0, sizeof more[*count]);
		more[*count].period.from_ms = sqlite3_column_int64(st, 0);
		more[*count].period.to_ms = sqlite3_column_int64(st, 1);
		more[*count].why = sqlite3_column_int(st, 2) != 0
		                   ? "judged again (its window had not ended when it was judged)"
		                   : "judged again (a bill it lacked is now past the billing lag)";
		(*count)++;
	}
	sqlite3_reset(st);
	if (rc < 0)
		return n->cli->err.code;
	if (!lag_period(&n->period, now_ms, lag_ms, &lag))
		return SB_OK;
	for (size_t i = 0; i < *count; i++)
		if ((*list)[i].period.from_ms == lag.from_ms && (*list)[i].period.to_ms == lag.to_ms)
			return SB_OK;
	if ((st = sb_db_stmt(db, "recon_period_stored", &n->cli->err)) == NULL)
		return n->cli->err.code;
	sb_bind_i64(db, st, ":from_ms", lag.from_ms);
	sb_bind_i64(db, st, ":to_ms", lag.to_ms);
	rc = sb_db_step(db, st, &n->cli->err);
	if (rc == SQLITE_ROW && sqlite3_column_int(st, 0) == 0) {
		if ((more = realloc(*list, (*count + 1) * sizeof *more)) == NULL) {
			sqlite3_reset(st);
			return sb_fail(&n->cli->err, SB_EINTERNAL, "out of memory");
		}
		*list = more;
		memset(&more[*count], 0, sizeof more[*count]);
		more[*count].period = lag;
		more[*count].why = "judged for the first time (it ended more than the billing lag ago)";
		more[*count].first_time = true;
		(*count)++;
	}
	sqlite3_reset(st);
	return rc < 0 ? n->cli->err.code : SB_OK;
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
	case 'l':
		n->has_lag = true;
		n->lag_arg = arg;
		return cli_duration(cli, "--billing-lag", arg, &n->billing_lag_ms);
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
	{"billing-lag", required_argument, NULL, 'l'},
	{"supersede", no_argument, NULL, 's'},
	{"verbose", no_argument, NULL, 'v'},
	{NULL, 0, NULL, 0},
};

/* nightly: its options, checked, and the inbox resolved (a directory),
 * before the ledger is opened. */
static int parse_nightly(sb_cli *cli, int argc, char **argv, void *opts)
{
	nightly *n = opts;
	struct stat st;
	int first = 0, rc;

	n->cli = cli;
	n->out = "reports";
	if ((rc = cli_getopt(cli, argc, argv, nightly_options, on_nightly_opt, n, &first)) != 0)
		return rc;
	if (first < argc)
		return cli_usage(cli, "unexpected argument '%s'", argv[first]);
	if (n->inbox == NULL)
		return cli_usage(cli, "--inbox DIR is required (DIR/runs/, DIR/billing/FORMAT/)");
	if ((rc = parse_fetch(cli, n->fetch, n->providers, &n->n_providers)) != 0)
		return rc;
	if (!n->has_period && (rc = cli_period(cli, "yesterday", &n->period)) != 0)
		return rc;
	if (realpath(n->inbox, n->root) == NULL || stat(n->root, &st) != 0) {
		cli_warn("%s: %s", n->inbox, strerror(errno));
		return SB_ENOINPUT;
	}
	if (!S_ISDIR(st.st_mode)) {
		cli_warn("%s: not a directory (the inbox holds runs/ and billing/FORMAT/)", n->inbox);
		return SB_ENOINPUT;
	}
	return 0;
}

/* nightly --inbox DIR: import, fetch, reconcile, report, the ledger's
 * write lock held throughout. */
static int run_nightly(sb_cli *cli, sb_db *db, void *opts)
{
	nightly *n = opts;
	size_t n_extra = 0;
	sb_recon *r = NULL;
	char dir[PATH_MAX], name[96], line[128];
	extra *extras = NULL;
	int64_t again_backends = 0, again_sessions = 0;
	bool attention, reports_ok = false;

	import_inbox(n, db);
	fetch_all(n, db, n->providers, n->n_providers);

	/* the period, then every earlier one that needs judging again */
	judge(n, db, &n->period, true, &r, dir, sizeof dir, &reports_ok);
	if (r == NULL)
		return n->status;
	if (extra_periods(n, db, &extras, &n_extra) != SB_OK)
		note(n, cli_report(&cli->err));
	attention = r->flagged > 0;
	for (size_t i = 0; i < n_extra; i++) {
		extra *x = &extras[i];
		judge(n, db, &x->period, !x->first_time, &x->r, x->dir, sizeof x->dir, &x->reports_ok);
		if (x->r == NULL)
			continue;
		again_backends += x->r->flagged_backends;
		again_sessions += x->r->flagged_sessions;
		attention = attention || x->r->flagged > 0;
	}
	if (!cli->quiet || attention || n->status != SB_OK) {
		print_backends(r);
		for (size_t i = 0; i < n_extra; i++) {
			extra *x = &extras[i];
			if (x->r == NULL || x->r->n_backends == 0)
				continue;
			printf("%s %s:\n", sb_period_name(&x->period, name), x->why);
			print_backends(x->r);
			printf("%s: %s; reconciliation %lld; %s%s%s\n", name, counts(x->r, line),
			       (long long)x->r->recon_id, x->reports_ok ? "reports in " : "reports not written",
			       x->reports_ok ? x->dir : "", x->reports_ok ? "/" : "");
		}
		sb_period_name(&n->period, name);
		printf("nightly %s: %ld %s imported, %ld already in the ledger, %ld %s rejected; "
		       "%s; ", name, n->files, n->files == 1 ? "file" : "files", n->already, n->rejected,
		       n->rejected == 1 ? "record" : "records", counts(r, line));
		if (again_backends + again_sessions > 0)
			printf("earlier periods judged again: %lld backend%s, %lld session%s flagged; ",
			       (long long)again_backends, again_backends == 1 ? "" : "s",
			       (long long)again_sessions, again_sessions == 1 ? "" : "s");
		printf("reconciliation %lld; %s%s%s\n", (long long)r->recon_id,
		       reports_ok ? "reports in " : "reports not written", reports_ok ? dir : "",
		       reports_ok ? "/" : "");
		if (r->flagged_sessions > 0)
			print_sessions_command(n, &n->period);
		for (size_t i = 0; i < n_extra; i++)
			if (extras[i].r != NULL && extras[i].r->flagged_sessions > 0)
				print_sessions_command(n, &extras[i].period);
	}
	for (size_t i = 0; i < n_extra; i++)
		sb_recon_free(extras[i].r);
	free(extras);
	sb_recon_free(r);
	return n->status;
}

const sb_command sb_nightly_commands[] = {
	{"nightly", parse_nightly, run_nightly, sizeof(nightly), CMD_WRITES,
	 "--inbox DIR [--period P] [--out DIR] [--fetch LIST] [--billing-lag D] [--fail-on-drift] "
	 "[--supersede] [--verbose]",
	 "The job cron runs.  Imports every file of DIR/runs/ (run-usage JSON Lines)\n"
	 "and DIR/billing/FORMAT/ (billing files of FORMAT: focus, modal, ...) not\n"
	 "yet in the ledger (a file is known by its SHA-256, so each is read once;\n"
	 "names starting with '.' are skipped, and nothing outside DIR is followed),\n"
	 "fetches from the providers of --fetch (the catalog now, usage and billing\n"
	 "for the period), reconciles period P and stores the result, writes\n"
	 "OUT/PERIOD/reconcile.json, summary.csv and report.html, and prints one\n"
	 "line per backend and a line of totals.  It also judges again every\n"
	 "earlier period whose stored result had a backend pending (its window had\n"
	 "not ended) or unbilled and now past the billing lag, and the period that\n"
	 "ended the billing lag ago when it was never judged, so that a bill that\n"
	 "never came is flagged, once; each period judged gets its own reports.\n"
	 "\n"
	 "  --inbox DIR       the inbox: DIR/runs/ and DIR/billing/FORMAT/ (required)\n"
	 "  --period P        the period to reconcile (default yesterday, UTC)\n"
	 "  --out DIR         where the reports go, in DIR/PERIOD/ (default ./reports)\n"
	 "  --fetch LIST      providers to fetch from, comma separated:\n"
	 "                    deepinfra,vercel (keys from the environment)\n"
	 "  --billing-lag D   a backend with runs and no bill is flagged unbilled once\n"
	 "                    its window ended more than D ago (default 72h; 3d, 90m)\n"
	 "  --fail-on-drift   exit 1 when a backend or session is flagged\n"
	 "  --supersede       billing files supersede the lines of earlier batches\n"
	 "                    inside their span (for providers that reissue exports)\n"
	 "  --verbose         trace the fetches on stderr\n"
	 "\n"
	 "With --quiet nothing is printed unless something needs a look (a flag, a\n"
	 "rejected record, an error), so that cron mails only then; the output then\n"
	 "ends with the command that lists the flagged sessions.  The ledger's write\n"
	 "lock is held throughout: a second nightly waits for the first, and exits\n"
	 "75 after --busy-timeout.\n"
	 "\n"
	 "Exit 0; 1 with --fail-on-drift when something is flagged; 65 when a record\n"
	 "was rejected; 66 an inbox file unreadable or leading out of the inbox; 69\n"
	 "or 75 when a fetch failed (the rest still runs); the worst of these.\n",
	 "the cron job: import, fetch, reconcile, write the reports", nightly_options,
	 "sbledger nightly --inbox inbox --fail-on-drift\n"
	 "sbledger --db ledger.db --quiet nightly --inbox inbox --out reports --fetch deepinfra,vercel --fail-on-drift\n"
	 "sbledger nightly --inbox inbox --period 2026-11 --out reports\n"
	 "sbledger nightly --inbox inbox --billing-lag 5d --fail-on-drift\n"},
	{NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};
