/* pipeline.c: records parsed on worker threads (see pipeline.h). */
#include "importers/pipeline.h"

#include <stdlib.h>
#include <string.h>

#include "importers/arena.h"
#include "importers/pool.h"
#include "importers/records.h"

enum {
	MAX_THREADS = 16,          /* parsing threads at most (2 * 16 + 2 jobs of about
	                              1 MiB each in flight) */
	DEFAULT_THREADS_MAX = 8,   /* the default: one per online CPU, up to this many (one
	                              thread stores; past a few parsers it is the bottleneck) */
	JOB_RECORDS = 256,         /* records per job handed to a parsing thread */
	JOB_BYTES = 256 << 10,     /* bytes of records per job (one record may be longer) */
	JOB_KEEP = 4 << 20,        /* a job's buffers larger than this are freed after use */
	JOB_ARENA = 256 << 10      /* first block of a job's arena */
};

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
	bool counted = rec->row != NULL || why->code != SB_OK || !sb_import_blank(rec->text, rec->len);

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

	if (h->expect != NULL) {
		void *parsed[JOB_RECORDS];
		size_t n = 0;
		for (size_t i = 0; i < j->n_recs; i++)
			if (j->recs[i].counted && j->recs[i].rc == SB_OK)
				parsed[n++] = j->recs[i].parsed;
		if (h->expect(h->ctx, parsed, n, e) != SB_OK)
			return e->code;
	}
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
		if (sb_import_settle(d, &rec, r->counted, out, reason != NULL ? reason : "", e) != SB_OK)
			return e->code;
	}
	return SB_OK;
}

/* sb_pipeline_read with one thread: this one reads a job, parses it with
 * one worker's state and stores it, a job at a time. */
static int read_inline(driver *d, input *in, const handler *h, sb_err *e)
{
	void *worker = h->worker_new(h->ctx);
	job *j = worker != NULL ? job_new(h) : NULL;
	bool eof = false;

	if (j == NULL)
		sb_fail(e, SB_EINTERNAL, "out of memory");
	while (e->code == SB_OK && !eof) {
		if (job_fill(j, in, &eof, e) != SB_OK || j->n_recs == 0)
			break;
		parse_job(worker, j);
		store_job(d, h, j, e);
		job_clear(j);
	}
	job_free(j);
	if (worker != NULL)
		h->worker_free(worker);
	return e->code;
}

/* The driver's read_records with n threads parsing: this thread reads
 * records into jobs, the pool parses them, and this thread stores them in
 * the order of the input, so the ledger, the counts, the rejects and
 * every commit's resume point are those of read_records. */
int sb_pipeline_read(driver *d, input *in, const handler *h, size_t n, sb_err *e)
{
	size_t n_jobs = 2 * n + 2;
	void *workers[MAX_THREADS] = {NULL};
	job *jobs[2 * MAX_THREADS + 2] = {NULL};
	job *idle[2 * MAX_THREADS + 2];
	size_t n_idle = 0;
	sb_pool *pool = NULL;
	bool eof = false;

	if (n <= 1)
		return read_inline(d, in, h, e);
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

size_t sb_pipeline_threads(const sb_import_opts *o, const handler *h)
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
