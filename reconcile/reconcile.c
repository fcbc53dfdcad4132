/* reconcile.c: computed against billed (see reconcile.h and
 * docs/reconcile.md).
 *
 * Three passes over the ledger, each a streaming query:
 *   1. the account-level lines around the period (recon_grid), to find the
 *      backends billed on one grid off the UTC edges and their windows;
 *   2. the live lines of the period and those windows (recon_lines), summed
 *      per backend and per session;
 *   3. the runs (recon_runs), of the period for most backends and of its
 *      window for a backend judged over one.
 * Then each backend is settled (billed, basis, conditions, status, flag,
 * explanation) and, where its lines name sessions, each session judged.
 *
 * Longer than 600 lines on purpose: the three passes and the judging
 * share one context (the backends and sessions being summed, their
 * windows) that is private to this file; the parts are marked below
 * (statuses as data, the context, windows, lines, runs, judging).
 */
#include "reconcile/reconcile.h"
#include "reconcile/explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/changes.h"
#include "ledger/fx.h"
#include "ledger/grow.h"
#include "ledger/lines.h"
#include "ledger/money.h"
#include "ledger/names.h"
#include "ledger/rates.h"
#include "ledger/timefmt.h"

/* How far around the period the account-level lines are read to find a
 * backend's grid: a week each side, so that days without a line (a
 * weekend without usage) do not hide it. */
#define GRID_MARGIN_MS (INT64_C(7) * SB_MS_PER_DAY)

/* ---- statuses: names, precedence and flags (data) ----------------------- */

/* When a status is flagged. */
typedef enum { FLAG_NEVER, FLAG_ALWAYS, FLAG_AFTER_LAG } flag_rule;

/* The statuses, in the order of precedence: the first whose condition
 * holds wins; ok (no condition) when none does.  Each status has one row,
 * its name and when it is flagged. */
static const struct status_row {
	sb_recon_status status; /* the status */
	unsigned cond;          /* SB_COND_* that gives it (0: ok, the last) */
	const char *name;       /* its name in JSON, tables and the ledger */
	flag_rule flag;         /* when it is flagged */
} statuses[] = {
	{SB_STATUS_PENDING, SB_COND_PENDING, "pending", FLAG_NEVER},
	{SB_STATUS_CURRENCY, SB_COND_CURRENCY, "currency", FLAG_ALWAYS},
	{SB_STATUS_NO_RATE, SB_COND_NO_RATE, "no_rate", FLAG_ALWAYS},
	{SB_STATUS_PARTIAL, SB_COND_PARTIAL, "partial", FLAG_ALWAYS},
	{SB_STATUS_UNEXPECTED, SB_COND_UNEXPECTED, "unexpected", FLAG_ALWAYS},
	{SB_STATUS_UNBILLED, SB_COND_UNBILLED, "unbilled", FLAG_AFTER_LAG},
	{SB_STATUS_OVER_BILLED, SB_COND_OVER, "over_billed", FLAG_ALWAYS},
	{SB_STATUS_UNDER_BILLED, SB_COND_UNDER, "under_billed", FLAG_ALWAYS},
	{SB_STATUS_OK, 0, "ok", FLAG_NEVER},
};

#define N_STATUSES (sizeof statuses / sizeof statuses[0])

/* The row of status (every status has one). */
static const struct status_row *status_row(sb_recon_status status)
{
	size_t i = 0;

	while (i + 1 < N_STATUSES && statuses[i].status != status)
		i++;
	return &statuses[i];
}

sb_recon_status sb_recon_status_of(unsigned conds)
{
	size_t i = 0;

	while (statuses[i].cond != 0 && (conds & statuses[i].cond) == 0)
		i++;
	return statuses[i].status;
}

const char *sb_recon_status_name(sb_recon_status status)
{
	return status_row(status)->name;
}

int sb_recon_status_parse(const char *name, sb_recon_status *out, sb_err *e)
{
	const char *names[N_STATUSES];
	int i = 0;

	for (size_t k = 0; k < N_STATUSES; k++)
		names[k] = statuses[k].name;
	if (sb_name_parse(names, N_STATUSES, "a reconciliation status", name, &i, e) != SB_OK)
		return e->code;
	*out = statuses[i].status;
	return SB_OK;
}

bool sb_recon_flags(sb_recon_status status, int64_t window_to_ms, int64_t now_ms,
                    int64_t billing_lag_ms)
{
	const struct status_row *row = status_row(status);

	if (row->flag == FLAG_AFTER_LAG)
		return (__int128)now_ms - window_to_ms > billing_lag_ms;
	return row->flag == FLAG_ALWAYS;
}

