/* reconcile.c: computed against billed (see reconcile.h). */
#include "reconcile/reconcile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/fx.h"
#include "ledger/money.h"
#include "ledger/rates.h"
#include "ledger/timefmt.h"

/* A per-backend tolerance. */
typedef struct tol {
	char backend[65];       /* backend id */
	int64_t abs_nanos;      /* absolute tolerance */
	int64_t rel_ppb;        /* relative tolerance */
} tol;

/* What the lines of one backend, or one session, add up to. */
typedef struct line_sums {
	bool has_billed;          /* a live non-Tax line of kind billed */
	int64_t billed_nanos;     /* their sum in USD */
	bool has_metered;         /* a live line of kind metered */
	int64_t metered_nanos;    /* their priced sum in USD */
	bool has_tax;             /* a Tax line */
	int64_t tax_nanos;        /* their sum in USD */
	bool currency;            /* a line had no exchange rate: left out */
	bool no_rate;             /* a metered line found no rate: left out */
	bool partial;             /* a line ends after the period */
} line_sums;

/* The lines of one session of a backend that bills per session. */
typedef struct session_lines {
	char *session_id;         /* the session */
	line_sums sums;           /* its lines */
} session_lines;

/* Everything gathered about one backend. */
typedef struct backend_acc {
	sb_recon_backend out;       /* the result */
	bool has_lines;             /* any live line in the period */
	line_sums lines;            /* their sums */
	session_lines *sessions;    /* lines naming sessions, by session */
	size_t n_sessions;
	size_t cap_sessions;
	bool has_own_billed;        /* runs' own billed_cost_usd: some not null */
	int64_t own_billed_nanos;
	bool has_fill_billed;       /* the same, of sessions with no billed line */
	int64_t fill_billed_nanos;
	bool has_fill_metered;      /* the same, of sessions with no metered line */
	int64_t fill_metered_nanos;
} backend_acc;

/* The reconciliation being built. */
typedef struct recon_ctx {
	sb_db *db;
	const sb_recon_opts *o;
	sb_rates *rates;            /* the rate cards */
	tol *tols;                  /* per-backend tolerances, by backend */
	size_t n_tols;
	backend_acc *accs;          /* the backends, by name */
	size_t n_accs;
	size_t cap_accs;
	sb_recon *r;                /* the result */
	size_t cap_sessions;        /* allocated r->sessions */
	sb_err *e;
} recon_ctx;

/* Make room for one more element of size bytes in list, which holds n of
 * *cap allocated (doubling, from 16).  Returns the list, moved perhaps, or
 * NULL with an error in c->e when out of memory (list is then untouched
 * and still the caller's). */
static void *grow(recon_ctx *c, void *list, size_t n, size_t *cap, size_t size)
{
	size_t ncap;
	void *more;

	if (n < *cap)
		return list;
	ncap = *cap ? 2 * *cap : 16;
	more = realloc(list, ncap * size);
	if (more == NULL) {
		sb_fail(c->e, SB_EINTERNAL, "out of memory");
		return NULL;
	}
	*cap = ncap;
	return more;
}

bool sb_recon_status_flagged(const char *status)
{
	return strcmp(status, "over_billed") == 0 || strcmp(status, "under_billed") == 0 ||
	       strcmp(status, "unexpected") == 0 || strcmp(status, "currency") == 0;
}

/* *acc += v, or an error on overflow. */
static bool add(recon_ctx *c, int64_t *acc, int64_t v)
{
	if (sb_money_add(*acc, v, acc) == SB_MONEY_OK)
		return true;
	sb_fail(c->e, SB_EDATA, "a sum of the reconciliation overflows 64-bit nanodollars");
	return false;
}

