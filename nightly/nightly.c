/* nightly.c: the nightly job (see nightly.h). */
#include "nightly/nightly.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "importers/import_billing.h"
#include "importers/import_runs.h"
#include "importers/source.h"
#include "ledger/changes.h"
#include "ledger/grain.h"
#include "ledger/grow.h"
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
	int64_t lag_ms;             /* the billing lag */
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

/* The period endpoint ep is asked for: --period, else from the day the
 * newest earlier fetch of its format covered (the day before the night it
 * ran: its late charges, and the days of the nights missed since) to
 * today, at most --catch-up days back; yesterday when it was never
 * fetched. */
static int fetch_period(run *u, const sb_endpoint *ep, sb_period *p, sb_err *e)
{
	int64_t today = sb_day_start(sb_db_now_ms(u->db));
	int64_t reach = today - u->o->catch_up_days * SB_MS_PER_DAY;
	sb_stmt *st;
	int rc;

	*p = u->o->has_period ? u->o->period : (sb_period){today - SB_MS_PER_DAY, today};
	if (u->o->has_period || ep->format == NULL)
		return SB_OK;
	if ((st = sb_db_stmt(u->db, "fetch_last", e)) == NULL)
		return e->code;
	sb_bind_text(u->db, st, ":format", ep->format);
	rc = sb_db_step(u->db, st, e);
	if (rc == SB_ROW && !sb_col_is_null(st, 0)) {
		int64_t from = sb_day_start(sb_col_i64(st, 0)) - SB_MS_PER_DAY;
		if (from < p->from_ms)
			p->from_ms = from > reach ? from : reach;
	}
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

/* Keep a fetch of ep of p that brought nothing (its error e, or its
 * status rc) for the pages, in the caller's words; a list that cannot
 * grow is memory run out (told, weighed). */
static void keep_fetch_fault(run *u, const sb_provider *p, const sb_endpoint *ep, int rc, const sb_err *e)
{
	sb_nightly_result *r = u->r;
	sb_night_fetch *f;
	sb_err grow;

	sb_err_clear(&grow);
	if (SB_GROW(&r->fetch_faults, r->n_fetch_faults, &r->cap_fetch_faults, &grow) != SB_OK) {
		tell(u, &grow);
		note(u, grow.code);
		return;
	}
	f = &r->fetch_faults[r->n_fetch_faults++];
	memset(f, 0, sizeof *f);
	f->provider = p->name;
	f->what = ep->what;
	f->skipped = e->hint == SB_HINT_KEY;
	f->code = e->code != SB_OK ? e->code : rc;
	snprintf(f->msg, sizeof f->msg, "%s", e->code != SB_OK ? e->msg : "the fetch did not complete");
	if (u->o->words != NULL)
		u->o->words(f->msg, sizeof f->msg);
}

/* Every endpoint of each provider asked for: the catalog as of now, the
 * others for their period (fetch_period). */
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
			fo.events = (sb_import_events){count_reject, f->opts.events.on_progress, &c};
			if (fetch_period(u, ep, &fo.period, &e) != SB_OK) {
				tell(u, &e);
				note(u, e.code);
				keep_fetch_fault(u, f->provider, ep, e.code, &e);
				continue;
			}
			rc = fetch(o->events.ctx, u->db, f->provider, ep, &fo, &fr, &e);
			u->r->rejected += c.n;
			if (o->events.on_fetched != NULL)
				o->events.on_fetched(o->events.ctx, f->provider, ep, rc, &fr, &e);
			note(u, e.code != SB_OK ? e.code : rc);
			/* rejected records alone are the batch's, shown with it */
			if (e.code != SB_OK || (rc != SB_OK && rc != SB_EDATA))
				keep_fetch_fault(u, f->provider, ep, rc, &e);
			if (e.hint == SB_HINT_KEY) {
				/* no key: its other endpoints would say the same; said once */
				u->r->fetches_skipped++;
				break;
			}
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
		sb_night_imports *n = *imports;
		n->already = u->r->already;
		n->fetches = u->r->fetch_faults;
		n->n_fetches = u->r->n_fetch_faults;
		n->unjudged = u->r->unjudged;
		n->n_unjudged = u->r->n_unjudged;
		n->catch_up_days = u->o->catch_up_days;
		n->unjudged_days = u->r->unjudged_days;
		n->inbox = u->o->root;
		n->out = u->o->out;
		return;
	}
	sb_recon_detail_free(*d);
	*d = NULL;
	tell(u, &e);
	note(u, e.code);
}

