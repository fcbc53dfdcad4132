/* import.c: the import driver (see import.h). */
#include "importers/import.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "importers/arena.h"
#include "importers/billing.h"
#include "importers/pool.h"
#include "importers/records.h"
#include "importers/runs_jsonl.h"
#include "importers/source.h"
#include "ledger/lines.h"
#include "ledger/rates.h"
#include "ledger/runs.h"
#include "ledger/timefmt.h"

enum {
	DEFAULT_CHUNK = 5000,
	DEFAULT_MAX_LINE = 64 << 20,
	DEFAULT_BULK_MIN = 32 << 20,   /* runs: the smallest input that drops the indexes */
	RUNS_CHUNK = 50000,        /* runs: records per commit (each commit writes every day
	                              rollup group and index page its chunk touched) */
	MAX_THREADS = 16,          /* parsing threads at most (2 * 16 + 2 jobs of about
	                              1 MiB each in flight) */
	DEFAULT_THREADS_MAX = 8,   /* the default: one per online CPU, up to this many (one
	                              thread stores; past a few parsers it is the bottleneck) */
	JOB_RECORDS = 256,         /* records per job handed to a parsing thread */
	JOB_BYTES = 256 << 10,     /* bytes of records per job (one record may be longer) */
	JOB_KEEP = 4 << 20,        /* a job's buffers larger than this are freed after use */
	JOB_ARENA = 256 << 10      /* first block of a job's arena */
};

/* What the handler did with one record. */
enum outcome { STORED, DUPLICATE, REJECTED, REPLACED, SKIPPED };

/* A format's record handler: how its input is read, and how one record
 * is stored or why not. */
typedef struct handler {
	unsigned shapes;           /* SB_REC_* the format reads */
	bool sniff;                /* pick the shape from the first bytes (else: shapes is one) */
	const char *member;        /* JSON: the top-level member holding the array, or NULL */
	unsigned csv_flags;        /* CSV: SB_CSV_NOCASE or 0 */
	const char *noun;          /* what a record is called in messages ("line") */
	/* CSV: check the header; SB_EDATA with the reason in why (NULL: none) */
	int (*header)(void *ctx, const sb_csv *csv, sb_err *why);
	/* inside the import's first transaction: get ready to store records
	 * into the batch */
	int (*begin)(void *ctx, sb_db *db, int64_t batch_id, sb_err *e);
	/* handle rec: set *out; for REJECTED put the reason in why (an sb_err
	 * used as a message buffer); return an error code only when the
	 * import cannot go on */
	int (*handle)(void *ctx, const sb_rec *rec, enum outcome *out, sb_err *why, sb_err *e);
	/* Parsing on worker threads (all NULL: every record goes to handle).
	 * handle is then parse and store in one.  worker_new makes one
	 * thread's parsing state (NULL when out of memory); parse reads a
	 * record's text on that thread into *parsed, allocated in arena (the
	 * job's, reset once the writer is done with it), or returns SB_EDATA
	 * with the reason in why, or SB_EINTERNAL; store then stores it on the
	 * writer's thread, as handle does. */
	void *(*worker_new)(void *ctx);
	void (*worker_free)(void *worker);
	int (*parse)(void *worker, const char *text, size_t len, sb_arena *arena, void **parsed,
	             sb_err *why);
	int (*store)(void *ctx, const sb_rec *rec, void *parsed, enum outcome *out, sb_err *why,
	             sb_err *e);
	void *ctx;                 /* passed back to each */
	/* before each commit of what store and handle wrote (NULL: nothing to do) */
	int (*flush)(void *ctx, sb_err *e);
	/* in the batch's last transaction, before it ends complete (complete
	 * true) or failed: finish what the batch began (NULL: nothing to do).
	 * When the batch cannot complete after all, SB_OK with the reason in
	 * refused: it then ends failed with nothing of it kept but its rejects */
	int (*finish)(void *ctx, bool complete, sb_err *refused, sb_err *e);
	int64_t chunk;             /* records per commit when --chunk is not given (0:
	                              DEFAULT_CHUNK) */
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
	int64_t in_chunk;          /* records since the last commit */
	int64_t total;             /* the input's size for progress (0: unknown) */
	const struct handler *h;   /* the format's handler */
	bool paused;               /* the test pause was taken (opts pause_path) */
	sb_source *src;            /* the input: each commit keeps the prefix read */
} driver;