/* Load the tolerances and the rate cards. */
static int load_tables(recon_ctx *c)
{
	sqlite3_stmt *st;
	int rc;

	if ((st = sb_db_stmt(c->db, "tolerance_all", c->e)) == NULL)
		return c->e->code;
	while ((rc = sb_db_step(c->db, st, c->e)) == SQLITE_ROW) {
		tol *t = realloc(c->tols, (c->n_tols + 1) * sizeof *t);
		if (t == NULL)
			return sb_fail(c->e, SB_EINTERNAL, "out of memory");
		c->tols = t;
		t = &c->tols[c->n_tols++];
		snprintf(t->backend, sizeof t->backend, "%s", sb_col_text(st, 0));
		t->abs_nanos = sqlite3_column_int64(st, 1);
		t->rel_ppb = sqlite3_column_int64(st, 2);
	}
	sqlite3_reset(st);
	return rc < 0 ? c->e->code : sb_rates_load(c->db, &c->rates, c->e);
}

/* The accumulator of backend, added (in name order) when new. */
static backend_acc *acc_for(recon_ctx *c, const char *backend)
{
	size_t lo = 0, hi = c->n_accs;
	backend_acc *a, *accs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int cmp = strcmp(c->accs[mid].out.backend, backend);
		if (cmp == 0)
			return &c->accs[mid];
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if ((accs = grow(c, c->accs, c->n_accs, &c->cap_accs, sizeof *accs)) == NULL)
		return NULL;
	c->accs = accs;
	memmove(&c->accs[lo + 1], &c->accs[lo], (c->n_accs - lo) * sizeof *c->accs);
	c->n_accs++;
	a = &c->accs[lo];
	memset(a, 0, sizeof *a);
	snprintf(a->out.backend, sizeof a->out.backend, "%s", backend);
	a->out.abs_nanos = c->o->abs_nanos;
	a->out.rel_ppb = c->o->rel_ppb;
	for (size_t i = 0; i < c->n_tols; i++) {
		if (strcmp(c->tols[i].backend, backend) == 0) {
			a->out.abs_nanos = c->tols[i].abs_nanos;
			a->out.rel_ppb = c->tols[i].rel_ppb;
		}
	}
	return a;
}

/* The USD value of amount (in currency units x 10^9) at at_ms into *usd,
 * rounded half to even; false when the currency has no rate in force then,
 * or on a database error or when the value overflows 64-bit nanodollars
 * (c->e then holds the error). */
static bool to_usd(recon_ctx *c, const char *currency, int64_t amount, int64_t at_ms, int64_t *usd)
{
	int64_t rate = 0;
	bool found = false;

	if (strcmp(currency, "USD") == 0) {
		*usd = amount;
		return true;
	}
	if (sb_fx_rate_at(c->db, currency, at_ms, &found, &rate, c->e) != SB_OK || !found)
		return false;
	if (sb_div_round_even((__int128)amount * rate, SB_NANOS_PER_USD, usd) != SB_MONEY_OK) {
		sb_fail(c->e, SB_EDATA, "the USD value of a line in %s overflows 64-bit nanodollars", currency);
		return false;
	}
	return true;
}

/* The price of a metered line: vCPU-seconds and GiB-seconds at the rates
 * of the backend's card in force at the charge start, rounded half to even
 * once; false when a needed rate is missing, or when the price overflows
 * 64-bit nanodollars (c->e then holds the error). */
static bool price_metered(recon_ctx *c, const char *backend, int64_t at_ms, int64_t vcpu_ms,
                          int64_t memory_mb_ms, int64_t *usd)
{
	const sb_card *card = sb_rates_find(c->rates, backend, NULL, at_ms);
	__int128 cpu = 0, memory = 0, num = 0;

	if (card == NULL)
		return false;
	if (card->free) {
		*usd = 0;
		return true;
	}
	if ((vcpu_ms != 0 && !card->has_per_cpu_second) || (memory_mb_ms != 0 && !card->has_per_gb_second))
		return false;
	/* vcpu_ms / 1000 x cpu rate + memory_mb_ms / 1024 / 1000 x GiB rate;
	 * each product fits in 126 bits, the scaled sum may not */
	cpu = (__int128)vcpu_ms * card->per_cpu_second_nanos;
	memory = (__int128)memory_mb_ms * card->per_gb_second_nanos;
	if (__builtin_mul_overflow(cpu, (__int128)1024, &cpu) ||
	    __builtin_add_overflow(cpu, memory, &num) ||
	    sb_div_round_even(num, 1024000, usd) != SB_MONEY_OK) {
		sb_fail(c->e, SB_EDATA, "the price of a metered line of %s overflows 64-bit nanodollars",
		        backend);
		return false;
	}
	return true;
}