/* Load the backends of stored result id into j->changes as what they
 * were (had). */
static int load_before(run *u, int64_t id, sb_nightly_judged *j, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(u->db, "recon_stored_backends", e);
	int rc;

	if (st == NULL)
		return e->code;
	sb_bind_i64(u->db, st, ":recon_id", id);
	while ((rc = sb_db_step(u->db, st, e)) == SB_ROW) {
		sb_nightly_change *c;
		if (SB_GROW(&j->changes, j->n_changes, &j->cap_changes, e) != SB_OK) {
			sb_stmt_reset(st);
			return e->code;
		}
		c = &j->changes[j->n_changes++];
		memset(c, 0, sizeof *c);
		snprintf(c->backend, sizeof c->backend, "%s", sb_col_text(st, 0));
		c->had = true;
		if (sb_recon_status_parse(sb_col_text(st, 1), &c->old_status, e) != SB_OK) {
			sb_stmt_reset(st);
			return e->code;
		}
		c->old_computed = sb_col_i64(st, 2);
		c->old_has_billed = !sb_col_is_null(st, 3);
		c->old_billed = sb_col_i64(st, 3);
		c->old_flagged = sb_col_int(st, 4) != 0;
	}
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

/* The newest batch that moved backend's figures over window since the
 * result j replaces (0 none, or when it cannot be told). */
static int64_t batch_of(run *u, const sb_nightly_judged *j, const char *backend, const sb_period *window)
{
	sb_err e;
	int64_t id = 0;

	sb_err_clear(&e);
	(void)sb_change_batch_since(u->db, j->prev_id, backend, window->from_ms, window->to_ms, &id, &e);
	return id;
}

/* Keep in j->changes only the backends whose status, flag or figures
 * moved between the earlier result (loaded as had) and r, each with the
 * batch that moved it. */
static int diff_after(run *u, sb_nightly_judged *j, const sb_recon *r, sb_err *e)
{
	size_t keep = 0, n_old = j->n_changes;

	for (size_t i = 0; i < r->n_backends; i++) {
		const sb_recon_backend *b = &r->backends[i];
		sb_nightly_change *c = NULL;
		for (size_t k = 0; k < n_old && c == NULL; k++)
			if (strcmp(j->changes[k].backend, b->backend) == 0)
				c = &j->changes[k];
		if (c == NULL) {
			if (SB_GROW(&j->changes, j->n_changes, &j->cap_changes, e) != SB_OK)
				return e->code;
			c = &j->changes[j->n_changes++];
			memset(c, 0, sizeof *c);
			snprintf(c->backend, sizeof c->backend, "%s", b->backend);
		}
		c->has = true;
		c->new_status = b->status;
		c->new_computed = b->computed_nanos;
		c->new_has_billed = b->has_billed;
		c->new_billed = b->billed_nanos;
		c->new_flagged = b->flagged;
		c->new_off_grain = b->off_grain;
		c->batch_id = batch_of(u, j, b->backend, &b->window);
	}
	for (size_t i = 0; i < j->n_changes; i++) {
		sb_nightly_change *c = &j->changes[i];
		bool moved = c->had != c->has ||
		             (c->had && c->has &&
		              (c->old_status != c->new_status || c->old_flagged != c->new_flagged ||
		               c->old_computed != c->new_computed || c->old_has_billed != c->new_has_billed ||
		               c->old_billed != c->new_billed));
		/* a month-billed backend on a day is partial whatever its figures:
		 * its month tells what moved, never its days */
		if (c->has && c->new_off_grain && (!c->had || c->old_status == SB_STATUS_PARTIAL))
			moved = false;
		if (c->had && !c->has)
			c->batch_id = batch_of(u, j, c->backend, &r->opts.period);
		if (moved)
			j->changes[keep++] = *c;
	}
	j->n_changes = keep;
	/* by backend */
	for (size_t i = 1; i < keep; i++)
		for (size_t k = i; k > 0 && strcmp(j->changes[k - 1].backend, j->changes[k].backend) > 0; k--) {
			sb_nightly_change t = j->changes[k - 1];
			j->changes[k - 1] = j->changes[k];
			j->changes[k] = t;
		}
	return SB_OK;
}

/* Judge j->period again as a night does (the default tolerances, the
 * run's billing lag), store the result (replacing j->prev_id) with its
 * flags judged, keep in j->changes what moved since the result it
 * replaces, and note whether it has an open flag.  *out is the result
 * (the caller frees it: sb_recon_free), NULL when it failed (e says why). */
static int judge_again(run *u, sb_nightly_judged *j, sb_recon **out, sb_err *e)
{
	sb_recon_opts ro;
	sb_recon *r = NULL;
	char *text = NULL;

	*out = NULL;
	memset(&ro, 0, sizeof ro);
	ro.period = j->period;
	ro.abs_nanos = SB_DEFAULT_ABS_NANOS;
	ro.rel_ppb = SB_DEFAULT_REL_PPB;
	ro.has_lag = true;
	ro.billing_lag_ms = u->lag_ms;
	if ((j->prev_id > 0 && load_before(u, j->prev_id, j, e) != SB_OK) ||
	    sb_reconcile(u->db, &ro, &r, e) != SB_OK)
		goto fail;
	/* stored with its JSON text: the ledger keeps the result as
	 * 'reconcile --format json' prints it */
	text = sb_recon_json_text(r, JSON_COMPACT);
	if (sb_recon_store(u->db, r, text, &j->flags, e) != SB_OK ||
	    (j->prev_id > 0 && diff_after(u, j, r, e) != SB_OK))
		goto fail;
	free(text);
	for (size_t i = 0; i < j->flags.n; i++)
		if (j->flags.list[i].move == SB_FLAG_RAISED || j->flags.list[i].move == SB_FLAG_STILL_OPEN ||
		    j->flags.list[i].move == SB_FLAG_REOPENED)
			u->r->open_judged = true;
	*out = r;
	return SB_OK;
fail:
	free(text);
	sb_recon_free(r);
	return e->code;
}

/* Judge j->period (judge_again) and write its reports.  j->r is NULL
 * when it failed (told); returns the failure's code (SB_OK when none). */
static int judge(run *u, sb_nightly_judged *j)
{
	const sb_nightly_opts *o = u->o;
	sb_summary *s = NULL;
	sb_recon *r = NULL;
	sb_recon_detail *d = NULL;
	sb_night_imports *imports = NULL;
	sb_page_opts po = {o->ledger, sb_db_now_ms(u->db), NULL, o->root};
	sb_err e;

	sb_err_clear(&e);
	j->r = NULL;
	j->reports_ok = false;
	j->dir[0] = '\0';
	if (judge_again(u, j, &r, &e) != SB_OK ||
	    sb_summary_build(u->db, &j->period, "backend", &s, &e) != SB_OK)
		goto fail;
	load_page(u, r, &imports, &d);
	po.imports = imports;
	j->reports_ok = sb_nightly_write_reports(o->out, &j->period, r, s, d, &po, j->dir, sizeof j->dir,
	                                         report_problem, u);
	sb_recon_detail_free(d);
	sb_night_imports_free(imports);
	if (!j->reports_ok && u->r->status == SB_OK)
		note(u, SB_EIO);   /* not written, and nothing said why: an I/O error */
	sb_summary_free(s);
	j->r = r;
	return SB_OK;
fail:
	tell(u, &e);
	note(u, e.code);
	sb_summary_free(s);
	sb_recon_free(r);
	return e.code;
}

/* ---- what to judge ------------------------------------------------------ */

/* A stored result as recon_latest.sql gives it. */
typedef struct stored {
	int64_t id;                 /* the result */
	sb_period period;           /* its period */
	int64_t change_id;          /* the newest change it saw */
	bool defaults;              /* judged with the default tolerances */
	int64_t stale_change;       /* the newest change that makes it stale, 0 none */
	bool pending, lagged;       /* a backend was pending; a missing bill is now past the lag */
	bool grain_moved;           /* a backend's grain is not the one it was judged at */
} stored;

/* A backend's grain, as found once per run. */
typedef struct grain_seen {
	char backend[65];
	sb_grain grain;
} grain_seen;

/* The plan of a run: the latest results in reach, the backends' grains,
 * and the periods to judge. */
typedef struct plan {
	stored *results;
	size_t n_results, cap_results;
	grain_seen *grains;
	size_t n_grains, cap_grains;
	sb_nightly_judged *list;    /* the periods to judge (becomes r->judged) */
	size_t n, cap;
} plan;

static void plan_free(plan *pl)
{
	free(pl->results);
	free(pl->grains);
}

/* backend's grain (found once); SB_GRAIN_DAY when it cannot be read (e says). */
static sb_grain grain_for(run *u, plan *pl, const char *backend, sb_err *e)
{
	sb_grain g = SB_GRAIN_DAY;

	for (size_t i = 0; i < pl->n_grains; i++)
		if (strcmp(pl->grains[i].backend, backend) == 0)
			return pl->grains[i].grain;
	if (sb_grain_of(u->db, backend, &g, e) != SB_OK ||
	    SB_GROW(&pl->grains, pl->n_grains, &pl->cap_grains, e) != SB_OK)
		return g;
	snprintf(pl->grains[pl->n_grains].backend, sizeof pl->grains[0].backend, "%s", backend);
	pl->grains[pl->n_grains++].grain = g;
	return g;
}

/* The latest results of the periods ending after since_ms. */
static int load_results(run *u, plan *pl, int64_t since_ms, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(u->db, "recon_latest", e);
	int rc;

	if (st == NULL)
		return e->code;
	sb_bind_i64(u->db, st, ":since_ms", since_ms);
	sb_bind_i64(u->db, st, ":now_ms", sb_db_now_ms(u->db));
	sb_bind_i64(u->db, st, ":lag_ms", u->lag_ms);
	while ((rc = sb_db_step(u->db, st, e)) == SB_ROW) {
		stored *x;
		if (SB_GROW(&pl->results, pl->n_results, &pl->cap_results, e) != SB_OK) {
			sb_stmt_reset(st);
			return e->code;
		}
		x = &pl->results[pl->n_results++];
		memset(x, 0, sizeof *x);
		x->id = sb_col_i64(st, 0);
		x->period.from_ms = sb_col_i64(st, 1);
		x->period.to_ms = sb_col_i64(st, 2);
		x->defaults = sb_col_i64(st, 3) == SB_DEFAULT_ABS_NANOS && sb_col_i64(st, 4) == SB_DEFAULT_REL_PPB;
		x->change_id = sb_col_i64(st, 5);
		x->stale_change = sb_col_is_null(st, 6) ? 0 : sb_col_i64(st, 6);
		x->pending = sb_col_int(st, 7) != 0;
		x->lagged = sb_col_int(st, 8) != 0;
	}
	sb_stmt_reset(st);
	if (rc < 0)
		return e->code;
	/* a backend judged at another grain than it now has */
	if ((st = sb_db_stmt(u->db, "recon_latest_grains", e)) == NULL)
		return e->code;
	sb_bind_i64(u->db, st, ":since_ms", since_ms);
	while ((rc = sb_db_step(u->db, st, e)) == SB_ROW && e->code == SB_OK) {
		int64_t id = sb_col_i64(st, 0);
		bool moved = strcmp(sb_col_text(st, 2), sb_grain_name(grain_for(u, pl, sb_col_text(st, 1), e))) != 0;
		for (size_t i = 0; i < pl->n_results && moved; i++)
			if (pl->results[i].id == id)
				pl->results[i].grain_moved = true;
	}
	sb_stmt_reset(st);
	return e->code;
}

/* The latest result of exactly p, NULL when none. */
static stored *result_of(plan *pl, const sb_period *p)
{
	for (size_t i = 0; i < pl->n_results; i++)
		if (pl->results[i].period.from_ms == p->from_ms && pl->results[i].period.to_ms == p->to_ms)
			return &pl->results[i];
	return NULL;
}

/* Whether x is current: not stale, judged with the default tolerances at
 * the grains its backends have. */
static bool current(const stored *x)
{
	return x != NULL && x->stale_change == 0 && x->defaults && !x->grain_moved;
}

/* Whether x is stale: a change committed since moves a figure it judged,
 * or a backend of it was judged at a grain it no longer has. */
static bool stale(const stored *x)
{
	return x->stale_change != 0 || x->grain_moved;
}

/* Add period p to the plan, judged for why (once: a period already in it
 * keeps its first reason). */
static int plan_add(plan *pl, const sb_period *p, sb_nightly_why why, sb_err *e)
{
	stored *x = result_of(pl, p);
	sb_nightly_judged *j;

	for (size_t i = 0; i < pl->n; i++)
		if (pl->list[i].period.from_ms == p->from_ms && pl->list[i].period.to_ms == p->to_ms)
			return SB_OK;
	if (SB_GROW(&pl->list, pl->n, &pl->cap, e) != SB_OK)
		return e->code;
	j = &pl->list[pl->n++];
	memset(j, 0, sizeof *j);
	j->period = *p;
	j->why = why;
	j->prev_id = x != NULL ? x->id : 0;
	return SB_OK;
}

/* A day or month holding runs or lines: its start, and whether a backend
 * of it is billed by the day (by the month). */
typedef struct active {
	int64_t day_ms;             /* the UTC day */
	bool daily;                 /* a backend billed by the day has runs or lines on it */
	bool monthly;               /* one billed by the month has */
} active;

/* The days holding runs or lines, sorted, each once. */
typedef struct activity {
	active *days;
	size_t n, cap;
} activity;

/* Mark the day holding t active for backend (by its grain). */
static int mark(run *u, plan *pl, activity *act, int64_t t, const char *backend, sb_err *e)
{
	int64_t day = sb_day_start(t);
	sb_grain g = grain_for(u, pl, backend, e);
	size_t i = 0;

	while (i < act->n && act->days[i].day_ms < day)
		i++;
	if (i == act->n || act->days[i].day_ms != day) {
		if (SB_GROW(&act->days, act->n, &act->cap, e) != SB_OK)
			return e->code;
		memmove(&act->days[i + 1], &act->days[i], (act->n - i) * sizeof act->days[0]);
		memset(&act->days[i], 0, sizeof act->days[i]);
		act->days[i].day_ms = day;
		act->n++;
	}
	if (g == SB_GRAIN_MONTH)
		act->days[i].monthly = true;
	else
		act->days[i].daily = true;
	return e->code;
}

/* Mark the days of st's rows (a day's start, or a day as text when
 * text_day, and a backend) active. */
static int mark_rows(run *u, plan *pl, activity *act, sb_stmt *st, bool text_day, sb_err *e)
{
	int rc;

	while ((rc = sb_db_step(u->db, st, e)) == SB_ROW && e->code == SB_OK) {
		sb_period day = {sb_col_i64(st, 0), 0};
		if (text_day && sb_period_parse(sb_col_text(st, 0), 0, &day, e) != SB_OK)
			break;
		mark(u, pl, act, day.from_ms, sb_col_text(st, 1), e);
	}
	sb_stmt_reset(st);
	return e->code;
}

/* The days in [from_ms, to_ms) holding runs (the day rollups) or live
 * lines. */
static int load_activity(run *u, plan *pl, int64_t from_ms, int64_t to_ms, activity *act, sb_err *e)
{
	char from_day[SB_TIME_BUFSZ], to_day[SB_TIME_BUFSZ];
	sb_stmt *st;

	snprintf(from_day, sizeof from_day, "%.10s", sb_time_format(from_ms, (char[SB_TIME_BUFSZ]){0}));
	snprintf(to_day, sizeof to_day, "%.10s", sb_time_format(to_ms, (char[SB_TIME_BUFSZ]){0}));
	if ((st = sb_db_stmt(u->db, "activity_run_days", e)) == NULL)
		return e->code;
	sb_bind_text(u->db, st, ":from_day", from_day);
	sb_bind_text(u->db, st, ":to_day", to_day);
	if (mark_rows(u, pl, act, st, true, e) != SB_OK ||
	    (st = sb_db_stmt(u->db, "activity_line_days", e)) == NULL)
		return e->code;
	sb_bind_i64(u->db, st, ":from_ms", from_ms);
	sb_bind_i64(u->db, st, ":to_ms", to_ms);
	return mark_rows(u, pl, act, st, false, e);
}

/* The whole plan: --period, the days and months to catch up, the results
 * to judge again; the older days left unjudged as ranges in r. */
static int make_plan(run *u, plan *pl, sb_err *e)
{
	const sb_nightly_opts *o = u->o;
	int64_t now = sb_db_now_ms(u->db);
	int64_t today = sb_day_start(now);
	int64_t reach = today - o->catch_up_days * SB_MS_PER_DAY;
	int64_t look = reach - 366 * SB_MS_PER_DAY;   /* how far back unjudged days are named */
	activity act = {NULL, 0, 0};
	size_t cap_unjudged = 0;
	active *days;
	size_t n_days;
	sb_nightly_result *r = u->r;

	if (load_results(u, pl, look, e) != SB_OK || load_activity(u, pl, look, today, &act, e) != SB_OK)
		goto out;
	days = act.days;
	n_days = act.n;
	if (o->has_period && plan_add(pl, &o->period, SB_WHY_ASKED, e) != SB_OK)
		goto out;
	for (size_t i = 0; i < n_days; i++) {
		sb_period day = {days[i].day_ms, days[i].day_ms + SB_MS_PER_DAY};
		stored *x = result_of(pl, &day);
		if (!days[i].daily || current(x))
			continue;
		if (day.from_ms >= reach) {
			if (plan_add(pl, &day, x == NULL ? SB_WHY_FIRST : x->stale_change != 0 ? SB_WHY_STALE : SB_WHY_RULES, e) != SB_OK)
				goto out;
			continue;
		}
		/* older: named, as ranges of consecutive days */
		if (r->n_unjudged > 0 && r->unjudged[r->n_unjudged - 1].to_ms == day.from_ms) {
			r->unjudged[r->n_unjudged - 1].to_ms = day.to_ms;
		} else {
			if (SB_GROW(&r->unjudged, r->n_unjudged, &cap_unjudged, e) != SB_OK)
				goto out;
			r->unjudged[r->n_unjudged++] = day;
		}
		if (r->unjudged_days == 0)
			r->unjudged_days = (today - day.from_ms) / SB_MS_PER_DAY;
	}
	/* months billed by the month, once ended more than the lag ago */
	for (size_t i = 0; i < n_days; i++) {
		sb_period m = sb_month_of(days[i].day_ms);
		stored *x = result_of(pl, &m);
		if (!days[i].monthly || m.to_ms <= reach || (__int128)now - m.to_ms <= u->lag_ms || current(x))
			continue;
		if (plan_add(pl, &m, x == NULL ? SB_WHY_FIRST : x->stale_change != 0 ? SB_WHY_STALE : SB_WHY_RULES, e) != SB_OK)
			goto out;
	}
	/* results in reach to judge again: stale, pending, a bill now overdue */
	for (size_t i = 0; i < pl->n_results; i++) {
		stored *x = &pl->results[i];
		sb_nightly_why why = x->stale_change != 0 ? SB_WHY_STALE : x->pending ? SB_WHY_PENDING : SB_WHY_LAGGED;
		if (!(x->stale_change != 0 || x->pending || x->lagged) || x->period.from_ms >= today)
			continue;
		if (x->period.to_ms <= reach) {
			if (x->stale_change != 0)
				r->stale_older++;
			continue;
		}
		if (plan_add(pl, &x->period, why, e) != SB_OK)
			goto out;
	}
	/* oldest first */
	for (size_t i = 1; i < pl->n; i++)
		for (size_t k = i; k > 0; k--) {
			sb_nightly_judged *a = &pl->list[k - 1], *b = &pl->list[k], t;
			if (a->period.from_ms < b->period.from_ms ||
			    (a->period.from_ms == b->period.from_ms && a->period.to_ms <= b->period.to_ms))
				break;
			t = *a;
			*a = *b;
			*b = t;
		}
out:
	free(act.days);
	return e->code;
}

int sb_nightly_stale(sb_db *db, int64_t since_ms, int64_t **ids, size_t *n, sb_err *e)
{
	sb_nightly_result res;
	run u = {db, NULL, &res, 0, SB_DEFAULT_LAG_MS};
	plan pl;
	size_t cap = 0;

	*ids = NULL;
	*n = 0;
	memset(&res, 0, sizeof res);
	memset(&pl, 0, sizeof pl);
	if (load_results(&u, &pl, since_ms, e) == SB_OK)
		for (size_t i = 0; i < pl.n_results; i++) {
			if (!stale(&pl.results[i]))
				continue;
			if (SB_GROW(ids, *n, &cap, e) != SB_OK)
				break;
			(*ids)[(*n)++] = pl.results[i].id;
		}
	plan_free(&pl);
	if (e->code != SB_OK) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	}
	return e->code;
}

