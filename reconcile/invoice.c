/* invoice.c: invoices per customer (see invoice.h). */
#include "reconcile/invoice.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/names.h"
#include "ledger/timefmt.h"
#include "reconcile/allocate.h"
#include "reconcile/reconcile.h"

#define CENT_NANOS INT64_C(10000000)
#define UNTAGGED "(untagged)"

/* A growable list of notes (allocated strings). */
typedef struct notes {
	char **items;             /* the notes */
	size_t n;                 /* how many */
} notes;

/* Runs of the period another finalized invoice charged: one row of
 * invoice_claimed.sql. */
typedef struct claim {
	char *customer;           /* its customer now, under the tag */
	char *backend;            /* its backend */
	char *model;              /* its model, "" for none */
	char *number;             /* the invoice that charged it */
	bool belongs;             /* it still belongs to that invoice */
	int64_t runs;             /* how many */
	int64_t exec_ms;          /* their exec time */
	int64_t computed_nanos;   /* their computed cost */
	int64_t input_tokens;     /* their tokens */
	int64_t output_tokens;
} claim;

/* Invoices computed now, one per customer with runs. */
typedef struct fresh {
	sb_invoice *invs;         /* by customer */
	size_t n;
	size_t cap;
	notes set_notes;          /* about no invoice in particular */
	notes notices;            /* for the operator (sb_invoice_set.notices) */
	char **unpriced;          /* per invoice: the first model with no price, or NULL */
	claim *claims;            /* runs left out: other finalized invoices charged them */
	size_t n_claims;
	int64_t claimed_runs;     /* their number */
	char *claimed_where;      /* how many on which invoice (allocated), NULL when none */
	bool any_runs;            /* the period has runs (before leaving any out) */
	bool tag_seen;            /* one of them has the tag (before leaving any out) */
	__int128 set_aside;       /* billed basis: nanodollars billed for runs left out */
} fresh;

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

/* The names of the bases, by their enum. */
static const char *const basis_names[] = {
	[SB_BASIS_COMPUTED] = "computed",
	[SB_BASIS_BILLED] = "billed",
};

const char *sb_basis_name(sb_basis basis)
{
	return basis_names[basis];
}

int sb_basis_parse(const char *name, sb_basis *out, sb_err *e)
{
	int i = 0;

	if (sb_name_parse(SB_NAMES(basis_names), "an invoice basis", name, &i, e) != SB_OK)
		return e->code;
	*out = (sb_basis)i;
	return SB_OK;
}

/* The names of the line kinds, by their enum. */
static const char *const kind_names[] = {
	[SB_INV_COMPUTE] = "compute",
	[SB_INV_TOKENS] = "tokens",
};

const char *sb_inv_kind_name(sb_inv_kind kind)
{
	return kind_names[kind];
}

int sb_inv_kind_parse(const char *name, sb_inv_kind *out, sb_err *e)
{
	int i = 0;

	if (sb_name_parse(SB_NAMES(kind_names), "an invoice line kind", name, &i, e) != SB_OK)
		return e->code;
	*out = (sb_inv_kind)i;
	return SB_OK;
}

/* strdup that records an out-of-memory error in e (s NULL gives NULL). */
static char *dup_or_fail(const char *s, sb_err *e)
{
	char *d;

	if (s == NULL)
		return NULL;
	if ((d = strdup(s)) == NULL)
		sb_fail(e, SB_EINTERNAL, "out of memory");
	return d;
}

/* Append a printf-formatted note to list. */
static int note(notes *list, sb_err *e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int note(notes *list, sb_err *e, const char *fmt, ...)
{
	va_list ap;
	char *text = NULL, **items;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	for (size_t i = 0; i < list->n; i++) {
		if (strcmp(list->items[i], text) == 0) {
			free(text);
			return SB_OK;
		}
	}
	if ((items = realloc(list->items, (list->n + 1) * sizeof *items)) == NULL) {
		free(text);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	list->items = items;
	list->items[list->n++] = text;
	return SB_OK;
}

/* Free the strings of a list of notes. */
static void notes_free(char **items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(items[i]);
	free(items);
}

/* Append a copy of s to the list *items of *n strings. */
static int push_str(char ***items, size_t *n, const char *s, sb_err *e)
{
	char **list = realloc(*items, (*n + 1) * sizeof *list);

	if (list == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	*items = list;
	if ((list[*n] = dup_or_fail(s, e)) == NULL)
		return e->code;
	(*n)++;
	return SB_OK;
}

/* Free the strings of a line (not the line). */
static void line_free(sb_invoice_line *l)
{
	free(l->description);
	free(l->backend);
	free(l->model);
}

/* Free an adjustment and what it holds; NULL is allowed. */
static void adjust_free(sb_invoice_adjust *a)
{
	if (a == NULL)
		return;
	for (size_t i = 0; i < a->n_lines; i++)
		line_free(&a->lines[i]);
	free(a->lines);
	for (size_t i = 0; i < a->n_runs; i++) {
		free(a->runs[i].run_id);
		free(a->runs[i].to);
		free(a->runs[i].from);
		free(a->runs[i].invoice);
	}
	free(a->runs);
	free(a);
}

/* Free what an invoice holds (not the invoice) and clear it. */
static void invoice_clear(sb_invoice *inv)
{
	free(inv->customer);
	free(inv->number);
	for (size_t i = 0; i < inv->n_lines; i++)
		line_free(&inv->lines[i]);
	free(inv->lines);
	notes_free(inv->notes, inv->n_notes);
	notes_free(inv->unknown_runs, inv->n_unknown_runs);
	adjust_free(inv->adjust);
	memset(inv, 0, sizeof *inv);
}

void sb_invoice_set_free(sb_invoice_set *set)
{
	if (set == NULL)
		return;
	for (size_t i = 0; i < set->n_invoices; i++)
		invoice_clear(&set->invoices[i]);
	free(set->invoices);
	notes_free(set->notes, set->n_notes);
	notes_free(set->notices, set->n_notices);
	free(set->claimed_where);
	free(set);
}

/* Free a fresh computation. */
static void fresh_free(fresh *f)
{
	for (size_t i = 0; i < f->n; i++) {
		invoice_clear(&f->invs[i]);
		free(f->unpriced[i]);
	}
	free(f->invs);
	free(f->unpriced);
	notes_free(f->set_notes.items, f->set_notes.n);
	notes_free(f->notices.items, f->notices.n);
	for (size_t i = 0; i < f->n_claims; i++) {
		free(f->claims[i].customer);
		free(f->claims[i].backend);
		free(f->claims[i].model);
		free(f->claims[i].number);
	}
	free(f->claims);
	free(f->claimed_where);
	memset(f, 0, sizeof *f);
}

/* Add a note to one invoice. */
static int inv_note(sb_invoice *inv, sb_err *e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int inv_note(sb_invoice *inv, sb_err *e, const char *fmt, ...)
{
	va_list ap;
	char *text = NULL;
	notes list = {inv->notes, inv->n_notes};
	int n, rc;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	rc = note(&list, e, "%s", text);
	free(text);
	inv->notes = list.items;
	inv->n_notes = list.n;
	return rc;
}

/* The index of customer's invoice in f, added (in order) when new;
 * (size_t)-1 on error. */
static size_t fresh_customer(fresh *f, const char *customer, sb_basis basis, sb_err *e)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int cmp = strcmp(f->invs[mid].customer, customer);
		if (cmp == 0)
			return mid;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		sb_invoice *invs = realloc(f->invs, cap * sizeof *invs);
		char **unpriced;
		if (invs == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			return (size_t)-1;
		}
		f->invs = invs;
		if ((unpriced = realloc(f->unpriced, cap * sizeof *unpriced)) == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			return (size_t)-1;
		}
		f->unpriced = unpriced;
		f->cap = cap;
	}
	memmove(&f->invs[lo + 1], &f->invs[lo], (f->n - lo) * sizeof *f->invs);
	memmove(&f->unpriced[lo + 1], &f->unpriced[lo], (f->n - lo) * sizeof *f->unpriced);
	memset(&f->invs[lo], 0, sizeof f->invs[lo]);
	f->unpriced[lo] = NULL;
	f->n++;
	f->invs[lo].basis = basis;
	memcpy(f->invs[lo].currency, "USD", 4);
	if ((f->invs[lo].customer = dup_or_fail(customer, e)) == NULL)
		return (size_t)-1;
	return lo;
}

/* The index of customer in f, or (size_t)-1. */
static size_t fresh_find(const fresh *f, const char *customer)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->invs[i].customer, customer) == 0)
			return i;
	return (size_t)-1;
}

