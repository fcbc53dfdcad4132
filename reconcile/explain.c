/* explain.c: the drift split into its parts (see explain.h and
 * docs/reconcile.md, "Explain").
 *
 * A backend's runs of its window (explain_runs), their executions
 * (explain_execs), its lines (explain_lines) and, for E2B, the execution
 * segments its events billed (explain_segments) are read once; each run
 * gets its card cost K, its life L at the card (K when it has no end),
 * its paused time (the gaps between its session's segments inside its
 * life) and, when every execution carries started_at, its idle time
 * before, between and after the commands.  The parts of a scope are sums
 * of those, with billed B and computed C as reconcile judged them.
 */
#include "reconcile/explain.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ledger/grow.h"
#include "ledger/money.h"
#include "ledger/timefmt.h"

/* How far around the window the segments of E2B's events are read: a
 * run that started in the window may have been paused and resumed on a
 * later day. */
#define SEGMENT_MARGIN_MS (INT64_C(7) * SB_MS_PER_DAY)

static const char *const rule_names[] = {
	[SB_MATCH_NONE] = "unmatched",
	[SB_MATCH_SESSION] = "session",
	[SB_MATCH_TIME] = "time",
};

const char *sb_match_rule_name(sb_match_rule rule)
{
	return rule_names[rule];
}

/* ---- the parts ------------------------------------------------------------ */

/* a - b into *out, false when it does not fit. */
static bool sub(int64_t a, int64_t b, int64_t *out)
{
	return sb_money_sub(a, b, out) == SB_MONEY_OK;
}

int sb_parts_settle(sb_parts *p, sb_err *e)
{
	int64_t ends = 0;

	p->settled = false;
	if (!p->priced || !p->has_billed)
		return SB_OK;
	if (!sub(p->card_cost, p->computed, &p->card) || !sub(p->lifetime, p->card_cost, &p->idle) ||
	    !sub(p->unpaused, p->lifetime, &p->paused) || !sub(p->billed, p->unpaused, &p->beyond) ||
	    (p->has_q && (!sub(p->q_card, p->unpaused, &p->metering) || !sub(p->billed, p->q_card, &p->price))))
		return sb_fail(e, SB_EDATA, "a part of the drift overflows 64-bit nanodollars");
	if (!p->has_q)
		p->metering = p->price = 0;
	p->has_split = p->ended > 0 && p->split_runs == p->ended;
	if (p->has_split) {
		/* before and after at the card, per run; between is the rest of
		 * idle (the commands' own rounding is in it) */
		if (sb_money_add(p->idle_before_nanos, p->idle_after_nanos, &ends) != SB_MONEY_OK ||
		    !sub(p->idle, ends, &p->idle_between))
			return sb_fail(e, SB_EDATA, "a part of the drift overflows 64-bit nanodollars");
		p->idle_before = p->idle_before_nanos;
		p->idle_after = p->idle_after_nanos;
	}
	p->settled = true;
	return SB_OK;
}

sb_verdict sb_parts_verdict(const sb_parts *p, int64_t drift, int64_t abs_nanos, int64_t rel_ppb)
{
	int64_t price, base;
	__int128 mag;

	if (!p->settled)
		return SB_VERDICT_NONE;
	if (!sb_recon_beyond(p->beyond, p->unpaused, abs_nanos, rel_ppb))
		return SB_VERDICT_LIFETIME;
	price = p->has_q ? p->price : p->beyond;
	base = p->has_q ? p->q_card : p->unpaused;
	mag = price < 0 ? -(__int128)price : price;
	if (base > 0 && mag * SB_NANOS_PER_USD > (__int128)rel_ppb * base && (price > 0) == (drift > 0))
		return SB_VERDICT_RATE;
	return SB_VERDICT_UNEXPLAINED;
}