/* Add one line (the current row of recon_lines) to sums. */
static bool add_line(recon_ctx *c, sqlite3_stmt *st, line_sums *s)
{
	const char *backend = sb_col_text(st, 0);
	const char *kind = sb_col_text(st, 2);
	const char *currency = sb_col_text(st, 4);
	const char *category = sb_col_text(st, 5);
	int64_t start_ms = sqlite3_column_int64(st, 6);
	int64_t usd = 0;

	if (sqlite3_column_int64(st, 7) > c->o->period.to_ms)
		s->partial = true;
	if (strcmp(kind, "metered") == 0) {
		if (!price_metered(c, backend, start_ms, sqlite3_column_int64(st, 8),
		                   sqlite3_column_int64(st, 9), &usd)) {
			s->no_rate = true;
			return c->e->code == SB_OK;
		}
		s->has_metered = true;
		return add(c, &s->metered_nanos, usd);
	}
	if (!to_usd(c, currency != NULL ? currency : "USD", sqlite3_column_int64(st, 3), start_ms, &usd)) {
		s->currency = true;
		return c->e->code == SB_OK;
	}
	if (category != NULL && strcmp(category, "Tax") == 0) {
		s->has_tax = true;
		return add(c, &s->tax_nanos, usd);
	}
	s->has_billed = true;
	return add(c, &s->billed_nanos, usd);
}

/* The lines of the session of the current row in a's session list
 * (lines come ordered by session, so it is the last one or a new one). */
static session_lines *session_of(recon_ctx *c, backend_acc *a, const char *session_id)
{
	session_lines *s, *list;

	if (a->n_sessions > 0 && strcmp(a->sessions[a->n_sessions - 1].session_id, session_id) == 0)
		return &a->sessions[a->n_sessions - 1];
	if ((list = grow(c, a->sessions, a->n_sessions, &a->cap_sessions, sizeof *list)) == NULL)
		return NULL;
	a->sessions = list;
	s = &a->sessions[a->n_sessions];
	memset(s, 0, sizeof *s);
	if ((s->session_id = strdup(session_id)) == NULL) {
		sb_fail(c->e, SB_EINTERNAL, "out of memory");
		return NULL;
	}
	a->n_sessions++;
	return s;
}

/* Read the live lines of the period into the backends and sessions. */
static int read_lines(recon_ctx *c)
{
	sqlite3_stmt *st = sb_db_stmt(c->db, "recon_lines", c->e);
	int rc;

	if (st == NULL)
		return c->e->code;
	sb_bind_i64(c->db, st, ":from_ms", c->o->period.from_ms);
	sb_bind_i64(c->db, st, ":to_ms", c->o->period.to_ms);
	while ((rc = sb_db_step(c->db, st, c->e)) == SQLITE_ROW) {
		backend_acc *a = acc_for(c, sb_col_text(st, 0));
		session_lines *s = NULL;
		if (a == NULL || !add_line(c, st, &a->lines))
			break;
		a->has_lines = true;
		if (!sb_col_is_null(st, 1)) {
			if ((s = session_of(c, a, sb_col_text(st, 1))) == NULL || !add_line(c, st, &s->sums))
				break;
		}
	}
	sqlite3_reset(st);
	return c->e->code;
}

