/* invoice_billed.c: the billed basis (see invoice.h): the period
 * reconciled, each session's bill charged to the customers of its runs,
 * the runs' own billed figures where they fill a gap, and the rest of a
 * backend's billed total allocated by largest remainder, to the cent. */
#include "reconcile/invoice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "reconcile/allocate.h"
#include "reconcile/invoice_int.h"
#include "reconcile/reconcile.h"

/* Amounts billed to one customer for one backend (billed basis). */
typedef struct charge {
	size_t inv;               /* index of the customer's invoice in fresh */
	char backend[65];         /* the backend */
	__int128 direct;          /* nanodollars charged per session or per run */
	int64_t pool_cents;       /* its share of account-level charges, in cents */
} charge;

/* One customer's runs on a backend, as weights for a split. */
typedef struct owner {
	char *customer;           /* the tag value; NULL for runs other finalized invoices charged */
	int64_t runs;             /* runs */
	int64_t exec_ms;          /* exec time */
	int64_t computed_nanos;   /* computed cost */
} owner;

/* A row of invoice_sessions. */
typedef struct srow {
	char *backend;            /* backend id */
	char *session_id;         /* NULL for runs naming no session */
	owner o;                  /* the customer and its weights */
	bool has_own;             /* own billed_cost_usd: sum of the non-null ones */
	int64_t own;
	bool has_fill_billed;     /* the same, of sessions without a billed line */
	int64_t fill_billed;
	bool has_fill_metered;    /* the same, of sessions without a metered line */
	int64_t fill_metered;
} srow;

/* Free a list of session rows. */
static void srows_free(srow *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].backend);
		free(rows[i].session_id);
		free(rows[i].o.customer);
	}
	free(rows);
}

/* Read invoice_sessions: the runs of the period per backend, session and
 * customer.  The caller frees *out with srows_free. */
static int read_sessions(sb_db *db, const sb_invoice_opts *o, srow **out, size_t *n_out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "invoice_sessions", e);
	srow *rows = NULL;
	size_t n = 0, cap = 0;
	int rc;

	*out = NULL;
	*n_out = 0;
	if (st == NULL)
		return e->code;
	sb_inv_bind_period_tag(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		srow *r;
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			srow *nrows = realloc(rows, ncap * sizeof *nrows);
			if (nrows == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				break;
			}
			rows = nrows;
			cap = ncap;
		}
		r = &rows[n++];
		memset(r, 0, sizeof *r);
		if ((r->backend = sb_inv_dup(sb_col_text(st, 0), e)) == NULL)
			break;
		/* NULL: runs another finalized invoice charged (their share is set aside) */
		if (!sb_col_is_null(st, 2) && (r->o.customer = sb_inv_dup(sb_col_text(st, 2), e)) == NULL)
			break;
		if (!sb_col_is_null(st, 1) && (r->session_id = sb_inv_dup(sb_col_text(st, 1), e)) == NULL)
			break;
		r->o.runs = sb_col_i64(st, 3);
		r->o.exec_ms = sb_col_i64(st, 4);
		r->o.computed_nanos = sb_col_i64(st, 5);
		r->has_own = !sb_col_is_null(st, 6);
		r->own = sb_col_i64(st, 6);
		r->has_fill_billed = !sb_col_is_null(st, 7);
		r->fill_billed = sb_col_i64(st, 7);
		r->has_fill_metered = !sb_col_is_null(st, 8);
		r->fill_metered = sb_col_i64(st, 8);
	}
	sb_stmt_reset(st);
	*out = rows;
	*n_out = n;
	return e->code;
}

/* The charge of (invoice i, backend), added when new; NULL on error. */
static charge *charge_for(charge **list, size_t *n, size_t i, const char *backend, sb_err *e)
{
	charge *c;

	for (size_t k = 0; k < *n; k++)
		if ((*list)[k].inv == i && strcmp((*list)[k].backend, backend) == 0)
			return &(*list)[k];
	if ((c = realloc(*list, (*n + 1) * sizeof *c)) == NULL) {
		sb_fail(e, SB_EINTERNAL, "out of memory");
		return NULL;
	}
	*list = c;
	c = &c[(*n)++];
	memset(c, 0, sizeof *c);
	c->inv = i;
	snprintf(c->backend, sizeof c->backend, "%s", backend);
	return c;
}

