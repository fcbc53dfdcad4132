/* import.c: the import driver (see import.h and driver.h): one batch
 * from the open descriptor to its end.  The thread pipeline is
 * pipeline.c; the record kinds are import_runs.c and import_billing.c. */
#include "importers/driver.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "importers/pipeline.h"
#include "importers/records.h"
#include "importers/source.h"
#include "ledger/quote.h"

/* Record a rejected record: in the ledger, or the spool when strict; its
 * reason in the caller's words (sb_import_opts.words). */
static int reject(driver *d, int64_t line_no, const char *reason, const char *text,
                  size_t len, int64_t full_len, sb_err *e)
{
	char worded[SB_ERR_MSG_MAX + 256];

	if (d->o->words != NULL) {
		snprintf(worded, sizeof worded, "%s", reason);
		d->o->words(worded, sizeof worded);
		reason = worded;
	}
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

bool sb_import_blank(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)text[i]))
			return false;
	return true;
}

/* The record reader's read function (ctx: the input): the bytes kept
 * while opening from kept_pos on, then the source; while opening, what is
 * read is kept. */
static int input_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e)
{
	input *in = ctx;

	if (in->kept_pos < in->kept_len) {
		size_t n = in->kept_len - in->kept_pos;
		if (n > cap)
			n = cap;
		memcpy(buf, in->kept + in->kept_pos, n);
		in->kept_pos += n;
		*got = n;
		return SB_OK;
	}
	if (!in->keeping && in->kept != NULL) {
		free(in->kept);
		in->kept = NULL;
		in->kept_len = in->kept_pos = in->kept_cap = 0;
	}
	if (sb_source_read(in->src, buf, cap, got, e) != SB_OK)
		return e->code;
	if (in->keeping && *got > 0) {
		if (in->kept_cap - in->kept_len < *got) {
			size_t ncap = in->kept_cap > 0 ? in->kept_cap : HEAD;
			char *more;
			while (ncap - in->kept_len < *got)
				ncap *= 2;
			if ((more = realloc(in->kept, ncap)) == NULL)
				return sb_fail(e, SB_EINTERNAL, "out of memory");
			in->kept = more;
			in->kept_cap = ncap;
		}
		memcpy(in->kept + in->kept_len, buf, *got);
		in->kept_len += *got;
		in->kept_pos = in->kept_len;
	}
	return SB_OK;
}

/* Read the first bytes of src for handler h: the shape of the input, the
 * record reader at offset 0 (a CSV header read and checked).  The source
 * is hashed from its first byte.  A fault of the whole file goes to
 * in->bad; other errors to e.  in->src is borrowed. */
static int input_open(input *in, sb_source *src, const handler *h, size_t max_record, sb_err *e)
{
	sb_records_opts ro = {h->shapes, h->member, h->csv_flags, max_record};
	size_t skip = 0;
	sb_err oe;

	memset(in, 0, sizeof *in);
	sb_err_clear(&in->bad);
	in->src = src;
	in->keeping = true;
	if (sb_source_hash_on(src, e) != SB_OK)
		return e->code;
	while (in->head_len < HEAD) {
		size_t got = 0;
		if (input_read(in, in->head + in->head_len, HEAD - in->head_len, &got, e) != SB_OK)
			return e->code;
		if (got == 0)
			break;
		in->head_len += got;
	}
	in->kept_pos = 0;
	if (in->head_len >= 3 && memcmp(in->head, "\xEF\xBB\xBF", 3) == 0)
		skip = 3;
	if (in->head_len < HEAD && sb_import_blank(in->head + skip, in->head_len - skip)) {
		in->blank = true;
		return SB_OK;
	}
	if (h->sniff && sb_records_sniff(in->head, in->head_len, h->shapes, h->member != NULL,
	                                 &ro.shape, &in->bad) != SB_OK)
		return SB_OK;
	sb_err_clear(&oe);
	if (sb_records_open(input_read, in, &ro, &in->rr, &oe) != SB_OK) {
		if (oe.code != SB_EDATA) {
			sb_fail(e, oe.code, "%s", oe.msg);
			return e->code;
		}
		sb_fail(&in->bad, SB_EDATA, "%s", oe.msg);
		return SB_OK;
	}
	if (ro.shape == SB_REC_CSV && h->header != NULL &&
	    h->header(h->ctx, sb_records_csv(in->rr), &in->bad) != SB_OK) {
		sb_records_free(in->rr);
		in->rr = NULL;
	}
	return SB_OK;
}