/* Add run x to the figures of p (false on overflow). */
static bool parts_add_run(sb_parts *p, const sb_xrun *x)
{
	int64_t unpaused = 0;

	p->runs++;
	if (!x->has_card)
		p->priced = false;
	if (sb_money_add(p->computed, x->computed, &p->computed) != SB_MONEY_OK ||
	    sb_money_add(p->card_cost, x->card_cost, &p->card_cost) != SB_MONEY_OK ||
	    sb_money_add(p->lifetime, x->lifetime, &p->lifetime) != SB_MONEY_OK ||
	    sb_money_add(x->lifetime, x->paused, &unpaused) != SB_MONEY_OK ||
	    sb_money_add(p->unpaused, unpaused, &p->unpaused) != SB_MONEY_OK)
		return false;
	p->exec_ms += x->exec_ms;
	if (!x->has_ended)
		return true;
	p->ended++;
	p->lifetime_ms += x->ended_ms - x->started_ms;
	p->paused_ms += x->paused_ms;
	if (x->has_split) {
		p->split_runs++;
		p->before_ms += x->before_ms;
		p->between_ms += x->between_ms;
		p->after_ms += x->after_ms;
		if (sb_money_add(p->idle_before_nanos, x->idle_before, &p->idle_before_nanos) != SB_MONEY_OK ||
		    sb_money_add(p->idle_after_nanos, x->idle_after, &p->idle_after_nanos) != SB_MONEY_OK)
			return false;
	}
	return true;
}

/* ---- reading a backend ------------------------------------------------------ */

/* A segment of a session billed by E2B's events. */
typedef struct segment {
	char *session_id;
	int64_t start_ms, end_ms;
} segment;

/* What one backend's reading holds. */
typedef struct reader {
	sb_db *db;
	const sb_rates *rates;
	const sb_recon_backend *b;
	sb_xbackend *x;
	size_t cap_runs, cap_execs, cap_lines;
	int64_t *rids;              /* the runs' row ids, as x->runs */
	size_t cap_rids;
	segment *segs;
	size_t n_segs, cap_segs;
	bool want_execs;            /* keep the executions (explain), not only their times */
	sb_err *e;
} reader;

static char *dup_col(sb_stmt *st, int col, bool *ok)
{
	char *s;

	if (sb_col_is_null(st, col))
		return NULL;
	if ((s = strdup(sb_col_text(st, col))) == NULL)
		*ok = false;
	return s;
}

static int oom(sb_err *e)
{
	return sb_fail(e, SB_EINTERNAL, "out of memory");
}

/* The segments of the backend's sessions around its window. */
static int read_segments(reader *rd)
{
	sb_stmt *st = sb_db_stmt(rd->db, "explain_segments", rd->e);
	int rc;

	if (st == NULL)
		return rd->e->code;
	sb_bind_text(rd->db, st, ":backend", rd->b->backend);
	sb_bind_i64(rd->db, st, ":lo_ms", rd->b->window.from_ms - SEGMENT_MARGIN_MS);
	sb_bind_i64(rd->db, st, ":hi_ms", rd->b->window.to_ms + SEGMENT_MARGIN_MS);
	while ((rc = sb_db_step(rd->db, st, rd->e)) == SB_ROW) {
		bool ok = true;
		segment *s;
		if (sb_grow((void **)&rd->segs, rd->n_segs, &rd->cap_segs, sizeof *rd->segs, rd->e) != SB_OK)
			break;
		s = &rd->segs[rd->n_segs];
		s->session_id = dup_col(st, 0, &ok);
		if (!ok) {
			oom(rd->e);
			break;
		}
		rd->n_segs++;
		s->start_ms = sb_col_i64(st, 1);
		s->end_ms = sb_col_i64(st, 2);
	}
	sb_stmt_reset(st);
	return rd->e->code;
}