int sb_nightly_judge_stale(sb_db *db, int64_t since_ms, int64_t lag_ms, bool fail_on_drift,
                           sb_nightly_result *r, sb_err *e)
{
	run u = {db, NULL, r, 0, lag_ms};
	plan pl;

	memset(r, 0, sizeof *r);
	memset(&pl, 0, sizeof pl);
	if (load_results(&u, &pl, INT64_MIN, e) == SB_OK)
		for (size_t i = 0; i < pl.n_results; i++) {
			const stored *x = &pl.results[i];
			if (!stale(x))
				continue;
			if (x->period.to_ms <= since_ms)
				r->stale_older++;   /* out of reach: counted, not judged */
			else if (plan_add(&pl, &x->period, SB_WHY_STALE, e) != SB_OK)
				break;
		}
	plan_free(&pl);
	r->judged = pl.list;
	r->n_judged = pl.n;
	for (size_t i = 0; i < r->n_judged && e->code == SB_OK; i++)
		judge_again(&u, &r->judged[i], &r->judged[i].r, e);
	if (e->code == SB_OK && fail_on_drift && r->open_judged)
		r->status = SB_FLAGGED;
	return e->code != SB_OK ? e->code : r->status;
}

bool sb_nightly_needs_attention(const sb_nightly_result *r)
{
	for (size_t i = 0; i < r->n_judged; i++)
		if (r->judged[i].n_changes > 0)
			return true;
	return r->open.n > 0 || r->n_unjudged > 0 || r->stale_older > 0 || r->rejected > 0 ||
	       r->fetches_skipped > 0 || r->status != SB_OK;
}