/* A new zeroed line at the end of inv's lines, or NULL (error in e). */
static sb_invoice_line *add_line(sb_invoice *inv, sb_err *e)
{
	sb_invoice_line *lines = realloc(inv->lines, (inv->n_lines + 1) * sizeof *lines);

	if (lines == NULL) {
		sb_fail(e, SB_EINTERNAL, "out of memory");
		return NULL;
	}
	inv->lines = lines;
	memset(&lines[inv->n_lines], 0, sizeof lines[0]);
	return &lines[inv->n_lines++];
}

/* Set a line's description to "PREFIX: NAME". */
static int describe(sb_invoice_line *l, const char *prefix, const char *name, sb_err *e)
{
	if (asprintf(&l->description, "%s: %s", prefix, name) < 0) {
		l->description = NULL;
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	return SB_OK;
}

/* The compute line of backend on inv, added (0 runs, 0 minutes) when
 * missing; NULL on error. */
static sb_invoice_line *compute_line(sb_invoice *inv, const char *backend, sb_err *e)
{
	sb_invoice_line *l;

	for (size_t i = 0; i < inv->n_lines; i++)
		if (inv->lines[i].kind == SB_INV_COMPUTE && strcmp(inv->lines[i].backend, backend) == 0)
			return &inv->lines[i];
	if ((l = add_line(inv, e)) == NULL)
		return NULL;
	l->kind = SB_INV_COMPUTE;
	if ((l->backend = dup_or_fail(backend, e)) == NULL ||
	    describe(l, "Sandbox compute", backend, e) != SB_OK)
		return NULL;
	return l;
}

/* Order of lines: compute lines by backend, then token lines by model,
 * the tokens of no model last. */
static int line_cmp(const void *pa, const void *pb)
{
	const sb_invoice_line *a = pa, *b = pb;

	if (a->kind != b->kind)
		return a->kind == SB_INV_COMPUTE ? -1 : 1;
	if (a->kind == SB_INV_COMPUTE)
		return strcmp(a->backend, b->backend);
	if (a->model == NULL || b->model == NULL)
		return (a->model == NULL) - (b->model == NULL);
	return strcmp(a->model, b->model);
}

/* Exec milliseconds as minutes x 1000, rounded half to even. */
static int64_t milli_minutes(int64_t exec_ms)
{
	int64_t milli = 0;

	sb_div_round_even(exec_ms, 60, &milli);
	return milli;
}

/* Set a compute line's rate from the amount it charges before the cent
 * rounding: that amount per exec minute, rounded half to even. */
static void set_rate(sb_invoice_line *l, __int128 amount)
{
	l->has_rate = l->exec_ms > 0 &&
	              sb_div_round_even(amount * 60000, l->exec_ms, &l->rate_nanos) == SB_MONEY_OK;
}

/* Round nanodollars half to even to the cent, or fail with what. */
static int to_cent(__int128 nanos, int64_t *out, const char *what, sb_err *e)
{
	if (nanos > INT64_MAX || nanos < INT64_MIN ||
	    sb_money_round((int64_t)nanos, 2, out) != SB_MONEY_OK)
		return sb_fail(e, SB_EDATA, "%s does not fit in 64-bit nanodollars", what);
	return SB_OK;
}

/* Bind the period and the tag of o to st. */
static void bind_period_tag(sb_db *db, sqlite3_stmt *st, const sb_invoice_opts *o)
{
	sb_bind_text(db, st, ":tag", o->tag);
	sb_bind_i64(db, st, ":from_ms", o->period.from_ms);
	sb_bind_i64(db, st, ":to_ms", o->period.to_ms);
}

/* Bind the period of o to st (invoice_compute.sql, invoice_tokens.sql,
 * invoice_period_tags.sql): the whole UTC days within the period, read
 * from the day rollups, and the parts before and after them, read from
 * run.  A period holding no whole day is all "before" (head_end_ms =
 * to_ms) and reads no rollup. */
static void bind_days(sb_db *db, sqlite3_stmt *st, const sb_invoice_opts *o)
{
	int64_t from = o->period.from_ms, to = o->period.to_ms;
	int64_t first = sb_day_start(from) == from ? from : sb_day_start(from) + SB_MS_PER_DAY;
	int64_t end = sb_day_start(to);
	char from_day[SB_TIME_BUFSZ], to_day[SB_TIME_BUFSZ];

	if (first >= end)
		first = end = to;
	sb_date_format(first, from_day);
	memcpy(to_day, from_day, sizeof to_day);
	if (end != first)
		sb_date_format(end, to_day);
	sb_bind_i64(db, st, ":from_ms", o->period.from_ms);
	sb_bind_i64(db, st, ":to_ms", o->period.to_ms);
	sb_bind_text(db, st, ":from_day", from_day);
	sb_bind_text(db, st, ":to_day", to_day);
	sb_bind_i64(db, st, ":head_end_ms", first);
	sb_bind_i64(db, st, ":tail_start_ms", end);
}

/* bind_days and the tag of o. */
static void bind_period_days(sb_db *db, sqlite3_stmt *st, const sb_invoice_opts *o)
{
	bind_days(db, st, o);
	sb_bind_text(db, st, ":tag", o->tag);
}

/* Whether columns [first, first + n) of st's row are integers: a day
 * rollup whose sum passed 64 bits holds a REAL (sql/schema/005_rollup.sql),
 * and so does a SUM over one; SB_EDATA otherwise. */
static int exact_sums(sqlite3_stmt *st, int first, int n, sb_err *e)
{
	for (int c = first; c < first + n; c++)
		if (sqlite3_column_type(st, c) != SQLITE_INTEGER)
			return sb_fail(e, SB_EDATA, "a sum of the invoice overflows 64-bit nanodollars");
	return SB_OK;
}

/* Read invoice_claimed.sql into f->claims (when a run of the period can
 * be on a finalized invoice at all: invoice_claims_possible.sql) and add
 * the runs to f->claimed_runs. */
static int load_claims(sb_db *db, const sb_invoice_opts *o, fresh *f, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "invoice_claims_possible", e);
	size_t cap = 0;
	int rc;
	bool any = false;

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":from_ms", o->period.from_ms);
	sb_bind_i64(db, st, ":to_ms", o->period.to_ms);
	if ((rc = sb_db_step(db, st, e)) == SQLITE_ROW)
		any = sqlite3_column_int64(st, 0) != 0;
	sqlite3_reset(st);
	if (rc < 0 || !any)
		return e->code;
	if ((st = sb_db_stmt(db, "invoice_claimed", e)) == NULL)
		return e->code;
	bind_period_tag(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		claim *c;
		if (exact_sums(st, 5, 5, e) != SB_OK)
			break;
		if (f->n_claims == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			claim *list = realloc(f->claims, ncap * sizeof *list);
			if (list == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				break;
			}
			f->claims = list;
			cap = ncap;
		}
		c = &f->claims[f->n_claims++];
		memset(c, 0, sizeof *c);
		if ((c->customer = dup_or_fail(sb_col_text(st, 0), e)) == NULL ||
		    (c->backend = dup_or_fail(sb_col_text(st, 1), e)) == NULL ||
		    (c->model = dup_or_fail(sb_col_text(st, 2), e)) == NULL ||
		    (c->number = dup_or_fail(sb_col_text(st, 3), e)) == NULL)
			break;
		c->belongs = sqlite3_column_int64(st, 4) != 0;
		c->runs = sqlite3_column_int64(st, 5);
		c->exec_ms = sqlite3_column_int64(st, 6);
		c->computed_nanos = sqlite3_column_int64(st, 7);
		c->input_tokens = sqlite3_column_int64(st, 8);
		c->output_tokens = sqlite3_column_int64(st, 9);
		f->claimed_runs += c->runs;
	}
	sqlite3_reset(st);
	return e->code;
}

/* The claims of customer on backend (model NULL: any) or model (backend
 * NULL: any), summed into *sum (runs, exec time, computed, tokens). */
static void claimed(const fresh *f, const char *customer, const char *backend, const char *model, claim *sum)
{
	memset(sum, 0, sizeof *sum);
	for (size_t k = 0; k < f->n_claims; k++) {
		const claim *c = &f->claims[k];
		if (strcmp(c->customer, customer) != 0 || (backend != NULL && strcmp(c->backend, backend) != 0) ||
		    (model != NULL && strcmp(c->model, model) != 0))
			continue;
		sum->runs += c->runs;
		sum->exec_ms += c->exec_ms;
		sum->computed_nanos += c->computed_nanos;
		sum->input_tokens += c->input_tokens;
		sum->output_tokens += c->output_tokens;
	}
}

/* The compute lines of every customer: runs, exec minutes, computed cost,
 * without the runs other finalized invoices charged (f->claims). */
