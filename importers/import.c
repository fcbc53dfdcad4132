/* import.c: the import driver (see import.h). */
#include "importers/import.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "importers/lines.h"
#include "importers/runs_jsonl.h"
#include "importers/source.h"
#include "ledger/rates.h"
#include "ledger/runs.h"

enum {
	DEFAULT_CHUNK = 5000,
	DEFAULT_MAX_LINE = 64 << 20
};

/* What the handler did with one record. */
enum outcome { STORED, DUPLICATE, REJECTED, REPLACED, SKIPPED };

/* A format's record handler: store one record or say why not. */
typedef struct handler {
	/* the batch began: get ready to store records into it */
	int (*begin)(void *ctx, sb_db *db, int64_t batch_id, sb_err *e);
	/* handle text[0..len) read at line_no: set *out; for REJECTED put
	 * the reason in why (an sb_err used as a message buffer); return
	 * an error code only when the import cannot go on */
	int (*handle)(void *ctx, const char *text, size_t len, int64_t line_no,
	              enum outcome *out, sb_err *why, sb_err *e);
	void *ctx;
} handler;

/* Rejected records of a --strict import, kept in a temporary file until
 * the transaction that would have held them is rolled back. */
typedef struct spool {
	FILE *f;        /* tmpfile(), or NULL when not strict */
} spool;

/* Where an import is. */
typedef struct driver {
	sb_db *db;                 /* the ledger */
	const sb_import_opts *o;   /* options */
	const char *source;        /* the source's name for messages */
	sb_batch *b;               /* the batch and its counts */
	spool sp;                  /* rejects while strict */
} driver;

/* Record a rejected record: in the ledger, or the spool when strict. */
static int reject(driver *d, int64_t line_no, const char *reason, const char *text,
                  size_t len, int64_t full_len, sb_err *e)
{
	d->b->rejected++;
	if (d->o->events.on_reject != NULL)
		d->o->events.on_reject(d->o->events.ctx, d->source, line_no, reason);
	if (d->sp.f == NULL)
		return sb_batch_reject(d->db, d->b, line_no, reason, text, len, full_len, e);
	{
		int64_t head[4] = {line_no, full_len, (int64_t)strlen(reason), (int64_t)len};
		if (fwrite(head, sizeof head, 1, d->sp.f) != 1 ||
		    fwrite(reason, 1, strlen(reason), d->sp.f) != strlen(reason) ||
		    fwrite(text, 1, len, d->sp.f) != len)
			return sb_fail(e, SB_EIO, "cannot write the temporary file of rejected lines");
	}
	return SB_OK;
}

/* Store the spooled rejects of a failed strict import into the ledger. */
static int unspool(driver *d, sb_err *e)
{
	int64_t head[4];
	char *reason = NULL, *text = NULL;

	rewind(d->sp.f);
	while (e->code == SB_OK && fread(head, sizeof head, 1, d->sp.f) == 1) {
		reason = malloc((size_t)head[2] + 1);
		text = malloc((size_t)head[3] + 1);
		if (reason == NULL || text == NULL)
			sb_fail(e, SB_EINTERNAL, "out of memory");
		else if (fread(reason, 1, (size_t)head[2], d->sp.f) != (size_t)head[2] ||
		         fread(text, 1, (size_t)head[3], d->sp.f) != (size_t)head[3])
			sb_fail(e, SB_EIO, "cannot read back the temporary file of rejected lines");
		else {
			reason[head[2]] = '\0';
			sb_batch_reject(d->db, d->b, head[0], reason, text, (size_t)head[3], head[1], e);
		}
		free(reason);
		free(text);
		reason = text = NULL;
	}
	return e->code;
}

/* True when text[0..len) is only white space. */
static bool blank(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)text[i]))
			return false;
	return true;
}

/* Read every line of src from the batch's resume point and hand each to h,
 * committing every chunk records unless strict. */
