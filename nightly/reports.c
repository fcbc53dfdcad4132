/* reports.c: the nightly job's report files (see reports.h). */
#include "nightly/reports.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "ledger/quote.h"
#include "nightly/paths.h"
#include "report/recon_json.h"
#include "report/summary_out.h"

/* Where problems go. */
typedef struct sink {
	void (*on_problem)(void *ctx, const sb_err *problem);
	void *ctx;
} sink;

/* A problem of code code to the caller. */
static void problem(const sink *k, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void problem(const sink *k, int code, const char *fmt, ...)
{
	sb_err e;
	va_list ap;

	if (k->on_problem == NULL)
		return;
	sb_err_clear(&e);
	va_start(ap, fmt);
	sb_vfail(&e, code, fmt, ap);
	va_end(ap);
	k->on_problem(k->ctx, &e);
}

/* Print a path into buf (cap bytes): true, or false with a problem
 * (SB_EIO) when it is longer than the system takes: a report is never
 * written, nor a directory made, under a path cut short. */
static bool path_print(const sink *k, char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool path_print(const sink *k, char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	sb_err e;

	sb_err_clear(&e);
	va_start(ap, fmt);
	sb_nightly_vpath(buf, cap, SB_EIO, &e, fmt, ap);
	va_end(ap);
	if (e.code != SB_OK && k->on_problem != NULL)
		k->on_problem(k->ctx, &e);
	return e.code == SB_OK;
}

/* name quoted for a message (ledger/quote.h), in a buffer of the
 * statement that uses it. */
#define QUOTE(name) sb_quote((name), SB_QUOTE_IF_NEEDED, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ)

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
static bool report_open(const sink *k, report_file *rf, const char *dir, const char *name)
{
	int fd;

	if (!path_print(k, rf->path, sizeof rf->path, "%s/%s", dir, name) ||
	    !path_print(k, rf->tmp, sizeof rf->tmp, "%s/.%s.tmp", dir, name))
		return false;
	fd = open(rf->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	rf->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (rf->f == NULL) {
		/* fdopen's buffer is memory: out of it is an internal error */
		problem(k, errno == ENOMEM ? SB_EINTERNAL : SB_EIO, "%s: cannot write: %s", QUOTE(rf->tmp),
		        strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	return true;
}

/* Close rf and put it in place; false (with a problem) when anything of
 * it could not be written. */
static bool report_close(const sink *k, report_file *rf)
{
	bool ok = !ferror(rf->f);

	ok = fflush(rf->f) == 0 && ok;
	ok = fsync(fileno(rf->f)) == 0 && ok;
	ok = fclose(rf->f) == 0 && ok;
	if (ok && rename(rf->tmp, rf->path) == 0)
		return true;
	problem(k, SB_EIO, "%s: cannot write: %s", QUOTE(rf->path), strerror(errno != 0 ? errno : EIO));
	unlink(rf->tmp);
	return false;
}

/* End rf, written by a writer that said e: put in place when it wrote
 * the whole report (report_close); when it failed part way, its problem
 * told, the temporary file closed and removed and the file of the night
 * before left in place (a reader never sees half a report).  True when
 * the report was put in place. */
static bool report_end(const sink *k, report_file *rf, const sb_err *e)
{
	if (e->code == SB_OK)
		return report_close(k, rf);
	if (k->on_problem != NULL)
		k->on_problem(k->ctx, e);
	fclose(rf->f);
	unlink(rf->tmp);
	return false;
}

bool sb_nightly_write_reports(const char *out, const sb_period *p, const sb_recon *r,
                              const sb_summary *s, const sb_recon_detail *d,
                              const sb_page_opts *po, char *dir, size_t cap,
                              void (*on_problem)(void *ctx, const sb_err *problem), void *ctx)
{
	sink k = {on_problem, ctx};
	char name[96], *text;
	report_file rf;
	bool ok = true;

	sb_period_name(p, name);
	if (!path_print(&k, dir, cap, "%s/%s", out, name)) {
		dir[0] = '\0';
		return false;
	}
	if (make_dirs(dir) != 0) {
		problem(&k, SB_EIO, "%s: cannot create the directory: %s", QUOTE(dir), strerror(errno));
		return false;
	}
	/* the whole text first: a half-dumped result is never put in place */
	if ((text = sb_recon_json_text(r, JSON_INDENT(1))) == NULL) {
		problem(&k, SB_EINTERNAL, "%s/reconcile.json: out of memory while writing the result", QUOTE(dir));
		ok = false;
	} else if (report_open(&k, &rf, dir, "reconcile.json")) {
		fputs(text, rf.f);
		fputc('\n', rf.f);
		ok = report_close(&k, &rf) && ok;
	} else {
		ok = false;
	}
	free(text);
	/* the summary's own CSV, free text guarded: the file is for
	 * spreadsheets (nightly has no --raw) */
	if (report_open(&k, &rf, dir, "summary.csv")) {
		sb_err e;
		sb_err_clear(&e);
		sb_report_summary(rf.f, FMT_CSV, false, s, 0, &e);
		ok = report_end(&k, &rf, &e) && ok;
	} else {
		ok = false;
	}
	if (d != NULL && report_open(&k, &rf, dir, "report.html")) {
		sb_err e;
		sb_err_clear(&e);
		sb_recon_page(rf.f, r, d, po, &e);
		ok = report_end(&k, &rf, &e) && ok;
	} else {
		ok = false;
	}
	return ok;
}

/* Keep the first problem of the heartbeat (its sink). */
static void keep_problem(void *ctx, const sb_err *problem)
{
	sb_err *e = ctx;

	if (e->code == SB_OK)
		*e = *problem;
}

int sb_nightly_heartbeat_write(const char *out, const char *json_text, sb_err *e)
{
	sink k = {keep_problem, e};
	report_file rf;

	if (json_text == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	if (make_dirs(out) != 0)
		return sb_fail(e, SB_EIO, "%s: cannot make the directory: %s", QUOTE(out), strerror(errno));
	if (!report_open(&k, &rf, out, "heartbeat.json"))
		return e->code;
	fputs(json_text, rf.f);
	fputc('\n', rf.f);
	report_close(&k, &rf);
	return e->code;
}
