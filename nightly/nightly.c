/* nightly.c: the nightly job (see nightly.h). */
#include "nightly/nightly.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "importers/import_billing.h"
#include "importers/import_runs.h"
#include "importers/source.h"
#include "ledger/timefmt.h"
#include "nightly/inbox.h"
#include "nightly/reports.h"
#include "reconcile/summary.h"
#include "report/recon_json.h"

/* A run under way. */
typedef struct run {
	sb_db *db;                  /* the ledger */
	const sb_nightly_opts *o;   /* what was asked */
	sb_nightly_result *r;       /* what it did so far */
	int64_t batch_before;       /* the newest batch before the run: the night's are those after it */
} run;

/* Fold a step's status into the run's. */
static void note(run *u, int status)
{
	u->r->status = sb_code_worst(u->r->status, status);
}

/* Hand problem to the caller. */
static void tell(run *u, const sb_err *problem)
{
	if (u->o->events.on_problem != NULL)
		u->o->events.on_problem(u->o->events.ctx, problem);
}

/* ---- imports ------------------------------------------------------------ */

/* Import the open inbox file fd (named real): runs when format is NULL,
 * else billing of format (sb_inbox_events.on_file).  The descriptor is
 * the one the walk checked. */
static void import_file(void *ctx, int fd, const char *real, const char *format)
{
	run *u = ctx;
	const sb_nightly_opts *o = u->o;
	sb_import_opts io;
	sb_import_result ir;
	sb_source *src = NULL;
	sb_err e;

	sb_err_clear(&e);
	memset(&io, 0, sizeof io);
	memset(&ir, 0, sizeof ir);
	io.supersede = format != NULL && o->supersede;
	io.events = (sb_import_events){o->events.on_reject, NULL, o->events.ctx};
	io.pause_path = o->pause_path;
	io.bulk_min = o->bulk_min;
	io.rebuild_pause_path = o->rebuild_pause_path;
	io.words = o->words;
	if (sb_source_fdopen(fd, real, &src, &e) == SB_OK) {
		if (format == NULL)
			sb_import_runs_source(u->db, src, &io, &ir, &e);
		else
			sb_import_billing_source(u->db, format, src, &io, &ir, &e);
	}
	sb_source_close(src);
	if (ir.already > 0) {
		u->r->already++;
	} else if (ir.batch.id > 0 && e.code != SB_ETEMP) {
		u->r->files++;
		u->r->rejected += (long)ir.batch.rejected;
	}
	if (o->events.on_imported != NULL)
		o->events.on_imported(o->events.ctx, real, &ir, &e);
	note(u, e.code);
}

/* An inbox entry not followed (sb_inbox_events.on_problem). */
static void inbox_problem(void *ctx, const sb_err *problem)
{
	tell(ctx, problem);
}

/* ---- fetches ------------------------------------------------------------ */

/* The rejected records of one fetch, counted on their way to the
 * caller's events. */
typedef struct counted {
	const sb_import_events *inner;   /* the caller's */
	long n;                          /* how many so far */
} counted;

static void count_reject(void *ctx, const char *source, int64_t line_no, const char *reason)
{
	counted *c = ctx;

	c->n++;
	if (c->inner->on_reject != NULL)
		c->inner->on_reject(c->inner->ctx, source, line_no, reason);
}

/* sb_fetch as an sb_nightly_fetch_fn. */
static int plain_fetch(void *ctx, sb_db *db, const sb_provider *p, const sb_endpoint *ep,
                       const sb_fetch_opts *o, sb_fetch_result *r, sb_err *e)
{
	(void)ctx;
	return sb_fetch(db, p, ep, o, r, e);
}

/* Every endpoint of each provider asked for: the catalog as of now, the
 * others for the period. */
static void fetch_all(run *u)
{
	const sb_nightly_opts *o = u->o;
	sb_nightly_fetch_fn fetch = o->fetch != NULL ? o->fetch : plain_fetch;

	for (size_t i = 0; i < o->n_fetches; i++) {
		const sb_nightly_fetch *f = &o->fetches[i];
		for (const sb_endpoint *ep = f->provider->endpoints; ep->what != NULL; ep++) {
			sb_fetch_opts fo = f->opts;
			counted c = {&f->opts.events, 0};
			sb_fetch_result fr;
			sb_err e;
			int rc;
			sb_err_clear(&e);
			memset(&fr, 0, sizeof fr);
			fo.has_period = ep->period != SB_QUERY_NONE;
			fo.period = o->period;
			fo.events = (sb_import_events){count_reject, f->opts.events.on_progress, &c};
			rc = fetch(o->events.ctx, u->db, f->provider, ep, &fo, &fr, &e);
			u->r->rejected += c.n;
			if (o->events.on_fetched != NULL)
				o->events.on_fetched(o->events.ctx, f->provider, ep, rc, &fr, &e);
			note(u, e.code != SB_OK ? e.code : rc);
		}
	}
}