static int read_lines(driver *d, sb_source *src, const handler *h, int64_t total, sb_err *e)
{
	const sb_import_opts *o = d->o;
	int64_t chunk = o->chunk > 0 ? o->chunk : DEFAULT_CHUNK;
	size_t max_line = (size_t)(o->max_line > 0 ? o->max_line : DEFAULT_MAX_LINE);
	sb_lines *lr = sb_lines_new(sb_source_read, src, max_line, d->b->resume_offset,
	                            d->b->resume_line);
	int64_t in_chunk = 0;
	sb_line line;
	bool eof = false;
	sb_err why;

	if (lr == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	while (sb_lines_next(lr, &line, &eof, e) == SB_OK && !eof) {
		enum outcome out = REJECTED;
		if (!blank(line.text, line.len)) {
			sb_err_clear(&why);
			if (line.too_long)
				sb_fail(&why, SB_EDATA, "line is %lld bytes long, more than the limit of %zu",
				        (long long)line.full_len, max_line);
			else if (h->handle(h->ctx, line.text, line.len, line.lineno, &out, &why, e) != SB_OK)
				break;
			switch (out) {
			case STORED: d->b->accepted++; break;
			case REPLACED: d->b->accepted++; d->b->replaced++; break;
			case DUPLICATE: d->b->duplicates++; break;
			case SKIPPED: d->b->skipped++; break;
			case REJECTED:
				if (reject(d, line.lineno, why.msg, line.text, line.len, line.full_len, e) != SB_OK)
					goto out;
				break;
			}
			in_chunk++;
		}
		d->b->resume_offset = line.next_offset;
		d->b->resume_line = line.lineno + 1;
		if (!o->strict && in_chunk >= chunk) {
			in_chunk = 0;
			if (sb_batch_save(d->db, d->b, e) != SB_OK || sb_db_commit(d->db, e) != SB_OK ||
			    sb_db_begin(d->db, e) != SB_OK)
				break;
			if (o->events.on_progress != NULL)
				o->events.on_progress(o->events.ctx, d->source, line.next_offset, total);
		}
	}
out:
	sb_lines_free(lr);
	return e->code;
}

/* Import path with handler h as a batch of kind/format (see import.h for
 * the outcome). */
static int import_file(sb_db *db, const char *kind, const char *format, const char *path,
                       const handler *h, const sb_import_opts *o, sb_import_result *r,
                       sb_err *e)
{
	char sha[65] = "", sha_read[65] = "";
	bool is_stdin = strcmp(path, "-") == 0;
	sb_source *src = NULL;
	driver d = {db, o, path, &r->batch, {NULL}};
	int64_t total = 0;
	struct stat st;
	char options[64];
	const char *status;

	snprintf(options, sizeof options, "%s%s%s", o->strict ? "strict " : "",
	         o->replace ? "replace " : "", o->force ? "force" : "");
	if (!is_stdin) {
		if (sb_sha256_file(path, sha, e) != SB_OK)
			return e->code;
		if (!o->force && sb_batch_find_complete(db, format, sha, &r->already, e) != SB_OK)
			return e->code;
		if (r->already > 0)
			return SB_OK;
		if (stat(path, &st) == 0)
			total = (int64_t)st.st_size;
	}
	if (sb_source_open(path, &src, e) != SB_OK)
		return e->code;
	if (sb_batch_begin(db, kind, format, path, is_stdin ? NULL : sha, options, &r->batch, e) != SB_OK)
		goto done;
	if (h->begin(h->ctx, db, r->batch.id, e) != SB_OK)
		goto done;
	if (r->batch.resume_offset > 0 && sb_source_seek(src, r->batch.resume_offset, e) != SB_OK)
		goto done;
	if (is_stdin)
		sb_source_hash_on(src);
	if (o->strict && (d.sp.f = tmpfile()) == NULL) {
		sb_fail(e, SB_EIO, "cannot create a temporary file for rejected lines");
		goto done;
	}
	if (sb_db_begin(db, e) != SB_OK)
		goto done;
	if (read_lines(&d, src, h, total, e) != SB_OK) {
		sb_db_rollback(db);
		goto done;
	}
	if (is_stdin)
		sb_source_hash_final(src, sha_read);
	r->empty = r->batch.accepted + r->batch.duplicates + r->batch.rejected + r->batch.skipped == 0;
	status = r->empty ? "failed" : "complete";
	if (o->strict && r->batch.rejected > 0) {
		sb_db_rollback(db);
		r->batch.accepted = r->batch.duplicates = r->batch.replaced = r->batch.skipped = 0;
		r->batch.resume_offset = 0;
		r->batch.resume_line = 1;
		status = "failed";
		if (sb_db_begin(db, e) != SB_OK || unspool(&d, e) != SB_OK) {
			sb_db_rollback(db);
			goto done;
		}
	}
	if (sb_batch_end(db, &r->batch, status, is_stdin ? sha_read : NULL, e) != SB_OK ||
	    sb_db_commit(db, e) != SB_OK) {
		sb_db_rollback(db);
		goto done;
	}
	if (r->empty)
		sb_fail(e, SB_EDATA, "%s: no records: the input is empty", path);
	else if (r->batch.rejected > 0)
		sb_fail(e, SB_EDATA, "%s: %lld %s rejected%s; see 'sbledger rejects --batch %lld'", path,
		        (long long)r->batch.rejected, r->batch.rejected == 1 ? "line" : "lines",
		        o->strict ? " (--strict: nothing of the file was imported)" : "",
		        (long long)r->batch.id);
done:
	if (d.sp.f != NULL)
		fclose(d.sp.f);
	sb_source_close(src);
	return e->code;
}

/* The runs handler's state. */
typedef struct runs_ctx {
	sb_rates *rates;           /* the rate cards, for the card cost */
	sb_run_parser *parser;     /* the JSON Lines parser */
	sb_run_writer *writer;     /* the ledger writer */
	bool replace;              /* --replace */
} runs_ctx;

/* Set up the writer for the batch (see handler). */
static int begin_runs(void *ctx, sb_db *db, int64_t batch_id, sb_err *e)
{
	runs_ctx *c = ctx;

	if (sb_rates_load(db, &c->rates, e) != SB_OK)
		return e->code;
	return sb_run_writer_new(db, c->rates, batch_id, &c->writer, e);
}

/* Handle one run record (see handler). */
static int handle_run(void *ctx, const char *text, size_t len, int64_t line_no,
                      enum outcome *out, sb_err *why, sb_err *e)
{
	runs_ctx *c = ctx;
	sb_run run;
	enum sb_store stored;
	int rc = sb_run_parse(c->parser, text, len, &run, why);

	*out = REJECTED;
	if (rc == SB_EINTERNAL)
		return sb_fail(e, rc, "%s", why->msg);
	if (rc != SB_OK)
		return SB_OK;
	if (sb_run_store(c->writer, &run, line_no, c->replace, &stored, why->msg,
	                 sizeof why->msg, e) != SB_OK)
		return e->code;
	switch (stored) {
	case SB_STORED: *out = STORED; break;
	case SB_DUPLICATE: *out = DUPLICATE; break;
	case SB_REPLACED: *out = REPLACED; break;
	case SB_CONFLICT: *out = REJECTED; why->code = SB_EDATA; break;
	}
	return SB_OK;
}

int sb_import_runs(sb_db *db, const char *path, const sb_import_opts *opts,
                   sb_import_result *r, sb_err *e)
{
	runs_ctx c = {NULL, sb_run_parser_new(), NULL, opts->replace};
	handler h = {begin_runs, handle_run, &c};

	memset(r, 0, sizeof *r);
	if (c.parser == NULL)
		sb_fail(e, SB_EINTERNAL, "out of memory");
	else
		import_file(db, "runs", "runs", path, &h, opts, r, e);
	sb_run_writer_free(c.writer);
	sb_run_parser_free(c.parser);
	sb_rates_free(c.rates);
	return e->code;
}