/* The input is open: what the reader reads from now on is not kept.  At a
 * resume point of an interrupted import (offset > 0), the records start
 * there: from the bytes kept while opening when it lies among them, else
 * from the source once the bytes up to it are read (and hashed). */
static int input_start(input *in, int64_t offset, int64_t line, sb_err *e)
{
	in->keeping = false;
	if (offset <= 0 || in->rr == NULL)
		return SB_OK;
	if ((uint64_t)offset <= in->kept_len) {
		in->kept_pos = (size_t)offset;
	} else {
		in->kept_pos = in->kept_len;
		if (sb_source_skip(in->src, offset - (int64_t)in->kept_len, e) != SB_OK)
			return e->code;
	}
	sb_records_resume(in->rr, offset, line);
	return SB_OK;
}

/* Free what input_open made (the source is the caller's). */
static void input_close(input *in)
{
	sb_records_free(in->rr);
	free(in->kept);
	in->rr = NULL;
	in->kept = NULL;
}

/* Reject the whole file for in->bad: the reason at line 1, with the
 * file's first line as its content. */
static int reject_file(driver *d, const input *in, sb_err *e)
{
	const char *head = in->head;
	size_t len = in->head_len;
	const char *nl = memchr(head, '\n', len);

	if (nl != NULL)
		len = (size_t)(nl - head);
	if (len > 0 && head[len - 1] == '\r')
		len--;
	return reject(d, 1, in->bad.msg, head, len, (int64_t)len, e);
}

void sb_import_test_pause(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return;
	close(fd);
	while (access(path, F_OK) == 0)
		usleep(10000);
}

/* Before a commit: the file has not changed since the import began
 * (else SB_ETEMP), and the batch keeps how many bytes were read so far
 * and their SHA-256, so that a resume can tell the file still begins with
 * them. */
static int keep_prefix(driver *d, sb_err *e)
{
	if (sb_source_unchanged(d->src, e) != SB_OK)
		return e->code;
	d->b->prefix_length = sb_source_offset(d->src);
	if (!sb_source_hash_now(d->src, d->b->prefix_sha256))
		return sb_fail(e, SB_EINTERNAL, "SHA-256 is not available from libcrypto");
	return SB_OK;
}

int sb_import_settle(driver *d, const sb_rec *rec, bool counted, enum outcome out,
                     const char *why, sb_err *e)
{
	const sb_import_opts *o = d->o;
	int64_t chunk = o->chunk > 0 ? o->chunk : d->h->chunk > 0 ? d->h->chunk : DEFAULT_CHUNK;

	if (counted) {
		switch (out) {
		case STORED: d->b->accepted++; break;
		case REPLACED: d->b->accepted++; d->b->replaced++; break;
		case DUPLICATE: d->b->duplicates++; break;
		case SKIPPED: d->b->skipped++; break;
		case REJECTED:
			if (reject(d, rec->lineno, why, rec->text, rec->len, rec->full_len, e) != SB_OK)
				return e->code;
			break;
		}
		d->in_chunk++;
	}
	d->b->resume_offset = rec->next_offset;
	d->b->resume_line = rec->next_line;
	if (!o->strict && d->in_chunk >= chunk) {
		d->in_chunk = 0;
		if (keep_prefix(d, e) != SB_OK ||
		    (d->h->flush != NULL && d->h->flush(d->h->ctx, e) != SB_OK) ||
		    sb_batch_save(d->db, d->b, e) != SB_OK || sb_db_commit(d->db, e) != SB_OK ||
		    sb_db_begin(d->db, e) != SB_OK)
			return e->code;
		if (o->events.on_progress != NULL)
			o->events.on_progress(o->events.ctx, d->source, rec->next_offset, d->total);
		if (o->pause_path != NULL && !d->paused) {
			d->paused = true;
			sb_import_test_pause(o->pause_path);
		}
	}
	return SB_OK;
}

