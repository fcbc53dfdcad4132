/* providers.c: the table of providers, and fetching (see provider.h). */
#include "importers/provider.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "importers/scrub.h"
#include "importers/source.h"
#include "ledger/batch.h"
#include "ledger/timefmt.h"

/* The providers: one file each, one row here. */
static const sb_provider *const providers[] = {
	&sb_provider_deepinfra,
	&sb_provider_vercel,
	NULL,
};

const sb_provider *const *sb_providers(void)
{
	return providers;
}

const sb_provider *sb_provider_find(const char *name)
{
	for (size_t i = 0; providers[i] != NULL; i++)
		if (strcmp(providers[i]->name, name) == 0)
			return providers[i];
	return NULL;
}

const sb_endpoint *sb_provider_endpoint(const sb_provider *p, const char *what)
{
	for (const sb_endpoint *ep = p->endpoints; ep->what != NULL; ep++)
		if (strcmp(ep->what, what) == 0)
			return ep;
	return NULL;
}

char *sb_provider_names(const char *what, char *buf, size_t cap)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; providers[i] != NULL; i++) {
		if (what != NULL && sb_provider_endpoint(providers[i], what) == NULL)
			continue;
		used += (size_t)snprintf(buf + used, used < cap ? cap - used : 0, "%s%s",
		                         used > 0 ? ", " : "", providers[i]->name);
		if (used >= cap)
			break;
	}
	return buf;
}

const char *sb_provider_base(const sb_provider *p, const sb_fetch_opts *o)
{
	if (o->base_url != NULL && o->base_url[0] != '\0')
		return o->base_url;
	return p->base_url;
}

/* ---- helpers for endpoint handlers ------------------------------------ */

