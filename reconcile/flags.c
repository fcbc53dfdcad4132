/* flags.c: flags raised by stored results, and their handling (see
 * flags.h). */
#include "reconcile/flags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/changes.h"
#include "ledger/grain.h"
#include "ledger/grow.h"
#include "ledger/money.h"

/* ---- the list ----------------------------------------------------------- */

void sb_flag_clear(sb_flag *f)
{
	free(f->session_id);
	free(f->reason);
	free(f->who);
	free(f->what_changed);
	memset(f, 0, sizeof *f);
}

void sb_flags_free(sb_flags *l)
{
	for (size_t i = 0; i < l->n; i++)
		sb_flag_clear(&l->list[i]);
	free(l->list);
	memset(l, 0, sizeof *l);
}

/* A new empty flag at the end of l, or NULL when out of memory (e says). */
static sb_flag *push(sb_flags *l, sb_err *e)
{
	if (SB_GROW(&l->list, l->n, &l->cap, e) != SB_OK)
		return NULL;
	memset(&l->list[l->n], 0, sizeof l->list[l->n]);
	return &l->list[l->n++];
}

/* A copy of the text of column col, NULL when it is NULL; false when out
 * of memory. */
static bool col_dup(sb_stmt *st, int col, char **out, sb_err *e)
{
	*out = NULL;
	if (sb_col_is_null(st, col))
		return true;
	if ((*out = strdup(sb_col_text(st, col))) == NULL) {
		sb_fail(e, SB_EINTERNAL, "out of memory");
		return false;
	}
	return true;
}

/* The row of flag_list.sql into f. */
static int read_flag(sb_stmt *st, sb_flag *f, sb_err *e)
{
	f->id = sb_col_i64(st, 0);
	f->period.from_ms = sb_col_i64(st, 1);
	f->period.to_ms = sb_col_i64(st, 2);
	snprintf(f->backend, sizeof f->backend, "%s", sb_col_text(st, 3));
	snprintf(f->state, sizeof f->state, "%s", sb_col_text(st, 5));
	snprintf(f->handling, sizeof f->handling, "%s", sb_col_is_null(st, 6) ? "" : sb_col_text(st, 6));
	if (sb_recon_status_parse(sb_col_text(st, 7), &f->status, e) != SB_OK)
		return e->code;
	f->computed_nanos = sb_col_i64(st, 8);
	f->has_billed = !sb_col_is_null(st, 9);
	f->billed_nanos = sb_col_i64(st, 9);
	f->has_drift = !sb_col_is_null(st, 10);
	f->drift_nanos = sb_col_i64(st, 10);
	f->at_stake_nanos = sb_col_i64(st, 11);
	f->reopened = sb_col_int(st, 12) != 0;
	f->resolved_by_batch = sb_col_is_null(st, 13) ? 0 : sb_col_i64(st, 13);
	f->is_session = sb_col_int(st, 16) != 0;
	f->recon_id = sb_col_i64(st, 18);
	f->opened_ms = sb_col_i64(st, 19);
	f->updated_ms = sb_col_i64(st, 20);
	if (!col_dup(st, 17, &f->session_id, e) || !col_dup(st, 15, &f->reason, e) ||
	    !col_dup(st, 14, &f->who, e))
		return e->code;
	return SB_OK;
}

/* flag_list.sql bound for flag id (0 any), the states which, and the
 * periods meeting p (exact: p itself; NULL: every period). */
static sb_stmt *list_stmt(sb_db *db, int64_t id, sb_flags_which which, const sb_period *p,
                          bool exact, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "flag_list", e);

	if (st == NULL)
		return NULL;
	sb_bind_i64(db, st, ":flag_id", id);
	sb_bind_i64(db, st, ":want_open", which == SB_FLAGS_UNRESOLVED || which == SB_FLAGS_OPEN || which == SB_FLAGS_ALL);
	sb_bind_i64(db, st, ":want_handled", which != SB_FLAGS_OPEN);
	sb_bind_i64(db, st, ":want_resolved", which == SB_FLAGS_ALL);
	sb_bind_i64(db, st, ":disputes_only", which == SB_FLAGS_DISPUTED);
	sb_bind_i64(db, st, ":exact", exact);
	sb_bind_i64(db, st, ":from_ms", p != NULL ? p->from_ms : INT64_MIN);
	sb_bind_i64(db, st, ":to_ms", p != NULL ? p->to_ms : INT64_MAX);
	return st;
}