/* Read every record of in from the batch's resume point and hand each to
 * h on this thread, committing every chunk records unless strict. */
static int read_records(driver *d, input *in, const handler *h, sb_err *e)
{
	sb_rec rec;
	bool eof = false;
	sb_err why;

	sb_err_clear(&why);
	while (sb_records_next(in->rr, &rec, &eof, &why, e) == SB_OK && !eof) {
		enum outcome out = REJECTED;
		bool counted = rec.row != NULL || why.code != SB_OK || !sb_import_blank(rec.text, rec.len);
		if (counted && why.code == SB_OK && h->handle(h->ctx, &rec, &out, &why, e) != SB_OK)
			break;
		if (sb_import_settle(d, &rec, counted, out, why.msg, e) != SB_OK)
			break;
		sb_err_clear(&why);
	}
	return e->code;
}

/* The file changed while batch b read it: what was committed of it is
 * taken out again and the batch failed with the reason (the ledger as if
 * it had never run), and e says so (SB_ETEMP, the file's way out).  Only
 * for a batch that may be taken out: a new one, or one resumed because
 * nothing came after it. */
static int fail_changed(sb_db *db, sb_batch *b, const char *shown, sb_err *e)
{
	sb_err te;

	sb_db_rollback(db);
	sb_err_clear(&te);
	if (sb_db_begin(db, &te) != SB_OK ||
	    sb_batch_take_out(db, b, "the file changed while it was read; what was committed of it was taken out again", &te) != SB_OK ||
	    sb_db_commit(db, &te) != SB_OK) {
		sb_db_rollback(db);
		sb_err_clear(e);
		return sb_fail(e, te.code, "%s: changed while read, and what was committed of it could not be taken out again (%s); import it again when it is complete",
		               shown, te.msg);
	}
	sb_err_clear(e);
	return sb_fail(e, SB_ETEMP, "%s: changed while read; import it again when it is complete (batch %lld failed, nothing of it kept)",
	               shown, (long long)b->id);
}

/* An interrupted batch found of the same input (found): resume it only
 * when the file still begins with the bytes it had read (their SHA-256 at
 * its last commit) and nothing came after it (else what it stored may
 * have been counted by later batches, and could not be taken out again if
 * this file changed while read: it is then read as a new batch, what the
 * interrupted one stored staying and counting as duplicates).  When the
 * file no longer begins with them, the interrupted batch is taken out
 * again if nothing came after it, and the file is read from its start.
 * A batch of an older sbledger, without a prefix, is resumed on its
 * SHA-256 alone, as then (when nothing came after it).  *resume says
 * whether to resume. */
static int decide_resume(sb_db *db, sb_source *src, const char *sha, sb_batch *found,
                         bool *resume, sb_err *e)
{
	char now[65];
	bool whole = false, free_to_go = false;

	*resume = false;
	if (sb_batch_can_take_out(db, found->id, &free_to_go, e) != SB_OK)
		return e->code;
	if (found->prefix_sha256[0] == '\0') {
		*resume = free_to_go && strcmp(found->sha256, sha) == 0;
		return SB_OK;
	}
	if (sb_source_prefix_sha(src, found->prefix_length, now, &whole, e) != SB_OK)
		return e->code;
	if (whole && strcmp(now, found->prefix_sha256) == 0) {
		*resume = free_to_go;
		return SB_OK;
	}
	if (!free_to_go)
		return SB_OK;
	if (sb_db_begin(db, e) != SB_OK ||
	    sb_batch_take_out(db, found, "the file changed after this batch was interrupted (it no longer begins with what the batch had read); it was taken out again and the file read from its start as a new batch", e) != SB_OK ||
	    sb_db_commit(db, e) != SB_OK)
		sb_db_rollback(db);
	return e->code;
}