/* Whether two customers (NULL: runs left out) are the same. */
static bool same_customer(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* Order of owners: by customer, so that ties of the largest remainder go
 * to the customer first by name; the runs left out (NULL) last. */
static int owner_cmp(const void *pa, const void *pb)
{
	const char *a = ((const owner *)pa)->customer, *b = ((const owner *)pb)->customer;

	if (a == NULL || b == NULL)
		return (a == NULL) - (b == NULL);
	return strcmp(a, b);
}

/* The weights a billed amount is split by, tried in this order until one
 * is not all zero, and their names in the invoice notes. */
typedef enum { SPLIT_COMPUTED, SPLIT_EXEC, SPLIT_RUNS } split_by;

static const char *const split_names[] = {
	[SPLIT_COMPUTED] = "computed cost",
	[SPLIT_EXEC] = "exec minutes",
	[SPLIT_RUNS] = "number of runs",
};

/* Split amount (units of the caller) over owners in proportion to their
 * computed cost, else their exec time, else their runs; *by says which
 * weight was used.  Sorts owners by customer first; writes out[0..n) in
 * that order. */
static int split(int64_t amount, owner *owners, size_t n, int64_t *out, split_by *by, sb_err *e)
{
	int64_t *w = calloc(n > 0 ? n : 1, sizeof *w);
	int rc = SB_ALLOC_NO_WEIGHT;

	if (w == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	qsort(owners, n, sizeof *owners, owner_cmp);
	for (int pass = SPLIT_COMPUTED; pass <= SPLIT_RUNS && rc == SB_ALLOC_NO_WEIGHT; pass++) {
		for (size_t k = 0; k < n; k++)
			w[k] = pass == SPLIT_COMPUTED ? owners[k].computed_nanos
			       : pass == SPLIT_EXEC   ? owners[k].exec_ms
			                              : owners[k].runs;
		*by = (split_by)pass;
		rc = sb_allocate(amount, w, n, out);
	}
	free(w);
	if (rc != SB_ALLOC_OK)
		return sb_fail(e, SB_EDATA, "cannot split a billed amount: %s",
		               rc == SB_ALLOC_NO_WEIGHT ? "no runs to split it by" : "the weights overflow");
	return SB_OK;
}

/* Add o's weights into the list of owners (one entry per customer). */
static int add_owner(owner **list, size_t *n, const owner *o, sb_err *e)
{
	owner *l;

	for (size_t k = 0; k < *n; k++) {
		if (same_customer((*list)[k].customer, o->customer)) {
			(*list)[k].runs += o->runs;
			(*list)[k].exec_ms += o->exec_ms;
			(*list)[k].computed_nanos += o->computed_nanos;
			return SB_OK;
		}
	}
	if ((l = realloc(*list, (*n + 1) * sizeof *l)) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	*list = l;
	l[*n] = *o;
	l[*n].customer = o->customer;   /* borrowed */
	(*n)++;
	return SB_OK;
}

/* The customers of a session's runs in any period (for a session billed
 * in the period whose runs started outside it).  The customers are
 * allocated; free each with free() and the list. */
static int session_owners(sb_db *db, const sb_invoice_opts *o, const char *backend,
                          const char *session_id, owner **out, size_t *n_out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "invoice_session_owners", e);
	owner *list = NULL;
	size_t n = 0;
	int rc;

	*out = NULL;
	*n_out = 0;
	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":tag", o->tag);
	sb_bind_text(db, st, ":backend", backend);
	sb_bind_text(db, st, ":session_id", session_id);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		owner *l = realloc(list, (n + 1) * sizeof *l);
		if (l == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			break;
		}
		list = l;
		memset(&l[n], 0, sizeof l[n]);
		if ((l[n].customer = sb_inv_dup(sb_col_text(st, 0), e)) == NULL)
			break;
		l[n].runs = sb_col_i64(st, 1);
		l[n].exec_ms = sb_col_i64(st, 2);
		l[n].computed_nanos = sb_col_i64(st, 3);
		n++;
	}
	sb_stmt_reset(st);
	*out = list;
	*n_out = n;
	return e->code;
}

/* Everything the billed basis needs while it walks the backends. */
typedef struct billed_ctx {
	sb_db *db;
	const sb_invoice_opts *o;
	fresh *f;
	sb_recon *r;              /* the reconciliation of the period */
	srow *rows;               /* invoice_sessions */
	size_t n_rows;
	charge *charges;          /* per customer and backend */
	size_t n_charges;
	sb_err *e;
} billed_ctx;

/* Charge the owners of one billed amount (a session's) their shares; the
 * share of the runs left out (owner NULL) is set aside. */