/* The flags list_stmt gives, appended to *out. */
static int list(sb_db *db, int64_t id, sb_flags_which which, const sb_period *p, bool exact,
                sb_flags *out, sb_err *e)
{
	sb_stmt *st = list_stmt(db, id, which, p, exact, e);
	int rc;

	if (st == NULL)
		return e->code;
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		sb_flag *f = push(out, e);
		if (f == NULL || read_flag(st, f, e) != SB_OK) {
			sb_stmt_reset(st);
			return e->code;
		}
	}
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

sb_stmt *sb_flags_stmt(sb_db *db, sb_flags_which which, const sb_period *p, sb_err *e)
{
	return list_stmt(db, 0, which, p, false, e);
}

int sb_flags_list(sb_db *db, sb_flags_which which, const sb_period *p, sb_flags *out, sb_err *e)
{
	return list(db, 0, which, p, false, out, e);
}

/* ---- writing ------------------------------------------------------------ */

/* Store f's state, handling, figures and handler as they now are. */
static int update(sb_db *db, const sb_flag *f, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "flag_update", e);

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":flag_id", f->id);
	sb_bind_text(db, st, ":state", f->state);
	sb_bind_text_opt(db, st, ":handling", f->handling[0] != '\0' ? f->handling : NULL);
	sb_bind_text(db, st, ":status", sb_recon_status_name(f->status));
	sb_bind_i64(db, st, ":computed_nanos", f->computed_nanos);
	sb_bind_i64_opt(db, st, ":billed_nanos", f->has_billed, f->billed_nanos);
	sb_bind_i64_opt(db, st, ":drift_nanos", f->has_drift, f->drift_nanos);
	sb_bind_i64(db, st, ":recon_id", f->recon_id);
	sb_bind_i64(db, st, ":now_ms", sb_db_now_ms(db));
	sb_bind_i64(db, st, ":reopened", f->reopened);
	sb_bind_i64_opt(db, st, ":resolved_by_batch", f->resolved_by_batch != 0, f->resolved_by_batch);
	sb_bind_text_opt(db, st, ":reason", f->reason);
	sb_bind_text_opt(db, st, ":who", f->who);
	return sb_db_run(db, st, e);
}

/* Keep an event of flag id. */
static int event(sb_db *db, int64_t id, const char *action, const char *reason, const char *who,
                 int64_t recon_id, int64_t batch_id, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "flag_event_insert", e);

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":flag_id", id);
	sb_bind_i64(db, st, ":now_ms", sb_db_now_ms(db));
	sb_bind_text(db, st, ":action", action);
	sb_bind_text_opt(db, st, ":reason", reason);
	sb_bind_text_opt(db, st, ":who", who);
	sb_bind_i64_opt(db, st, ":recon_id", recon_id != 0, recon_id);
	sb_bind_i64_opt(db, st, ":batch_id", batch_id != 0, batch_id);
	return sb_db_run(db, st, e);
}

/* The newest batch that changed f's figures since the result that last
 * judged it: over its backend's window in r (its period when r holds no
 * such backend), 0 when a setting did or nothing. */
static int resolver(sb_db *db, const sb_recon *r, const sb_flag *f, int64_t *batch, sb_err *e)
{
	sb_period w = r->opts.period;

	for (size_t i = 0; i < r->n_backends; i++)
		if (strcmp(r->backends[i].backend, f->backend) == 0)
			w = r->backends[i].window;
	return sb_change_batch_since(db, f->recon_id, f->backend, w.from_ms, w.to_ms, batch, e);
}

/* One flagged thing of a result: the backend, or one of its sessions. */
typedef struct item {
	const char *backend;
	bool is_session;
	const char *session_id;
	sb_recon_status status;
	int64_t computed;
	bool has_billed;
	int64_t billed;
	bool has_drift;
	int64_t drift;
} item;

