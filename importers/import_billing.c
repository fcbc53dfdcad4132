/* import_billing.c: the record kind "billing": a billing file of one of
 * the formats of importers/billing.h, stored as billing lines by the line
 * writer (ledger/lines.h), superseding what a reissued statement replaces
 * (see import_billing.h and driver.h). */
#include "importers/import_billing.h"

#include <stdio.h>
#include <string.h>

#include "importers/billing.h"
#include "importers/driver.h"
#include "importers/source.h"
#include "ledger/lines.h"
#include "ledger/quote.h"
#include "ledger/timefmt.h"

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

/* A period as text for messages, into buf: the library's words for an
 * import given that period, or none (ledger/err.h). */
static const char *period_text(bool has, int64_t from_ms, int64_t to_ms, char *buf, size_t cap)
{
	char a[SB_TIME_BUFSZ], b[SB_TIME_BUFSZ], span[2 * SB_TIME_BUFSZ + 2];

	if (!has) {
		snprintf(buf, cap, SB_WORDS_NO_PERIOD);
	} else {
		snprintf(span, sizeof span, "%s..%s", sb_time_format(from_ms, a), sb_time_format(to_ms, b));
		snprintf(buf, cap, SB_WORDS_PERIOD_GIVEN, span);
	}
	return buf;
}

/* The superseding state of batch_id: *is when it supersedes, and the
 * period it covers when one was given. */
static int supersede_state(sb_db *db, int64_t batch_id, bool *is, bool *has, int64_t *from_ms,
                           int64_t *to_ms, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "billing_supersede_get", e);
	int rc;

	*is = *has = false;
	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":batch_id", batch_id);
	rc = sb_db_step(db, st, e);
	if (rc == SB_ROW) {
		*is = true;
		*has = !sb_col_is_null(st, 0);
		*from_ms = sb_col_i64(st, 0);
		*to_ms = sb_col_i64(st, 1);
	}
	sb_stmt_reset(st);
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
	char p1[128], p2[128];

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
		return sb_fail_hint(e, SB_EUSAGE, SB_HINT_RESUME_SUPERSEDING,
		                    "batch %lld, an interrupted import of this file, " SB_WORDS_RESUME_SUPERSEDING,
		                    (long long)batch_id, period_text(had, from, to, p1, sizeof p1));
	if (c->batch->resumed && !was && o->supersede)
		return sb_fail_hint(e, SB_EUSAGE, SB_HINT_RESUME_PLAIN,
		                    "batch %lld, an interrupted import of this file, " SB_WORDS_RESUME_PLAIN,
		                    (long long)batch_id);
	if (was && (had != o->has_period || (had && (from != o->period_from_ms || to != o->period_to_ms))))
		return sb_fail_hint(e, SB_EUSAGE, SB_HINT_PERIOD_GIVEN,
		                    "batch %lld, an interrupted import of this file, was begun with %s, not %s: run it again as it was begun to complete it",
		                    (long long)batch_id, period_text(had, from, to, p1, sizeof p1),
		                    period_text(o->has_period, o->period_from_ms, o->period_to_ms, p2, sizeof p2));
	if (o->supersede && !was) {
		sb_stmt *st = sb_db_stmt(db, "billing_supersede_set", e);
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

	char shown[83];   /* at most 80 characters of the key shown, quoted */

	sb_quote(key, SB_QUOTE_ALWAYS, shown, sizeof shown);
	if (st->outcome == SB_LINE_SAME_CHARGE)
		sb_fail_hint(why, SB_EDATA, SB_HINT_SUPERSEDE, "already billed by batch %lld; " SB_WORDS_SUPERSEDE,
		             (long long)st->batch_id);
	else if (c->pending)
		sb_fail(why, SB_EDATA, "line key %s is already used with other content by line %lld of this file",
		        shown, (long long)st->line_no);
	else
		sb_fail_hint(why, SB_EDATA, SB_HINT_SUPERSEDE,
		             "line key %s is already billed by batch %lld with other content; " SB_WORDS_SUPERSEDE,
		             shown, (long long)st->batch_id);
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
	if (n > 1 && refused) {
		if (sb_db_exec(c->db, "ROLLBACK TO billing_record", e) != SB_OK)
			return e->code;
		sb_line_writer_forget(c->writer);
	}
	if (n > 1 && sb_db_exec(c->db, "RELEASE billing_record", e) != SB_OK)
		return e->code;
	*out = refused ? REJECTED : any ? STORED : DUPLICATE;
	return SB_OK;
}

/* Before a commit: the writer reads the ledger again after it (see
 * handler). */
static int flush_billing(void *ctx, sb_err *e)
{
	billing_ctx *c = ctx;

	(void)e;
	if (c->writer != NULL)
		sb_line_writer_forget(c->writer);
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

	char shown[SB_QUOTE_BUFSZ];

	memset(r, 0, sizeof *r);
	if (f == NULL)
		return sb_fail(e, SB_EUSAGE, "unknown billing format %s (one of %s)",
		               sb_quote(format, SB_QUOTE_ALWAYS, shown, sizeof shown), sb_bill_format_names());
	if (opts->has_period && opts->period_to_ms <= opts->period_from_ms)
		return sb_fail(e, SB_EUSAGE, "the period given is empty");
	csv_flags = f->csv_flags | (opts->delimiter == ';' ? SB_CSV_SEMICOLON :
	                            opts->delimiter == ',' ? 0 : SB_CSV_DETECT);
	c = (billing_ctx){f, opts, &r->batch, NULL, NULL, NULL, 0, false, false, 0, 0, &r->superseded};
	h = (handler){f->shapes, true, f->member, csv_flags, "record", header_billing,
	              begin_billing, handle_billing, NULL, NULL, NULL, NULL, NULL, &c, flush_billing, finish_billing,
	              0};
	if ((c.parser = sb_bill_parser_new(f, &bo)) == NULL)
		sb_fail(e, SB_EINTERNAL, "out of memory");
	else
		sb_import_file(db, "billing", f->name, src, &h, opts, r, e);
	sb_line_writer_free(c.writer);
	sb_bill_parser_free(c.parser);
	return e->code;
}

int sb_import_billing(sb_db *db, const char *format, const char *path,
                      const sb_import_opts *opts, sb_import_result *r, sb_err *e)
{
	sb_source *src = NULL;
	char shown[SB_QUOTE_BUFSZ];

	memset(r, 0, sizeof *r);
	if (sb_bill_format_find(format) == NULL)
		return sb_fail(e, SB_EUSAGE, "unknown billing format %s (one of %s)",
		               sb_quote(format, SB_QUOTE_ALWAYS, shown, sizeof shown), sb_bill_format_names());
	if (sb_source_open(path, &src, e) == SB_OK)
		sb_import_billing_source(db, format, src, opts, r, e);
	sb_source_close(src);
	return e->code;
}