enum { HEAD = 4096 };          /* bytes the shape of an input is told from */

/* An input being read: the source, the bytes read while opening it, the
 * record reader.  Every byte comes from the source once, in order: what
 * the reader read while opening (the first bytes, a CSV header) is kept
 * and handed out again, so that a resumed import can start its records
 * at any offset without reading anything twice (docs/reliability.md). */
typedef struct input {
	sb_source *src;            /* the file or standard input (borrowed) */
	char head[HEAD];           /* its first bytes */
	size_t head_len;           /* how many */
	char *kept;                /* every byte read while opening, from offset 0 */
	size_t kept_len;           /* bytes in kept */
	size_t kept_cap;           /* bytes allocated */
	size_t kept_pos;           /* bytes of kept handed out */
	bool keeping;              /* still opening: keep what is read */
	sb_records *rr;            /* the record reader, NULL when blank or bad */
	bool blank;                /* the input holds only white space */
	sb_err bad;                /* a fault of the whole file (shape, header) */
} input;

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
	if (in->head_len < HEAD && blank(in->head + skip, in->head_len - skip)) {
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

/* The test hook of sb_import_opts.pause_path: create path, then wait
 * until it is gone (polling every 10 ms). */
static void test_pause(const char *path)
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

/* Settle one record read: count what the handler did with it (out; why
 * the reason of a rejected one), unless it was not counted (a blank line);
 * keep it when rejected; move the batch's resume point past it; and
 * commit every chunk records unless strict.  Records must be settled in
 * the order of the input, so that a commit always covers a prefix of it. */
static int settle(driver *d, const sb_rec *rec, bool counted, enum outcome out,
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
			test_pause(o->pause_path);
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
		bool counted = rec.row != NULL || why.code != SB_OK || !blank(rec.text, rec.len);
		if (counted && why.code == SB_OK && h->handle(h->ctx, &rec, &out, &why, e) != SB_OK)
			break;
		if (settle(d, &rec, counted, out, why.msg, e) != SB_OK)
			break;
		sb_err_clear(&why);
	}
	return e->code;
}

/* One record of a job. */
typedef struct job_rec {
	size_t at;                 /* its text: the job's text from here */
	size_t len;                /* bytes of text */
	int64_t lineno;            /* as in sb_rec */
	int64_t next_offset;
	int64_t next_line;
	bool too_long;
	int64_t full_len;
	bool counted;              /* not a blank line */
	int rc;                    /* SB_OK: parsed; SB_EDATA: rejected for why;
	                              another code: the import cannot go on (why) */
	const char *why;           /* the reason (in the job's arena), or NULL */
	void *parsed;              /* what parse made (in the job's arena) */
} job_rec;

/* Records on their way from the reader through a parsing thread to the
 * writer. */
typedef struct job {
	const handler *h;          /* the format */
	char *text;                /* the records' bytes, one after another */
	size_t text_len;           /* bytes used */
	size_t text_cap;           /* bytes allocated */
	job_rec *recs;             /* the records, in input order */
	size_t n_recs;             /* records used */
	sb_arena *arena;           /* parse results and reasons */
} job;

/* A copy of msg in arena, or a fixed text when out of memory. */
static const char *keep_reason(sb_arena *arena, const char *msg)
{
	const char *copy = sb_arena_strndup(arena, msg, strlen(msg));

	return copy != NULL ? copy : "out of memory";
}

/* The pool's function: parse every counted record of a job (sb_pool_fn). */
static void parse_job(void *worker, void *arg)
{
	job *j = arg;
	sb_err why;

	for (size_t i = 0; i < j->n_recs; i++) {
		job_rec *r = &j->recs[i];
		if (!r->counted || r->why != NULL)
			continue;
		sb_err_clear(&why);
		r->rc = j->h->parse(worker, j->text + r->at, r->len, j->arena, &r->parsed, &why);
		if (r->rc != SB_OK)
			r->why = keep_reason(j->arena, why.msg);
	}
}

/* Free a job; NULL is allowed. */
static void job_free(job *j)
{
	if (j == NULL)
		return;
	free(j->text);
	free(j->recs);
	sb_arena_free(j->arena);
	free(j);
}