int sb_fetch_slurp(sb_http *h, size_t max, char **out, size_t *len, sb_err *e)
{
	size_t cap = 65536, used = 0, got = 0;
	char *buf = malloc(cap + 1);

	*out = NULL;
	*len = 0;
	if (buf == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	for (;;) {
		if (used == cap) {
			char *nb;
			if (cap >= max) {
				free(buf);
				return sb_fail(e, SB_EDATA, "the response is larger than the limit of %zu bytes",
				               max);
			}
			cap = cap * 2 > max ? max : cap * 2;
			if ((nb = realloc(buf, cap + 1)) == NULL) {
				free(buf);
				return sb_fail(e, SB_EINTERNAL, "out of memory");
			}
			buf = nb;
		}
		if (sb_http_read(h, buf + used, cap - used, &got, e) != SB_OK) {
			free(buf);
			return e->code;
		}
		if (got == 0)
			break;
		used += got;
	}
	buf[used] = '\0';
	*out = buf;
	*len = used;
	return SB_OK;
}

/* The SHA-256 of data[0..len) as hex into hex. */
static void sha256_hex(const char *data, size_t len, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	hex[0] = '\0';
	if (EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) != 1)
		return;
	for (unsigned i = 0; i < mdlen && i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

int sb_fetch_begin(sb_db *db, const char *kind, const char *format, sb_fetch_result *r,
                   sb_batch *b, sb_err *e)
{
	if (sb_batch_begin(db, kind, format, r->url, NULL, "fetch", b, e) != SB_OK)
		return e->code;
	r->batch_id = b->id;
	return sb_db_begin(db, e);
}

int sb_fetch_end(sb_db *db, sb_batch *b, bool ok, const char *reason, const char *body,
                 size_t len, sb_fetch_result *r, sb_err *e)
{
	char sha[65] = "";

	if (body != NULL)
		sha256_hex(body, len, sha);
	if (ok) {
		b->accepted = r->accepted;
		b->duplicates = r->duplicates;
		b->skipped = r->skipped;
		if (sb_batch_save(db, b, e) != SB_OK ||
		    sb_batch_end(db, b, SB_BATCH_COMPLETE, sha[0] != '\0' ? sha : NULL, e) != SB_OK ||
		    sb_db_commit(db, e) != SB_OK) {
			sb_db_rollback(db);
			return e->code;
		}
		return SB_OK;
	}
	sb_db_rollback(db);
	r->accepted = r->duplicates = r->skipped = 0;
	b->accepted = b->duplicates = b->skipped = b->replaced = 0;
	b->rejected = r->rejected = reason != NULL ? 1 : 0;
	{
		sb_err le;
		size_t keep = len < 65536 ? len : 65536;
		sb_err_clear(&le);
		if (sb_db_begin(db, &le) != SB_OK ||
		    (reason != NULL &&
		     sb_batch_reject(db, b, 1, reason, body != NULL ? body : "", body != NULL ? keep : 0,
		                     (int64_t)len, &le) != SB_OK) ||
		    sb_batch_save(db, b, &le) != SB_OK ||
		    sb_batch_end(db, b, SB_BATCH_FAILED, sha[0] != '\0' ? sha : NULL, &le) != SB_OK ||
		    sb_db_commit(db, &le) != SB_OK) {
			sb_db_rollback(db);
			/* the first error stays the one reported */
			if (e->code == SB_OK)
				sb_fail(e, le.code, "%s", le.msg);
		}
	}
	return e->code;
}

/* ---- billing responses, through the import driver ---------------------- */

/* Copy the body of h into a private temporary file (mode 0600) in the
 * directory tmp (NULL or "": /tmp) whose name goes into path: the import
 * driver reads files.
 * Memory stays bounded.  Where /proc is there, the file is unlinked at
 * once and path names its descriptor (/proc/self/fd/N), so that nothing is
 * left behind even by a killed process; *fd keeps it open (the caller
 * closes it).  *blank says whether the body held only white space. */
static int spool(sb_http *h, const char *tmp, char *path, size_t cap, int *fd, bool *blank,
                 sb_err *e)
{
	char buf[65536], named[4096];
	size_t got = 0;
	struct stat st;

	*blank = true;
	path[0] = '\0';
	if (tmp == NULL || tmp[0] == '\0')
		tmp = "/tmp";
	if ((size_t)snprintf(named, sizeof named, "%s/sbledger-fetch-XXXXXX", tmp) >= sizeof named) {
		*fd = -1;
		return sb_fail(e, SB_EIO, "cannot create a temporary file in %s: the path is longer than %zu bytes",
		               tmp, sizeof named - 1);
	}
	if ((*fd = mkstemp(named)) < 0)
		return sb_fail(e, SB_EIO, "cannot create a temporary file in %s: %s", tmp,
		               strerror(errno));
	fchmod(*fd, 0600);
	snprintf(path, cap, "/proc/self/fd/%d", *fd);
	if (stat(path, &st) == 0)
		unlink(named);
	else
		snprintf(path, cap, "%s", named);
	for (;;) {
		if (sb_http_read(h, buf, sizeof buf, &got, e) != SB_OK || got == 0)
			break;
		for (size_t i = 0; i < got && *blank; i++)
			*blank = isspace((unsigned char)buf[i]) != 0;
		for (size_t off = 0; off < got;) {
			ssize_t n = write(*fd, buf + off, got - off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return sb_fail(e, SB_EIO, "cannot write a temporary file in %s: %s", tmp,
				               strerror(errno));
			off += (size_t)n;
		}
	}
	return e->code;
}

/* Remove the temporary file of spool. */
static void unspool(const char *path, int fd)
{
	if (fd >= 0)
		close(fd);
	if (path[0] != '\0' && strncmp(path, "/proc/", 6) != 0)
		unlink(path);
}

/* Replace every occurrence of from in msg by to (messages of the driver
 * name the temporary file; the user knows the URL). */
static void rename_in(char *msg, size_t cap, const char *from, const char *to)
{
	char out[SB_ERR_MSG_MAX];
	size_t flen = strlen(from), o = 0;

	if (flen == 0)
		return;
	for (const char *p = msg; *p != '\0' && o + 1 < sizeof out;) {
		if (strncmp(p, from, flen) == 0) {
			o += (size_t)snprintf(out + o, sizeof out - o, "%s", to);
			p += flen;
		} else {
			out[o++] = *p++;
		}
	}
	out[o < sizeof out ? o : sizeof out - 1] = '\0';
	snprintf(msg, cap, "%s", out);
}

/* Events of the driver, with the temporary file's name put back as the URL. */
typedef struct renamer {
	const sb_import_events *inner;   /* the caller's events */
	const char *url;                 /* the name to show */
} renamer;

static void renamed_reject(void *ctx, const char *source, int64_t line_no, const char *reason)
{
	renamer *rn = ctx;

	(void)source;
	if (rn->inner->on_reject != NULL)
		rn->inner->on_reject(rn->inner->ctx, rn->url, line_no, reason);
}

/* Import the body of h as billing format ep->format: all or nothing
 * (strict), superseding what it covers: the requested period (never the
 * span of its lines: a monthly fee in a daily response must not replace
 * the previous days), its keys and the same charges. */
static int import_billing(sb_db *db, const sb_endpoint *ep, sb_http *h, const sb_fetch_opts *o,
                          sb_fetch_result *r, sb_err *e)
{
	char path[4096] = "";
	renamer rn = {&o->events, r->url};
	sb_import_opts io = {0};
	sb_import_result ir;
	sb_stmt *st;
	bool blank = true;
	int fd = -1;
	sb_batch b;

	memset(&ir, 0, sizeof ir);
	io.strict = true;
	io.supersede = true;
	io.has_period = o->has_period;
	io.period_from_ms = o->period.from_ms;
	io.period_to_ms = o->period.to_ms;
	io.events.on_reject = renamed_reject;
	io.events.ctx = &rn;
	io.words = o->words;
	if (spool(h, o->tmp_dir, path, sizeof path, &fd, &blank, e) == SB_OK && blank) {
		/* no charges in the period: an empty statement, not an error */
		if (sb_fetch_begin(db, "billing", ep->format, r, &b, e) == SB_OK)
			sb_fetch_end(db, &b, true, NULL, NULL, 0, r, e);
		unspool(path, fd);
		return e->code;
	}
	if (e->code == SB_OK &&
	    sb_import_billing(db, ep->format, path, &io, &ir, e) != SB_EINTERNAL && ir.batch.id > 0) {
		/* the batch's source is the URL, not the temporary file */
		sb_err se;
		sb_err_clear(&se);
		if ((st = sb_db_stmt(db, "batch_set_source", &se)) != NULL) {
			sb_bind_text(db, st, ":source", r->url);
			sb_bind_i64(db, st, ":batch_id", ir.batch.id);
			sb_db_run(db, st, &se);
		}
		if (e->code == SB_OK && se.code != SB_OK)
			sb_fail(e, se.code, "%s", se.msg);
	}
	if (path[0] != '\0') {
		rename_in(e->msg, sizeof e->msg, path, r->url);
		rename_in(e->msg, sizeof e->msg, "nothing of the file was", "nothing of the response was");
	}
	unspool(path, fd);
	r->batch_id = ir.batch.id;
	r->already = ir.already;
	r->accepted = ir.batch.accepted;
	r->duplicates = ir.batch.duplicates;
	r->rejected = ir.batch.rejected;
	r->skipped = ir.batch.skipped;
	r->superseded = ir.superseded;
	return e->code;
}

/* ---- fetch -------------------------------------------------------------- */

/* A period bound as the endpoint wants it, into buf. */
static const char *bound(sb_query_time style, int64_t ms, char buf[SB_TIME_BUFSZ])
{
	if (style == SB_QUERY_UNIX) {
		int64_t s = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
		snprintf(buf, SB_TIME_BUFSZ, "%lld", (long long)s);
		return buf;
	}
	return sb_time_format(ms, buf);
}

int sb_fetch(sb_db *db, const sb_provider *p, const sb_endpoint *ep, const sb_fetch_opts *o,
             sb_fetch_result *r, sb_err *e)
{
	const char *query[16] = {NULL};
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];
	size_t nq = 0;
	const char *key;
	char *url = NULL;
	sb_http_opts ho = o->http;
	sb_http_req req;
	sb_http *h = NULL;

	memset(r, 0, sizeof *r);
	if (ep->period != SB_QUERY_NONE) {
		if (!o->has_period)
			return sb_fail(e, SB_EUSAGE, "fetching the %s of %s needs a period, and none was given",
			               ep->what, p->name);
		query[nq++] = "from";
		query[nq++] = bound(ep->period, o->period.from_ms, from);
		query[nq++] = "to";
		query[nq++] = bound(ep->period, o->period.to_ms, to);
	}
	for (size_t i = 0; o->params != NULL && o->params[i] != NULL && nq + 2 < 16; i += 2) {
		if (o->params[i + 1] != NULL && o->params[i + 1][0] != '\0') {
			query[nq++] = o->params[i];
			query[nq++] = o->params[i + 1];
		}
	}
	key = o->key;
	if (key == NULL || key[0] == '\0')
		return sb_fail_hint(e, SB_EUSAGE, SB_HINT_KEY, SB_WORDS_KEY, p->name, p->key_env);
	if (sb_http_url(sb_provider_base(p, o), ep->path, query, &url, e) != SB_OK)
		return e->code;
	/* the batch's source: a URL given with the key in it keeps it out */
	snprintf(r->url, sizeof r->url, "%s", url);
	sb_scrub_str(r->url, key);
	if (ep->max_bytes > 0 && (ho.max_bytes <= 0 || ep->max_bytes < ho.max_bytes))
		ho.max_bytes = ep->max_bytes;
	req = (sb_http_req){url, key, p->key_env, ep->accept, p->name, ep->paging};
	if (sb_http_open(&req, &ho, &h, e) == SB_OK) {
		if (ep->format != NULL)
			import_billing(db, ep, h, o, r, e);
		else
			ep->store(db, p, ep, h, o, r, e);
		r->pages = sb_http_pages(h);
		r->bytes = sb_http_bytes(h);
	}
	sb_http_close(h);
	free(url);
	/* whatever a message quotes (a URL, the driver's words), no key */
	sb_scrub_str(e->msg, key);
	return e->code;
}