/* ---- the run ------------------------------------------------------------ */

int sb_nightly_run(sb_db *db, const sb_nightly_opts *o, sb_nightly_result *r)
{
	run u;
	sb_inbox_events ev = {import_file, inbox_problem, &u};
	plan pl;
	sb_err e;

	memset(r, 0, sizeof *r);
	memset(&u, 0, sizeof u);
	memset(&pl, 0, sizeof pl);
	u.db = db;
	u.o = o;
	u.r = r;
	u.lag_ms = o->has_lag ? o->billing_lag_ms : SB_DEFAULT_LAG_MS;
	sb_err_clear(&e);
	if (sb_batch_last_id(db, &u.batch_before, &e) != SB_OK) {
		tell(&u, &e);
		note(&u, e.code);
		return r->status;
	}
	note(&u, sb_inbox_walk(o->root, o->inbox, o->pause_checked, &ev));
	fetch_all(&u);
	if (make_plan(&u, &pl, &e) != SB_OK) {
		tell(&u, &e);
		note(&u, e.code);
	}
	r->judged = pl.list;
	r->n_judged = pl.n;
	for (size_t i = 0; i < r->n_judged; i++) {
		int rc = judge(&u, &r->judged[i]);
		if (r->judged[i].r != NULL && r->judged[i].why == SB_WHY_FIRST)
			r->n_first++;
		/* memory or the disk failing: the periods after it are left for
		 * the next night's catch-up, not judged on a night already failing */
		if (rc == SB_EINTERNAL || rc == SB_EIO)
			break;
	}
	plan_free(&pl);
	sb_err_clear(&e);
	if (sb_flags_list(db, SB_FLAGS_OPEN, NULL, &r->open, &e) != SB_OK) {
		tell(&u, &e);
		note(&u, e.code);
	}
	if (o->fail_on_drift && r->open_judged)
		note(&u, SB_FLAGGED);
	r->attention = sb_nightly_needs_attention(r);
	return r->status;
}