static bool same_text(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Whether flag f is the flag of x. */
static bool is_of(const sb_flag *f, const item *x)
{
	return strcmp(f->backend, x->backend) == 0 && f->is_session == x->is_session &&
	       same_text(f->session_id, x->session_id);
}

/* What moved between f's figures and x's, as "billed 0.1 -> 0.2" (NULL
 * when none did), malloc'd. */
static char *moved(const sb_flag *f, const item *x)
{
	char buf[512], a[SB_MONEY_BUFSZ], b[SB_MONEY_BUFSZ];
	size_t n = 0;

	buf[0] = '\0';
	if (f->status != x->status)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s -> %s", n > 0 ? ", " : "",
		                      sb_recon_status_name(f->status), sb_recon_status_name(x->status));
	if (f->computed_nanos != x->computed && n < sizeof buf)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%scomputed %s -> %s", n > 0 ? ", " : "",
		                      sb_money_format(f->computed_nanos, 6, a), sb_money_format(x->computed, 6, b));
	if ((f->has_billed != x->has_billed || f->billed_nanos != x->billed) && n < sizeof buf)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%sbilled %s -> %s", n > 0 ? ", " : "",
		                      f->has_billed ? sb_money_format(f->billed_nanos, 6, a) : "-",
		                      x->has_billed ? sb_money_format(x->billed, 6, b) : "-");
	if (n == 0 && (f->has_drift != x->has_drift || (x->has_drift && f->drift_nanos != x->drift)))
		n += (size_t)snprintf(buf, sizeof buf, "drift changed");
	return n > 0 ? strdup(buf) : NULL;
}

/* Copy x's figures into f. */
static void take_figures(sb_flag *f, const item *x, int64_t recon_id)
{
	f->status = x->status;
	f->computed_nanos = x->computed;
	f->has_billed = x->has_billed;
	f->billed_nanos = x->billed;
	f->has_drift = x->has_drift;
	f->drift_nanos = x->drift;
	f->recon_id = recon_id;
}

/* Append a copy of f to moves (when given), with what happened. */
static int tell(sb_flags *moves, sb_flag *f, sb_flag_move m, char **what, sb_err *e)
{
	sb_flag *t;

	if (moves == NULL)
		return SB_OK;
	if ((t = push(moves, e)) == NULL)
		return e->code;
	*t = *f;
	t->session_id = f->session_id != NULL ? strdup(f->session_id) : NULL;
	t->reason = f->reason != NULL ? strdup(f->reason) : NULL;
	t->who = f->who != NULL ? strdup(f->who) : NULL;
	t->what_changed = *what;
	*what = NULL;
	t->move = m;
	if ((f->session_id != NULL && t->session_id == NULL) || (f->reason != NULL && t->reason == NULL) ||
	    (f->who != NULL && t->who == NULL))
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	return SB_OK;
}

/* Raise, keep or reopen the flag of flagged item x of result r, given the
 * period's flags (matched ones marked in seen). */
static int judge_item(sb_db *db, const sb_recon *r, const item *x, sb_flags *have, bool *seen,
                      sb_flags *moves, sb_err *e)
{
	sb_flag fresh, *f = NULL;
	char *what = NULL;
	int64_t batch = 0;
	int rc;

	for (size_t i = 0; i < have->n && f == NULL; i++)
		if (is_of(&have->list[i], x)) {
			f = &have->list[i];
			seen[i] = true;
		}
	if (f == NULL || strcmp(f->state, "resolved") == 0) {
		sb_stmt *st;
		memset(&fresh, 0, sizeof fresh);
		if (f == NULL) {
			if ((st = sb_db_stmt(db, "flag_insert", e)) == NULL)
				return e->code;
			sb_bind_i64(db, st, ":from_ms", r->opts.period.from_ms);
			sb_bind_i64(db, st, ":to_ms", r->opts.period.to_ms);
			sb_bind_text(db, st, ":backend", x->backend);
			sb_bind_i64(db, st, ":is_session", x->is_session);
			sb_bind_text_opt(db, st, ":session_id", x->session_id);
			sb_bind_text(db, st, ":status", sb_recon_status_name(x->status));
			sb_bind_i64(db, st, ":computed_nanos", x->computed);
			sb_bind_i64_opt(db, st, ":billed_nanos", x->has_billed, x->billed);
			sb_bind_i64_opt(db, st, ":drift_nanos", x->has_drift, x->drift);
			sb_bind_i64(db, st, ":recon_id", r->recon_id);
			sb_bind_i64(db, st, ":now_ms", sb_db_now_ms(db));
			if (sb_db_run(db, st, e) != SB_OK)
				return e->code;
			fresh.id = sb_db_last_id(db);
			fresh.period = r->opts.period;
			snprintf(fresh.backend, sizeof fresh.backend, "%s", x->backend);
			fresh.is_session = x->is_session;
			fresh.session_id = (char *)x->session_id;   /* borrowed for tell's copy */
			fresh.opened_ms = fresh.updated_ms = sb_db_now_ms(db);
			f = &fresh;
		} else {
			f->handling[0] = '\0';
			f->reopened = false;
			f->resolved_by_batch = 0;
		}
		snprintf(f->state, sizeof f->state, "open");
		take_figures(f, x, r->recon_id);
		if ((f != &fresh && update(db, f, e) != SB_OK) ||
		    event(db, f->id, "raised", NULL, NULL, r->recon_id, 0, e) != SB_OK)
			return e->code;
		rc = tell(moves, f, SB_FLAG_RAISED, &what, e);
		if (f == &fresh)
			fresh.session_id = NULL;
		return rc;
	}
	if (strcmp(f->state, "handled") == 0) {
		if ((what = moved(f, x)) == NULL) {
			f->recon_id = r->recon_id;
			if (update(db, f, e) != SB_OK)
				return e->code;
			return tell(moves, f, SB_FLAG_KEPT, &what, e);
		}
		if (resolver(db, r, f, &batch, e) != SB_OK) {
			free(what);
			return e->code;
		}
		snprintf(f->state, sizeof f->state, "open");
		f->reopened = true;
		take_figures(f, x, r->recon_id);
		if (update(db, f, e) != SB_OK || event(db, f->id, "reopened", what, NULL, r->recon_id, batch, e) != SB_OK) {
			free(what);
			return e->code;
		}
		return tell(moves, f, SB_FLAG_REOPENED, &what, e);
	}
	take_figures(f, x, r->recon_id);   /* open: its figures as now judged */
	if (update(db, f, e) != SB_OK)
		return e->code;
	return tell(moves, f, SB_FLAG_STILL_OPEN, &what, e);
}

