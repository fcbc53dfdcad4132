/* recon_detail.c: what the reconciliation page shows beyond the result
 * (see recon_detail.h).
 */
#include "reconcile/recon_detail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/timefmt.h"

/* |v| into *out: false for INT64_MIN, whose magnitude does not fit. */
static bool magnitude(int64_t v, int64_t *out)
{
	if (v == INT64_MIN)
		return false;
	*out = v < 0 ? -v : v;
	return true;
}

/* Add |v| to *sum: false when it does not fit. */
static bool add_magnitude(int64_t *sum, int64_t v)
{
	int64_t m = 0;

	return magnitude(v, &m) && sb_money_add(*sum, m, sum) == SB_MONEY_OK;
}

bool sb_recon_session_drift(const sb_recon_session *s, int64_t *drift)
{
	return s->has_billed && sb_money_sub(s->billed_nanos, s->computed_nanos, drift) == SB_MONEY_OK;
}

/* The backend named backend in r, or NULL. */
static const sb_recon_backend *backend_of(const sb_recon *r, const char *backend)
{
	for (size_t i = 0; i < r->n_backends; i++)
		if (strcmp(r->backends[i].backend, backend) == 0)
			return &r->backends[i];
	return NULL;
}

int sb_recon_at_stake(const sb_recon *r, sb_recon_stake *out, sb_err *e)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < r->n_backends; i++) {
		const sb_recon_backend *b = &r->backends[i];
		if (!b->flagged)
			continue;
		if (!b->has_drift) {
			out->unknown_backends++;
			continue;
		}
		if (!add_magnitude(&out->nanos, b->drift_nanos))
			return sb_fail(e, SB_EDATA, "the money at stake does not fit in 64-bit nanodollars "
			                            "(at backend '%s')", b->backend);
		out->backends++;
	}
	for (size_t i = 0; i < r->n_sessions; i++) {
		const sb_recon_session *s = &r->sessions[i];
		const sb_recon_backend *b = backend_of(r, s->backend);
		int64_t drift = 0;
		if (!s->flagged || (b != NULL && b->flagged))
			continue;
		if (!sb_recon_session_drift(s, &drift)) {
			out->unknown_sessions++;
			continue;
		}
		if (!add_magnitude(&out->nanos, drift))
			return sb_fail(e, SB_EDATA, "the money at stake does not fit in 64-bit nanodollars "
			                            "(at a session of backend '%s')", s->backend);
		out->sessions++;
	}
	return SB_OK;
}

int64_t sb_recon_tolerance_nanos(const sb_recon_backend *b)
{
	int64_t rel = 0;

	if (sb_div_round_even((__int128)b->rel_ppb * b->computed_nanos, SB_NANOS_PER_USD, &rel) != SB_MONEY_OK)
		rel = INT64_MAX;
	return rel > b->abs_nanos ? rel : b->abs_nanos;
}

/* ---- the trend ---------------------------------------------------------- */

sb_period sb_trend_window(const sb_period *p)
{
	int64_t end = sb_day_start(p->to_ms);
	sb_period w;

	if (end < p->to_ms)
		end += SB_MS_PER_DAY;
	w.to_ms = end;
	w.from_ms = end - SB_TREND_DAYS * SB_MS_PER_DAY;
	return w;
}

void sb_trend_free(sb_trend *t)
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < t->n_series; i++)
		free(t->series[i].points);
	free(t->series);
	free(t);
}

/* Append a point to the last series of t (a new series when backend is
 * another); false when memory ran out. */
static bool trend_add(sb_trend *t, size_t *cap_series, size_t *cap_points, const char *backend,
                      const sb_trend_point *pt)
{
	sb_trend_series *s = t->n_series > 0 ? &t->series[t->n_series - 1] : NULL;

	if (s == NULL || strcmp(s->backend, backend) != 0) {
		if (t->n_series == *cap_series) {
			size_t cap = *cap_series ? 2 * *cap_series : 8;
			sb_trend_series *more = realloc(t->series, cap * sizeof *more);
			if (more == NULL)
				return false;
			t->series = more;
			*cap_series = cap;
		}
		s = &t->series[t->n_series++];
		memset(s, 0, sizeof *s);
		snprintf(s->backend, sizeof s->backend, "%s", backend);
		*cap_points = 0;
	}
	if (s->n_points == *cap_points) {
		size_t cap = *cap_points ? 2 * *cap_points : 32;
		sb_trend_point *more = realloc(s->points, cap * sizeof *more);
		if (more == NULL)
			return false;
		s->points = more;
		*cap_points = cap;
	}
	s->points[s->n_points++] = *pt;
	if (pt->has_drift)
		s->n_drift++;
	return true;
}