/* Read the runs of the period into the backends. */
static int read_runs(recon_ctx *c)
{
	sqlite3_stmt *st = sb_db_stmt(c->db, "recon_runs", c->e);
	int rc;

	if (st == NULL)
		return c->e->code;
	sb_bind_i64(c->db, st, ":from_ms", c->o->period.from_ms);
	sb_bind_i64(c->db, st, ":to_ms", c->o->period.to_ms);
	while ((rc = sb_db_step(c->db, st, c->e)) == SQLITE_ROW) {
		backend_acc *a = acc_for(c, sb_col_text(st, 0));
		sb_explain *x;
		int64_t ended;
		if (a == NULL)
			break;
		a->out.runs = sqlite3_column_int64(st, 1);
		a->out.sessions = sqlite3_column_int64(st, 2);
		a->out.exec_count = sqlite3_column_int64(st, 3);
		a->out.computed_nanos = sqlite3_column_int64(st, 4);
		a->has_own_billed = !sb_col_is_null(st, 5);
		a->own_billed_nanos = sqlite3_column_int64(st, 5);
		a->has_fill_billed = !sb_col_is_null(st, 6);
		a->fill_billed_nanos = sqlite3_column_int64(st, 6);
		a->has_fill_metered = !sb_col_is_null(st, 7);
		a->fill_metered_nanos = sqlite3_column_int64(st, 7);
		ended = sqlite3_column_int64(st, 8);
		x = &a->out.explain;
		x->has = ended > 0;
		x->exec_ms = sqlite3_column_int64(st, 9);
		x->lifetime_ms = sqlite3_column_int64(st, 10);
		x->has_lifetime_cost = x->has && sqlite3_column_int64(st, 12) == ended;
		x->lifetime_nanos = sqlite3_column_int64(st, 11);
		x->has_idle = x->has_lifetime_cost && sqlite3_column_int64(st, 14) == ended &&
		              sb_money_sub(x->lifetime_nanos, sqlite3_column_int64(st, 13),
		                           &x->idle_nanos) == SB_MONEY_OK;
	}
	sqlite3_reset(st);
	return c->e->code;
}

/* |drift| > max(abs, rel x base): the drift is flagged. */
static bool beyond(int64_t drift, int64_t base, int64_t abs_nanos, int64_t rel_ppb)
{
	__int128 mag = drift < 0 ? -(__int128)drift : (__int128)drift;

	return mag > abs_nanos && mag * SB_NANOS_PER_USD > (__int128)rel_ppb * (base < 0 ? -base : base);
}

/* The status of a backend or session (section 6, first that applies). */
static const char *judge(const line_sums *s, int64_t runs, bool free, bool has_billed,
                         int64_t billed, int64_t computed, int64_t abs_nanos, int64_t rel_ppb)
{
	int64_t drift;

	if (s->currency)
		return "currency";
	if (s->no_rate)
		return "no_rate";
	if (s->partial)
		return "partial";
	if (has_billed && billed > 0 && (runs == 0 || free))
		return "unexpected";
	if (computed > 0 && !has_billed)
		return "unbilled";
	if (has_billed && sb_money_sub(billed, computed, &drift) == SB_MONEY_OK &&
	    beyond(drift, computed, abs_nanos, rel_ppb))
		return drift > 0 ? "over_billed" : "under_billed";
	return "ok";
}

/* The verdict on a flagged drift: lifetime, rate or unexplained. */
static const char *verdict(const sb_recon_backend *b)
{
	const sb_explain *x = &b->explain;
	int64_t diff;

	if (x->has_lifetime_cost && sb_money_sub(b->billed_nanos, x->lifetime_nanos, &diff) == SB_MONEY_OK &&
	    !beyond(diff, x->lifetime_nanos, b->abs_nanos, b->rel_ppb))
		return "lifetime";
	if (x->has_card_rate && x->has_implied &&
	    sb_money_sub(x->implied_rate_nanos, x->card_rate_nanos, &diff) == SB_MONEY_OK &&
	    (__int128)(diff < 0 ? -diff : diff) * SB_NANOS_PER_USD > (__int128)b->rel_ppb * x->card_rate_nanos)
		return "rate";
	return "unexplained";
}

