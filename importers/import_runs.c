/* import_runs.c: the record kind "runs": run-usage JSON Lines
 * (importers/runs_jsonl.h) stored by the run writer (ledger/runs.h),
 * parsed on worker threads (see import_runs.h and driver.h). */
#include "importers/import_runs.h"

#include <string.h>

#include "importers/driver.h"
#include "importers/runs_jsonl.h"
#include "importers/source.h"
#include "ledger/rates.h"
#include "ledger/runs.h"

enum {
	DEFAULT_BULK_MIN = 32 << 20,   /* the smallest input that drops the indexes */
	RUNS_CHUNK = 50000,            /* records per commit (each commit writes every day
	                                  rollup group and index page its chunk touched) */
	EXPECT_MAX = 1024              /* runs expected at once (a parsing job holds fewer) */
};

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
		sb_import_test_pause(c->o->rebuild_pause_path);
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

/* The runs of a job, before they are stored (see handler): but for
 * --replace, whose stored runs need the ledger's answer one by one. */
static int expect_runs(void *ctx, void *const *parsed, size_t n, sb_err *e)
{
	runs_ctx *c = ctx;
	const sb_run *runs[EXPECT_MAX];

	if (c->replace)
		return SB_OK;
	/* past EXPECT_MAX (more than a job holds) the rest go one by one */
	if (n > EXPECT_MAX)
		n = EXPECT_MAX;
	for (size_t i = 0; i < n; i++)
		runs[i] = parsed[i];
	return sb_run_writer_expect(c->writer, runs, n, e);
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
	             run_worker_new, run_worker_free, parse_run, store_run, expect_runs, &c, flush_runs,
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
		sb_import_file(db, "runs", "runs", src, &h, opts, r, e);
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