/* A new empty job for handler h, or NULL. */
static job *job_new(const handler *h)
{
	job *j = calloc(1, sizeof *j);

	if (j == NULL)
		return NULL;
	j->h = h;
	j->recs = malloc(JOB_RECORDS * sizeof *j->recs);
	j->text = malloc(JOB_BYTES);
	j->text_cap = JOB_BYTES;
	j->arena = sb_arena_new(JOB_ARENA);
	if (j->recs == NULL || j->text == NULL || j->arena == NULL) {
		job_free(j);
		return NULL;
	}
	return j;
}

/* Empty j for reuse, shrinking a buffer grown past JOB_KEEP by a huge
 * record back to JOB_BYTES. */
static void job_clear(job *j)
{
	j->n_recs = 0;
	j->text_len = 0;
	if (j->text_cap > JOB_KEEP) {
		char *text = realloc(j->text, JOB_BYTES);
		if (text != NULL) {
			j->text = text;
			j->text_cap = JOB_BYTES;
		}
	}
	sb_arena_reset(j->arena);
}

/* Append rec (and why, a fault of the input's shape) to j. */
static int job_add(job *j, const sb_rec *rec, const sb_err *why, sb_err *e)
{
	job_rec *r = &j->recs[j->n_recs];
	bool counted = rec->row != NULL || why->code != SB_OK || !blank(rec->text, rec->len);

	if (j->text_cap - j->text_len < rec->len) {
		size_t cap = j->text_cap;
		char *text;
		while (cap - j->text_len < rec->len)
			cap *= 2;
		if ((text = realloc(j->text, cap)) == NULL)
			return sb_fail(e, SB_EINTERNAL, "out of memory");
		j->text = text;
		j->text_cap = cap;
	}
	if (rec->len > 0)
		memcpy(j->text + j->text_len, rec->text, rec->len);
	*r = (job_rec){j->text_len, rec->len, rec->lineno, rec->next_offset, rec->next_line,
	               rec->too_long, rec->full_len, counted, SB_OK, NULL, NULL};
	if (why->code != SB_OK) {
		r->rc = why->code;
		r->why = keep_reason(j->arena, why->msg);
	}
	j->text_len += rec->len;
	j->n_recs++;
	return SB_OK;
}

/* Fill j with the next records of in: up to JOB_RECORDS of them or
 * JOB_BYTES of text; *eof at the end of input. */
static int job_fill(job *j, input *in, bool *eof, sb_err *e)
{
	sb_rec rec;
	sb_err why;

	sb_err_clear(&why);
	while (j->n_recs < JOB_RECORDS && j->text_len < JOB_BYTES) {
		if (sb_records_next(in->rr, &rec, eof, &why, e) != SB_OK || *eof)
			break;
		if (job_add(j, &rec, &why, e) != SB_OK)
			break;
		sb_err_clear(&why);
	}
	return e->code;
}

/* Store the records of a parsed job in order and settle each. */
static int store_job(driver *d, const handler *h, const job *j, sb_err *e)
{
	sb_err why;

	for (size_t i = 0; i < j->n_recs; i++) {
		const job_rec *r = &j->recs[i];
		sb_rec rec = {j->text + r->at, r->len, r->lineno, r->next_offset, r->next_line,
		              r->too_long, r->full_len, NULL, NULL};
		enum outcome out = REJECTED;
		const char *reason = r->why;
		sb_err_clear(&why);
		if (r->counted && r->rc != SB_OK && r->rc != SB_EDATA)
			return sb_fail(e, r->rc, "%s", r->why);
		if (r->counted && r->rc == SB_OK) {
			if (h->store(h->ctx, &rec, r->parsed, &out, &why, e) != SB_OK)
				return e->code;
			reason = why.msg;
		}
		if (settle(d, &rec, r->counted, out, reason != NULL ? reason : "", e) != SB_OK)
			return e->code;
	}
	return SB_OK;
}

/* read_records with n threads parsing: this thread reads records into
 * jobs, the pool parses them, and this thread stores them in the order of
 * the input, so the ledger, the counts, the rejects and every commit's
 * resume point are those of read_records. */