/* The names of the bases and verdicts, by their enums (NONE has none). */
static const char *const basis_names[] = {
	[SB_RBASIS_NONE] = NULL,
	[SB_RBASIS_BILLED] = "billed",
	[SB_RBASIS_METERED] = "metered",
	[SB_RBASIS_RUN] = "run",
};
static const char *const verdict_names[] = {
	[SB_VERDICT_NONE] = NULL,
	[SB_VERDICT_LIFETIME] = "lifetime",
	[SB_VERDICT_RATE] = "rate",
	[SB_VERDICT_UNEXPLAINED] = "unexplained",
};

const char *sb_recon_basis_name(sb_recon_basis basis)
{
	return basis_names[basis];
}

const char *sb_verdict_name(sb_verdict verdict)
{
	return verdict_names[verdict];
}

int sb_recon_basis_parse(const char *name, sb_recon_basis *out, sb_err *e)
{
	int i = 0;

	if (sb_name_parse(SB_NAMES(basis_names), "a reconciliation basis", name, &i, e) != SB_OK)
		return e->code;
	*out = (sb_recon_basis)i;
	return SB_OK;
}

int sb_verdict_parse(const char *name, sb_verdict *out, sb_err *e)
{
	int i = 0;

	if (sb_name_parse(SB_NAMES(verdict_names), "a verdict", name, &i, e) != SB_OK)
		return e->code;
	*out = (sb_verdict)i;
	return SB_OK;
}

bool sb_recon_beyond(__int128 drift, int64_t base, int64_t abs_nanos, int64_t rel_ppb)
{
	__int128 mag = drift < 0 ? -drift : drift;

	/* |drift| > abs and |drift| > rel_ppb x base / 10^9, the second
	 * cross-multiplied: |drift| x 10^9 > rel_ppb x base (both sides fit:
	 * |drift| < 2^64, rel_ppb and base < 2^63) */
	return mag > abs_nanos && mag * SB_NANOS_PER_USD > (__int128)rel_ppb * base;
}

/* ---- the context -------------------------------------------------------- */

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
	bool partial;             /* an account-level line ends after the window */
} line_sums;

/* The lines of one session of a backend that bills per session. */
typedef struct session_lines {
	char *session_id;         /* the session */
	line_sums sums;           /* its lines */
} session_lines;

/* A backend whose account-level lines form one grid off the UTC edges. */
typedef struct grid_window {
	char backend[65];         /* backend id */
	sb_period window;         /* [first grid edge >= from, first grid edge >= to) */
	int64_t step;             /* SB_GRID_DAY_MS or SB_GRID_HOUR_MS */
	bool per_session;         /* it has lines naming sessions in the period: judged over the period after all */
	bool runs_read;           /* its runs are read */
} grid_window;

/* Everything gathered about one backend. */
typedef struct backend_acc {
	sb_recon_backend out;       /* the result */
	line_sums lines;            /* its lines in its window */
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
	const sb_recon_opts *o;     /* the options, now and lag resolved (r->opts) */
	sb_rates *rates;            /* the rate cards */
	tol *tols;                  /* per-backend tolerances, by backend */
	size_t n_tols;
	grid_window *windows;       /* backends judged over a grid's window, by backend */
	size_t n_windows;
	size_t cap_windows;
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
	return sb_grow(&list, n, cap, size, c->e) == SB_OK ? list : NULL;
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
	sb_stmt *st;
	int rc;

	if ((st = sb_db_stmt(c->db, "tolerance_all", c->e)) == NULL)
		return c->e->code;
	while ((rc = sb_db_step(c->db, st, c->e)) == SB_ROW) {
		tol *t = realloc(c->tols, (c->n_tols + 1) * sizeof *t);
		if (t == NULL) {
			sb_stmt_reset(st);
			return sb_fail(c->e, SB_EINTERNAL, "out of memory");
		}
		c->tols = t;
		t = &c->tols[c->n_tols++];
		snprintf(t->backend, sizeof t->backend, "%s", sb_col_text(st, 0));
		t->abs_nanos = sb_col_i64(st, 1);
		t->rel_ppb = sb_col_i64(st, 2);
	}
	sb_stmt_reset(st);
	return rc < 0 ? c->e->code : sb_rates_load(c->db, &c->rates, c->e);
}