/* Resolve flag f, no longer flagged by result r. */
static int resolve(sb_db *db, const sb_recon *r, sb_flag *f, sb_flags *moves, sb_err *e)
{
	char *what = NULL;
	int64_t batch = 0;

	if (resolver(db, r, f, &batch, e) != SB_OK)
		return e->code;
	snprintf(f->state, sizeof f->state, "resolved");
	f->resolved_by_batch = batch;
	f->recon_id = r->recon_id;
	if (update(db, f, e) != SB_OK || event(db, f->id, "resolved", NULL, NULL, r->recon_id, batch, e) != SB_OK)
		return e->code;
	return tell(moves, f, SB_FLAG_RESOLVED, &what, e);
}

/* Whether backend b of r is judged at its grain. */
static bool at_grain(const sb_recon *r, const sb_recon_backend *b)
{
	return b->grain == SB_GRAIN_MONTH ? sb_period_one_month(&r->opts.period)
	                                  : sb_period_one_day(&r->opts.period);
}

int sb_flags_judge(sb_db *db, const sb_recon *r, sb_flags *moves, sb_err *e)
{
	sb_flags have = {NULL, 0, 0};
	bool *seen = NULL;

	if (!sb_period_one_day(&r->opts.period) && !sb_period_one_month(&r->opts.period))
		return SB_OK;
	if (list(db, 0, SB_FLAGS_ALL, &r->opts.period, true, &have, e) != SB_OK)
		goto out;
	if ((seen = calloc(have.n + 1, sizeof *seen)) == NULL) {
		sb_fail(e, SB_EINTERNAL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < r->n_backends; i++) {
		const sb_recon_backend *b = &r->backends[i];
		if (!at_grain(r, b))
			continue;
		if (b->flagged) {
			item x = {b->backend, false, NULL, b->status, b->computed_nanos, b->has_billed,
			          b->billed_nanos, b->has_drift, b->drift_nanos};
			if (judge_item(db, r, &x, &have, seen, moves, e) != SB_OK)
				goto out;
		}
		for (size_t k = 0; k < r->n_sessions; k++) {
			const sb_recon_session *s = &r->sessions[k];
			int64_t drift = 0;
			bool has_drift = s->has_billed && sb_money_sub(s->billed_nanos, s->computed_nanos, &drift) == SB_MONEY_OK;
			item x = {b->backend, true, s->session_id, s->status, s->computed_nanos, s->has_billed,
			          s->billed_nanos, has_drift, drift};
			if (!s->flagged || strcmp(s->backend, b->backend) != 0)
				continue;
			if (judge_item(db, r, &x, &have, seen, moves, e) != SB_OK)
				goto out;
		}
	}
	/* what is no longer flagged at its grain is resolved, and a backend
	 * that left the result (its runs taken out); a backend judged off its
	 * grain now (its grain changed) keeps the flag as it was judged */
	for (size_t i = 0; i < have.n; i++) {
		sb_flag *f = &have.list[i];
		const sb_recon_backend *b = NULL;
		if (seen[i] || strcmp(f->state, "resolved") == 0)
			continue;
		for (size_t k = 0; k < r->n_backends && b == NULL; k++)
			if (strcmp(r->backends[k].backend, f->backend) == 0)
				b = &r->backends[k];
		if ((b == NULL || at_grain(r, b)) && resolve(db, r, f, moves, e) != SB_OK)
			goto out;
	}
out:
	free(seen);
	sb_flags_free(&have);
	return e->code;
}

/* ---- handling ----------------------------------------------------------- */

int sb_flags_handle(sb_db *db, int64_t id, const char *action, const char *reason,
                    const char *who, sb_flag *out, sb_err *e)
{
	sb_flags one = {NULL, 0, 0};
	sb_flag *f;
	bool handle = strcmp(action, "ack") == 0 || strcmp(action, "waive") == 0 ||
	              strcmp(action, "dispute") == 0;
	char *keep_reason = NULL, *keep_who = NULL;

	if (!handle && strcmp(action, "resolve") != 0 && strcmp(action, "reopen") != 0)
		return sb_fail(e, SB_EUSAGE, "flags: no action '%s' (ack, waive, dispute, resolve, reopen)", action);
	if (strcmp(action, "reopen") != 0 && (reason == NULL || reason[0] == '\0'))
		return sb_fail(e, SB_EUSAGE, "flags %s: --reason TEXT is required (what was decided, for the audit)", action);
	if (sb_db_begin(db, e) != SB_OK)
		return e->code;
	if (list(db, id, SB_FLAGS_ALL, NULL, false, &one, e) != SB_OK)
		goto fail;
	if (one.n == 0) {
		sb_fail(e, SB_EDATA, "no flag %lld (sbledger flags --all lists them)", (long long)id);
		goto fail;
	}
	f = &one.list[0];
	if (handle && strcmp(f->state, "resolved") == 0) {
		sb_fail(e, SB_EDATA, "flag %lld is resolved; reopen it first ('flags reopen %lld')",
		        (long long)id, (long long)id);
		goto fail;
	}
	if (strcmp(action, "resolve") == 0 &&
	    (strcmp(f->state, "handled") != 0 || strcmp(f->handling, "dispute") != 0)) {
		sb_fail(e, SB_EDATA, "flag %lld is not disputed (it is %s%s%s): only a dispute is resolved by hand",
		        (long long)id, f->state, f->handling[0] != '\0' ? ", " : "", f->handling);
		goto fail;
	}
	if (strcmp(action, "reopen") == 0 &&
	    !(strcmp(f->state, "handled") == 0 || strcmp(f->handling, "resolved") == 0)) {
		sb_fail(e, SB_EDATA, "flag %lld is %s: only a handled flag or a resolved dispute is reopened",
		        (long long)id, f->state);
		goto fail;
	}
	if (reason != NULL && (keep_reason = strdup(reason)) == NULL) {
		sb_fail(e, SB_EINTERNAL, "out of memory");
		goto fail;
	}
	if (who != NULL && (keep_who = strdup(who)) == NULL) {
		free(keep_reason);
		sb_fail(e, SB_EINTERNAL, "out of memory");
		goto fail;
	}
	free(f->reason);
	free(f->who);
	f->reason = keep_reason;
	f->who = keep_who;
	if (handle) {
		snprintf(f->state, sizeof f->state, "handled");
		snprintf(f->handling, sizeof f->handling, "%s", action);
		f->reopened = false;
	} else if (strcmp(action, "resolve") == 0) {
		snprintf(f->state, sizeof f->state, "resolved");
		snprintf(f->handling, sizeof f->handling, "resolved");
	} else {
		snprintf(f->state, sizeof f->state, "open");
		f->handling[0] = '\0';
	}
	if (update(db, f, e) != SB_OK || event(db, f->id, action, reason, who, 0, 0, e) != SB_OK ||
	    sb_db_commit(db, e) != SB_OK)
		goto fail;
	if (out != NULL) {
		*out = *f;
		memset(f, 0, sizeof *f);
	}
	sb_flags_free(&one);
	return SB_OK;
fail:
	sb_db_rollback(db);
	sb_flags_free(&one);
	return e->code;
}