static int read_compute(sb_db *db, const sb_invoice_opts *o, sb_basis basis, fresh *f, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "invoice_compute", e);
	int rc;

	if (st == NULL)
		return e->code;
	bind_period_days(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		const char *customer = sb_col_text(st, 0), *backend = sb_col_text(st, 1);
		size_t i;
		sb_invoice_line *l;
		claim left;
		if (exact_sums(st, 2, 3, e) != SB_OK)
			break;
		f->any_runs = true;
		f->tag_seen = f->tag_seen || strcmp(customer, UNTAGGED) != 0;
		claimed(f, customer, backend, NULL, &left);
		if (sqlite3_column_int64(st, 2) - left.runs <= 0)
			continue;
		if ((i = fresh_customer(f, customer, basis, e)) == (size_t)-1 ||
		    (l = compute_line(&f->invs[i], backend, e)) == NULL)
			break;
		l->runs = sqlite3_column_int64(st, 2) - left.runs;
		l->exec_ms = sqlite3_column_int64(st, 3) - left.exec_ms;
		l->computed_nanos = sqlite3_column_int64(st, 4) - left.computed_nanos;
		l->quantity_milli = milli_minutes(l->exec_ms);
		f->invs[i].runs += l->runs;
	}
	sqlite3_reset(st);
	return e->code;
}

/* The token lines of every customer, priced: tokens x price per million,
 * / 10^6 rounded half to even to the nanodollar once per line, then half
 * to even to the cent.  A model with no price is remembered per customer;
 * the tokens of runs that name no model make an unknown line (model
 * NULL).  The runs other finalized invoices charged are left out. */
static int read_tokens(sb_db *db, const sb_invoice_opts *o, sb_basis basis, fresh *f, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "invoice_tokens", e);
	int rc;

	if (st == NULL)
		return e->code;
	bind_period_days(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		const char *customer = sb_col_text(st, 0), *model = sb_col_text(st, 1);
		bool none = model[0] == '\0';
		size_t i;
		sb_invoice_line *l;
		int64_t nanos = 0;
		claim left;
		if (exact_sums(st, 2, 2, e) != SB_OK || exact_sums(st, 6, 1, e) != SB_OK)
			break;
		claimed(f, customer, NULL, model, &left);
		if (sqlite3_column_int64(st, 6) - left.runs <= 0 ||
		    (none && sqlite3_column_int64(st, 2) == left.input_tokens &&
		     sqlite3_column_int64(st, 3) == left.output_tokens))
			continue;
		if ((i = fresh_customer(f, customer, basis, e)) == (size_t)-1 || (l = add_line(&f->invs[i], e)) == NULL)
			break;
		l->kind = SB_INV_TOKENS;
		l->runs = sqlite3_column_int64(st, 6) - left.runs;
		l->input_tokens = sqlite3_column_int64(st, 2) - left.input_tokens;
		l->output_tokens = sqlite3_column_int64(st, 3) - left.output_tokens;
		if (none) {
			/* no model, no price: the amount is unknown, never 0 */
			l->unknown = true;
			f->invs[i].total_unknown = true;
			if (describe(l, "Tokens", "no model", e) != SB_OK)
				break;
			continue;
		}
		if ((l->model = dup_or_fail(model, e)) == NULL || describe(l, "Tokens", model, e) != SB_OK)
			break;
		if (sb_col_is_null(st, 4)) {
			if (f->unpriced[i] == NULL && (f->unpriced[i] = dup_or_fail(model, e)) == NULL)
				break;
			continue;
		}
		l->input_per_m_nanos = sqlite3_column_int64(st, 4);
		l->output_per_m_nanos = sqlite3_column_int64(st, 5);
		if (sb_div_round_even((__int128)l->input_tokens * l->input_per_m_nanos +
		                      (__int128)l->output_tokens * l->output_per_m_nanos,
		                      1000000, &nanos) != SB_MONEY_OK ||
		    to_cent(nanos, &l->amount_nanos, "a token cost", e) != SB_OK) {
			sb_fail(e, SB_EDATA, "the token cost of model '%s' does not fit in 64-bit nanodollars", model);
			break;
		}
	}
	sqlite3_reset(st);
	return e->code;
}

/* The runs behind the unknown token lines of f (tokens, no model), onto
 * their invoices' unknown_runs. */