static int charge_owners(billed_ctx *c, const char *backend, int64_t amount, owner *owners,
                         size_t n)
{
	int64_t *shares = calloc(n, sizeof *shares);
	split_by by = SPLIT_COMPUTED;

	if (shares == NULL)
		return sb_fail(c->e, SB_EINTERNAL, "out of memory");
	if (split(amount, owners, n, shares, &by, c->e) == SB_OK) {
		for (size_t k = 0; k < n; k++) {
			size_t i;
			charge *ch;
			if (owners[k].customer == NULL) {
				c->f->set_aside += shares[k];
				continue;
			}
			i = sb_inv_fresh_customer(c->f, owners[k].customer, SB_BASIS_BILLED, c->e);
			if (i == (size_t)-1 || (ch = charge_for(&c->charges, &c->n_charges, i, backend, c->e)) == NULL)
				break;
			ch->direct += shares[k];
		}
	}
	free(shares);
	return c->e->code;
}

/* Order of session rows: backend, then session (NULL first), as
 * invoice_sessions sorts them. */
static int srow_key_cmp(const char *backend, const char *session, const srow *r)
{
	int cmp = strcmp(backend, r->backend);

	if (cmp != 0)
		return cmp;
	if (session == NULL || r->session_id == NULL)
		return (session != NULL) - (r->session_id != NULL);
	return strcmp(session, r->session_id);
}

/* The index of the first row of (backend, session) in c->rows, or
 * c->n_rows when it has none (binary search: the rows are sorted). */