/* ---- windows ------------------------------------------------------------ */

/* The grid being read from one backend's account-level lines, in order of
 * charge start (then end). */
typedef struct grid_scan {
	char backend[65];         /* backend id */
	bool one;                 /* the lines so far form one grid */
	bool any;                 /* a line of positive length was seen */
	int64_t step;             /* its step */
	int64_t cur_start;        /* the last start seen (lines sharing it must share its end) */
	int64_t cur_end;
	int n_phases;             /* distinct start phases (two at most: a DST change) */
	int64_t phases[2];
	bool has_lo[2];           /* per edge asked (0: from, 1: to): the latest line edge <= it */
	int64_t lo[2];
	bool has_hi[2];           /* and the earliest line edge >= it */
	int64_t hi[2];
} grid_scan;

/* x mod m in [0, m). */
static int64_t floor_mod(int64_t x, int64_t m)
{
	int64_t r = x % m;

	return r < 0 ? r + m : r;
}

/* Note a line edge x for the instants asked (the period's from and to). */
static void scan_edge(grid_scan *g, const sb_period *p, int64_t x)
{
	int64_t t[2] = {p->from_ms, p->to_ms};

	for (int k = 0; k < 2; k++) {
		if (x <= t[k] && (!g->has_lo[k] || x > g->lo[k])) {
			g->has_lo[k] = true;
			g->lo[k] = x;
		}
		if (x >= t[k] && (!g->has_hi[k] || x < g->hi[k])) {
			g->has_hi[k] = true;
			g->hi[k] = x;
		}
	}
}

/* Add one account-level line [s, e) to the grid scan (docs/reconcile.md,
 * "Windows"): a line of no length is an instant charge, left out of the
 * grid; the others must all be hours, or all days (24 hours, or 23 or 25
 * on a day the clocks change), the lines sharing a start must share their
 * end and no line may start inside another, and the starts have one phase
 * (time of the day, or of the hour), or, for days, two phases an hour
 * apart (standard and summer time). */
static void scan_line(grid_scan *g, const sb_period *p, int64_t s, int64_t e)
{
	int64_t len = e - s, step, phase;
	int i;

	if (!g->one || len == 0)
		return;
	if (len == SB_GRID_HOUR_MS)
		step = SB_GRID_HOUR_MS;
	else if (len == SB_GRID_DAY_MS || len == SB_GRID_DAY_MS - SB_GRID_HOUR_MS ||
	         len == SB_GRID_DAY_MS + SB_GRID_HOUR_MS)
		step = SB_GRID_DAY_MS;
	else
		step = 0;
	if (step == 0 || (g->any && step != g->step) ||
	    (g->any && s == g->cur_start && e != g->cur_end) ||
	    (g->any && s != g->cur_start && s < g->cur_end)) {
		g->one = false;
		return;
	}
	phase = floor_mod(s, step);
	for (i = 0; i < g->n_phases && g->phases[i] != phase; i++)
		;
	if (i == g->n_phases) {
		int64_t apart = g->n_phases == 1 ? floor_mod(phase - g->phases[0], SB_GRID_DAY_MS) : 0;
		if (g->n_phases == 2 || (g->n_phases == 1 && (step != SB_GRID_DAY_MS ||
		                         (apart != SB_GRID_HOUR_MS && apart != SB_GRID_DAY_MS - SB_GRID_HOUR_MS)))) {
			g->one = false;
			return;
		}
		g->phases[g->n_phases++] = phase;
	}
	g->any = true;
	g->step = step;
	g->cur_start = s;
	g->cur_end = e;
	scan_edge(g, p, s);
	scan_edge(g, p, e);
}

/* The first grid edge at or after the instant t asked as edge k: the
 * lines' own edges where they are, and between or beyond them the edges a
 * whole number of steps from the latest line edge before t (from the
 * earliest one after t when none is before); between two line edges, a
 * step that would end within half a step of the later edge ends on it
 * (the clocks changed in the gap). */
static int64_t grid_edge(const grid_scan *g, int k, int64_t t)
{
	int64_t x;

	if (g->has_lo[k]) {
		int64_t n = (t - g->lo[k] + g->step - 1) / g->step;
		x = g->lo[k] + n * g->step;
		if (g->has_hi[k] && x > g->hi[k] - g->step / 2)
			x = g->hi[k];
		return x;
	}
	return g->hi[k] - (g->hi[k] - t) / g->step * g->step;
}