static int read_unknown_runs(sb_db *db, const sb_invoice_opts *o, fresh *f, sb_err *e)
{
	sqlite3_stmt *st;
	bool any = false;
	int rc;

	for (size_t i = 0; i < f->n && !any; i++)
		any = f->invs[i].total_unknown;
	if (!any)
		return SB_OK;
	if ((st = sb_db_stmt(db, "invoice_unmodelled", e)) == NULL)
		return e->code;
	bind_period_tag(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		size_t i = fresh_find(f, sb_col_text(st, 0));
		if (i != (size_t)-1 &&
		    push_str(&f->invs[i].unknown_runs, &f->invs[i].n_unknown_runs, sb_col_text(st, 1), e) != SB_OK)
			break;
	}
	sqlite3_reset(st);
	return e->code;
}

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
	sqlite3_stmt *st = sb_db_stmt(db, "invoice_sessions", e);
	srow *rows = NULL;
	size_t n = 0, cap = 0;
	int rc;

	*out = NULL;
	*n_out = 0;
	if (st == NULL)
		return e->code;
	bind_period_tag(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
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
		if ((r->backend = dup_or_fail(sb_col_text(st, 0), e)) == NULL)
			break;
		/* NULL: runs another finalized invoice charged (their share is set aside) */
		if (!sb_col_is_null(st, 2) && (r->o.customer = dup_or_fail(sb_col_text(st, 2), e)) == NULL)
			break;
		if (!sb_col_is_null(st, 1) && (r->session_id = dup_or_fail(sb_col_text(st, 1), e)) == NULL)
			break;
		r->o.runs = sqlite3_column_int64(st, 3);
		r->o.exec_ms = sqlite3_column_int64(st, 4);
		r->o.computed_nanos = sqlite3_column_int64(st, 5);
		r->has_own = !sb_col_is_null(st, 6);
		r->own = sqlite3_column_int64(st, 6);
		r->has_fill_billed = !sb_col_is_null(st, 7);
		r->fill_billed = sqlite3_column_int64(st, 7);
		r->has_fill_metered = !sb_col_is_null(st, 8);
		r->fill_metered = sqlite3_column_int64(st, 8);
	}
	sqlite3_reset(st);
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
	sqlite3_stmt *st = sb_db_stmt(db, "invoice_session_owners", e);
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
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		owner *l = realloc(list, (n + 1) * sizeof *l);
		if (l == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			break;
		}
		list = l;
		memset(&l[n], 0, sizeof l[n]);
		if ((l[n].customer = dup_or_fail(sb_col_text(st, 0), e)) == NULL)
			break;
		l[n].runs = sqlite3_column_int64(st, 1);
		l[n].exec_ms = sqlite3_column_int64(st, 2);
		l[n].computed_nanos = sqlite3_column_int64(st, 3);
		n++;
	}
	sqlite3_reset(st);
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
			i = fresh_customer(c->f, owners[k].customer, SB_BASIS_BILLED, c->e);
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
		    note(&c->f->set_notes, c->e,
		         "%s: %s USD billed for session %s, which has no runs in the ledger, is on no invoice",
		         b->backend, sb_money_format(rs->billed_nanos, 9, money),
		         rs->session_id != NULL ? rs->session_id : "(none)") == SB_OK)
			note(&c->f->notices, c->e, "%s: 'sbledger reconcile' lists the sessions billed with no runs as unexpected",
			     b->backend);
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
static int charge_runs(billed_ctx *c, const sb_recon_backend *b, __int128 *direct_sum)
{
	for (size_t k = 0; k < c->n_rows; k++) {
		const srow *r = &c->rows[k];
		bool has;
		int64_t v;
		size_t i;
		charge *ch;
		if (strcmp(r->backend, b->backend) != 0)
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
		if ((i = fresh_customer(c->f, r->o.customer, SB_BASIS_BILLED, c->e)) == (size_t)-1 ||
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

	if (to_cent(pool, &pool_cents, "a billed total", c->e) != SB_OK)
		return c->e->code;
	pool_cents /= CENT_NANOS;
	if (pool_cents == 0)
		return SB_OK;
	for (size_t k = 0; k < c->n_rows; k++)
		if (strcmp(c->rows[k].backend, b->backend) == 0 && add_owner(&owners, &n, &c->rows[k].o, c->e) != SB_OK)
			goto out;
	if (n == 0) {
		note(&c->f->set_notes, c->e,
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
		i = fresh_customer(c->f, owners[k].customer, SB_BASIS_BILLED, c->e);
		if (i == (size_t)-1 || (ch = charge_for(&c->charges, &c->n_charges, i, b->backend, c->e)) == NULL)
			goto out;
		ch->pool_cents += shares[k];
		inv_note(&c->f->invs[i], c->e,
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
	const char *why = NULL, *fix = NULL;
	bool noted = false;

	if (b->status == SB_STATUS_CURRENCY) {
		why = "some of its billing lines have no exchange rate and were left out";
		fix = "set the exchange rate with 'sbledger fx set CUR RATE --from DATE'";
	} else if (b->status == SB_STATUS_NO_RATE) {
		why = "some of its metered lines found no rate and were left out";
		fix = "set its per-second rates with 'sbledger rates set'";
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
				inv_note(&c->f->invs[i], c->e, "%s: %s", b->backend, why);
			}
	/* what to run about it is for the operator, never on an invoice */
	if (noted && fix != NULL && c->e->code == SB_OK)
		note(&c->f->notices, c->e, "%s: %s", b->backend, fix);
	return c->e->code;
}

/* Price the compute lines on a billed basis (see invoice.h). */
static int apply_billed(sb_db *db, const sb_invoice_opts *o, fresh *f, sb_err *e)
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
		else
			charge_runs(&c, b, &direct);
		if (e->code == SB_OK)
			charge_pool(&c, b, (__int128)b->billed_nanos - direct);
	}
	/* each charge onto its compute line: the per-session and per-run
	 * amounts rounded half to even to the cent, plus the pool's cents */
	for (size_t k = 0; k < c.n_charges && e->code == SB_OK; k++) {
		charge *ch = &c.charges[k];
		sb_invoice_line *l = compute_line(&f->invs[ch->inv], ch->backend, e);
		int64_t cents = 0;
		if (l == NULL || to_cent(ch->direct, &cents, "a billed amount", e) != SB_OK ||
		    sb_money_add(cents, ch->pool_cents * CENT_NANOS, &l->amount_nanos) != SB_MONEY_OK) {
			sb_fail(e, SB_EDATA, "a billed amount does not fit in 64-bit nanodollars");
			break;
		}
		set_rate(l, ch->direct + (__int128)ch->pool_cents * CENT_NANOS);
	}
out:
	sb_recon_free(c.r);
	srows_free(c.rows, c.n_rows);
	free(c.charges);
	return e->code;
}

/* Order of strings (qsort of const char *). */
static int str_cmp(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* The notice of the runs f leaves out (other finalized invoices charged
 * them): how many, and how many on which invoice. */
static int note_claims(const sb_invoice_opts *o, fresh *f, sb_err *e)
{
	char period[96], *list = NULL;
	const char **numbers;
	size_t len = 0, shown = 0, n_numbers = 0;
	FILE *out;

	if (f->claimed_runs == 0)
		return SB_OK;
	if ((out = open_memstream(&list, &len)) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	/* per invoice number, in the order of the numbers */
	if ((numbers = calloc(f->n_claims, sizeof *numbers)) == NULL) {
		fclose(out);
		free(list);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	for (size_t k = 0; k < f->n_claims; k++) {
		bool seen = false;
		for (size_t j = 0; j < n_numbers && !seen; j++)
			seen = strcmp(numbers[j], f->claims[k].number) == 0;
		if (!seen)
			numbers[n_numbers++] = f->claims[k].number;
	}
	qsort(numbers, n_numbers, sizeof *numbers, str_cmp);
	for (size_t k = 0; k < n_numbers; k++) {
		int64_t runs = 0, moved = 0;
		for (size_t j = 0; j < f->n_claims; j++) {
			if (strcmp(f->claims[j].number, numbers[k]) != 0)
				continue;
			runs += f->claims[j].runs;
			moved += f->claims[j].belongs ? 0 : f->claims[j].runs;
		}
		if (shown++ == 10) {
			fputs(", ...", out);
			break;
		}
		fprintf(out, "%s%lld on %s", shown > 1 ? ", " : "", (long long)runs, numbers[k]);
		if (moved > 0)
			fprintf(out, " (%lld of them no longer of its customer or period: its adjustments credit them)",
			        (long long)moved);
	}
	free(numbers);
	if (fclose(out) != 0 || list == NULL) {
		free(list);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	note(&f->notices, e, "%lld run%s of %s %s left out: other finalized invoices charged %s, and a run is on one finalized invoice at most: %s",
	     (long long)f->claimed_runs, f->claimed_runs == 1 ? "" : "s", sb_period_name(&o->period, period),
	     f->claimed_runs == 1 ? "is" : "are", f->claimed_runs == 1 ? "it" : "them", list);
	free(f->claimed_where);
	f->claimed_where = list;
	return e->code;
}

/* Compute the invoice of every customer with runs in the period, on basis. */
static int compute_fresh(sb_db *db, const sb_invoice_opts *o, sb_basis basis, fresh *f, sb_err *e)
{
	memset(f, 0, sizeof *f);
	if (load_claims(db, o, f, e) != SB_OK || read_compute(db, o, basis, f, e) != SB_OK ||
	    read_tokens(db, o, basis, f, e) != SB_OK || read_unknown_runs(db, o, f, e) != SB_OK ||
	    note_claims(o, f, e) != SB_OK)
		return e->code;
	if (basis == SB_BASIS_BILLED) {
		char money[SB_MONEY_BUFSZ];
		if (apply_billed(db, o, f, e) != SB_OK)
			return e->code;
		if (f->set_aside != 0 && f->set_aside <= INT64_MAX && f->set_aside >= INT64_MIN &&
		    note(&f->notices, e, "%s USD billed for runs that other finalized invoices charged is set aside, not charged again",
		         sb_money_format((int64_t)f->set_aside, 9, money)) != SB_OK)
			return e->code;
	} else {
		/* each backend's computed_cost_usd, half to even to the cent */
		for (size_t i = 0; i < f->n; i++) {
			for (size_t k = 0; k < f->invs[i].n_lines; k++) {
				sb_invoice_line *l = &f->invs[i].lines[k];
				if (l->kind != SB_INV_COMPUTE)
					continue;
				if (to_cent(l->computed_nanos, &l->amount_nanos, "a computed cost", e) != SB_OK)
					return e->code;
				set_rate(l, l->computed_nanos);
			}
		}
	}
	for (size_t i = 0; i < f->n; i++) {
		sb_invoice *inv = &f->invs[i];
		qsort(inv->lines, inv->n_lines, sizeof *inv->lines, line_cmp);
		inv->total_nanos = 0;
		/* an unknown line adds 0 here: total_unknown says the total is not known */
		for (size_t k = 0; k < inv->n_lines; k++)
			if (sb_money_add(inv->total_nanos, inv->lines[k].amount_nanos, &inv->total_nanos) != SB_MONEY_OK)
				return sb_fail(e, SB_EDATA, "the total of the invoice of '%s' overflows 64-bit nanodollars",
				               inv->customer);
	}
	return SB_OK;
}

/* Load the stored lines of a finalized invoice. */
static int load_lines(sb_db *db, int64_t invoice_id, sb_invoice *inv, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "invoice_lines", e);
	int rc;

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":invoice_id", invoice_id);
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		sb_invoice_line *l = add_line(inv, e);
		if (l == NULL)
			break;
		if (sb_inv_kind_parse(sb_col_text(st, 0), &l->kind, e) != SB_OK)
			break;
		if ((l->description = dup_or_fail(sb_col_text(st, 1), e)) == NULL)
			break;
		l->backend = dup_or_fail(sb_col_text(st, 2), e);
		l->model = dup_or_fail(sb_col_text(st, 3), e);
		if ((l->kind == SB_INV_COMPUTE && l->backend == NULL) || (l->kind == SB_INV_TOKENS && l->model == NULL)) {
			sb_fail(e, SB_EINTERNAL, "invoice %lld: a stored line lacks its backend or model",
			        (long long)invoice_id);
			break;
		}
		l->quantity_milli = sqlite3_column_int64(st, 4);
		l->has_rate = !sb_col_is_null(st, 6);
		l->rate_nanos = sqlite3_column_int64(st, 6);
		l->input_tokens = sqlite3_column_int64(st, 7);
		l->output_tokens = sqlite3_column_int64(st, 8);
		l->input_per_m_nanos = sqlite3_column_int64(st, 9);
		l->output_per_m_nanos = sqlite3_column_int64(st, 10);
		l->amount_nanos = sqlite3_column_int64(st, 11);
	}
	sqlite3_reset(st);
	return e->code;
}

/* Split stored notes (one per line) into inv's notes. */
static int load_notes(const char *text, sb_invoice *inv, sb_err *e)
{
	while (text != NULL && *text != '\0') {
		const char *nl = strchr(text, '\n');
		size_t len = nl != NULL ? (size_t)(nl - text) : strlen(text);
		if (inv_note(inv, e, "%.*s", (int)len, text) != SB_OK)
			return e->code;
		text = nl != NULL ? nl + 1 : NULL;
	}
	return SB_OK;
}

/* A finalized invoice as read from invoice_find (without lines). */
typedef struct stored {
	int64_t invoice_id;       /* its row */
	sb_invoice inv;           /* what it says */
} stored;

/* Read the finalized invoices of the tag over exactly the period, lines
 * and all.  The caller frees *out (invoice_clear each, then the array). */
static int load_stored(sb_db *db, const sb_invoice_opts *o, stored **out, size_t *n_out, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "invoice_find", e);
	stored *list = NULL;
	size_t n = 0;
	int rc;

	*out = NULL;
	*n_out = 0;
	if (st == NULL)
		return e->code;
	bind_period_tag(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		stored *l = realloc(list, (n + 1) * sizeof *l);
		sb_invoice *inv;
		if (l == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			break;
		}
		list = l;
		memset(&list[n], 0, sizeof list[n]);
		inv = &list[n].inv;
		n++;
		list[n - 1].invoice_id = sqlite3_column_int64(st, 0);
		if ((inv->number = dup_or_fail(sb_col_text(st, 1), e)) == NULL ||
		    (inv->customer = dup_or_fail(sb_col_text(st, 2), e)) == NULL)
			break;
		if (sb_basis_parse(sb_col_text(st, 3), &inv->basis, e) != SB_OK)
			break;
		snprintf(inv->currency, sizeof inv->currency, "%s", sb_col_text(st, 4));
		inv->total_nanos = sqlite3_column_int64(st, 5);
		inv->runs = sqlite3_column_int64(st, 6);
		if (load_notes(sb_col_text(st, 7), inv, e) != SB_OK)
			break;
		inv->created_ms = sqlite3_column_int64(st, 8);
	}
	sqlite3_reset(st);
	for (size_t i = 0; i < n && e->code == SB_OK; i++)
		load_lines(db, list[i].invoice_id, &list[i].inv, e);
	*out = list;
	*n_out = n;
	return e->code;
}

/* Add to a the line `now` minus `then` (either may be NULL) when it is
 * not all zero.  A token line on both is priced now at the prices the
 * invoice used, so that a later change of the price table is no
 * adjustment: only more (or fewer) tokens are. */
static int add_delta(sb_invoice_adjust *a, const sb_invoice_line *then, const sb_invoice_line *now,
                     sb_err *e)
{
	const sb_invoice_line *any = now != NULL ? now : then;
	sb_invoice_line d, *l;

	memset(&d, 0, sizeof d);
	d.kind = any->kind;
	if (now != NULL) {
		d.quantity_milli = now->quantity_milli;
		d.input_tokens = now->input_tokens;
		d.output_tokens = now->output_tokens;
		d.amount_nanos = now->amount_nanos;
		d.runs = now->runs;
		if (then != NULL && now->kind == SB_INV_TOKENS) {
			int64_t nanos = 0;
			if (sb_div_round_even((__int128)now->input_tokens * then->input_per_m_nanos +
			                      (__int128)now->output_tokens * then->output_per_m_nanos,
			                      1000000, &nanos) != SB_MONEY_OK ||
			    to_cent(nanos, &d.amount_nanos, "a token cost", e) != SB_OK)
				return e->code;
		}
	}
	if (then != NULL) {
		d.quantity_milli -= then->quantity_milli;
		d.input_tokens -= then->input_tokens;
		d.output_tokens -= then->output_tokens;
		d.amount_nanos -= then->amount_nanos;
	}
	if (d.quantity_milli == 0 && d.input_tokens == 0 && d.output_tokens == 0 && d.amount_nanos == 0)
		return SB_OK;
	if ((l = realloc(a->lines, (a->n_lines + 1) * sizeof *l)) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	a->lines = l;
	l = &l[a->n_lines++];
	*l = d;
	if ((l->description = dup_or_fail(any->description, e)) == NULL)
		return e->code;
	l->backend = dup_or_fail(any->backend, e);
	l->model = dup_or_fail(any->model, e);
	a->total_nanos += d.amount_nanos;
	return e->code;
}

char *sb_adjust_run_text(const sb_adjust_run *r, char *buf, size_t size)
{
	switch (r->kind) {
	case SB_ADJ_LATE:
		snprintf(buf, size, "late run: %s", r->run_id);
		break;
	case SB_ADJ_MOVED_IN:
		snprintf(buf, size, "moved in: %s (was '%s' on %s)", r->run_id, r->from != NULL ? r->from : "?",
		         r->invoice != NULL ? r->invoice : "?");
		break;
	case SB_ADJ_MOVED_OUT:
		if (r->to != NULL)
			snprintf(buf, size, "moved out: %s (now '%s')", r->run_id, r->to);
		else
			snprintf(buf, size, "moved out: %s (now outside the period)", r->run_id);
		break;
	case SB_ADJ_REPRICED:
		snprintf(buf, size, "repriced: %s (replaced, with other figures)", r->run_id);
		break;
	case SB_ADJ_REPLACED:
		snprintf(buf, size, "replaced: %s (same figures)", r->run_id);
		break;
	case SB_ADJ_DUPLICATE:
		snprintf(buf, size, "charged twice: %s (first on %s)", r->run_id, r->invoice != NULL ? r->invoice : "?");
		break;
	}
	return buf;
}

char *sb_adjust_summary(const sb_invoice_adjust *a, char *buf, size_t size)
{
	static const char *const what[] = {"late", "moved in", "moved out", "repriced", "replaced", "charged twice"};
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k <= SB_ADJ_DUPLICATE && len < size; k++) {
		size_t n = a->n_kind[k];
		if (n == 0)
			continue;
		if (k == SB_ADJ_LATE)
			snprintf(buf + len, size - len, "%s%zu late run%s", len > 0 ? ", " : "", n, n == 1 ? "" : "s");
		else
			snprintf(buf + len, size - len, "%s%zu run%s %s", len > 0 ? ", " : "", n, n == 1 ? "" : "s", what[k]);
		len = strlen(buf);
	}
	if (len == 0)
		snprintf(buf, size, "no run changed");
	return buf;
}

const char *sb_adjust_kind_name(sb_adjust_kind kind)
{
	static const char *const names[] = {"late", "moved_in", "moved_out", "repriced", "replaced", "duplicate"};

	return kind <= SB_ADJ_DUPLICATE ? names[kind] : "?";
}

/* The runs a finalized invoice's adjustment names (invoice_changed_runs.sql)
 * into a. */
static int changed_runs(sb_db *db, const sb_invoice_opts *o, const stored *s, sb_invoice_adjust *a,
                        sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "invoice_changed_runs", e);
	size_t cap = 0;
	int rc;

	if (st == NULL)
		return e->code;
	bind_period_tag(db, st, o);
	sb_bind_text(db, st, ":customer", s->inv.customer);
	sb_bind_i64(db, st, ":invoice_id", s->invoice_id);
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		int64_t kind = sqlite3_column_int64(st, 0);
		sb_adjust_run *r;
		if (a->n_runs == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			sb_adjust_run *list = realloc(a->runs, ncap * sizeof *list);
			if (list == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				break;
			}
			a->runs = list;
			cap = ncap;
		}
		if (kind < SB_ADJ_LATE || kind > SB_ADJ_DUPLICATE) {
			sb_fail(e, SB_EINTERNAL, "invoice_changed_runs: kind %lld", (long long)kind);
			break;
		}
		r = &a->runs[a->n_runs++];
		memset(r, 0, sizeof *r);
		r->kind = (sb_adjust_kind)kind;
		a->n_kind[r->kind]++;
		if ((r->run_id = dup_or_fail(sb_col_text(st, 1), e)) == NULL)
			break;
		r->to = dup_or_fail(sb_col_text(st, 2), e);
		r->from = dup_or_fail(sb_col_text(st, 3), e);
		r->invoice = dup_or_fail(sb_col_text(st, 4), e);
		if (e->code != SB_OK)
			break;
	}
	sqlite3_reset(st);
	return e->code;
}

/* True when two lines are for the same backend or model. */
static bool same_line(const sb_invoice_line *a, const sb_invoice_line *b)
{
	return a->kind == b->kind && line_cmp(a, b) == 0;
}

/* The adjustment of a finalized invoice: `now` (the same customer
 * computed on the same basis now: the runs it charged as they are now and
 * the runs that came to it since; NULL when it has none) minus what was
 * stored, and the runs behind the difference.  Tokens of runs that name
 * no model have no price: they stay out of the lines, and a note says
 * so.  inv->adjust stays NULL when nothing changed. */
static int adjust(sb_db *db, const sb_invoice_opts *o, stored *s, const sb_invoice *now, sb_err *e)
{
	sb_invoice_adjust *a = calloc(1, sizeof *a);
	const sb_invoice *then = &s->inv;

	if (a == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	for (size_t k = 0; k < then->n_lines && e->code == SB_OK; k++) {
		const sb_invoice_line *match = NULL;
		for (size_t j = 0; now != NULL && j < now->n_lines && match == NULL; j++)
			if (same_line(&then->lines[k], &now->lines[j]))
				match = &now->lines[j];
		add_delta(a, &then->lines[k], match, e);
	}
	for (size_t j = 0; now != NULL && j < now->n_lines && e->code == SB_OK; j++) {
		bool known = false;
		for (size_t k = 0; k < then->n_lines && !known; k++)
			known = same_line(&then->lines[k], &now->lines[j]);
		if (now->lines[j].unknown)
			inv_note(&s->inv, e, "the tokens of %zu run%s name no model, so they have no price: they are left out of the adjustment",
			         now->n_unknown_runs, now->n_unknown_runs == 1 ? "" : "s");
		else if (!known)
			add_delta(a, NULL, &now->lines[j], e);
	}
	if (e->code == SB_OK)
		changed_runs(db, o, s, a, e);
	if (e->code != SB_OK || (a->n_lines == 0 && a->n_runs == 0)) {
		adjust_free(a);
		return e->code;
	}
	qsort(a->lines, a->n_lines, sizeof *a->lines, line_cmp);
	s->inv.adjust = a;
	return SB_OK;
}

/* Append inv to set (moved: inv is cleared). */
static int set_push(sb_invoice_set *set, sb_invoice *inv, sb_err *e)
{
	sb_invoice *list = realloc(set->invoices, (set->n_invoices + 1) * sizeof *list);

	if (list == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	set->invoices = list;
	list[set->n_invoices++] = *inv;
	memset(inv, 0, sizeof *inv);
	return SB_OK;
}

/* Note on a draft invoice every finalized invoice of its customer whose
 * period overlaps this one (the runs it charged are left out here). */
static int note_overlaps(sb_db *db, const sb_invoice_opts *o, sb_invoice *inv, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "invoice_overlap", e);
	int rc;

	if (st == NULL)
		return e->code;
	bind_period_tag(db, st, o);
	sb_bind_text(db, st, ":customer", inv->customer);
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		sb_period p = {sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)};
		char name[96];
		if (inv_note(inv, e, "finalized invoice %s (%s) overlaps this period: the runs it charged are not charged here",
		             sb_col_text(st, 0), sb_period_name(&p, name)) != SB_OK)
			break;
	}
	sqlite3_reset(st);
	return e->code;
}