/* The options of an import as its batch keeps them, into buf (cap
 * bytes): the words of what was asked, space separated ("strict",
 * "replace", "supersede", "force", "period=FROM..TO" in milliseconds,
 * "delimiter=C", "interval=MS"), the ones that change what a file puts in
 * the ledger deciding whether a complete batch of it asked the same
 * (sb_batch_find_complete). */
static void request_words(const sb_import_opts *o, char *buf, size_t cap)
{
	int n = snprintf(buf, cap, "%s%s%s%s", o->strict ? "strict " : "", o->replace ? "replace " : "",
	                 o->supersede ? "supersede " : "", o->force ? "force " : "");
	size_t len = n > 0 ? (size_t)n : 0;

	if (o->has_period && len < cap)
		len += (size_t)snprintf(buf + len, cap - len, "period=%lld..%lld ", (long long)o->period_from_ms,
		                        (long long)o->period_to_ms);
	if (o->delimiter != 0 && len < cap)
		len += (size_t)snprintf(buf + len, cap - len, "delimiter=%c ", o->delimiter);
	if (o->interval_ms != 0 && len < cap)
		len += (size_t)snprintf(buf + len, cap - len, "interval=%lld ", (long long)o->interval_ms);
	if (len > 0 && len <= cap)
		buf[len - 1] = '\0';
}