/* The scan of one backend is complete: record its window when its lines
 * are one grid off the UTC edges and the window is not empty. */
static bool scan_done(recon_ctx *c, const grid_scan *g)
{
	const sb_period *p = &c->o->period;
	grid_window *w, *list;
	bool utc = true;
	sb_period win;

	if (!g->one || !g->any)
		return true;
	for (int i = 0; i < g->n_phases; i++)
		utc = utc && g->phases[i] == 0;
	if (utc)
		return true;
	win.from_ms = grid_edge(g, 0, p->from_ms);
	win.to_ms = grid_edge(g, 1, p->to_ms);
	if (win.to_ms <= win.from_ms)
		return true;          /* a period shorter than a step: judged as given */
	if ((list = grow(c, c->windows, c->n_windows, &c->cap_windows, sizeof *list)) == NULL)
		return false;
	c->windows = list;
	w = &c->windows[c->n_windows++];
	memset(w, 0, sizeof *w);
	snprintf(w->backend, sizeof w->backend, "%s", g->backend);
	w->window = win;
	w->step = g->step;
	return true;
}

/* Pass 1: the grids of the backends' account-level lines around the
 * period, into c->windows (by backend, as the query orders them). */
static int read_grids(recon_ctx *c)
{
	const sb_period *p = &c->o->period;
	sb_stmt *st = sb_db_stmt(c->db, "recon_grid", c->e);
	grid_scan g;
	bool open = false;
	int rc;

	if (st == NULL)
		return c->e->code;
	sb_bind_i64(c->db, st, ":lo_ms", p->from_ms - GRID_MARGIN_MS);
	sb_bind_i64(c->db, st, ":hi_ms", p->to_ms + GRID_MARGIN_MS);
	while ((rc = sb_db_step(c->db, st, c->e)) == SB_ROW) {
		const char *backend = sb_col_text(st, 0);
		if (!open || strcmp(g.backend, backend) != 0) {
			if (open && !scan_done(c, &g))
				break;
			memset(&g, 0, sizeof g);
			snprintf(g.backend, sizeof g.backend, "%s", backend);
			g.one = true;
			open = true;
		}
		scan_line(&g, p, sb_col_i64(st, 1), sb_col_i64(st, 2));
	}
	if (rc == SB_DONE && open)
		scan_done(c, &g);
	sb_stmt_reset(st);
	return c->e->code;
}

/* The grid window of backend, or NULL when it is judged over the period. */
static grid_window *window_of(recon_ctx *c, const char *backend)
{
	for (size_t i = 0; i < c->n_windows; i++)
		if (strcmp(c->windows[i].backend, backend) == 0)
			return &c->windows[i];
	return NULL;
}

/* What backend is judged over: its grid's window, or the period. */
static const sb_period *span_of(recon_ctx *c, const char *backend)
{
	grid_window *w = window_of(c, backend);

	return w != NULL && !w->per_session ? &w->window : &c->o->period;
}

/* ---- lines -------------------------------------------------------------- */

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
 * once; false when a needed rate is missing (*card_out then says which
 * card was in force, NULL for none), or when the price overflows 64-bit
 * nanodollars (c->e then holds the error). */