int sb_trend_load(sb_db *db, const sb_period *p, sb_trend **out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "recon_trend", e);
	sb_trend *t = NULL;
	size_t cap_series = 0, cap_points = 0;
	int rc;

	*out = NULL;
	if (st == NULL)
		return e->code;
	if ((t = calloc(1, sizeof *t)) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	t->period = *p;
	sb_bind_i64(db, st, ":from_ms", p->from_ms);
	sb_bind_i64(db, st, ":to_ms", p->to_ms);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		sb_trend_point pt;
		memset(&pt, 0, sizeof pt);
		pt.from_ms = sb_col_i64(st, 1);
		pt.to_ms = sb_col_i64(st, 2);
		if (sb_recon_status_parse(sb_col_text(st, 3), &pt.status, e) != SB_OK)
			break;
		pt.flagged = sb_col_int(st, 4) != 0;
		pt.computed_nanos = sb_col_i64(st, 5);
		pt.has_billed = !sb_col_is_null(st, 6);
		pt.billed_nanos = sb_col_i64(st, 6);
		pt.has_drift = !sb_col_is_null(st, 7);
		pt.drift_nanos = sb_col_i64(st, 7);
		pt.recon_id = sb_col_i64(st, 8);
		if (!trend_add(t, &cap_series, &cap_points, sb_col_text(st, 0), &pt)) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			break;
		}
	}
	sb_stmt_reset(st);
	if (e->code != SB_OK) {
		sb_trend_free(t);
		return e->code;
	}
	*out = t;
	return SB_OK;
}

/* ---- the flagged sessions ----------------------------------------------- */

/* Order of the flagged sessions: a known drift before an unknown one, the
 * larger |drift| first, then by backend and session (no session first). */
static int worst_first(const void *pa, const void *pb)
{
	const sb_detail_session *a = pa, *b = pb;
	const char *sa = a->session->session_id, *sb = b->session->session_id;
	int c;

	if (a->has_drift != b->has_drift)
		return a->has_drift ? -1 : 1;
	if (a->has_drift) {
		/* magnitudes as unsigned: INT64_MIN has one too */
		uint64_t ma = a->drift_nanos < 0 ? 0 - (uint64_t)a->drift_nanos : (uint64_t)a->drift_nanos;
		uint64_t mb = b->drift_nanos < 0 ? 0 - (uint64_t)b->drift_nanos : (uint64_t)b->drift_nanos;
		if (ma != mb)
			return ma > mb ? -1 : 1;
	}
	if ((c = strcmp(a->session->backend, b->session->backend)) != 0)
		return c;
	if (sa == NULL || sb == NULL)
		return (sa != NULL) - (sb != NULL);
	return strcmp(sa, sb);
}

/* Bind what names a session's runs: its backend, session (NULL: none)
 * and r's period. */
static void bind_session(sb_db *db, sb_stmt *st, const sb_recon *r, const sb_recon_session *s)
{
	sb_bind_text(db, st, ":backend", s->backend);
	sb_bind_text_opt(db, st, ":session_id", s->session_id);
	sb_bind_i64(db, st, ":from_ms", r->opts.period.from_ms);
	sb_bind_i64(db, st, ":to_ms", r->opts.period.to_ms);
}

/* Read the runs and the costliest commands of d's session. */
static int load_session(sb_db *db, const sb_recon *r, sb_detail_session *d, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "recon_session_runs", e);
	int rc;

	if (st == NULL)
		return e->code;
	bind_session(db, st, r, d->session);
	if ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		d->runs = sb_col_i64(st, 0);
		d->exec_ms = sb_col_i64(st, 1);
		d->ended = sb_col_i64(st, 2);
		d->lifetime_ms = sb_col_i64(st, 3);
	}
	sb_stmt_reset(st);
	if (rc < 0 || (st = sb_db_stmt(db, "recon_session_commands", e)) == NULL)
		return e->code;
	bind_session(db, st, r, d->session);
	sb_bind_i64(db, st, ":chars", SB_DETAIL_COMMAND_CHARS);
	sb_bind_i64(db, st, ":limit", SB_DETAIL_COMMANDS);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW && d->n_commands < SB_DETAIL_COMMANDS) {
		sb_detail_command *c = &d->commands[d->n_commands];
		const char *text = sb_col_text(st, 0);
		memset(c, 0, sizeof *c);
		if (text != NULL && (c->text = strdup(text)) == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			break;
		}
		d->n_commands++;
		c->cut = sb_col_int(st, 1) != 0;
		c->execs = sb_col_i64(st, 2);
		c->duration_ms = sb_col_i64(st, 3);
		c->has_cost = sb_col_i64(st, 5) == c->execs;
		c->cost_nanos = sb_col_i64(st, 4);
	}
	sb_stmt_reset(st);
	return e->code;
}

void sb_recon_detail_free(sb_recon_detail *d)
{
	if (d == NULL)
		return;
	for (size_t i = 0; i < d->n_sessions; i++)
		for (size_t k = 0; k < d->sessions[i].n_commands; k++)
			free(d->sessions[i].commands[k].text);
	free(d->sessions);
	sb_trend_free(d->trend);
	sb_flags_free(&d->flags);
	free(d);
}