/* A customer given with --customer that has no invoice in the period:
 * an empty invoice when some run has ever had that tag value, else
 * SB_EDATA naming the values that exist. */
static int unknown_customer(sb_db *db, const sb_invoice_opts *o, const fresh *f, sb_invoice_set *set, sb_err *e)
{
	bool charged = false;

	sqlite3_stmt *st = sb_db_stmt(db, "invoice_tag_value_known", e);
	sb_invoice inv;
	char list[600] = "", period[96];
	int rc;
	bool known = strcmp(o->customer, UNTAGGED) == 0;

	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":name", o->tag);
	sb_bind_text(db, st, ":value", o->customer);
	if ((rc = sb_db_step(db, st, e)) == SQLITE_ROW)
		known = known || sqlite3_column_int64(st, 0) > 0;
	sqlite3_reset(st);
	if (rc < 0)
		return e->code;
	sb_period_name(&o->period, period);
	if (known) {
		memset(&inv, 0, sizeof inv);
		inv.basis = o->basis;
		memcpy(inv.currency, "USD", 4);
		for (size_t k = 0; k < f->n_claims && !charged; k++)
			charged = strcmp(f->claims[k].customer, o->customer) == 0;
		if ((inv.customer = dup_or_fail(o->customer, e)) == NULL ||
		    (charged ? inv_note(&inv, e, "every run of %s in %s is on a finalized invoice already: nothing new to charge",
		                        o->customer, period)
		             : inv_note(&inv, e, "%s has no runs in %s: nothing to charge", o->customer, period)) != SB_OK ||
		    (charged && note_overlaps(db, o, &inv, e) != SB_OK) || set_push(set, &inv, e) != SB_OK) {
			invoice_clear(&inv);
			return e->code;
		}
		return SB_OK;
	}
	if ((st = sb_db_stmt(db, "invoice_tag_values", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":name", o->tag);
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		size_t len = strlen(list);
		snprintf(list + len, sizeof list - len, "%s'%s'", len > 0 ? ", " : "", sb_col_text(st, 0));
	}
	sqlite3_reset(st);
	if (rc < 0)
		return e->code;
	if (list[0] == '\0')
		return sb_fail(e, SB_EDATA, "no customer '%s': no run has a tag '%s' (is --by tag:%s the right tag?)",
		               o->customer, o->tag, o->tag);
	return sb_fail(e, SB_EDATA, "no customer '%s': no run has tag %s = '%s'; the values it has are %s",
	               o->customer, o->tag, o->customer, list);
}