static int64_t overlap(int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
	int64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/* The paused time of a run: the gaps between its session's segments
 * (the time between one segment's end and the next one's start) inside
 * its life. */
static int64_t paused_ms_of(const reader *rd, const sb_xrun *x)
{
	int64_t ms = 0, last_end = 0;
	bool open = false;

	if (x->session_id == NULL || !x->has_ended)
		return 0;
	for (size_t i = 0; i < rd->n_segs; i++) {
		const segment *s = &rd->segs[i];
		if (strcmp(s->session_id, x->session_id) != 0)
			continue;
		if (open && s->start_ms > last_end)
			ms += overlap(last_end, s->start_ms, x->started_ms, x->ended_ms);
		if (!open || s->end_ms > last_end)
			last_end = s->end_ms;
		open = true;
	}
	return ms;
}

/* The statement NAME with the backend and its window bound (the
 * explain_* queries' three parameters); NULL on failure (rd->e set). */
static sb_stmt *window_stmt(reader *rd, const char *name)
{
	sb_stmt *st = sb_db_stmt(rd->db, name, rd->e);

	if (st != NULL) {
		sb_bind_text(rd->db, st, ":backend", rd->b->backend);
		sb_bind_i64(rd->db, st, ":from_ms", rd->b->window.from_ms);
		sb_bind_i64(rd->db, st, ":to_ms", rd->b->window.to_ms);
	}
	return st;
}

/* Read the runs of the window into rd->x->runs. */
static int read_runs(reader *rd)
{
	sb_stmt *st = window_stmt(rd, "explain_runs");
	sb_xbackend *x = rd->x;
	int rc;

	if (st == NULL)
		return rd->e->code;
	while ((rc = sb_db_step(rd->db, st, rd->e)) == SB_ROW) {
		bool ok = true;
		const sb_card *card;
		const char *plan = sb_col_is_null(st, 3) ? NULL : sb_col_text(st, 3);
		sb_xrun *r;
		if (sb_grow((void **)&x->runs, x->n_runs, &rd->cap_runs, sizeof *x->runs, rd->e) != SB_OK ||
		    sb_grow((void **)&rd->rids, x->n_runs, &rd->cap_rids, sizeof *rd->rids, rd->e) != SB_OK)
			break;
		r = &x->runs[x->n_runs];
		memset(r, 0, sizeof *r);
		rd->rids[x->n_runs] = sb_col_i64(st, 0);
		r->run_id = dup_col(st, 1, &ok);
		r->session_id = dup_col(st, 2, &ok);
		x->n_runs++;
		if (!ok) {
			oom(rd->e);
			break;
		}
		r->started_ms = sb_col_i64(st, 4);
		r->has_ended = !sb_col_is_null(st, 5);
		r->ended_ms = sb_col_i64(st, 5);
		r->exec_ms = sb_col_i64(st, 6);
		r->exec_count = sb_col_i64(st, 7);
		r->computed = sb_col_i64(st, 8);
		r->has_card = !sb_col_is_null(st, 9);
		r->card_cost = sb_col_i64(st, 9);
		/* a run with no end counts its commands only */
		r->lifetime = r->has_ended && !sb_col_is_null(st, 10) ? sb_col_i64(st, 10) : r->card_cost;
		card = sb_rates_find(rd->rates, rd->b->backend, plan, r->started_ms);
		r->rate = card != NULL ? sb_card_rate_key(card) : 0;
		r->paused_ms = paused_ms_of(rd, r);
		if (r->paused_ms > 0 && card != NULL) {
			int64_t cost = 0;
			if (sb_card_cost_for_ms(card, r->paused_ms, &cost) != SB_MONEY_OK) {
				sb_fail(rd->e, SB_EDATA, "the paused time of run %s overflows 64-bit nanodollars", r->run_id);
				break;
			}
			r->paused = -cost;
		}
	}
	sb_stmt_reset(st);
	return rd->e->code;
}

/* The started_at an execution's kept fields carry (RFC 3339, or whole
 * Unix seconds), into *ms; false when it has none that reads. */
static bool exec_start(const char *extra, int64_t *ms)
{
	json_t *o, *v;
	bool ok = false;

	if (extra == NULL || (o = json_loads(extra, 0, NULL)) == NULL)
		return false;
	v = json_object_get(o, "started_at");
	if (json_is_string(v))
		ok = sb_time_parse(json_string_value(v), json_string_length(v), 0, ms) == SB_TIME_OK;
	else if (json_is_integer(v) && json_integer_value(v) > SB_TIME_MIN_MS / 1000 &&
	         json_integer_value(v) < SB_TIME_MAX_MS / 1000) {
		*ms = (int64_t)json_integer_value(v) * 1000;
		ok = true;
	}
	json_decref(o);
	return ok;
}

/* Split the idle time of run r whose executions are execs[0..n) (in the
 * order recorded), when each carries started_at: before the first
 * start, the gaps between one's end and the next one's start (by start),
 * after the last end. */
static void split_idle(const reader *rd, sb_xrun *r, const sb_xexec *execs, size_t n, bool all_start)
{
	int64_t first = INT64_MAX, last_end = INT64_MIN;

	(void)rd;
	if (!r->has_ended || n == 0 || !all_start || (int64_t)n != r->exec_count)
		return;
	for (size_t i = 0; i < n; i++) {
		int64_t end = execs[i].started_ms + (execs[i].duration_ms > 0 ? execs[i].duration_ms : 0);
		if (execs[i].started_ms < first)
			first = execs[i].started_ms;
		if (end > last_end)
			last_end = end;
	}
	r->has_split = true;
	r->before_ms = first > r->started_ms ? first - r->started_ms : 0;
	r->after_ms = r->ended_ms > last_end ? r->ended_ms - last_end : 0;
	r->between_ms = (r->ended_ms - r->started_ms) - r->exec_ms - r->before_ms - r->after_ms;
	if (r->rate > 0) {
		__int128 num;
		num = (__int128)r->rate * r->before_ms;
		(void)sb_div_round_even(num, 60000, &r->idle_before);
		num = (__int128)r->rate * r->after_ms;
		(void)sb_div_round_even(num, 60000, &r->idle_after);
	}
}

/* Read the executions of the runs, in their order, splitting each run's
 * idle time; kept in x->execs when rd->want_execs. */
static int read_execs(reader *rd)
{
	sb_stmt *st = window_stmt(rd, "explain_execs");
	sb_xbackend *x = rd->x;
	size_t run = 0, first = 0;
	bool all_start = true;
	sb_xexec *tmp = NULL;
	size_t n_tmp = 0, cap_tmp = 0;
	int rc;

	if (st == NULL)
		return rd->e->code;
	while ((rc = sb_db_step(rd->db, st, rd->e)) == SB_ROW) {
		int64_t rid = sb_col_i64(st, 0);
		sb_xexec *c;
		bool ok = true;
		while (run < x->n_runs && rd->rids[run] != rid) {
			split_idle(rd, &x->runs[run], tmp + first, n_tmp - first, all_start);
			if (!rd->want_execs)
				n_tmp = 0;
			first = n_tmp;
			all_start = true;
			run++;
		}
		if (run == x->n_runs)
			break;      /* a run committed between the two reads: left out */
		if (sb_grow((void **)&tmp, n_tmp, &cap_tmp, sizeof *tmp, rd->e) != SB_OK)
			break;
		c = &tmp[n_tmp++];
		memset(c, 0, sizeof *c);
		c->run = run;
		c->command = rd->want_execs ? dup_col(st, 1, &ok) : NULL;
		if (!ok) {
			oom(rd->e);
			break;
		}
		c->duration_ms = sb_col_i64(st, 2);
		c->has_cost = !sb_col_is_null(st, 3);
		c->cost = sb_col_i64(st, 3);
		c->has_start = exec_start(sb_col_is_null(st, 4) ? NULL : sb_col_text(st, 4), &c->started_ms);
		all_start = all_start && c->has_start;
	}
	if (rd->e->code == SB_OK && run < x->n_runs)
		split_idle(rd, &x->runs[run], tmp + first, n_tmp - first, all_start);
	sb_stmt_reset(st);
	if (rd->want_execs) {
		x->execs = tmp;
		x->n_execs = n_tmp;
	} else {
		free(tmp);
	}
	return rd->e->code;
}

/* Whether unit is one of time: minutes (*per 1) or seconds (*per 60). */
static bool time_unit(const char *unit, int64_t *per)
{
	static const char *const minutes[] = {"minute", "minutes", "min", "mins", "m"};
	static const char *const seconds[] = {"second", "seconds", "sec", "secs", "s"};

	if (unit == NULL)
		return false;
	for (size_t i = 0; i < sizeof minutes / sizeof minutes[0]; i++) {
		if (strcasecmp(unit, minutes[i]) == 0) {
			*per = 1;
			return true;
		}
		if (strcasecmp(unit, seconds[i]) == 0) {
			*per = 60;
			return true;
		}
	}
	return false;
}

/* A line's quantity at the backend's default card in force at its
 * start: quantity (minutes, or seconds / 60) x usd_per_minute, rounded
 * half to even once. */
static bool line_q(const reader *rd, sb_xline *l)
{
	const sb_card *card;
	int64_t per = 0, q = 0;

	if (l->quantity == NULL || !time_unit(l->unit, &per) ||
	    sb_money_parse(l->quantity, strlen(l->quantity), &q) != SB_MONEY_OK ||
	    (card = sb_rates_find(rd->rates, rd->b->backend, NULL, l->start_ms)) == NULL)
		return false;
	return sb_div_round_even((__int128)q * sb_card_rate_key(card), SB_NANOS_PER_USD * per, &l->q_card) ==
	       SB_MONEY_OK && sb_div_round_even(q, per, &l->q_minutes) == SB_MONEY_OK;
}

/* Read the lines of the window into rd->x->lines. */
static int read_lines(reader *rd)
{
	sb_stmt *st = window_stmt(rd, "explain_lines");
	sb_xbackend *x = rd->x;
	int rc;

	if (st == NULL)
		return rd->e->code;
	while ((rc = sb_db_step(rd->db, st, rd->e)) == SB_ROW) {
		bool ok = true;
		sb_xline *l;
		if (sb_grow((void **)&x->lines, x->n_lines, &rd->cap_lines, sizeof *x->lines, rd->e) != SB_OK)
			break;
		l = &x->lines[x->n_lines++];
		memset(l, 0, sizeof *l);
		l->lid = sb_col_i64(st, 0);
		l->format = dup_col(st, 1, &ok);
		l->line_key = dup_col(st, 2, &ok);
		l->session_id = dup_col(st, 3, &ok);
		l->kind = dup_col(st, 4, &ok);
		l->has_amount = !sb_col_is_null(st, 5);
		l->amount = sb_col_i64(st, 5);
		l->currency = dup_col(st, 6, &ok);
		l->category = dup_col(st, 7, &ok);
		l->start_ms = sb_col_i64(st, 8);
		l->end_ms = sb_col_i64(st, 9);
		l->quantity = dup_col(st, 10, &ok);
		l->unit = dup_col(st, 11, &ok);
		if (!ok) {
			oom(rd->e);
			break;
		}
		l->has_q = line_q(rd, l);
	}
	sb_stmt_reset(st);
	return rd->e->code;
}

/* A line that counts toward billed: of kind billed, not Tax. */
static bool bills(const sb_xline *l)
{
	return l->kind != NULL && strcmp(l->kind, "billed") == 0 &&
	       (l->category == NULL || strcmp(l->category, "Tax") != 0);
}

/* Q of the lines idx[0..n) (all of x->lines when idx is NULL) into p:
 * known when every line that bills states a time quantity, is in USD,
 * and the lines' sum is B (no run's own figure fills it). */
static void parts_q(sb_parts *p, const sb_xbackend *x, const size_t *idx, size_t n)
{
	int64_t sum = 0, q = 0, minutes = 0;
	size_t billing = 0;

	p->has_q = false;
	for (size_t k = 0; k < n; k++) {
		const sb_xline *l = &x->lines[idx != NULL ? idx[k] : k];
		if (!bills(l))
			continue;
		billing++;
		if (!l->has_q || l->currency == NULL || strcmp(l->currency, "USD") != 0 ||
		    sb_money_add(sum, l->amount, &sum) != SB_MONEY_OK ||
		    sb_money_add(q, l->q_card, &q) != SB_MONEY_OK ||
		    sb_money_add(minutes, l->q_minutes, &minutes) != SB_MONEY_OK)
			return;
	}
	if (billing == 0 || !p->has_billed || sum != p->billed)
		return;
	p->has_q = true;
	p->q_card = q;
	p->q_minutes = minutes;
}

/* Read one backend (runs, executions when want_execs, lines, segments). */
static int read_backend(sb_db *db, const sb_rates *rates, const sb_recon_backend *b, bool want_execs,
                        sb_xbackend *x, sb_err *e)
{
	reader rd;

	memset(&rd, 0, sizeof rd);
	rd.db = db;
	rd.rates = rates;
	rd.b = b;
	rd.x = x;
	rd.want_execs = want_execs;
	rd.e = e;
	x->b = b;
	if (read_segments(&rd) == SB_OK && read_runs(&rd) == SB_OK && read_execs(&rd) == SB_OK)
		read_lines(&rd);
	for (size_t i = 0; i < rd.n_segs; i++)
		free(rd.segs[i].session_id);
	free(rd.segs);
	free(rd.rids);
	return e->code;
}

/* The parts of the whole backend from x's runs and lines. */
static int backend_parts(const sb_xbackend *x, const sb_recon_backend *b, sb_parts *p, sb_err *e)
{
	memset(p, 0, sizeof *p);
	p->priced = true;
	for (size_t i = 0; i < x->n_runs; i++)
		if (!parts_add_run(p, &x->runs[i]))
			return sb_fail(e, SB_EDATA, "a figure of the explanation overflows 64-bit nanodollars");
	p->computed = b->computed_nanos;
	p->has_billed = b->has_billed;
	p->billed = b->billed_nanos;
	if (b->basis == SB_RBASIS_BILLED)
		parts_q(p, x, NULL, x->n_lines);
	return sb_parts_settle(p, e);
}

static void xrun_free(sb_xrun *r)
{
	free(r->run_id);
	free(r->session_id);
}

static void xline_free(sb_xline *l)
{
	free(l->format);
	free(l->line_key);
	free(l->session_id);
	free(l->kind);
	free(l->currency);
	free(l->category);
	free(l->quantity);
	free(l->unit);
}

static void commands_free(sb_xcommand *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(c[i].text);
	free(c);
}

static void xbackend_free(sb_xbackend *x)
{
	for (size_t i = 0; i < x->n_runs; i++)
		xrun_free(&x->runs[i]);
	free(x->runs);
	for (size_t i = 0; i < x->n_execs; i++)
		free(x->execs[i].command);
	free(x->execs);
	for (size_t i = 0; i < x->n_lines; i++)
		xline_free(&x->lines[i]);
	free(x->lines);
	for (size_t i = 0; i < x->n_sessions; i++) {
		free(x->sessions[i].runs);
		free(x->sessions[i].lines);
		commands_free(x->sessions[i].commands, x->sessions[i].n_commands);
	}
	free(x->sessions);
	commands_free(x->commands, x->n_commands);
}

int sb_xparts_backend(sb_db *db, const sb_rates *rates, const sb_recon_backend *b, bool per_session,
                      sb_parts *out, sb_err *e)
{
	sb_xbackend x;

	(void)per_session;
	memset(&x, 0, sizeof x);
	memset(out, 0, sizeof *out);
	if (read_backend(db, rates, b, false, &x, e) == SB_OK)
		backend_parts(&x, b, out, e);
	xbackend_free(&x);
	return e->code;
}

/* ---- explaining --------------------------------------------------------- */

/* Whether two session ids (NULL: none) are the same. */
static bool same_session(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

/* qsort: commands by cost (unknown last), then time, then text. */
static int by_cost(const void *pa, const void *pb)
{
	const sb_xcommand *a = pa, *b = pb;

	if (a->has_cost != b->has_cost)
		return a->has_cost ? -1 : 1;
	if (a->has_cost && a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	if (a->duration_ms != b->duration_ms)
		return a->duration_ms > b->duration_ms ? -1 : 1;
	if (a->text == NULL || b->text == NULL)
		return (a->text != NULL) - (b->text != NULL);
	return strcmp(a->text, b->text);
}

/* The costliest commands of the executions of the runs in_scope marks
 * (NULL: every run), summed per text, at most top, into *out (*n of them). */
static int commands_of(const sb_xbackend *x, const bool *in_scope, size_t top, sb_xcommand **out,
                       size_t *n, sb_err *e)
{
	sb_xcommand *list = NULL;
	size_t n_list = 0, cap = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < x->n_execs; i++) {
		const sb_xexec *c = &x->execs[i];
		size_t k;
		if (in_scope != NULL && !in_scope[c->run])
			continue;
		for (k = 0; k < n_list && !same_session(list[k].text, c->command); k++)
			;
		if (k == n_list) {
			if (sb_grow((void **)&list, n_list, &cap, sizeof *list, e) != SB_OK)
				goto fail;
			memset(&list[k], 0, sizeof list[k]);
			list[k].has_cost = true;
			if (c->command != NULL && (list[k].text = strdup(c->command)) == NULL) {
				oom(e);
				goto fail;
			}
			n_list++;
		}
		list[k].execs++;
		list[k].duration_ms += c->duration_ms;
		list[k].has_cost = list[k].has_cost && c->has_cost;
		if (c->has_cost && sb_money_add(list[k].cost, c->cost, &list[k].cost) != SB_MONEY_OK) {
			sb_fail(e, SB_EDATA, "a command's cost overflows 64-bit nanodollars");
			goto fail;
		}
	}
	if (n_list > 1)
		qsort(list, n_list, sizeof *list, by_cost);
	while (n_list > top)
		free(list[--n_list].text);
	*out = list;
	*n = n_list;
	return SB_OK;
fail:
	commands_free(list, n_list);
	return e->code;
}

/* Whether run r overlaps line l's charge period (a run with no end is its
 * command time; a period of no length counts as its first ms). */
static bool run_overlaps(const sb_xrun *r, const sb_xline *l)
{
	int64_t end = r->has_ended ? r->ended_ms : r->started_ms + (r->exec_ms > 0 ? r->exec_ms : 0);
	int64_t lend = l->end_ms > l->start_ms ? l->end_ms : l->start_ms + 1;

	if (end <= r->started_ms)
		end = r->started_ms + 1;
	return r->started_ms < lend && end > l->start_ms;
}

/* Match each line to runs, and total the provider-only lines and the
 * ours-only runs. */
static void match(sb_xbackend *x, bool *run_matched)
{
	for (size_t i = 0; i < x->n_lines; i++) {
		sb_xline *l = &x->lines[i];
		for (size_t k = 0; k < x->n_runs; k++) {
			const sb_xrun *r = &x->runs[k];
			bool hit = l->session_id != NULL ? same_session(l->session_id, r->session_id)
			                                 : run_overlaps(r, l);
			if (hit) {
				l->matched_runs++;
				run_matched[k] = true;
			}
		}
		l->rule = l->matched_runs == 0 ? SB_MATCH_NONE
		          : l->session_id != NULL ? SB_MATCH_SESSION : SB_MATCH_TIME;
		if (l->rule == SB_MATCH_NONE && bills(l) && l->currency != NULL && strcmp(l->currency, "USD") == 0) {
			x->provider_only_lines++;
			(void)sb_money_add(x->provider_only, l->amount, &x->provider_only);
		} else if (l->rule == SB_MATCH_NONE) {
			x->provider_only_lines++;
		}
	}
	for (size_t k = 0; k < x->n_runs; k++) {
		if (run_matched[k])
			continue;
		x->ours_only_runs++;
		(void)sb_money_add(x->ours_only, x->runs[k].computed, &x->ours_only);
	}
}

/* Append index v to *list of *n. */
static bool push_index(size_t **list, size_t *n, size_t v)
{
	size_t *l = realloc(*list, (*n + 1) * sizeof **list);

	if (l == NULL)
		return false;
	l[(*n)++] = v;
	*list = l;
	return true;
}

/* The sessions of a per-session backend, from the reconciliation's list
 * (every session: it was judged with all_sessions), each with its runs,
 * lines, parts and commands. */
static int explain_sessions(sb_explained *out, sb_xbackend *x, const sb_explain_opts *o, bool *scope,
                            sb_err *e)
{
	const sb_recon *r = out->r;

	for (size_t i = 0; i < r->n_sessions; i++) {
		const sb_recon_session *rs = &r->sessions[i];
		sb_xsession *s, *list;
		if (strcmp(rs->backend, x->b->backend) != 0)
			continue;
		if (o->session != NULL && !same_session(o->session, rs->session_id))
			continue;
		if ((list = realloc(x->sessions, (x->n_sessions + 1) * sizeof *list)) == NULL)
			return oom(e);
		x->sessions = list;
		s = &x->sessions[x->n_sessions++];
		memset(s, 0, sizeof *s);
		s->session_id = rs->session_id;
		s->status = rs->status;
		s->parts.priced = true;
		memset(scope, 0, x->n_runs * sizeof *scope);
		for (size_t k = 0; k < x->n_runs; k++) {
			if (!same_session(x->runs[k].session_id, rs->session_id))
				continue;
			scope[k] = true;
			if (!push_index(&s->runs, &s->n_runs, k))
				return oom(e);
			if (!parts_add_run(&s->parts, &x->runs[k]))
				return sb_fail(e, SB_EDATA, "a figure of the explanation overflows 64-bit nanodollars");
		}
		for (size_t k = 0; k < x->n_lines; k++)
			if (x->lines[k].session_id != NULL && same_session(x->lines[k].session_id, rs->session_id) &&
			    !push_index(&s->lines, &s->n_lines, k))
				return oom(e);
		s->parts.computed = rs->computed_nanos;
		s->parts.has_billed = rs->has_billed;
		s->parts.billed = rs->billed_nanos;
		parts_q(&s->parts, x, s->lines, s->n_lines);
		s->provider_only = s->n_runs == 0 && s->n_lines > 0;
		s->ours_only = s->n_runs > 0 && s->n_lines == 0;
		if (sb_parts_settle(&s->parts, e) != SB_OK ||
		    commands_of(x, scope, o->top, &s->commands, &s->n_commands, e) != SB_OK)
			return e->code;
		if (rs->status == SB_STATUS_OVER_BILLED || rs->status == SB_STATUS_UNDER_BILLED)
			s->verdict = sb_parts_verdict(&s->parts, rs->billed_nanos - rs->computed_nanos,
			                              x->b->abs_nanos, x->b->rel_ppb);
	}
	return SB_OK;
}

/* Whether the backend's lines name sessions in the period (then it was
 * judged over the period, per session). */
static bool names_sessions(const sb_xbackend *x)
{
	for (size_t i = 0; i < x->n_lines; i++)
		if (x->lines[i].session_id != NULL)
			return true;
	return false;
}

int sb_explain_period(sb_db *db, const sb_explain_opts *o, sb_explained **out, sb_err *e)
{
	sb_explained *x = calloc(1, sizeof *x);
	sb_recon_opts ro = o->recon;
	sb_rates *rates = NULL;
	bool *scope = NULL;

	*out = NULL;
	if (x == NULL)
		return oom(e);
	ro.all_sessions = true;
	if (sb_reconcile(db, &ro, &x->r, e) != SB_OK || sb_rates_load(db, &rates, e) != SB_OK)
		goto fail;
	if ((x->backends = calloc(x->r->n_backends + 1, sizeof *x->backends)) == NULL) {
		oom(e);
		goto fail;
	}
	for (size_t i = 0; i < x->r->n_backends; i++) {
		const sb_recon_backend *b = &x->r->backends[i];
		sb_xbackend *xb;
		bool *sc;
		if (o->backend != NULL && strcmp(o->backend, b->backend) != 0)
			continue;
		xb = &x->backends[x->n_backends++];
		if (read_backend(db, rates, b, true, xb, e) != SB_OK || backend_parts(xb, b, &xb->parts, e) != SB_OK)
			goto fail;
		xb->per_session = names_sessions(xb);
		if ((sc = realloc(scope, (xb->n_runs + 1) * sizeof *scope)) == NULL) {
			oom(e);
			goto fail;
		}
		scope = sc;
		memset(scope, 0, (xb->n_runs + 1) * sizeof *scope);
		match(xb, scope);
		if (o->session == NULL && commands_of(xb, NULL, o->top, &xb->commands, &xb->n_commands, e) != SB_OK)
			goto fail;
		if (xb->per_session && explain_sessions(x, xb, o, scope, e) != SB_OK)
			goto fail;
	}
	free(scope);
	sb_rates_free(rates);
	*out = x;
	return SB_OK;
fail:
	free(scope);
	sb_rates_free(rates);
	sb_explained_free(x);
	return e->code;
}

void sb_explained_free(sb_explained *x)
{
	if (x == NULL)
		return;
	for (size_t i = 0; i < x->n_backends; i++)
		xbackend_free(&x->backends[i]);
	free(x->backends);
	sb_recon_free(x->r);
	free(x);
}