static size_t rows_find(const billed_ctx *c, const char *backend, const char *session)
{
	size_t lo = 0, hi = c->n_rows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (srow_key_cmp(backend, session, &c->rows[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->n_rows && srow_key_cmp(backend, session, &c->rows[lo]) == 0 ? lo : c->n_rows;
}

/* A backend whose lines name sessions: charge each session's billed to
 * the customers of its runs (in the period, else in any period); a
 * session with no runs anywhere is charged to no one.  *sessions_sum gets
 * the billed of every session. */
static int charge_sessions(billed_ctx *c, const sb_recon_backend *b, __int128 *sessions_sum)
{
	char money[SB_MONEY_BUFSZ];

	for (size_t s = 0; s < c->r->n_sessions && c->e->code == SB_OK; s++) {
		const sb_recon_session *rs = &c->r->sessions[s];
		owner *owners = NULL, *found = NULL;
		size_t n = 0, n_found = 0;
		if (strcmp(rs->backend, b->backend) != 0 || !rs->has_billed)
			continue;
		*sessions_sum += rs->billed_nanos;
		for (size_t k = rows_find(c, b->backend, rs->session_id);
		     k < c->n_rows && srow_key_cmp(b->backend, rs->session_id, &c->rows[k]) == 0; k++)
			if (add_owner(&owners, &n, &c->rows[k].o, c->e) != SB_OK)
				break;
		if (n == 0 && rs->session_id != NULL && c->e->code == SB_OK &&
		    session_owners(c->db, c->o, b->backend, rs->session_id, &found, &n_found, c->e) == SB_OK) {
			for (size_t k = 0; k < n_found; k++)
				add_owner(&owners, &n, &found[k], c->e);
		}
		if (c->e->code == SB_OK && n == 0 && rs->billed_nanos != 0 &&
		    sb_inv_note(&c->f->set_notes, c->e,
		         "%s: %s USD billed for session %s, which has no runs in the ledger, is on no invoice",
		         sb_quote(b->backend, SB_QUOTE_IF_NEEDED, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ),
		         sb_money_format(rs->billed_nanos, 9, money),
		         rs->session_id != NULL ? sb_quote(rs->session_id, SB_QUOTE_IF_NEEDED, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ) : "(none)") == SB_OK)
			sb_inv_note(&c->f->notices, c->e, "%s: '%s reconcile' lists the sessions billed with no runs as unexpected",
			     b->backend, sb_invocation_words(c->o->invoked, (char[SB_INVOCATION_BUFSZ]){0}, SB_INVOCATION_BUFSZ));
		else if (c->e->code == SB_OK && n > 0)
			charge_owners(c, b->backend, rs->billed_nanos, owners, n);
		for (size_t k = 0; k < n_found; k++)
			free(found[k].customer);
		free(found);
		free(owners);
	}
	return c->e->code;
}

/* A backend billed per account (or only by its runs' own figures): each
 * run's own billed_cost_usd that fills a gap goes to its customer.
 * *direct_sum gets their sum. */
static bool session_charged(const billed_ctx *c, const char *backend, const char *session)
{
	for (size_t s = 0; s < c->r->n_sessions; s++) {
		const sb_recon_session *rs = &c->r->sessions[s];
		if (rs->has_billed && strcmp(rs->backend, backend) == 0 &&
		    (rs->session_id == NULL ? session == NULL : session != NULL && strcmp(rs->session_id, session) == 0))
			return true;
	}
	return false;
}

static int charge_runs(billed_ctx *c, const sb_recon_backend *b, bool per_session, __int128 *direct_sum)
{
	for (size_t k = 0; k < c->n_rows; k++) {
		const srow *r = &c->rows[k];
		bool has;
		int64_t v;
		size_t i;
		charge *ch;
		if (strcmp(r->backend, b->backend) != 0)
			continue;
		/* a backend billed per session: the sessions its lines charged
		 * are done; a session with no line of its own (or only Tax)
		 * goes to its runs' customers by their own figure, as below */
		if (per_session && session_charged(c, r->backend, r->session_id))
			continue;
		if (b->basis == SB_RBASIS_BILLED) {
			has = r->has_fill_billed;
			v = r->fill_billed;
		} else if (b->basis == SB_RBASIS_METERED) {
			has = r->has_fill_metered;
			v = r->fill_metered;
		} else {
			has = r->has_own;
			v = r->own;
		}
		if (!has)
			continue;
		*direct_sum += v;
		if (r->o.customer == NULL) {
			c->f->set_aside += v;
			continue;
		}
		if ((i = sb_inv_fresh_customer(c->f, r->o.customer, SB_BASIS_BILLED, c->e)) == (size_t)-1 ||
		    (ch = charge_for(&c->charges, &c->n_charges, i, b->backend, c->e)) == NULL)
			return c->e->code;
		ch->direct += v;
	}
	return SB_OK;
}

/* The rest of a backend's billed total (account-level lines), rounded
 * half to even to the cent, allocated over the backend's customers in the
 * period by largest remainder, in proportion to their computed cost (else
 * exec minutes, else runs). */
static int charge_pool(billed_ctx *c, const sb_recon_backend *b, __int128 pool)
{
	owner *owners = NULL;
	size_t n = 0, named;
	int64_t pool_cents = 0, *shares = NULL;
	split_by by = SPLIT_COMPUTED;
	char money[SB_MONEY_BUFSZ], total[SB_MONEY_BUFSZ], share[SB_MONEY_BUFSZ];

	if (sb_inv_to_cent(pool, &pool_cents, "a billed total", c->e) != SB_OK)
		return c->e->code;
	pool_cents /= CENT_NANOS;
	if (pool_cents == 0)
		return SB_OK;
	for (size_t k = 0; k < c->n_rows; k++)
		if (strcmp(c->rows[k].backend, b->backend) == 0 && add_owner(&owners, &n, &c->rows[k].o, c->e) != SB_OK)
			goto out;
	if (n == 0) {
		sb_inv_note(&c->f->set_notes, c->e,
		     "%s: %s USD billed to the account has no runs in the period to charge it to: it is on no invoice",
		     b->backend, sb_money_format(pool_cents * CENT_NANOS, 2, money));
		goto out;
	}
	if ((shares = calloc(n, sizeof *shares)) == NULL) {
		sb_fail(c->e, SB_EINTERNAL, "out of memory");
		goto out;
	}
	if (split(pool_cents, owners, n, shares, &by, c->e) != SB_OK)
		goto out;
	named = owners[n - 1].customer == NULL ? n - 1 : n;   /* the runs left out sort last */
	sb_money_format(pool_cents * CENT_NANOS, 2, total);
	for (size_t k = 0; k < n; k++) {
		size_t i;
		charge *ch;
		if (owners[k].customer == NULL) {
			c->f->set_aside += (__int128)shares[k] * CENT_NANOS;
			continue;
		}
		i = sb_inv_fresh_customer(c->f, owners[k].customer, SB_BASIS_BILLED, c->e);
		if (i == (size_t)-1 || (ch = charge_for(&c->charges, &c->n_charges, i, b->backend, c->e)) == NULL)
			goto out;
		ch->pool_cents += shares[k];
		sb_inv_note_on(&c->f->invs[i], c->e,
		         "%s: %s of the %s USD billed to the account, allocated to %zu customer%s by %s (largest remainder, to the cent)%s",
		         b->backend, sb_money_format(shares[k] * CENT_NANOS, 2, share), total, named,
		         named == 1 ? "" : "s", split_names[by],
		         by == SPLIT_COMPUTED ? "" : ": its runs have no computed cost");
	}
out:
	free(shares);
	free(owners);
	return c->e->code;
}

/* Notes on a backend whose billed figure is incomplete or missing, on
 * every invoice with a compute line for it. */
static int note_backend(billed_ctx *c, const sb_recon_backend *b)
{
	const char *why = NULL, *fix = NULL, *command = "";
	bool noted = false;

	if (b->status == SB_STATUS_CURRENCY) {
		why = "some of its billing lines have no exchange rate and were left out";
		fix = "set the exchange rate with '";
		command = " fx set CUR RATE --from DATE'";
	} else if (b->status == SB_STATUS_NO_RATE) {
		why = "some of its metered lines found no rate and were left out";
		fix = "set its per-second rates with '";
		command = " rates set'";
	} else if (b->status == SB_STATUS_PARTIAL) {
		why = "a billing line starts in the period and ends after it; it is charged whole";
	} else if (!b->has_billed && b->computed_nanos > 0 && !b->free) {
		why = "nothing is billed for the period yet: charged 0.00 on a billed basis";
		fix = "import its bill, or invoice with --basis computed";
	}
	if (why == NULL)
		return SB_OK;
	for (size_t i = 0; i < c->f->n; i++)
		for (size_t k = 0; k < c->f->invs[i].n_lines; k++)
			if (c->f->invs[i].lines[k].kind == SB_INV_COMPUTE &&
			    strcmp(c->f->invs[i].lines[k].backend, b->backend) == 0) {
				noted = true;
				sb_inv_note_on(&c->f->invs[i], c->e, "%s: %s", b->backend, why);
			}
	/* what to run about it is for the operator, never on an invoice */
	if (noted && fix != NULL && c->e->code == SB_OK)
		sb_inv_note(&c->f->notices, c->e, "%s: %s%s%s", b->backend, fix,
		            command[0] != '\0' ? sb_invocation_words(c->o->invoked, (char[SB_INVOCATION_BUFSZ]){0},
		                                                      SB_INVOCATION_BUFSZ) : "",
		            command);
	return c->e->code;
}

int sb_inv_apply_billed(sb_db *db, const sb_invoice_opts *o, fresh *f, sb_err *e)
{
	billed_ctx c;
	sb_recon_opts ro;

	memset(&c, 0, sizeof c);
	memset(&ro, 0, sizeof ro);
	c.db = db;
	c.o = o;
	c.f = f;
	c.e = e;
	ro.period = o->period;
	ro.abs_nanos = SB_DEFAULT_ABS_NANOS;
	ro.rel_ppb = SB_DEFAULT_REL_PPB;
	ro.all_sessions = true;
	if (sb_reconcile(db, &ro, &c.r, e) != SB_OK || read_sessions(db, o, &c.rows, &c.n_rows, e) != SB_OK)
		goto out;
	for (size_t k = 0; k < c.r->n_backends && e->code == SB_OK; k++) {
		const sb_recon_backend *b = &c.r->backends[k];
		bool per_session = false;
		__int128 direct = 0;
		if (note_backend(&c, b) != SB_OK || !b->has_billed)
			continue;
		for (size_t s = 0; s < c.r->n_sessions && !per_session; s++)
			per_session = strcmp(c.r->sessions[s].backend, b->backend) == 0;
		if (per_session)
			charge_sessions(&c, b, &direct);
		if (e->code == SB_OK)
			charge_runs(&c, b, per_session, &direct);
		if (e->code == SB_OK)
			charge_pool(&c, b, (__int128)b->billed_nanos - direct);
	}
	/* each charge onto its compute line: the per-session and per-run
	 * amounts rounded half to even to the cent, plus the pool's cents */
	for (size_t k = 0; k < c.n_charges && e->code == SB_OK; k++) {
		charge *ch = &c.charges[k];
		sb_invoice_line *l = sb_inv_compute_line(&f->invs[ch->inv], ch->backend, e);
		int64_t cents = 0;
		if (l == NULL || sb_inv_to_cent(ch->direct, &cents, "a billed amount", e) != SB_OK ||
		    sb_money_add(cents, ch->pool_cents * CENT_NANOS, &l->amount_nanos) != SB_MONEY_OK) {
			sb_fail(e, SB_EDATA, "a billed amount does not fit in 64-bit nanodollars");
			break;
		}
		sb_inv_set_rate(l, ch->direct + (__int128)ch->pool_cents * CENT_NANOS);
	}
out:
	sb_recon_free(c.r);
	srows_free(c.rows, c.n_rows);
	free(c.charges);
	return e->code;
}