static bool price_metered(recon_ctx *c, const char *backend, int64_t at_ms, int64_t vcpu_ms,
                          int64_t memory_mb_ms, int64_t *usd, const sb_card **card_out)
{
	const sb_card *card = sb_rates_find(c->rates, backend, NULL, at_ms);
	__int128 cpu = 0, memory = 0, num = 0;

	*card_out = card;
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

/* Note a metered line that found no rate in the backend's result: what
 * would price it (the first such line's card). */
static void note_no_rate(sb_recon_backend *b, int64_t start_ms, int64_t vcpu_ms, int64_t memory_mb_ms,
                         const sb_card *card)
{
	sb_rate_fix *f = &b->rate_fix;

	if (f->lines++ == 0 || start_ms < f->first_ms) {
		f->first_ms = start_ms;
		f->has_card = card != NULL;
		if (card != NULL)
			f->card = *card;
		else
			memset(&f->card, 0, sizeof f->card);
	}
	f->need_cpu = f->need_cpu || (vcpu_ms != 0 && (card == NULL || !card->has_per_cpu_second));
	f->need_gb = f->need_gb || (memory_mb_ms != 0 && (card == NULL || !card->has_per_gb_second));
}

/* Add one line (the current row of recon_lines) to sums.  span_to is the
 * end of what the line is judged over (an account-level line ending after
 * it makes the sums partial; NULL for a session's line, which belongs to
 * the period holding its start whatever its end).  b, when not NULL, is
 * the backend's result, which keeps what the words need. */
static bool add_line(recon_ctx *c, sb_stmt *st, line_sums *s, const int64_t *span_to,
                     sb_recon_backend *b)
{
	const char *backend = sb_col_text(st, 0);
	sb_line_kind kind = SB_LINE_BILLED;
	const char *currency = sb_col_text(st, 4);
	const char *category = sb_col_text(st, 5);
	int64_t start_ms = sb_col_i64(st, 6);
	int64_t end_ms = sb_col_i64(st, 7);
	int64_t usd = 0;

	if (sb_line_kind_parse(sb_col_text(st, 2), &kind, c->e) != SB_OK)
		return false;
	if (span_to != NULL && end_ms > *span_to) {
		s->partial = true;
		if (b != NULL && end_ms > b->partial_end_ms)
			b->partial_end_ms = end_ms;
	}
	if (kind == SB_LINE_METERED) {
		const sb_card *card = NULL;
		int64_t vcpu_ms = sb_col_i64(st, 8), memory_mb_ms = sb_col_i64(st, 9);
		if (!price_metered(c, backend, start_ms, vcpu_ms, memory_mb_ms, &usd, &card)) {
			s->no_rate = true;
			if (b != NULL)
				note_no_rate(b, start_ms, vcpu_ms, memory_mb_ms, card);
			return c->e->code == SB_OK;
		}
		s->has_metered = true;
		return add(c, &s->metered_nanos, usd);
	}
	if (currency == NULL)
		currency = "USD";
	if (!to_usd(c, currency, sb_col_i64(st, 3), start_ms, &usd)) {
		s->currency = true;
		if (b != NULL && b->currency_lines++ == 0)
			snprintf(b->currency, sizeof b->currency, "%s", currency);
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

/* Whether t lies in [p->from_ms, p->to_ms). */
static bool inside(const sb_period *p, int64_t t)
{
	return t >= p->from_ms && t < p->to_ms;
}

/* Pass 2: the live lines of the period and of the grid windows, into the
 * backends and sessions.  A backend's lines naming sessions come before
 * its account-level lines: one of them in the period takes the backend
 * off its window before any account-level line is summed. */
static int read_lines(recon_ctx *c)
{
	const sb_period *p = &c->o->period;
	sb_stmt *st = sb_db_stmt(c->db, "recon_lines", c->e);
	int64_t to_ms = p->to_ms;
	int rc;

	if (st == NULL)
		return c->e->code;
	for (size_t i = 0; i < c->n_windows; i++)
		if (c->windows[i].window.to_ms > to_ms)
			to_ms = c->windows[i].window.to_ms;
	sb_bind_i64(c->db, st, ":from_ms", p->from_ms);
	sb_bind_i64(c->db, st, ":to_ms", to_ms);
	while ((rc = sb_db_step(c->db, st, c->e)) == SB_ROW) {
		const char *backend = sb_col_text(st, 0);
		int64_t start_ms = sb_col_i64(st, 6);
		backend_acc *a;
		if (!sb_col_is_null(st, 1)) {
			grid_window *w;
			session_lines *s;
			if (!inside(p, start_ms))
				continue;
			if ((w = window_of(c, backend)) != NULL)
				w->per_session = true;
			if ((a = acc_for(c, backend)) == NULL || !add_line(c, st, &a->lines, NULL, &a->out) ||
			    (s = session_of(c, a, sb_col_text(st, 1))) == NULL ||
			    !add_line(c, st, &s->sums, NULL, NULL))
				break;
		} else {
			const sb_period *span = span_of(c, backend);
			if (!inside(span, start_ms))
				continue;
			if ((a = acc_for(c, backend)) == NULL || !add_line(c, st, &a->lines, &span->to_ms, &a->out))
				break;
		}
	}
	sb_stmt_reset(st);
	return c->e->code;
}

/* ---- runs --------------------------------------------------------------- */

/* Fill a backend from the current row of recon_runs. */
static void take_runs(backend_acc *a, sb_stmt *st)
{
	sb_explain *x = &a->out.explain;
	int64_t ended = sb_col_i64(st, 8);

	a->out.runs = sb_col_i64(st, 1);
	a->out.sessions = sb_col_i64(st, 2);
	a->out.exec_count = sb_col_i64(st, 3);
	a->out.computed_nanos = sb_col_i64(st, 4);
	a->has_own_billed = !sb_col_is_null(st, 5);
	a->own_billed_nanos = sb_col_i64(st, 5);
	a->has_fill_billed = !sb_col_is_null(st, 6);
	a->fill_billed_nanos = sb_col_i64(st, 6);
	a->has_fill_metered = !sb_col_is_null(st, 7);
	a->fill_metered_nanos = sb_col_i64(st, 7);
	x->has = ended > 0;
	x->exec_ms = sb_col_i64(st, 9);
	x->lifetime_ms = sb_col_i64(st, 10);
	x->has_lifetime_cost = x->has && sb_col_i64(st, 12) == ended;
	x->lifetime_nanos = sb_col_i64(st, 11);
	x->has_idle = x->has_lifetime_cost && sb_col_i64(st, 14) == ended &&
	              sb_money_sub(x->lifetime_nanos, sb_col_i64(st, 13),
	                           &x->idle_nanos) == SB_MONEY_OK;
	a->out.unpriced_runs = sb_col_i64(st, 15);
	a->out.unpriced_from_ms = sb_col_i64(st, 16);
}

/* Read recon_runs over span into the backends judged over exactly span
 * (the period, or one grid window). */
static int read_runs_over(recon_ctx *c, const sb_period *span)
{
	sb_stmt *st = sb_db_stmt(c->db, "recon_runs", c->e);
	int rc;

	if (st == NULL)
		return c->e->code;
	sb_bind_i64(c->db, st, ":from_ms", span->from_ms);
	sb_bind_i64(c->db, st, ":to_ms", span->to_ms);
	while ((rc = sb_db_step(c->db, st, c->e)) == SB_ROW) {
		const char *backend = sb_col_text(st, 0);
		const sb_period *own = span_of(c, backend);
		backend_acc *a;
		if (own->from_ms != span->from_ms || own->to_ms != span->to_ms)
			continue;
		if ((a = acc_for(c, backend)) == NULL)
			break;
		take_runs(a, st);
	}
	sb_stmt_reset(st);
	return c->e->code;
}

/* Pass 3: the runs, of the period and of each distinct grid window. */
static int read_runs(recon_ctx *c)
{
	if (read_runs_over(c, &c->o->period) != SB_OK)
		return c->e->code;
	for (size_t i = 0; i < c->n_windows; i++) {
		grid_window *w = &c->windows[i];
		if (w->per_session || w->runs_read)
			continue;
		if (read_runs_over(c, &w->window) != SB_OK)
			return c->e->code;
		for (size_t k = i; k < c->n_windows; k++)
			if (c->windows[k].window.from_ms == w->window.from_ms &&
			    c->windows[k].window.to_ms == w->window.to_ms)
				c->windows[k].runs_read = true;
	}
	return SB_OK;
}

/* ---- judging ------------------------------------------------------------ */

/* The conditions a backend or session meets (SB_COND_*): s its lines,
 * span_to the end of what it is judged over. */
static unsigned conditions(const recon_ctx *c, const line_sums *s, int64_t span_to, int64_t runs,
                           bool free, bool has_billed, int64_t billed, int64_t computed,
                           int64_t abs_nanos, int64_t rel_ppb)
{
	__int128 drift = (__int128)billed - computed;
	unsigned conds = 0;

	if (c->o->now_ms < span_to)
		conds |= SB_COND_PENDING;
	if (s->currency)
		conds |= SB_COND_CURRENCY;
	if (s->no_rate)
		conds |= SB_COND_NO_RATE;
	if (s->partial)
		conds |= SB_COND_PARTIAL;
	if (has_billed && billed > 0 && (runs == 0 || free))
		conds |= SB_COND_UNEXPECTED;
	if (computed > 0 && !has_billed)
		conds |= SB_COND_UNBILLED;
	if (has_billed && sb_recon_beyond(drift, computed, abs_nanos, rel_ppb))
		conds |= drift > 0 ? SB_COND_OVER : SB_COND_UNDER;
	return conds;
}

/* Settle one backend: its window, billed figure and basis, status, flag,
 * drift and explanation. */
static void settle_backend(recon_ctx *c, backend_acc *a)
{
	sb_recon_backend *b = &a->out;
	grid_window *w = window_of(c, b->backend);
	const sb_card *card_end, *card_start;
	sb_explain *x = &b->explain;
	__int128 drift;

	b->window = *span_of(c, b->backend);
	b->grid_ms = w != NULL && !w->per_session ? w->step : 0;
	card_end = sb_rates_find(c->rates, b->backend, NULL, b->window.to_ms - 1);
	card_start = sb_rates_find(c->rates, b->backend, NULL, b->window.from_ms);
	b->free = card_end != NULL && card_end->free;
	if (a->lines.has_billed) {
		b->basis = SB_RBASIS_BILLED;
		b->has_billed = true;
		b->billed_nanos = a->lines.billed_nanos;
		if (a->has_fill_billed && !add(c, &b->billed_nanos, a->fill_billed_nanos))
			return;
	} else if (a->lines.has_metered) {
		b->basis = SB_RBASIS_METERED;
		b->has_billed = true;
		b->billed_nanos = a->lines.metered_nanos;
		if (a->has_fill_metered && !add(c, &b->billed_nanos, a->fill_metered_nanos))
			return;
	} else if (a->has_own_billed) {
		b->basis = SB_RBASIS_RUN;
		b->has_billed = true;
		b->billed_nanos = a->own_billed_nanos;
	}
	b->has_tax = a->lines.has_tax;
	b->tax_nanos = a->lines.tax_nanos;
	if (b->rate_fix.lines > 0) {
		/* a newer card with the missing rates gives the command its values */
		const sb_card *newest = sb_rates_find(c->rates, b->backend, NULL, INT64_MAX);
		sb_rate_fix *f = &b->rate_fix;
		if (newest != NULL && (!f->has_card || newest->effective_ms != f->card.effective_ms) &&
		    ((f->need_cpu && newest->has_per_cpu_second) || (f->need_gb && newest->has_per_gb_second))) {
			f->has_newer = true;
			f->newer = *newest;
		}
	}
	drift = (__int128)b->billed_nanos - b->computed_nanos;
	if (b->has_billed) {
		if (drift > INT64_MAX || drift < INT64_MIN) {
			sb_fail(c->e, SB_EDATA, "the drift of %s overflows 64-bit nanodollars", b->backend);
			return;
		}
		b->has_drift = true;
		b->drift_nanos = (int64_t)drift;
	}
	/* a run with no card in force has an unknown card cost, never 0 */
	b->status = sb_recon_status_of(conditions(c, &a->lines, b->window.to_ms, b->runs, b->free,
	                                          b->has_billed, b->billed_nanos, b->computed_nanos,
	                                          b->abs_nanos, b->rel_ppb) |
	                               (b->unpriced_runs > 0 ? SB_COND_NO_RATE : 0u));
	b->flagged = sb_recon_flags(b->status, b->window.to_ms, c->o->now_ms, c->o->billing_lag_ms);
	if (sb_grain_of(c->db, b->backend, &b->grain, c->e) != SB_OK)
		return;
	/* billed by the month: a shorter period holds part of a bill, which
	 * is nothing wrong (pending still says its window has not ended) */
	if (b->grain == SB_GRAIN_MONTH && !sb_period_whole_months(&c->o->period) &&
	    b->status != SB_STATUS_PENDING) {
		b->off_grain = true;
		b->status = SB_STATUS_PARTIAL;
		b->flagged = false;
	}
	b->has_drift_rel = b->has_drift && b->computed_nanos != 0 &&
	                   sb_div_round_even((__int128)b->drift_nanos * 1000000, b->computed_nanos,
	                                     &b->drift_rel_micro) == SB_MONEY_OK;
	if (!x->has)
		return;
	x->has_card_rate = card_start != NULL;
	x->card_rate_nanos = card_start != NULL ? sb_card_rate_key(card_start) : 0;
	x->has_implied = b->has_billed && x->lifetime_ms > 0 &&
	                 sb_div_round_even((__int128)b->billed_nanos * 60000, x->lifetime_ms,
	                                   &x->implied_rate_nanos) == SB_MONEY_OK;
	/* the verdict follows from explain's parts (reconcile/explain.h), so
	 * that the two commands never disagree */
	if (b->status == SB_STATUS_OVER_BILLED || b->status == SB_STATUS_UNDER_BILLED) {
		sb_parts parts;
		if (sb_xparts_backend(c->db, c->rates, b, a->n_sessions > 0, &parts, c->e) != SB_OK)
			return;
		x->verdict = sb_parts_verdict(&parts, b->drift_nanos, b->abs_nanos, b->rel_ppb);
		x->has_billed_rate = parts.has_q && parts.q_minutes > 0 &&
		                     sb_div_round_even((__int128)b->billed_nanos * SB_NANOS_PER_USD, parts.q_minutes,
		                                       &x->billed_rate_nanos) == SB_MONEY_OK;
		x->billed_minutes = parts.q_minutes;
	}
}

/* Count a judged session and append it to the result when it is to be
 * listed (not ok, or every one with --all-sessions). */
static bool list_session(recon_ctx *c, backend_acc *a, const char *session_id,
                         const line_sums *lines, int64_t runs, int64_t computed, bool has_billed,
                         int64_t billed)
{
	const sb_period *p = &c->o->period;
	sb_recon *r = c->r;
	sb_recon_session *s, *list;
	sb_recon_status status = sb_recon_status_of(conditions(c, lines, p->to_ms, runs, a->out.free,
	                                                       has_billed, billed, computed,
	                                                       a->out.abs_nanos, a->out.rel_ppb));
	bool flagged = sb_recon_flags(status, p->to_ms, c->o->now_ms, c->o->billing_lag_ms);

	if (a->out.off_grain && status != SB_STATUS_PENDING && status != SB_STATUS_OK) {
		status = SB_STATUS_PARTIAL;
		flagged = false;
	}
	if (flagged) {
		r->flagged_sessions++;
		a->out.sessions_flagged++;
	}
	if (status == SB_STATUS_OK && !c->o->all_sessions)
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
	s->flagged = flagged;
	s->runs = runs;
	s->computed_nanos = computed;
	s->has_billed = has_billed;
	s->billed_nanos = billed;
	return true;
}

/* Judge one session: its lines (NULL when none in the period) and runs. */
static bool judge_session(recon_ctx *c, backend_acc *a, const char *session_id,
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
static int judge_sessions(recon_ctx *c, backend_acc *a)
{
	sb_stmt *st = sb_db_stmt(c->db, "recon_sessions", c->e);
	size_t next = 0;
	int rc;

	if (st == NULL)
		return c->e->code;
	sb_bind_text(c->db, st, ":backend", a->out.backend);
	sb_bind_i64(c->db, st, ":from_ms", c->o->period.from_ms);
	sb_bind_i64(c->db, st, ":to_ms", c->o->period.to_ms);
	while ((rc = sb_db_step(c->db, st, c->e)) == SB_ROW) {
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
		if (!judge_session(c, a, sid, sl, sb_col_i64(st, 1), sb_col_i64(st, 2),
		                   !sb_col_is_null(st, 3), sb_col_i64(st, 3),
		                   sb_col_int(st, 4) != 0))
			goto out;
	}
	for (; rc == SB_DONE && next < a->n_sessions; next++)
		if (!judge_session(c, a, a->sessions[next].session_id, &a->sessions[next], 0, 0, false, 0, true))
			break;
out:
	sb_stmt_reset(st);
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
	free(c->windows);
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
	r->opts = *opts;
	if (!r->opts.has_now) {
		r->opts.has_now = true;
		r->opts.now_ms = sb_db_now_ms(db);
	}
	if (!r->opts.has_lag) {
		r->opts.has_lag = true;
		r->opts.billing_lag_ms = SB_DEFAULT_LAG_MS;
	}
	c.db = db;
	c.o = &r->opts;
	c.r = r;
	c.e = e;
	/* read first: a change committed while this is judged makes it stale */
	if (sb_db_one_i64(db, "change_latest", &r->change_id, e) != SB_OK)
		goto fail;
	if (load_tables(&c) != SB_OK || read_grids(&c) != SB_OK || read_lines(&c) != SB_OK ||
	    read_runs(&c) != SB_OK)
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
		/* backends billed per session are judged per session too */
		if (a->n_sessions > 0 && judge_sessions(&c, a) != SB_OK)
			goto fail;
		if (a->out.flagged)
			r->flagged_backends++;
		if (a->out.status == SB_STATUS_PENDING)
			r->pending++;
		r->backends[r->n_backends++] = a->out;
	}
	r->flagged = r->flagged_backends + r->flagged_sessions;
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
	sb_stmt *st = sb_db_stmt(db, "tolerance_set", e);

	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":backend", backend);
	sb_bind_i64(db, st, ":abs_nanos", abs_nanos);
	sb_bind_i64(db, st, ":rel_ppb", rel_ppb);
	sb_bind_i64(db, st, ":updated_ms", sb_db_now_ms(db));
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	return sb_change_setting(db, "tolerance", backend, INT64_MIN, SB_CHANGE_FOREVER, e);
}