/* Settle one backend: its billed figure and basis, status, drift and explanation. */
static void settle_backend(recon_ctx *c, backend_acc *a)
{
	sb_recon_backend *b = &a->out;
	const sb_card *card_end = sb_rates_find(c->rates, b->backend, NULL, c->o->period.to_ms - 1);
	const sb_card *card_start = sb_rates_find(c->rates, b->backend, NULL, c->o->period.from_ms);
	sb_explain *x = &b->explain;
	int64_t drift;

	b->free = card_end != NULL && card_end->free;
	if (a->lines.has_billed) {
		b->basis = "billed";
		b->has_billed = true;
		b->billed_nanos = a->lines.billed_nanos;
		if (a->has_fill_billed && !add(c, &b->billed_nanos, a->fill_billed_nanos))
			return;
	} else if (a->lines.has_metered) {
		b->basis = "metered";
		b->has_billed = true;
		b->billed_nanos = a->lines.metered_nanos;
		if (a->has_fill_metered && !add(c, &b->billed_nanos, a->fill_metered_nanos))
			return;
	} else if (a->has_own_billed) {
		b->basis = "run";
		b->has_billed = true;
		b->billed_nanos = a->own_billed_nanos;
	}
	b->has_tax = a->lines.has_tax;
	b->tax_nanos = a->lines.tax_nanos;
	b->status = judge(&a->lines, b->runs, b->free, b->has_billed, b->billed_nanos,
	                  b->computed_nanos, b->abs_nanos, b->rel_ppb);
	b->has_drift_rel = b->has_billed && b->computed_nanos != 0 &&
	                   sb_money_sub(b->billed_nanos, b->computed_nanos, &drift) == SB_MONEY_OK &&
	                   sb_div_round_even((__int128)drift * 1000000, b->computed_nanos,
	                                     &b->drift_rel_micro) == SB_MONEY_OK;
	if (!x->has)
		return;
	x->has_card_rate = card_start != NULL;
	x->card_rate_nanos = card_start != NULL ? sb_card_rate_key(card_start) : 0;
	x->has_implied = b->has_billed && x->lifetime_ms > 0 &&
	                 sb_div_round_even((__int128)b->billed_nanos * 60000, x->lifetime_ms,
	                                   &x->implied_rate_nanos) == SB_MONEY_OK;
	if (strcmp(b->status, "over_billed") == 0 || strcmp(b->status, "under_billed") == 0)
		x->verdict = verdict(b);
}

/* Append a judged session to the result, when it is to be listed. */
static bool list_session(recon_ctx *c, const backend_acc *a, const char *session_id,
                         const line_sums *lines, int64_t runs, int64_t computed, bool has_billed,
                         int64_t billed)
{
	sb_recon *r = c->r;
	sb_recon_session *s, *list;
	const char *status = judge(lines, runs, a->out.free, has_billed, billed, computed,
	                           a->out.abs_nanos, a->out.rel_ppb);

	if (sb_recon_status_flagged(status))
		r->flagged++;
	if (strcmp(status, "ok") == 0 && !c->o->all_sessions)
		return true;
	if ((list = grow(c, r->sessions, r->n_sessions, &c->cap_sessions, sizeof *list)) == NULL)
		return false;
	r->sessions = list;
	s = &r->sessions[r->n_sessions];
	memset(s, 0, sizeof *s);
	if (session_id != NULL && (s->session_id = strdup(session_id)) == NULL) {
		sb_fail(c->e, SB_EINTERNAL, "out of memory");
		return false;
	}
	r->n_sessions++;
	snprintf(s->backend, sizeof s->backend, "%s", a->out.backend);
	s->status = status;
	s->runs = runs;
	s->computed_nanos = computed;
	s->has_billed = has_billed;
	s->billed_nanos = billed;
	return true;
}

/* Judge one session: its lines (NULL when none in the period) and runs. */
static bool judge_session(recon_ctx *c, const backend_acc *a, const char *session_id,
                          const session_lines *sl, int64_t runs, int64_t computed,
                          bool has_own, int64_t own, bool has_any_line)
{
	static const line_sums none;
	const line_sums *lines = sl != NULL ? &sl->sums : &none;
	bool has_billed = false;
	int64_t billed = 0;

	if (lines->has_billed) {
		has_billed = true;
		billed = lines->billed_nanos;
	} else if (lines->has_metered) {
		has_billed = true;
		billed = lines->metered_nanos;
	} else if (!has_any_line && has_own) {
		has_billed = true;
		billed = own;
	}
	return list_session(c, a, session_id, lines, runs, computed, has_billed, billed);
}

/* Judge every session of a backend whose lines name sessions: merge its
 * session lines (by session) with its runs per session (by session). */