size_t sb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t rows[3][129];   /* row i of the distance table is rows[i % 3] */

	if (la > 128 || lb > 128)
		return SIZE_MAX;
	/* optimal string alignment: row i, column j is the distance of a[0..i)
	 * and b[0..j) */
	for (size_t j = 0; j <= lb; j++)
		rows[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *cur = rows[i % 3], *up = rows[(i - 1) % 3], *two = rows[(i + 1) % 3];
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = up[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (up[j - 1] + cost < best)
				best = up[j - 1] + cost;
			/* two is row i - 2 (only read when i > 1) */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && two[j - 2] + 1 < best)
				best = two[j - 2] + 1;
			cur[j] = best;
		}
	}
	return rows[la % 3][lb];
}

/* --by tag:NAME where no run of the period has tag NAME (read_compute saw
 * none but '(untagged)'): SB_EDATA naming the tags the period's runs
 * have, and the nearest one when it is at most 2 edits away ("did you
 * mean"), unless some run has NAME with the value '(untagged)'. */
static int refuse_unknown_tag(sb_db *db, const sb_invoice_opts *o, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "invoice_tag_in_period", e);
	char list[600] = "", period[96], best[129] = "", mean[160] = "";
	size_t best_d = SIZE_MAX, n = 0;
	int rc;
	bool carried = false;

	if (st == NULL)
		return e->code;
	bind_period_days(db, st, o);
	if ((rc = sb_db_step(db, st, e)) == SQLITE_ROW)
		carried = sqlite3_column_int64(st, 0) != 0;
	sqlite3_reset(st);
	if (rc < 0 || carried)
		return e->code;
	if ((st = sb_db_stmt(db, "invoice_period_tags", e)) == NULL)
		return e->code;
	bind_days(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		const char *name = sb_col_text(st, 0);
		size_t len = strlen(list), d = sb_edit_distance(o->tag, name);
		if (len < sizeof list - 1)
			snprintf(list + len, sizeof list - len, "%s'%s'", len > 0 ? ", " : "", name);
		if (d < best_d) {
			best_d = d;
			snprintf(best, sizeof best, "%s", name);
		}
		n++;
	}
	sqlite3_reset(st);
	if (rc < 0)
		return e->code;
	sb_period_name(&o->period, period);
	if (n == 0)
		return sb_fail(e, SB_EDATA, "no run of %s has a tag '%s': its runs have no tags at all", period, o->tag);
	if (best_d <= 2 && best_d < strlen(best) && best_d < strlen(o->tag))
		snprintf(mean, sizeof mean, " (did you mean '%s'?)", best);
	return sb_fail(e, SB_EDATA, "no run of %s has a tag '%s'%s; the tag%s its runs have: %s", period, o->tag, mean,
	               n == 1 ? "" : "s", list);
}

