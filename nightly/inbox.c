/* inbox.c: walking the nightly job's inbox (see inbox.h). */
#include "nightly/inbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "importers/billing.h"
#include "importers/source.h"
#include "ledger/quote.h"
#include "nightly/paths.h"

/* A walk under way. */
typedef struct walk {
	const char *root;           /* the inbox, resolved */
	const sb_inbox_events *ev;  /* the caller's */
	const char *pause_checked;  /* the test hook, or NULL */
	bool paused;                /* it was taken */
	int status;                 /* the worst code of the problems */
} walk;

/* The problem e to the caller, its code folded into the walk's status. */
static void tell(walk *w, const sb_err *e)
{
	w->status = sb_code_worst(w->status, e->code);
	if (w->ev->on_problem != NULL)
		w->ev->on_problem(w->ev->ctx, e);
}

/* Print a path into buf (cap bytes): true, or false with a problem
 * (SB_ENOINPUT) when it is longer than the system takes: a path cut
 * short is never opened or shown as if it were another file. */
static bool path_print(walk *w, char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool path_print(walk *w, char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	sb_err e;

	sb_err_clear(&e);
	va_start(ap, fmt);
	sb_nightly_vpath(buf, cap, SB_ENOINPUT, &e, fmt, ap);
	va_end(ap);
	if (e.code != SB_OK)
		tell(w, &e);
	return e.code == SB_OK;
}

/* A problem: code and message to the caller, folded into the walk's
 * status. */
static void problem(walk *w, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void problem(walk *w, int code, const char *fmt, ...)
{
	sb_err e;
	va_list ap;

	sb_err_clear(&e);
	va_start(ap, fmt);
	sb_vfail(&e, code, fmt, ap);
	va_end(ap);
	tell(w, &e);
}

/* name quoted for a message (ledger/quote.h), in a buffer of the
 * statement that uses it. */
#define QUOTE(name) sb_quote((name), SB_QUOTE_IF_NEEDED, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ)

/* The test hook: create path, then wait until it is gone (polling every
 * 10 ms). */
static void test_pause(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return;
	close(fd);
	while (access(path, F_OK) == 0)
		usleep(10000);
}

int sb_inbox_resolve(const char *inbox, char *root, size_t cap, sb_err *e)
{
	char buf[PATH_MAX];
	struct stat st;

	if (realpath(inbox, buf) == NULL || stat(buf, &st) != 0)
		return sb_fail(e, SB_ENOINPUT, "%s: %s", QUOTE(inbox), strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return sb_fail(e, SB_ENOINPUT, "%s: not a directory (the inbox holds runs/ and billing/FORMAT/)",
		               QUOTE(inbox));
	if (strlen(buf) >= cap)
		return sb_fail(e, SB_ENOINPUT, "%s: its path is too long", QUOTE(inbox));
	memcpy(root, buf, strlen(buf) + 1);
	return SB_OK;
}

/* The resolved path of descriptor fd when it lies inside the inbox
 * (malloc'd), else NULL with a problem naming shown: the walk never
 * follows a link out of its inbox.  The check is made on the descriptor,
 * after the open, so that what was checked is what is read. */
static char *inside(walk *w, int fd, const char *shown)
{
	char *real = sb_fd_path(fd, shown);
	size_t rl = strlen(w->root);

	if (real == NULL) {
		problem(w, SB_ENOINPUT, "%s: cannot tell where it leads: not followed", QUOTE(shown));
		return NULL;
	}
	if (strncmp(real, w->root, rl) != 0 || (real[rl] != '/' && real[rl] != '\0')) {
		problem(w, SB_ENOINPUT, "%s: leads out of the inbox (to %s): not followed", QUOTE(shown),
		        QUOTE(real));
		free(real);
		return NULL;
	}
	return real;
}

/* Open the directory name of directory dirfd (shown in messages) and
 * check it lies inside the inbox: its descriptor, or -1 (with a problem
 * unless it is simply not there). */
static int open_dir(walk *w, int dirfd, const char *name, const char *shown)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *real;
	struct stat st;

	if (fd < 0) {
		/* absent is fine; a dangling link, a loop or a file is not */
		if (errno != ENOENT || fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			problem(w, SB_ENOINPUT, "%s: %s", QUOTE(shown), strerror(errno));
		return -1;
	}
	if ((real = inside(w, fd, shown)) == NULL) {
		close(fd);
		return -1;
	}
	free(real);
	return fd;
}

/* Open the entry name of directory dirfd (shown in messages) for reading
 * when it is a regular file inside the inbox: its descriptor, its
 * resolved path in *real (malloc'd); -1 for a directory (skipped without
 * a word, as the walk reads no deeper) or, with a problem, anything else.
 * It is opened first with O_PATH (nothing read, a device or FIFO not
 * opened), checked on that descriptor, then opened for reading through
 * the descriptor itself (/proc/self/fd), never through the name again. */
static int open_file(walk *w, int dirfd, const char *name, const char *shown, char **real)
{
	int pfd = openat(dirfd, name, O_PATH | O_CLOEXEC);
	int fd = -1;
	struct stat st, rst;
	char again[64];

	*real = NULL;
	if (pfd < 0) {
		problem(w, SB_ENOINPUT, "%s: %s", QUOTE(shown), strerror(errno));
		return -1;
	}
	if ((*real = inside(w, pfd, shown)) == NULL) {
		close(pfd);
		return -1;
	}
	if (fstat(pfd, &st) != 0) {
		problem(w, SB_ENOINPUT, "%s: %s", QUOTE(shown), strerror(errno));
		goto skip;
	}
	if (S_ISDIR(st.st_mode))
		goto skip;
	if (!S_ISREG(st.st_mode)) {
		problem(w, SB_ENOINPUT, "%s: not a regular file: skipped", QUOTE(shown));
		goto skip;
	}
	snprintf(again, sizeof again, "/proc/self/fd/%d", pfd);
	fd = open(again, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 && errno == ENOENT)   /* no /proc: the name, then the same file */
		fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		problem(w, SB_ENOINPUT, "%s: %s", QUOTE(shown), strerror(errno));
		goto skip;
	}
	if (fstat(fd, &rst) != 0 || rst.st_dev != st.st_dev || rst.st_ino != st.st_ino) {
		problem(w, SB_ETEMP, "%s: changed while it was opened: skipped", QUOTE(shown));
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

/* Hand every visible regular file of the directory dirfd (shown as dir)
 * to the caller, in name order: runs when format is NULL, else billing
 * of format.  Closes dirfd. */
static void walk_dir(walk *w, int dirfd, const char *dir, const char *format)
{
	struct dirent **names = NULL;
	int count = scandirat(dirfd, ".", &names, visible, alphasort);

	if (count < 0) {
		problem(w, SB_ENOINPUT, "%s: %s", QUOTE(dir), strerror(errno));
		close(dirfd);
		return;
	}
	for (int i = 0; i < count; i++) {
		char path[PATH_MAX];
		char *real = NULL;
		int fd;
		if (path_print(w, path, sizeof path, "%s/%s", dir, names[i]->d_name) &&
		    (fd = open_file(w, dirfd, names[i]->d_name, path, &real)) >= 0) {
			if (w->pause_checked != NULL && !w->paused) {
				w->paused = true;
				test_pause(w->pause_checked);
			}
			if (w->ev->on_file != NULL)
				w->ev->on_file(w->ev->ctx, fd, real, format);
			else
				close(fd);
			free(real);
		}
		free(names[i]);
	}
	free(names);
	close(dirfd);
}

int sb_inbox_walk(const char *root, const char *shown, const char *pause_checked,
                  const sb_inbox_events *ev)
{
	walk w = {root, ev, pause_checked, false, SB_OK};
	char dir[PATH_MAX];
	struct dirent **names = NULL;
	int top, fd, billing, count;

	if ((top = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		problem(&w, SB_ENOINPUT, "%s: %s", QUOTE(shown), strerror(errno));
		return w.status;
	}
	if (path_print(&w, dir, sizeof dir, "%s/runs", root) &&
	    (fd = open_dir(&w, top, "runs", dir)) >= 0)
		walk_dir(&w, fd, dir, NULL);
	if (!path_print(&w, dir, sizeof dir, "%s/billing", root)) {
		close(top);
		return w.status;
	}
	billing = open_dir(&w, top, "billing", dir);
	close(top);
	if (billing < 0)
		return w.status;
	if ((count = scandirat(billing, ".", &names, visible, alphasort)) < 0) {
		problem(&w, SB_ENOINPUT, "%s: %s", QUOTE(dir), strerror(errno));
		close(billing);
		return w.status;
	}
	for (int i = 0; i < count; i++) {
		char sub[PATH_MAX];
		const sb_bill_format *f = sb_bill_format_find(names[i]->d_name);
		int sfd = openat(billing, names[i]->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (!path_print(&w, sub, sizeof sub, "%s/%s", dir, names[i]->d_name)) {
			/* refused, said */
		} else if (sfd < 0) {
			problem(&w, SB_EDATA, "%s: billing files go in %s/FORMAT/ (one of %s): skipped", QUOTE(sub),
			        QUOTE(dir), sb_bill_format_names());
		} else if (f == NULL) {
			problem(&w, SB_EDATA, "%s: %s is not a billing format (one of %s): skipped", QUOTE(sub),
			        sb_quote(names[i]->d_name, SB_QUOTE_ALWAYS, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ),
			        sb_bill_format_names());
		} else {
			char *real = inside(&w, sfd, sub);
			if (real != NULL) {
				free(real);
				walk_dir(&w, sfd, sub, f->name);
				sfd = -1;
			}
		}
		if (sfd >= 0)
			close(sfd);
		free(names[i]);
	}
	free(names);
	close(billing);
	return w.status;
}