static int read_records_parallel(driver *d, input *in, const handler *h, size_t n, sb_err *e)
{
	size_t n_jobs = 2 * n + 2;
	void *workers[MAX_THREADS] = {NULL};
	job *jobs[2 * MAX_THREADS + 2] = {NULL};
	job *idle[2 * MAX_THREADS + 2];
	size_t n_idle = 0;
	sb_pool *pool = NULL;
	bool eof = false;

	for (size_t i = 0; i < n; i++)
		if ((workers[i] = h->worker_new(h->ctx)) == NULL)
			sb_fail(e, SB_EINTERNAL, "out of memory");
	for (size_t i = 0; i < n_jobs && e->code == SB_OK; i++)
		if ((jobs[i] = idle[n_idle++] = job_new(h)) == NULL)
			sb_fail(e, SB_EINTERNAL, "out of memory");
	if (e->code == SB_OK)
		sb_pool_new(n, parse_job, workers, n_jobs, &pool, e);
	while (e->code == SB_OK) {
		job *j;
		while (!eof && n_idle > 0) {
			j = idle[n_idle - 1];
			if (job_fill(j, in, &eof, e) != SB_OK || j->n_recs == 0)
				break;
			n_idle--;
			sb_pool_submit(pool, j);
		}
		if (e->code != SB_OK || (j = sb_pool_wait(pool)) == NULL)
			break;
		store_job(d, h, j, e);
		job_clear(j);
		idle[n_idle++] = j;
	}
	sb_pool_free(pool);
	for (size_t i = 0; i < n_jobs; i++)
		job_free(jobs[i]);
	for (size_t i = 0; i < n; i++)
		if (workers[i] != NULL)
			h->worker_free(workers[i]);
	return e->code;
}

/* How many threads parse (1: none is started). */
static size_t parse_threads(const sb_import_opts *o, const handler *h)
{
	size_t n;

	if (h->parse == NULL)
		return 1;
	if (o->threads > 0)
		n = o->threads > MAX_THREADS ? MAX_THREADS : (size_t)o->threads;
	else
		n = sb_pool_cpus() > DEFAULT_THREADS_MAX ? DEFAULT_THREADS_MAX : sb_pool_cpus();
	return n;
}

/* The file changed while batch b read it: what was committed of it is
 * taken out again and the batch failed with the reason (the ledger as if
 * it had never run), and e says so (SB_ETEMP, the file's way out).  Only
 * for a batch that may be taken out: a new one, or one resumed because
 * nothing came after it. */
static int fail_changed(sb_db *db, sb_batch *b, const char *path, sb_err *e)
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
		               path, te.msg);
	}
	sb_err_clear(e);
	return sb_fail(e, SB_ETEMP, "%s: changed while read; import it again when it is complete (batch %lld failed, nothing of it kept)",
	               path, (long long)b->id);
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

/* Import src with handler h as a batch of kind/format (see import.h for
 * the outcome).  A regular file is hashed whole through its descriptor
 * first (is it already imported? an interrupted batch of it?), then read
 * through the same descriptor, and must be, at the end, exactly what was
 * hashed (docs/reliability.md). */