/* The build proper, on db as it is (inside a transaction or not). */
static int build(sb_db *db, const sb_invoice_opts *o, sb_invoice_set **out, sb_err *e)
{
	sb_invoice_set *set = calloc(1, sizeof *set);
	fresh f[2];
	bool have[2] = {false, false};
	stored *st = NULL;
	size_t n_st = 0, next = 0;

	*out = NULL;
	memset(f, 0, sizeof f);
	if (set == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	set->period = o->period;
	set->basis = o->basis;
	set->made_ms = sb_now_ms();
	snprintf(set->tag, sizeof set->tag, "%s", o->tag);
	if (compute_fresh(db, o, o->basis, &f[o->basis], e) != SB_OK ||
	    (f[o->basis].any_runs && !f[o->basis].tag_seen && refuse_unknown_tag(db, o, e) != SB_OK) ||
	    load_stored(db, o, &st, &n_st, e) != SB_OK)
		goto out;
	have[o->basis] = true;
	/* adjustments of finalized invoices, on their own basis */
	for (size_t k = 0; k < n_st; k++) {
		sb_basis b = st[k].inv.basis;
		size_t i;
		if (o->customer != NULL && strcmp(o->customer, st[k].inv.customer) != 0)
			continue;
		if (!have[b]) {
			if (compute_fresh(db, o, b, &f[b], e) != SB_OK)
				goto out;
			have[b] = true;
		}
		i = fresh_find(&f[b], st[k].inv.customer);
		if (i != (size_t)-1 && f[b].unpriced[i] != NULL)
			inv_note(&st[k].inv, e, "model '%s' has no price: its tokens are left out of the adjustment",
			         f[b].unpriced[i]);
		if (adjust(db, o, &st[k], i != (size_t)-1 ? &f[b].invs[i] : NULL, e) != SB_OK)
			goto out;
	}
	/* merge: finalized invoices as stored, the others computed now */
	for (size_t i = 0; i <= f[o->basis].n && e->code == SB_OK; i++) {
		fresh *fb = &f[o->basis];
		const char *cust = i < fb->n ? fb->invs[i].customer : NULL;
		bool finalized = false;
		while (next < n_st && (cust == NULL || strcmp(st[next].inv.customer, cust) <= 0)) {
			finalized = cust != NULL && strcmp(st[next].inv.customer, cust) == 0;
			if ((o->customer == NULL || strcmp(o->customer, st[next].inv.customer) == 0) &&
			    set_push(set, &st[next].inv, e) != SB_OK)
				goto out;
			next++;
		}
		if (cust == NULL || finalized || (o->customer != NULL && strcmp(o->customer, cust) != 0))
			continue;
		if (fb->unpriced[i] != NULL) {
			sb_fail(e, SB_EDATA,
			        "model '%s' has no price, so the invoice of '%s' cannot charge its tokens (sbledger prices set '%s' --input-per-m X --output-per-m Y)",
			        fb->unpriced[i], cust, fb->unpriced[i]);
			goto out;
		}
		if (note_overlaps(db, o, &fb->invs[i], e) != SB_OK || set_push(set, &fb->invs[i], e) != SB_OK)
			goto out;
	}
	if (o->customer != NULL && set->n_invoices == 0 && unknown_customer(db, o, &f[o->basis], set, e) != SB_OK)
		goto out;
	set->notes = f[o->basis].set_notes.items;
	set->n_notes = f[o->basis].set_notes.n;
	f[o->basis].set_notes.items = NULL;
	f[o->basis].set_notes.n = 0;
	set->claimed_runs = f[o->basis].claimed_runs;
	set->claimed_where = f[o->basis].claimed_where;
	f[o->basis].claimed_where = NULL;
	for (int b = 0; b < 2 && e->code == SB_OK; b++) {
		notes list = {set->notices, set->n_notices};
		for (size_t k = 0; k < f[b].notices.n && e->code == SB_OK; k++)
			note(&list, e, "%s", f[b].notices.items[k]);
		set->notices = list.items;
		set->n_notices = list.n;
	}
out:
	for (size_t k = 0; k < n_st; k++)
		invoice_clear(&st[k].inv);
	free(st);
	fresh_free(&f[0]);
	fresh_free(&f[1]);
	if (e->code != SB_OK) {
		sb_invoice_set_free(set);
		return e->code;
	}
	*out = set;
	return SB_OK;
}

int sb_invoice_build(sb_db *db, const sb_invoice_opts *opts, sb_invoice_set **out, sb_err *e)
{
	return build(db, opts, out, e);
}

char *sb_invoice_slug(const char *text, bool keep_dots, char buf[64])
{
	size_t n = 0;
	bool dash = false;

	for (const unsigned char *p = (const unsigned char *)text; *p != '\0' && n < 40; p++) {
		unsigned char ch = *p;
		bool keep = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z') ||
		            (keep_dots && ch == '.');
		if (!keep) {
			dash = n > 0;
			continue;
		}
		if (dash && n < 39)
			buf[n++] = '-';
		dash = false;
		buf[n++] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
	}
	if (n == 0)
		buf[n++] = 'x';
	buf[n] = '\0';
	return buf;
}

/* The notes of inv joined by newlines (allocated), or NULL when none. */
static char *join_notes(const sb_invoice *inv)
{
	size_t len = 0;
	char *text, *p;

	if (inv->n_notes == 0)
		return NULL;
	for (size_t i = 0; i < inv->n_notes; i++)
		len += strlen(inv->notes[i]) + 1;
	if ((text = malloc(len)) == NULL)
		return NULL;
	p = text;
	for (size_t i = 0; i < inv->n_notes; i++) {
		size_t l = strlen(inv->notes[i]);
		memcpy(p, inv->notes[i], l);
		p += l;
		*p++ = i + 1 < inv->n_notes ? '\n' : '\0';
	}
	return text;
}

/* Refuse to finalize inv when a finalized invoice of its customer
 * overlaps the period. */
static int refuse_overlap(sb_db *db, const sb_invoice_opts *o, const sb_invoice *inv, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "invoice_overlap", e);
	int rc;

	if (st == NULL)
		return e->code;
	bind_period_tag(db, st, o);
	sb_bind_text(db, st, ":customer", inv->customer);
	if ((rc = sb_db_step(db, st, e)) == SQLITE_ROW) {
		sb_period p = {sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)};
		char name[96];
		sb_fail(e, SB_EDATA,
		        "'%s' already has finalized invoice %s for %s, which overlaps this period: refused (a finalized invoice never changes)",
		        inv->customer, sb_col_text(st, 0), sb_period_name(&p, name));
	}
	sqlite3_reset(st);
	return e->code;
}

/* Store one draft invoice as finalized, under the next number of its
 * prefix. */
static int store(sb_db *db, const sb_invoice_opts *o, const sb_invoice *inv, int64_t now_ms, sb_err *e)
{
	char period[96], pslug[64], cslug[64], prefix[160], number[180];
	sqlite3_stmt *st;
	int64_t seq = 1, invoice_id, charged;
	char *notes_text = join_notes(inv);
	int rc;

	if (inv->n_notes > 0 && notes_text == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	snprintf(prefix, sizeof prefix, "INV-%s-%s",
	         sb_invoice_slug(sb_period_name(&o->period, period), true, pslug),
	         sb_invoice_slug(strcmp(inv->customer, UNTAGGED) == 0 ? "untagged" : inv->customer, false, cslug));
	if ((st = sb_db_stmt(db, "invoice_next_seq", e)) == NULL)
		goto out;
	sb_bind_text(db, st, ":prefix", prefix);
	if ((rc = sb_db_step(db, st, e)) == SQLITE_ROW)
		seq = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc < 0)
		goto out;
	snprintf(number, sizeof number, "%s-%03lld", prefix, (long long)seq);
	if ((st = sb_db_stmt(db, "invoice_insert", e)) == NULL)
		goto out;
	sb_bind_text(db, st, ":number", number);
	sb_bind_text(db, st, ":number_prefix", prefix);
	sb_bind_i64(db, st, ":number_seq", seq);
	sb_bind_text(db, st, ":tag", o->tag);
	sb_bind_text(db, st, ":customer", inv->customer);
	sb_bind_i64(db, st, ":from_ms", o->period.from_ms);
	sb_bind_i64(db, st, ":to_ms", o->period.to_ms);
	sb_bind_text(db, st, ":basis", sb_basis_name(inv->basis));
	sb_bind_text(db, st, ":currency", inv->currency);
	sb_bind_i64(db, st, ":total_nanos", inv->total_nanos);
	sb_bind_i64(db, st, ":runs", inv->runs);
	sb_bind_text_opt(db, st, ":notes", notes_text);
	sb_bind_i64(db, st, ":created_ms", now_ms);
	if (sb_db_run(db, st, e) != SB_OK)
		goto out;
	invoice_id = sqlite3_last_insert_rowid(sb_db_handle(db));
	for (size_t k = 0; k < inv->n_lines; k++) {
		const sb_invoice_line *l = &inv->lines[k];
		bool compute = l->kind == SB_INV_COMPUTE;
		if ((st = sb_db_stmt(db, "invoice_line_insert", e)) == NULL)
			goto out;
		sb_bind_i64(db, st, ":invoice_id", invoice_id);
		sb_bind_i64(db, st, ":seq", (int64_t)k + 1);
		sb_bind_text(db, st, ":kind", sb_inv_kind_name(l->kind));
		sb_bind_text(db, st, ":description", l->description);
		sb_bind_text_opt(db, st, ":backend", l->backend);
		sb_bind_text_opt(db, st, ":model", l->model);
		sb_bind_i64_opt(db, st, ":quantity_milli", compute, l->quantity_milli);
		sb_bind_text_opt(db, st, ":unit", compute ? "minutes" : NULL);
		sb_bind_i64_opt(db, st, ":rate_nanos", compute && l->has_rate, l->rate_nanos);
		sb_bind_i64_opt(db, st, ":input_tokens", !compute, l->input_tokens);
		sb_bind_i64_opt(db, st, ":output_tokens", !compute, l->output_tokens);
		sb_bind_i64_opt(db, st, ":input_per_m_nanos", !compute, l->input_per_m_nanos);
		sb_bind_i64_opt(db, st, ":output_per_m_nanos", !compute, l->output_per_m_nanos);
		sb_bind_i64(db, st, ":amount_nanos", l->amount_nanos);
		if (sb_db_run(db, st, e) != SB_OK)
			goto out;
	}
	if ((st = sb_db_stmt(db, "invoice_run_insert", e)) == NULL)
		goto out;
	sb_bind_i64(db, st, ":invoice_id", invoice_id);
	bind_period_tag(db, st, o);
	sb_bind_text(db, st, ":customer", inv->customer);
	if (sb_db_run(db, st, e) != SB_OK)
		goto out;
	charged = sqlite3_changes(sb_db_handle(db));
	if (charged != inv->runs)
		sb_fail(e, SB_EINTERNAL, "invoice %s: %lld runs recorded, %lld charged", number,
		        (long long)charged, (long long)inv->runs);
out:
	free(notes_text);
	return e->code;
}