int sb_import_file(sb_db *db, const char *kind, const char *format, sb_source *src,
                   const handler *h, const sb_import_opts *o, sb_import_result *r, sb_err *e)
{
	const char *path = sb_source_name(src);
	bool snap = sb_source_is_file(src) && strcmp(path, "-") != 0;
	char shown[SB_QUOTE_BUFSZ], batch_id[32];
	char sha[65] = "", sha_read[65] = "";
	size_t max_record = (size_t)(o->max_line > 0 ? o->max_line : DEFAULT_MAX_LINE);
	driver d = {db, o, path, &r->batch, {NULL}, 0, 0, h, false, src};
	size_t threads = sb_pipeline_threads(o, h);
	input in;
	sb_batch found;
	bool resume = false;
	char options[160];
	sb_batch_status status;
	sb_err refused;

	sb_quote(path, SB_QUOTE_IF_NEEDED, shown, sizeof shown);
	memset(&in, 0, sizeof in);
	memset(&found, 0, sizeof found);
	request_words(o, options, sizeof options);
	if (snap) {
		if (sb_source_snapshot(src, sha, &d.total, e) != SB_OK)
			return e->code;
		if (!o->force && sb_batch_find_complete(db, format, sha, options, &r->already, e) != SB_OK)
			return e->code;
		if (r->already > 0)
			return SB_OK;
		if (sb_batch_mark_interrupted(db, e) != SB_OK ||
		    sb_batch_find_resumable(db, format, sb_source_path(src), sha, &found, e) != SB_OK ||
		    (found.id > 0 && decide_resume(db, src, sha, &found, &resume, e) != SB_OK))
			return e->code;
	}
	if (input_open(&in, src, h, max_record, e) != SB_OK)
		goto done;
	if (sb_batch_open(db, kind, format, path, snap ? sb_source_path(src) : NULL, snap ? sha : NULL,
	                  options, resume ? &found : NULL, &r->batch, e) != SB_OK)
		goto done;
	if (input_start(&in, r->batch.resume_offset, r->batch.resume_line, e) != SB_OK)
		goto fail;
	if (o->strict && (d.sp.f = tmpfile()) == NULL) {
		sb_fail(e, SB_EIO, "cannot create a temporary file for rejected lines");
		goto done;
	}
	if (sb_db_begin(db, e) != SB_OK)
		goto done;
	if (h->begin(h->ctx, db, r->batch.id, e) != SB_OK ||
	    (in.bad.code != SB_OK && reject_file(&d, &in, e) != SB_OK) ||
	    (in.rr != NULL && h->parse == NULL && read_records(&d, &in, h, e) != SB_OK) ||
	    (in.rr != NULL && h->parse != NULL && sb_pipeline_read(&d, &in, h, threads, e) != SB_OK) ||
	    ((in.rr != NULL || in.blank) && sb_source_finish(src, e) != SB_OK) ||
	    (h->flush != NULL && h->flush(h->ctx, e) != SB_OK))
		goto fail;
	if (!sb_source_hash_now(src, sha_read)) {
		sb_fail(e, SB_EINTERNAL, "SHA-256 is not available from libcrypto");
		goto fail;
	}
	r->batch.prefix_length = sb_source_offset(src);
	snprintf(r->batch.prefix_sha256, sizeof r->batch.prefix_sha256, "%s", sha_read);
	r->empty = r->batch.accepted + r->batch.duplicates + r->batch.rejected + r->batch.skipped == 0 &&
	           (in.rr == NULL || !sb_records_framed(in.rr));
	status = r->empty || in.bad.code != SB_OK ? SB_BATCH_FAILED : SB_BATCH_COMPLETE;
	if (o->strict && r->batch.rejected > 0) {
		sb_db_rollback(db);
		r->batch.accepted = r->batch.duplicates = r->batch.replaced = r->batch.skipped = 0;
		r->batch.resume_offset = 0;
		r->batch.resume_line = 1;
		r->superseded = 0;
		status = SB_BATCH_FAILED;
		if (sb_db_begin(db, e) != SB_OK || unspool(&d, e) != SB_OK) {
			sb_db_rollback(db);
			goto done;
		}
	}
	sb_err_clear(&refused);
	if (h->finish != NULL && h->finish(h->ctx, status == SB_BATCH_COMPLETE, &refused, e) != SB_OK) {
		sb_db_rollback(db);
		goto done;
	}
	if (refused.code != SB_OK) {
		r->batch.accepted = r->batch.duplicates = r->batch.replaced = r->batch.skipped = 0;
		r->superseded = 0;
		status = SB_BATCH_FAILED;
	}
	if (sb_batch_end(db, &r->batch, status, snap ? sha : sha_read, e) != SB_OK ||
	    sb_db_commit(db, e) != SB_OK) {
		sb_db_rollback(db);
		goto done;
	}
	snprintf(batch_id, sizeof batch_id, "%lld", (long long)r->batch.id);
	if (refused.code != SB_OK) {
		sb_fail(e, refused.code, "%s: %s (batch %lld failed; nothing of it was imported)", shown,
		        refused.msg, (long long)r->batch.id);
		sb_err_hint(e, refused.hint);
	} else if (r->empty) {
		sb_fail(e, SB_EDATA, "%s: no records: the input is empty", shown);
	} else if (r->batch.rejected > 0) {
		sb_fail_hint(e, SB_EDATA, SB_HINT_REJECTS, "%s: %lld %s%s rejected%s; " SB_WORDS_REJECTS,
		             shown, (long long)r->batch.rejected, h->noun, r->batch.rejected == 1 ? "" : "s",
		             o->strict ? " " SB_WORDS_STRICT : "", batch_id);
	}
	goto done;
fail:
	sb_db_rollback(db);
	if (sb_source_changed(src)) {
		r->superseded = 0;
		fail_changed(db, &r->batch, shown, e);
	}
done:
	if (d.sp.f != NULL)
		fclose(d.sp.f);
	input_close(&in);
	return e->code;
}