static int judge_sessions(recon_ctx *c, const backend_acc *a)
{
	sqlite3_stmt *st = sb_db_stmt(c->db, "recon_sessions", c->e);
	size_t next = 0;
	int rc;

	if (st == NULL)
		return c->e->code;
	sb_bind_text(c->db, st, ":backend", a->out.backend);
	sb_bind_i64(c->db, st, ":from_ms", c->o->period.from_ms);
	sb_bind_i64(c->db, st, ":to_ms", c->o->period.to_ms);
	while ((rc = sb_db_step(c->db, st, c->e)) == SQLITE_ROW) {
		const char *sid = sb_col_text(st, 0);
		const session_lines *sl = NULL;
		/* sessions with lines but no runs, before this one */
		while (sid != NULL && next < a->n_sessions && strcmp(a->sessions[next].session_id, sid) < 0) {
			if (!judge_session(c, a, a->sessions[next].session_id, &a->sessions[next], 0, 0, false, 0, true))
				goto out;
			next++;
		}
		if (sid != NULL && next < a->n_sessions && strcmp(a->sessions[next].session_id, sid) == 0)
			sl = &a->sessions[next++];
		if (!judge_session(c, a, sid, sl, sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
		                   !sb_col_is_null(st, 3), sqlite3_column_int64(st, 3),
		                   sqlite3_column_int(st, 4) != 0))
			goto out;
	}
	for (; rc == SQLITE_DONE && next < a->n_sessions; next++)
		if (!judge_session(c, a, a->sessions[next].session_id, &a->sessions[next], 0, 0, false, 0, true))
			break;
out:
	sqlite3_reset(st);
	return c->e->code;
}

/* Free what the context holds (not the result). */
static void ctx_free(recon_ctx *c)
{
	for (size_t i = 0; i < c->n_accs; i++) {
		for (size_t k = 0; k < c->accs[i].n_sessions; k++)
			free(c->accs[i].sessions[k].session_id);
		free(c->accs[i].sessions);
	}
	free(c->accs);
	free(c->tols);
	sb_rates_free(c->rates);
}

void sb_recon_free(sb_recon *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->n_sessions; i++)
		free(r->sessions[i].session_id);
	free(r->sessions);
	free(r->backends);
	free(r);
}

int sb_reconcile(sb_db *db, const sb_recon_opts *opts, sb_recon **out, sb_err *e)
{
	recon_ctx c;
	sb_recon *r = calloc(1, sizeof *r);

	*out = NULL;
	if (r == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	memset(&c, 0, sizeof c);
	c.db = db;
	c.o = opts;
	c.r = r;
	c.e = e;
	r->opts = *opts;
	if (load_tables(&c) != SB_OK || read_lines(&c) != SB_OK || read_runs(&c) != SB_OK)
		goto fail;
	r->backends = calloc(c.n_accs > 0 ? c.n_accs : 1, sizeof *r->backends);
	if (r->backends == NULL) {
		sb_fail(e, SB_EINTERNAL, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < c.n_accs; i++) {
		backend_acc *a = &c.accs[i];
		settle_backend(&c, a);
		if (e->code != SB_OK)
			goto fail;
		if (sb_recon_status_flagged(a->out.status))
			r->flagged++;
		/* backends billed per session are judged per session too */
		if (a->n_sessions > 0 && judge_sessions(&c, a) != SB_OK)
			goto fail;
		r->backends[r->n_backends++] = a->out;
	}
	ctx_free(&c);
	*out = r;
	return SB_OK;
fail:
	ctx_free(&c);
	sb_recon_free(r);
	return e->code;
}

int sb_tolerance_set(sb_db *db, const char *backend, int64_t abs_nanos, int64_t rel_ppb,
                     sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "tolerance_set", e);

	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":backend", backend);
	sb_bind_i64(db, st, ":abs_nanos", abs_nanos);
	sb_bind_i64(db, st, ":rel_ppb", rel_ppb);
	sb_bind_i64(db, st, ":updated_ms", sb_now_ms());
	return sb_db_run(db, st, e);
}