/* ---- judging ------------------------------------------------------------ */

/* The reports' problems (sb_nightly_write_reports). */
static void report_problem(void *ctx, const sb_err *problem)
{
	tell(ctx, problem);
	note(ctx, problem->code);   /* an I/O error 74, memory that ran out 70 */
}

/* Load what the reconciliation page of r shows beyond r: its detail
 * (*d) and what the night imported (*imports).  *d is NULL when either
 * failed (told): the page is then not written. */
static void load_page(run *u, const sb_recon *r, sb_night_imports **imports,
                      sb_recon_detail **d)
{
	sb_err e;

	sb_err_clear(&e);
	if (sb_night_imports_load(u->db, u->batch_before, imports, &e) == SB_OK &&
	    sb_recon_detail_load(u->db, r, d, &e) == SB_OK) {
		(*imports)->already = u->r->already;
		return;
	}
	sb_recon_detail_free(*d);
	*d = NULL;
	tell(u, &e);
	note(u, e.code);
}

/* Judge period p into j as the run does (default tolerances, its
 * billing lag), store the result and its summary, and write its reports.
 * A period never judged before with no backend (store_empty false) is
 * neither stored nor reported.  j->r is NULL when it failed (told). */
static void judge(run *u, const sb_period *p, bool store_empty, sb_nightly_judged *j)
{
	const sb_nightly_opts *o = u->o;
	sb_recon_opts ro;
	sb_summary *s = NULL;
	sb_recon *r = NULL;
	sb_recon_detail *d = NULL;
	sb_night_imports *imports = NULL;
	char *text;
	sb_page_opts po = {o->ledger, sb_db_now_ms(u->db), NULL, o->root};
	sb_err e;

	sb_err_clear(&e);
	j->r = NULL;
	j->reports_ok = false;
	j->dir[0] = '\0';
	memset(&ro, 0, sizeof ro);
	ro.period = *p;
	ro.abs_nanos = SB_DEFAULT_ABS_NANOS;
	ro.rel_ppb = SB_DEFAULT_REL_PPB;
	ro.has_lag = o->has_lag;
	ro.billing_lag_ms = o->billing_lag_ms;
	if (sb_reconcile(u->db, &ro, &r, &e) != SB_OK) {
		tell(u, &e);
		note(u, e.code);
		return;
	}
	if (!store_empty && r->n_backends == 0) {
		j->r = r;
		return;
	}
	/* stored with its JSON text: the ledger keeps the result as
	 * 'reconcile --format json' prints it */
	text = sb_recon_json_text(r, JSON_COMPACT);
	if (sb_recon_store(u->db, r, text, NULL, &e) != SB_OK ||
	    sb_summary_build(u->db, p, "backend", &s, &e) != SB_OK) {
		tell(u, &e);
		note(u, e.code);
		free(text);
		sb_summary_free(s);
		sb_recon_free(r);
		return;
	}
	free(text);
	load_page(u, r, &imports, &d);
	po.imports = imports;
	j->reports_ok = sb_nightly_write_reports(o->out, p, r, s, d, &po, j->dir, sizeof j->dir,
	                                         report_problem, u);
	sb_recon_detail_free(d);
	sb_night_imports_free(imports);
	if (!j->reports_ok && u->r->status == SB_OK)
		note(u, SB_EIO);   /* not written, and nothing said why: an I/O error */
	if (o->fail_on_drift && r->flagged > 0)
		note(u, SB_FLAGGED);
	sb_summary_free(s);
	j->r = r;
}

sb_period sb_nightly_prev_period(const sb_period *p)
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

bool sb_nightly_lag_period(const sb_period *p, int64_t now_ms, int64_t lag_ms, sb_period *out)
{
	sb_period q = *p;

	for (int i = 0; i < 100000; i++) {
		if ((__int128)now_ms - q.to_ms > lag_ms) {
			*out = sb_nightly_prev_period(&q);
			return true;
		}
		q = sb_nightly_prev_period(&q);
	}
	return false;
}

/* Append an empty entry to *list (count entries so far): it, or NULL
 * when out of memory (e says so). */