static int import_file(sb_db *db, const char *kind, const char *format, sb_source *src,
                       const handler *h, const sb_import_opts *o, sb_import_result *r,
                       sb_err *e)
{
	const char *path = sb_source_name(src);
	bool snap = sb_source_is_file(src) && strcmp(path, "-") != 0;
	char sha[65] = "", sha_read[65] = "";
	size_t max_record = (size_t)(o->max_line > 0 ? o->max_line : DEFAULT_MAX_LINE);
	driver d = {db, o, path, &r->batch, {NULL}, 0, 0, h, false, src};
	size_t threads = parse_threads(o, h);
	input in;
	sb_batch found;
	bool resume = false;
	char options[64];
	sb_batch_status status;
	sb_err refused;

	memset(&in, 0, sizeof in);
	memset(&found, 0, sizeof found);
	snprintf(options, sizeof options, "%s%s%s%s", o->strict ? "strict " : "",
	         o->replace ? "replace " : "", o->supersede ? "supersede " : "", o->force ? "force" : "");
	if (snap) {
		if (sb_source_snapshot(src, sha, &d.total, e) != SB_OK)
			return e->code;
		if (!o->force && sb_batch_find_complete(db, format, sha, &r->already, e) != SB_OK)
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
	    (in.rr != NULL && threads <= 1 && read_records(&d, &in, h, e) != SB_OK) ||
	    (in.rr != NULL && threads > 1 && read_records_parallel(&d, &in, h, threads, e) != SB_OK) ||
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
	if (refused.code != SB_OK)
		sb_fail(e, refused.code, "%s: %s (batch %lld failed; nothing of it was imported)", path,
		        refused.msg, (long long)r->batch.id);
	else if (r->empty)
		sb_fail(e, SB_EDATA, "%s: no records: the input is empty", path);
	else if (r->batch.rejected > 0)
		sb_fail(e, SB_EDATA, "%s: %lld %s%s rejected%s; see 'sbledger rejects --batch %lld'", path,
		        (long long)r->batch.rejected, h->noun, r->batch.rejected == 1 ? "" : "s",
		        o->strict ? " (--strict: nothing of the file was imported)" : "",
		        (long long)r->batch.id);
	goto done;
fail:
	sb_db_rollback(db);
	if (sb_source_changed(src)) {
		r->superseded = 0;
		fail_changed(db, &r->batch, path, e);
	}
done:
	if (d.sp.f != NULL)
		fclose(d.sp.f);
	input_close(&in);
	return e->code;
}

/* The runs handler's state. */
typedef struct runs_ctx {
	sb_rates *rates;           /* the rate cards, for the card cost */
	sb_run_parser *parser;     /* the JSON Lines parser */
	sb_run_writer *writer;     /* the ledger writer */
	bool replace;              /* --replace */
	const sb_import_opts *o;   /* the import's options */
	sb_source *src;            /* the input (its size) */
	const sb_batch *batch;     /* the batch (where it resumes) */
	bool dropped;              /* the writer dropped the indexes (sb_run_writer_bulk) */
} runs_ctx;

/* Set up the writer for the batch: an input much larger than the ledger
 * is stored without the secondary indexes, built at its end (see handler). */
static int begin_runs(void *ctx, sb_db *db, int64_t batch_id, sb_err *e)
{
	runs_ctx *c = ctx;
	int64_t left = sb_source_size(c->src) - c->batch->resume_offset;

	sb_run_writer_free(c->writer);
	sb_rates_free(c->rates);
	c->writer = NULL;
	c->rates = NULL;
	if (sb_rates_load(db, &c->rates, e) != SB_OK ||
	    sb_run_writer_new(db, c->rates, batch_id, &c->writer, e) != SB_OK)
		return e->code;
	/* --replace takes runs out, and finding their groups' maximum memory
	 * again reads the runs of their days through the index on started_ms */
	if (c->replace)
		return SB_OK;
	return sb_run_writer_bulk(c->writer, left, c->o->bulk_min > 0 ? c->o->bulk_min : DEFAULT_BULK_MIN,
	                          &c->dropped, e);
}

/* Build the indexes again in the batch's last transaction (see handler). */
static int finish_runs(void *ctx, bool complete, sb_err *refused, sb_err *e)
{
	runs_ctx *c = ctx;

	(void)complete;
	(void)refused;
	if (c->writer == NULL || sb_run_writer_finish(c->writer, e) != SB_OK)
		return e->code;
	if (c->dropped && c->o->rebuild_pause_path != NULL)
		test_pause(c->o->rebuild_pause_path);
	return SB_OK;
}

/* Store a parsed run (see handler). */
static int store_run(void *ctx, const sb_rec *rec, void *parsed, enum outcome *out, sb_err *why,
                     sb_err *e)
{
	runs_ctx *c = ctx;
	enum sb_store stored;

	*out = REJECTED;
	if (sb_run_store(c->writer, parsed, rec->lineno, c->replace, &stored, why->msg,
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

/* Write the day rollups of the runs stored (see handler). */
static int flush_runs(void *ctx, sb_err *e)
{
	runs_ctx *c = ctx;

	return c->writer != NULL ? sb_run_writer_flush(c->writer, e) : SB_OK;
}

/* Parse and store one run record on the writer's thread (see handler). */
static int handle_run(void *ctx, const sb_rec *rec, enum outcome *out, sb_err *why, sb_err *e)
{
	runs_ctx *c = ctx;
	sb_run run;
	int rc = sb_run_parse(c->parser, rec->text, rec->len, &run, why);

	*out = REJECTED;
	if (rc == SB_EINTERNAL)
		return sb_fail(e, rc, "%s", why->msg);
	if (rc != SB_OK)
		return SB_OK;
	return store_run(ctx, rec, &run, out, why, e);
}

/* A parsing thread's parser (see handler). */
static void *run_worker_new(void *ctx)
{
	(void)ctx;
	return sb_run_parser_new();
}

/* Free it (see handler). */
static void run_worker_free(void *worker)
{
	sb_run_parser_free(worker);
}

/* Parse one run record on a parsing thread, into arena (see handler). */
static int parse_run(void *worker, const char *text, size_t len, sb_arena *arena, void **parsed,
                     sb_err *why)
{
	sb_run run, *kept = NULL;
	int rc = sb_run_parse(worker, text, len, &run, why);

	if (rc == SB_OK)
		rc = sb_run_keep(&run, arena, &kept, why);
	*parsed = kept;
	return rc;
}

int sb_import_runs_source(sb_db *db, sb_source *src, const sb_import_opts *opts,
                          sb_import_result *r, sb_err *e)
{
	runs_ctx c = {NULL, sb_run_parser_new(), NULL, opts->replace, opts, src, &r->batch, false};
	handler h = {SB_REC_LINES, false, NULL, 0, "line", NULL, begin_runs, handle_run,
	             run_worker_new, run_worker_free, parse_run, store_run, &c, flush_runs,
	             finish_runs, RUNS_CHUNK};

	memset(r, 0, sizeof *r);
	/* the writer stores only references it has just made (runs to their
	 * batch, executions and tags to their run) and deletes children
	 * itself: its foreign keys are left to it and to 'sbledger check' */
	if (c.parser == NULL)
		sb_fail(e, SB_EINTERNAL, "out of memory");
	else if (sb_db_foreign_keys(db, false, e) == SB_OK) {
		sb_err after;
		sb_err_clear(&after);
		import_file(db, "runs", "runs", src, &h, opts, r, e);
		if ((sb_run_writer_done(c.writer, &after) != SB_OK ||
		     sb_db_foreign_keys(db, true, &after) != SB_OK) && e->code == SB_OK)
			*e = after;
	}
	r->indexes_rebuilt = c.dropped;
	sb_run_writer_free(c.writer);
	sb_run_parser_free(c.parser);
	sb_rates_free(c.rates);
	return e->code;
}

int sb_import_runs(sb_db *db, const char *path, const sb_import_opts *opts,
                   sb_import_result *r, sb_err *e)
{
	sb_source *src = NULL;

	memset(r, 0, sizeof *r);
	if (sb_source_open(path, &src, e) == SB_OK)
		sb_import_runs_source(db, src, opts, r, e);
	sb_source_close(src);
	return e->code;
}

/* The billing handler's state. */
typedef struct billing_ctx {
	const sb_bill_format *f;   /* the format */
	const sb_import_opts *o;   /* the import's options */
	const sb_batch *batch;     /* the batch (is it resumed?) */
	sb_bill_parser *parser;    /* its parser */
	sb_line_writer *writer;    /* the ledger writer */
	sb_db *db;                 /* the ledger (from begin) */
	int64_t batch_id;          /* the batch (from begin) */
	bool pending;              /* a superseding batch: lines pending until its end */
	bool has_period;           /* the period it covers was given */
	int64_t from_ms, to_ms;    /* that period */
	int64_t *superseded;       /* where to count superseded lines */
} billing_ctx;

/* Check a CSV header against the format (see handler). */
static int header_billing(void *ctx, const sb_csv *csv, sb_err *why)
{
	billing_ctx *c = ctx;

	return sb_bill_check_header(c->f, csv, why);
}

/* A period as text for messages, into buf. */
static const char *period_text(bool has, int64_t from_ms, int64_t to_ms, char *buf, size_t cap)
{
	char a[SB_TIME_BUFSZ], b[SB_TIME_BUFSZ];

	if (!has)
		snprintf(buf, cap, "no --period");
	else
		snprintf(buf, cap, "--period %s..%s", sb_time_format(from_ms, a), sb_time_format(to_ms, b));
	return buf;
}

/* The superseding state of batch_id: *is when it supersedes, and the
 * period it covers when one was given. */
static int supersede_state(sb_db *db, int64_t batch_id, bool *is, bool *has, int64_t *from_ms,
                           int64_t *to_ms, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "billing_supersede_get", e);
	int rc;

	*is = *has = false;
	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", batch_id);
	rc = sb_db_step(db, st, e);
	if (rc == SQLITE_ROW) {
		*is = true;
		*has = sqlite3_column_type(st, 0) != SQLITE_NULL;
		*from_ms = sqlite3_column_int64(st, 0);
		*to_ms = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

/* Set up the writer: a superseding batch stores its lines pending, and a
 * resumed batch goes on as it began (see handler). */
static int begin_billing(void *ctx, sb_db *db, int64_t batch_id, sb_err *e)
{
	billing_ctx *c = ctx;
	const sb_import_opts *o = c->o;
	sb_line_writer_opts wo = {o->supersede, c->f->loose_identity};
	bool was = false, had = false;
	int64_t from = 0, to = 0;
	char p1[96], p2[96];

	sb_line_writer_free(c->writer);
	c->writer = NULL;
	c->db = db;
	c->batch_id = batch_id;
	c->pending = o->supersede;
	c->has_period = o->has_period;
	c->from_ms = o->period_from_ms;
	c->to_ms = o->period_to_ms;
	if (supersede_state(db, batch_id, &was, &had, &from, &to, e) != SB_OK)
		return e->code;
	if (c->batch->resumed && was && !o->supersede)
		return sb_fail(e, SB_EUSAGE, "batch %lld, an interrupted import of this file, was begun with --supersede: run it again with --supersede (and %s) to complete it",
		               (long long)batch_id, period_text(had, from, to, p1, sizeof p1));
	if (c->batch->resumed && !was && o->supersede)
		return sb_fail(e, SB_EUSAGE, "batch %lld, an interrupted import of this file, was begun without --supersede: run it again without --supersede to complete it, then import the file with --supersede --force",
		               (long long)batch_id);
	if (was && (had != o->has_period || (had && (from != o->period_from_ms || to != o->period_to_ms))))
		return sb_fail(e, SB_EUSAGE, "batch %lld, an interrupted import of this file, was begun with %s, not %s: run it again as it was begun to complete it",
		               (long long)batch_id, period_text(had, from, to, p1, sizeof p1),
		               period_text(o->has_period, o->period_from_ms, o->period_to_ms, p2, sizeof p2));
	if (o->supersede && !was) {
		sqlite3_stmt *st = sb_db_stmt(db, "billing_supersede_set", e);
		if (st == NULL)
			return e->code;
		sb_bind_i64(db, st, ":batch_id", batch_id);
		sb_bind_i64_opt(db, st, ":from_ms", o->has_period, o->period_from_ms);
		sb_bind_i64_opt(db, st, ":to_ms", o->has_period, o->period_to_ms);
		if (sb_db_run(db, st, e) != SB_OK)
			return e->code;
	}
	return sb_line_writer_new(db, c->f->name, batch_id, &wo, &c->writer, e);
}

/* The reason a line was not stored, into why. */
static void refusal(const billing_ctx *c, const sb_bill_line *line, const sb_line_stored *st,
                    sb_err *why)
{
	const char *key = line->line_key != NULL ? line->line_key : st->key;

	if (st->outcome == SB_LINE_SAME_CHARGE)
		sb_fail(why, SB_EDATA, "already billed by batch %lld; --supersede replaces it",
		        (long long)st->batch_id);
	else if (c->pending)
		sb_fail(why, SB_EDATA, "line key '%.80s' is already used with other content by line %lld of this file",
		        key, (long long)st->line_no);
	else
		sb_fail(why, SB_EDATA, "line key '%.80s' is already billed by batch %lld with other content; --supersede replaces it",
		        key, (long long)st->batch_id);
}

/* Handle one billing record: its lines stored, or why not (see handler).
 * A record of several lines is stored whole or not at all. */
static int handle_billing(void *ctx, const sb_rec *rec, enum outcome *out, sb_err *why, sb_err *e)
{
	billing_ctx *c = ctx;
	const sb_bill_line *lines = NULL;
	size_t n = 0;
	bool any = false, refused = false;
	int rc = sb_bill_parse(c->parser, rec, &lines, &n, why);

	*out = REJECTED;
	if (rc == SB_EINTERNAL)
		return sb_fail(e, rc, "%s", why->msg);
	if (rc != SB_OK)
		return SB_OK;
	if (n == 0) {
		*out = SKIPPED;
		return SB_OK;
	}
	if (n > 1 && sb_db_exec(c->db, "SAVEPOINT billing_record", e) != SB_OK)
		return e->code;
	for (size_t i = 0; i < n && !refused; i++) {
		sb_line_stored st;
		if (sb_line_store(c->writer, &lines[i], rec->lineno, rec->text, rec->len, &st, e) != SB_OK)
			return e->code;
		any = any || st.outcome == SB_LINE_STORED;
		if (st.outcome == SB_LINE_CONFLICT || st.outcome == SB_LINE_SAME_CHARGE) {
			refusal(c, &lines[i], &st, why);
			refused = true;
		}
	}
	if (n > 1 && ((refused && sb_db_exec(c->db, "ROLLBACK TO billing_record", e) != SB_OK) ||
	              sb_db_exec(c->db, "RELEASE billing_record", e) != SB_OK))
		return e->code;
	*out = refused ? REJECTED : any ? STORED : DUPLICATE;
	return SB_OK;
}

/* End the batch's lines: a superseding batch that completes supersedes
 * what it replaces and its lines become live; a batch that ends drops
 * what it kept for a resume (see handler). */
static int finish_billing(void *ctx, bool complete, sb_err *refused, sb_err *e)
{
	billing_ctx *c = ctx;

	if (c->writer == NULL)
		return SB_OK;   /* begin did not run (the strict rollback undid it) */
	if (complete && c->pending &&
	    sb_line_writer_finish(c->writer, c->has_period, c->from_ms, c->to_ms, c->superseded,
	                          refused, e) != SB_OK)
		return e->code;
	if (refused->code != SB_OK)
		*c->superseded = 0;
	return sb_lines_batch_ended(c->db, c->batch_id, e);
}

int sb_import_billing_source(sb_db *db, const char *format, sb_source *src,
                             const sb_import_opts *opts, sb_import_result *r, sb_err *e)
{
	const sb_bill_format *f = sb_bill_format_find(format);
	sb_bill_opts bo = {opts->interval_ms > 0 ? opts->interval_ms : SB_MS_PER_DAY,
	                   opts->has_period, opts->period_from_ms, opts->period_to_ms};
	billing_ctx c = {0};
	handler h = {0};
	unsigned csv_flags;

	memset(r, 0, sizeof *r);
	if (f == NULL)
		return sb_fail(e, SB_EUSAGE, "unknown billing format '%s' (one of %s)", format,
		               sb_bill_format_names());
	if (opts->has_period && opts->period_to_ms <= opts->period_from_ms)
		return sb_fail(e, SB_EUSAGE, "the period given is empty");
	csv_flags = f->csv_flags | (opts->delimiter == ';' ? SB_CSV_SEMICOLON :
	                            opts->delimiter == ',' ? 0 : SB_CSV_DETECT);
	c = (billing_ctx){f, opts, &r->batch, NULL, NULL, NULL, 0, false, false, 0, 0, &r->superseded};
	h = (handler){f->shapes, true, f->member, csv_flags, "record", header_billing,
	              begin_billing, handle_billing, NULL, NULL, NULL, NULL, &c, NULL, finish_billing,
	              0};
	if ((c.parser = sb_bill_parser_new(f, &bo)) == NULL)
		sb_fail(e, SB_EINTERNAL, "out of memory");
	else
		import_file(db, "billing", f->name, src, &h, opts, r, e);
	sb_line_writer_free(c.writer);
	sb_bill_parser_free(c.parser);
	return e->code;
}

int sb_import_billing(sb_db *db, const char *format, const char *path,
                      const sb_import_opts *opts, sb_import_result *r, sb_err *e)
{
	sb_source *src = NULL;

	memset(r, 0, sizeof *r);
	if (sb_bill_format_find(format) == NULL)
		return sb_fail(e, SB_EUSAGE, "unknown billing format '%s' (one of %s)", format,
		               sb_bill_format_names());
	if (sb_source_open(path, &src, e) == SB_OK)
		sb_import_billing_source(db, format, src, opts, r, e);
	sb_source_close(src);
	return e->code;
}