int sb_recon_detail_load(sb_db *db, const sb_recon *r, sb_recon_detail **out, sb_err *e)
{
	sb_recon_detail *d = calloc(1, sizeof *d);
	sb_period window = sb_trend_window(&r->opts.period);
	size_t flagged = 0;

	*out = NULL;
	if (d == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	if (sb_recon_at_stake(r, &d->stake, e) != SB_OK)
		goto fail;
	for (size_t i = 0; i < r->n_sessions; i++)
		flagged += r->sessions[i].flagged ? 1 : 0;
	if (flagged > 0 && (d->sessions = calloc(flagged, sizeof *d->sessions)) == NULL) {
		sb_fail(e, SB_EINTERNAL, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < r->n_sessions; i++) {
		sb_detail_session *s;
		if (!r->sessions[i].flagged)
			continue;
		s = &d->sessions[d->n_sessions++];
		s->session = &r->sessions[i];
		s->has_drift = sb_recon_session_drift(s->session, &s->drift_nanos);
	}
	if (d->n_sessions > 1)
		qsort(d->sessions, d->n_sessions, sizeof *d->sessions, worst_first);
	if (d->n_sessions > SB_DETAIL_SESSIONS) {
		d->sessions_left = (int64_t)(d->n_sessions - SB_DETAIL_SESSIONS);
		d->n_sessions = SB_DETAIL_SESSIONS;
	}
	for (size_t i = 0; i < d->n_sessions; i++)
		if (load_session(db, r, &d->sessions[i], e) != SB_OK)
			goto fail;
	if (sb_trend_load(db, &window, &d->trend, e) != SB_OK ||
	    sb_flags_list(db, SB_FLAGS_UNRESOLVED, &r->opts.period, &d->flags, e) != SB_OK)
		goto fail;
	for (size_t i = 0; i < d->flags.n; i++) {
		const sb_flag *f = &d->flags.list[i];
		if (strcmp(f->state, "handled") == 0 && strcmp(f->handling, "dispute") == 0 &&
		    sb_money_add(d->disputed_nanos, f->at_stake_nanos, &d->disputed_nanos) != SB_MONEY_OK) {
			sb_fail(e, SB_EDATA, "the money in dispute of the period's flags does not fit in 64-bit nanodollars");
			goto fail;
		}
	}
	*out = d;
	return SB_OK;
fail:
	sb_recon_detail_free(d);
	return e->code;
}

/* ---- a night's imports -------------------------------------------------- */

int sb_batch_last_id(sb_db *db, int64_t *id, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "batch_last_id", e);
	int rc;

	*id = 0;
	if (st == NULL)
		return e->code;
	if ((rc = sb_db_step(db, st, e)) == SB_ROW)
		*id = sb_col_i64(st, 0);
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

void sb_night_imports_free(sb_night_imports *n)
{
	if (n == NULL)
		return;
	for (size_t i = 0; i < n->n_batches; i++) {
		free(n->batches[i].kind);
		free(n->batches[i].format);
		free(n->batches[i].source);
		free(n->batches[i].status);
	}
	free(n->batches);
	free(n);
}

size_t sb_night_faults(const sb_night_imports *n)
{
	size_t faults = 0;

	if (n == NULL)
		return 0;
	for (size_t i = 0; i < n->n_batches; i++)
		faults += n->batches[i].rejected > 0;
	return faults + n->n_fetches + n->n_unjudged;
}

/* A copy of the text of column col ("" for NULL), or NULL when memory ran
 * out. */
static char *col_dup(sb_stmt *st, int col)
{
	const char *text = sb_col_text(st, col);

	return strdup(text != NULL ? text : "");
}

int sb_night_imports_load(sb_db *db, int64_t after_id, sb_night_imports **out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "batch_since", e);
	sb_night_imports *n = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	if (st == NULL)
		return e->code;
	if ((n = calloc(1, sizeof *n)) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	sb_bind_i64(db, st, ":after_id", after_id);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		sb_night_batch *b;
		if (n->n_batches == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			sb_night_batch *more = realloc(n->batches, ncap * sizeof *more);
			if (more == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				break;
			}
			n->batches = more;
			cap = ncap;
		}
		b = &n->batches[n->n_batches++];
		memset(b, 0, sizeof *b);
		b->batch_id = sb_col_i64(st, 0);
		b->kind = col_dup(st, 1);
		b->format = col_dup(st, 2);
		b->source = col_dup(st, 3);
		b->status = col_dup(st, 4);
		b->accepted = sb_col_i64(st, 5);
		b->duplicates = sb_col_i64(st, 6);
		b->rejected = sb_col_i64(st, 7);
		if (b->kind == NULL || b->format == NULL || b->source == NULL || b->status == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			break;
		}
		if (sb_money_add(n->accepted, b->accepted, &n->accepted) != SB_MONEY_OK ||
		    sb_money_add(n->duplicates, b->duplicates, &n->duplicates) != SB_MONEY_OK ||
		    sb_money_add(n->rejected, b->rejected, &n->rejected) != SB_MONEY_OK) {
			sb_fail(e, SB_EINTERNAL, "the counts of the night's batches overflow");
			break;
		}
	}
	sb_stmt_reset(st);
	if (e->code != SB_OK) {
		sb_night_imports_free(n);
		return e->code;
	}
	*out = n;
	return SB_OK;
}