void sb_nightly_result_free(sb_nightly_result *r)
{
	for (size_t i = 0; i < r->n_judged; i++) {
		sb_recon_free(r->judged[i].r);
		free(r->judged[i].changes);
		sb_flags_free(&r->judged[i].flags);
	}
	free(r->judged);
	free(r->unjudged);
	free(r->fetch_faults);
	sb_flags_free(&r->open);
	memset(r, 0, sizeof *r);
}

int sb_nightly_heartbeat(const char *out, int64_t now_ms, int status,
                         const sb_nightly_result *r, sb_err *e)
{
	char at[SB_TIME_BUFSZ];
	size_t judged = 0;
	json_t *o;
	char *text;
	int rc;

	for (size_t i = 0; r != NULL && i < r->n_judged; i++)
		judged += r->judged[i].r != NULL;
	o = json_pack("{s:s, s:i, s:s, s:I, s:I, s:o?, s:n}", "ran_at", sb_time_format(now_ms, at),
	                      "status", status, "ended",
	                      status == SB_OK ? "ok" : status == SB_FLAGGED ? "flagged" : "failed",
	                      "periods_judged", (json_int_t)judged, "first_time",
	                      (json_int_t)(r != NULL ? r->n_first : 0), "open_flags",
	                      r != NULL ? json_integer((json_int_t)r->open.n) : NULL, "seal");
	text = o != NULL ? json_dumps(o, JSON_COMPACT) : NULL;
	rc = sb_nightly_heartbeat_write(out, text, e);

	free(text);
	json_decref(o);
	return rc;
}