static sb_nightly_judged *push(sb_nightly_judged **list, size_t *count, sb_err *e)
{
	sb_nightly_judged *more = realloc(*list, (*count + 1) * sizeof *more);

	if (more == NULL) {
		sb_fail(e, SB_EINTERNAL, "out of memory");
		return NULL;
	}
	*list = more;
	memset(&more[*count], 0, sizeof more[*count]);
	return &more[(*count)++];
}

int sb_nightly_periods(sb_db *db, const sb_period *period, int64_t now_ms, int64_t lag_ms,
                       sb_nightly_judged **list, size_t *count, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "recon_reopen", e);
	sb_nightly_judged *x;
	sb_period lag;
	int rc;

	*list = NULL;
	*count = 0;
	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":from_ms", period->from_ms);
	sb_bind_i64(db, st, ":to_ms", period->to_ms);
	sb_bind_i64(db, st, ":now_ms", now_ms);
	sb_bind_i64(db, st, ":lag_ms", lag_ms);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		if ((x = push(list, count, e)) == NULL) {
			sb_stmt_reset(st);
			return e->code;
		}
		x->period.from_ms = sb_col_i64(st, 0);
		x->period.to_ms = sb_col_i64(st, 1);
		x->why = sb_col_int(st, 2) != 0
		         ? "judged again (its window had not ended when it was judged)"
		         : "judged again (a bill it lacked is now past the billing lag)";
	}
	sb_stmt_reset(st);
	if (rc < 0)
		return e->code;
	if (!sb_nightly_lag_period(period, now_ms, lag_ms, &lag))
		return SB_OK;
	for (size_t i = 0; i < *count; i++)
		if ((*list)[i].period.from_ms == lag.from_ms && (*list)[i].period.to_ms == lag.to_ms)
			return SB_OK;
	if ((st = sb_db_stmt(db, "recon_period_stored", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":from_ms", lag.from_ms);
	sb_bind_i64(db, st, ":to_ms", lag.to_ms);
	rc = sb_db_step(db, st, e);
	if (rc == SB_ROW && sb_col_int(st, 0) == 0) {
		if ((x = push(list, count, e)) == NULL) {
			sb_stmt_reset(st);
			return e->code;
		}
		x->period = lag;
		x->why = "judged for the first time (it ended more than the billing lag ago)";
		x->first_time = true;
	}
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

bool sb_nightly_needs_attention(const sb_nightly_result *r)
{
	bool flagged = r->main.r != NULL && r->main.r->flagged > 0;

	for (size_t i = 0; i < r->n_extra && !flagged; i++)
		flagged = r->extra[i].r != NULL && r->extra[i].r->flagged > 0;
	return flagged || r->status != SB_OK;
}

/* ---- the run ------------------------------------------------------------ */

int sb_nightly_run(sb_db *db, const sb_nightly_opts *o, sb_nightly_result *r)
{
	run u = {db, o, r, 0};
	sb_inbox_events ev = {import_file, inbox_problem, &u};
	int64_t lag_ms = o->has_lag ? o->billing_lag_ms : SB_DEFAULT_LAG_MS;
	sb_err e;

	memset(r, 0, sizeof *r);
	sb_err_clear(&e);
	if (sb_batch_last_id(db, &u.batch_before, &e) != SB_OK) {
		tell(&u, &e);
		note(&u, e.code);
		return r->status;
	}
	note(&u, sb_inbox_walk(o->root, o->inbox, o->pause_checked, &ev));
	fetch_all(&u);
	/* the period, then every earlier one that needs judging again */
	r->main.period = o->period;
	judge(&u, &o->period, true, &r->main);
	if (r->main.r == NULL)
		return r->status;
	if (sb_nightly_periods(db, &o->period, sb_db_now_ms(db), lag_ms, &r->extra, &r->n_extra, &e) !=
	    SB_OK) {
		tell(&u, &e);
		note(&u, e.code);
	}
	for (size_t i = 0; i < r->n_extra; i++) {
		sb_nightly_judged *x = &r->extra[i];
		judge(&u, &x->period, !x->first_time, x);
		if (x->r == NULL)
			continue;
		r->again_backends += x->r->flagged_backends;
		r->again_sessions += x->r->flagged_sessions;
	}
	r->attention = sb_nightly_needs_attention(r);
	return r->status;
}

void sb_nightly_result_free(sb_nightly_result *r)
{
	sb_recon_free(r->main.r);
	for (size_t i = 0; i < r->n_extra; i++)
		sb_recon_free(r->extra[i].r);
	free(r->extra);
	memset(r, 0, sizeof *r);
}