int sb_invoice_finalize(sb_db *db, const sb_invoice_opts *opts, sb_invoice_set **out, sb_err *e)
{
	sb_invoice_set *set = NULL;
	char period[96], done[600] = "";
	int64_t now_ms = sb_now_ms();

	*out = NULL;
	sb_period_name(&opts->period, period);
	if (sb_db_begin(db, e) != SB_OK)
		return e->code;
	if (build(db, opts, &set, e) != SB_OK)
		goto fail;
	if (set->n_invoices == 0 && set->claimed_runs > 0) {
		sb_fail(e, SB_EDATA,
		        "nothing new to finalize for %s by tag %s: its %lld run%s %s already on finalized invoices (%s), and a run is on one finalized invoice at most",
		        period, opts->tag, (long long)set->claimed_runs, set->claimed_runs == 1 ? "" : "s",
		        set->claimed_runs == 1 ? "is" : "are", set->claimed_where);
		goto fail;
	}
	if (set->n_invoices == 0) {
		sb_fail(e, SB_EDATA, "no runs in %s: nothing to finalize", period);
		goto fail;
	}
	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		size_t len = strlen(done);
		if (inv->number != NULL)
			snprintf(done + len, sizeof done - len, "%s%s ('%s')", len > 0 ? ", " : "", inv->number,
			         inv->customer);
	}
	if (done[0] != '\0') {
		sb_fail(e, SB_EDATA,
		        "already finalized for %s: %s; a finalized invoice never changes (runs that arrive later are shown as its adjustments)%s",
		        period, done,
		        opts->customer == NULL ? "; finalize the other customers one at a time with --customer" : "");
		goto fail;
	}
	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		if (inv->total_unknown) {
			char runs[400] = "";
			for (size_t k = 0; k < inv->n_unknown_runs && k < 10; k++) {
				size_t len = strlen(runs);
				snprintf(runs + len, sizeof runs - len, "%s'%s'", k > 0 ? ", " : "", inv->unknown_runs[k]);
			}
			sb_fail(e, SB_EDATA,
			        "the invoice of '%s' cannot be finalized: the token cost of %zu run%s is unknown (tokens but no model, so no price): %s%s",
			        inv->customer, inv->n_unknown_runs, inv->n_unknown_runs == 1 ? "" : "s", runs,
			        inv->n_unknown_runs > 10 ? ", ..." : "");
			goto fail;
		}
	}
	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		if (refuse_overlap(db, opts, inv, e) != SB_OK)
			goto fail;
		if (inv->n_lines == 0) {
			sb_fail(e, SB_EDATA, "'%s' has no runs in %s: nothing to finalize%s%s%s", inv->customer, period,
			        set->claimed_runs > 0 ? " (runs already on finalized invoices are left out: " : "",
			        set->claimed_runs > 0 ? set->claimed_where : "", set->claimed_runs > 0 ? ")" : "");
			goto fail;
		}
		if (store(db, opts, inv, now_ms, e) != SB_OK)
			goto fail;
	}
	if (sb_db_commit(db, e) != SB_OK)
		goto fail;
	sb_invoice_set_free(set);
	/* print what was stored, as any later reprint will */
	return build(db, opts, out, e);
fail:
	sb_db_rollback(db);
	sb_invoice_set_free(set);
	return e->code;
}

/* A money string with 2 decimals. */
static json_t *json_cents(int64_t nanos)
{
	char buf[SB_MONEY_BUFSZ];

	return json_string(sb_money_format(nanos, 2, buf));
}

/* Minutes x 1000 as a decimal string with 3 decimals ("81.234"). */
static json_t *json_minutes(int64_t milli)
{
	char buf[SB_MONEY_BUFSZ];

	return json_string(sb_money_format(milli * 1000000, 3, buf));
}

/* One line as JSON (section 7's shape). */
static json_t *json_line(const sb_invoice_line *l)
{
	json_t *o = json_object();

	json_object_set_new(o, "description", json_string(l->description));
	if (l->kind == SB_INV_COMPUTE) {
		json_object_set_new(o, "backend", json_string(l->backend));
		json_object_set_new(o, "quantity", json_minutes(l->quantity_milli));
		json_object_set_new(o, "unit", json_string("minutes"));
	} else {
		json_object_set_new(o, "model", l->model != NULL ? json_string(l->model) : json_null());
		json_object_set_new(o, "input_tokens", json_integer(l->input_tokens));
		json_object_set_new(o, "output_tokens", json_integer(l->output_tokens));
	}
	json_object_set_new(o, "amount", l->unknown ? json_null() : json_cents(l->amount_nanos));
	return o;
}

/* The runs an adjustment names, other than late ones, as JSON objects. */
static json_t *json_changed_runs(const sb_invoice_adjust *a)
{
	json_t *list = json_array();

	for (size_t k = 0; k < a->n_runs; k++) {
		const sb_adjust_run *r = &a->runs[k];
		json_t *o;
		if (r->kind == SB_ADJ_LATE)
			continue;
		o = json_pack("{s:s, s:s}", "run_id", r->run_id, "change", sb_adjust_kind_name(r->kind));
		if (r->kind == SB_ADJ_MOVED_OUT)
			json_object_set_new(o, "to", r->to != NULL ? json_string(r->to) : json_null());
		if (r->kind == SB_ADJ_MOVED_IN)
			json_object_set_new(o, "from", r->from != NULL ? json_string(r->from) : json_null());
		if (r->kind == SB_ADJ_MOVED_IN || r->kind == SB_ADJ_DUPLICATE)
			json_object_set_new(o, "invoice", r->invoice != NULL ? json_string(r->invoice) : json_null());
		json_array_append_new(list, o);
	}
	return list;
}

json_t *sb_invoice_json(const sb_invoice_set *set)
{
	json_t *root = json_object(), *list = json_array();
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];

	json_object_set_new(root, "period",
	                    json_pack("{s:s, s:s}", "from", sb_time_format(set->period.from_ms, from), "to",
	                              sb_time_format(set->period.to_ms, to)));
	json_object_set_new(root, "basis", json_string(sb_basis_name(set->basis)));
	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		json_t *o = json_object(), *lines = json_array();
		json_object_set_new(o, "customer", json_string(inv->customer));
		json_object_set_new(o, "number", inv->number != NULL ? json_string(inv->number) : json_null());
		json_object_set_new(o, "basis", json_string(sb_basis_name(inv->basis)));
		json_object_set_new(o, "currency", json_string(inv->currency));
		for (size_t k = 0; k < inv->n_lines; k++)
			json_array_append_new(lines, json_line(&inv->lines[k]));
		json_object_set_new(o, "lines", lines);
		json_object_set_new(o, "total", inv->total_unknown ? json_null() : json_cents(inv->total_nanos));
		if (inv->total_unknown) {
			json_t *runs = json_array();
			for (size_t k = 0; k < inv->n_unknown_runs; k++)
				json_array_append_new(runs, json_string(inv->unknown_runs[k]));
			json_object_set_new(o, "unknown_token_runs", runs);
		}
		if (inv->number != NULL) {
			json_t *adj = json_null();
			if (inv->adjust != NULL) {
				json_t *late = json_array(), *dl = json_array();
				for (size_t k = 0; k < inv->adjust->n_runs; k++)
					if (inv->adjust->runs[k].kind == SB_ADJ_LATE)
						json_array_append_new(late, json_string(inv->adjust->runs[k].run_id));
				for (size_t k = 0; k < inv->adjust->n_lines; k++)
					json_array_append_new(dl, json_line(&inv->adjust->lines[k]));
				adj = json_object();
				json_object_set_new(adj, "late_runs", late);
				json_object_set_new(adj, "changed_runs", json_changed_runs(inv->adjust));
				json_object_set_new(adj, "lines", dl);
				json_object_set_new(adj, "total", json_cents(inv->adjust->total_nanos));
			}
			json_object_set_new(o, "adjustments", adj);
		}
		json_array_append_new(list, o);
	}
	json_object_set_new(root, "invoices", list);
	return root;
}
