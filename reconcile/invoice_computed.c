/* invoice_computed.c: the invoices of a period computed now (see
 * invoice.h): the compute and token lines of every customer from the
 * runs and the day rollups, less the runs other finalized invoices
 * charged, priced on the computed basis here and on the billed basis by
 * invoice_billed.c. */
#include "reconcile/invoice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/period.h"
#include "reconcile/invoice_int.h"

/* Append a copy of s to the list *items of *n strings. */
static int push_str(char ***items, size_t *n, const char *s, sb_err *e)
{
	char **list = realloc(*items, (*n + 1) * sizeof *list);

	if (list == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	*items = list;
	if ((list[*n] = sb_inv_dup(s, e)) == NULL)
		return e->code;
	(*n)++;
	return SB_OK;
}

/* Exec milliseconds as minutes x 1000, rounded half to even. */
static int64_t milli_minutes(int64_t exec_ms)
{
	int64_t milli = 0;

	sb_div_round_even(exec_ms, 60, &milli);
	return milli;
}

/* Whether columns [first, first + n) of st's row are integers: a day
 * rollup whose sum passed 64 bits holds a REAL (sql/schema/005_rollup.sql),
 * and so does a SUM over one; SB_EDATA otherwise. */
static int exact_sums(sb_stmt *st, int first, int n, sb_err *e)
{
	for (int c = first; c < first + n; c++)
		if (sb_col_kind(st, c) != SB_COL_INT)
			return sb_fail(e, SB_EDATA, "a sum of the invoice overflows 64-bit nanodollars");
	return SB_OK;
}

/* Read invoice_claimed.sql into f->claims (when a run of the period can
 * be on a finalized invoice at all: invoice_claims_possible.sql) and add
 * the runs to f->claimed_runs. */
static int load_claims(sb_db *db, const sb_invoice_opts *o, fresh *f, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "invoice_claims_possible", e);
	size_t cap = 0;
	int rc;
	bool any = false;

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":from_ms", o->period.from_ms);
	sb_bind_i64(db, st, ":to_ms", o->period.to_ms);
	if ((rc = sb_db_step(db, st, e)) == SB_ROW)
		any = sb_col_i64(st, 0) != 0;
	sb_stmt_reset(st);
	if (rc < 0 || !any)
		return e->code;
	if ((st = sb_db_stmt(db, "invoice_claimed", e)) == NULL)
		return e->code;
	sb_inv_bind_period_tag(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
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
		if ((c->customer = sb_inv_dup(sb_col_text(st, 0), e)) == NULL ||
		    (c->backend = sb_inv_dup(sb_col_text(st, 1), e)) == NULL ||
		    (c->model = sb_inv_dup(sb_col_text(st, 2), e)) == NULL ||
		    (c->number = sb_inv_dup(sb_col_text(st, 3), e)) == NULL)
			break;
		c->belongs = sb_col_i64(st, 4) != 0;
		c->runs = sb_col_i64(st, 5);
		c->exec_ms = sb_col_i64(st, 6);
		c->computed_nanos = sb_col_i64(st, 7);
		c->input_tokens = sb_col_i64(st, 8);
		c->output_tokens = sb_col_i64(st, 9);
		f->claimed_runs += c->runs;
	}
	sb_stmt_reset(st);
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
	sb_stmt *st = sb_db_stmt(db, "invoice_compute", e);
	int rc;

	if (st == NULL)
		return e->code;
	sb_inv_bind_period_days(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		const char *customer = sb_col_text(st, 0), *backend = sb_col_text(st, 1);
		size_t i;
		sb_invoice_line *l;
		claim left;
		if (exact_sums(st, 2, 4, e) != SB_OK)
			break;
		f->any_runs = true;
		f->tag_seen = f->tag_seen || strcmp(customer, UNTAGGED) != 0;
		claimed(f, customer, backend, NULL, &left);
		if (sb_col_i64(st, 2) - left.runs <= 0)
			continue;
		if ((i = sb_inv_fresh_customer(f, customer, basis, e)) == (size_t)-1 ||
		    (l = sb_inv_compute_line(&f->invs[i], backend, e)) == NULL)
			break;
		l->runs = sb_col_i64(st, 2) - left.runs;
		l->exec_ms = sb_col_i64(st, 3) - left.exec_ms;
		l->computed_nanos = sb_col_i64(st, 4) - left.computed_nanos;
		l->quantity_milli = milli_minutes(l->exec_ms);
		/* claimed runs were priced when finalized: the unpriced are of the rest */
		l->no_card_runs = sb_col_i64(st, 2) - sb_col_i64(st, 5);
		if (l->no_card_runs > l->runs)
			l->no_card_runs = l->runs;
		f->invs[i].runs += l->runs;
	}
	sb_stmt_reset(st);
	return e->code;
}

/* The token lines of every customer, priced: tokens x price per million,
 * / 10^6 rounded half to even to the nanodollar once per line, then half
 * to even to the cent.  A model with no price is remembered per customer;
 * the tokens of runs that name no model make an unknown line (model
 * NULL).  The runs other finalized invoices charged are left out. */
static int read_tokens(sb_db *db, const sb_invoice_opts *o, sb_basis basis, fresh *f, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "invoice_tokens", e);
	int rc;

	if (st == NULL)
		return e->code;
	sb_inv_bind_period_days(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		const char *customer = sb_col_text(st, 0), *model = sb_col_text(st, 1);
		bool none = model[0] == '\0';
		size_t i;
		sb_invoice_line *l;
		int64_t nanos = 0;
		claim left;
		if (exact_sums(st, 2, 2, e) != SB_OK || exact_sums(st, 6, 1, e) != SB_OK)
			break;
		claimed(f, customer, NULL, model, &left);
		if (sb_col_i64(st, 6) - left.runs <= 0 ||
		    (none && sb_col_i64(st, 2) == left.input_tokens &&
		     sb_col_i64(st, 3) == left.output_tokens))
			continue;
		if ((i = sb_inv_fresh_customer(f, customer, basis, e)) == (size_t)-1 || (l = sb_inv_add_line(&f->invs[i], e)) == NULL)
			break;
		l->kind = SB_INV_TOKENS;
		l->runs = sb_col_i64(st, 6) - left.runs;
		l->input_tokens = sb_col_i64(st, 2) - left.input_tokens;
		l->output_tokens = sb_col_i64(st, 3) - left.output_tokens;
		if (none) {
			/* no model, no price: the amount is unknown, never 0 */
			l->unknown = true;
			f->invs[i].total_unknown = true;
			if (sb_inv_describe(l, "Tokens", "no model", e) != SB_OK)
				break;
			continue;
		}
		if ((l->model = sb_inv_dup(model, e)) == NULL || sb_inv_describe(l, "Tokens", model, e) != SB_OK)
			break;
		if (sb_col_is_null(st, 4)) {
			if (f->unpriced[i] == NULL && (f->unpriced[i] = sb_inv_dup(model, e)) == NULL)
				break;
			continue;
		}
		l->input_per_m_nanos = sb_col_i64(st, 4);
		l->output_per_m_nanos = sb_col_i64(st, 5);
		if (sb_div_round_even((__int128)l->input_tokens * l->input_per_m_nanos +
		                      (__int128)l->output_tokens * l->output_per_m_nanos,
		                      1000000, &nanos) != SB_MONEY_OK ||
		    sb_inv_to_cent(nanos, &l->amount_nanos, "a token cost", e) != SB_OK) {
			sb_fail(e, SB_EDATA, "the token cost of model %s does not fit in 64-bit nanodollars", QUOTE(model));
			break;
		}
	}
	sb_stmt_reset(st);
	return e->code;
}

/* The runs behind the unknown token lines of f (tokens, no model), onto
 * their invoices' unknown_runs. */
static int read_unknown_runs(sb_db *db, const sb_invoice_opts *o, fresh *f, sb_err *e)
{
	sb_stmt *st;
	bool any = false;
	int rc;

	for (size_t i = 0; i < f->n && !any; i++)
		any = f->invs[i].total_unknown;
	if (!any)
		return SB_OK;
	if ((st = sb_db_stmt(db, "invoice_unmodelled", e)) == NULL)
		return e->code;
	sb_inv_bind_period_tag(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		size_t i = sb_inv_fresh_find(f, sb_col_text(st, 0));
		if (i != (size_t)-1 &&
		    push_str(&f->invs[i].unknown_runs, &f->invs[i].n_unknown_runs, sb_col_text(st, 1), e) != SB_OK)
			break;
	}
	sb_stmt_reset(st);
	return e->code;
}

/* Computed basis: the compute lines of f whose runs no rate card priced
 * have an unknown amount, never 0; each invoice names their backends
 * (inv->no_card), with the earliest such start of the period's runs
 * (sb_rates_no_card, read only when there is one). */
static int mark_no_card(sb_db *db, const sb_invoice_opts *o, fresh *f, sb_err *e)
{
	sb_no_card *period = NULL;
	size_t n_period = 0;
	bool any = false;

	for (size_t i = 0; i < f->n && !any; i++)
		for (size_t k = 0; k < f->invs[i].n_lines && !any; k++)
			any = f->invs[i].lines[k].kind == SB_INV_COMPUTE && f->invs[i].lines[k].no_card_runs > 0;
	if (!any || sb_rates_no_card(db, o->period.from_ms, o->period.to_ms, &period, &n_period, e) != SB_OK)
		return e->code;
	for (size_t i = 0; i < f->n; i++) {
		sb_invoice *inv = &f->invs[i];
		for (size_t k = 0; k < inv->n_lines; k++) {
			sb_invoice_line *l = &inv->lines[k];
			sb_no_card *nc;
			if (l->kind != SB_INV_COMPUTE || l->no_card_runs <= 0)
				continue;
			if ((nc = sb_no_card_push(&inv->no_card, &inv->n_no_card, l->backend, l->no_card_runs,
			                          o->period.from_ms)) == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				goto out;
			}
			for (size_t j = 0; j < n_period; j++)
				if (strcmp(period[j].backend, l->backend) == 0)
					nc->first_ms = period[j].first_ms;
			l->unknown = true;
			inv->total_unknown = true;
		}
	}
out:
	free(period);
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
	sb_inv_note(&f->notices, e, "%lld run%s of %s %s left out: other finalized invoices charged %s, and a run is on one finalized invoice at most: %s",
	     (long long)f->claimed_runs, f->claimed_runs == 1 ? "" : "s", sb_period_name(&o->period, period),
	     f->claimed_runs == 1 ? "is" : "are", f->claimed_runs == 1 ? "it" : "them", list);
	free(f->claimed_where);
	f->claimed_where = list;
	return e->code;
}

int sb_inv_compute_fresh(sb_db *db, const sb_invoice_opts *o, sb_basis basis, fresh *f, sb_err *e)
{
	memset(f, 0, sizeof *f);
	if (load_claims(db, o, f, e) != SB_OK || read_compute(db, o, basis, f, e) != SB_OK ||
	    read_tokens(db, o, basis, f, e) != SB_OK || read_unknown_runs(db, o, f, e) != SB_OK ||
	    note_claims(o, f, e) != SB_OK)
		return e->code;
	if (basis == SB_BASIS_BILLED) {
		char money[SB_MONEY_BUFSZ];
		if (sb_inv_apply_billed(db, o, f, e) != SB_OK)
			return e->code;
		if (f->set_aside != 0 && f->set_aside <= INT64_MAX && f->set_aside >= INT64_MIN &&
		    sb_inv_note(&f->notices, e, "%s USD billed for runs that other finalized invoices charged is set aside, not charged again",
		         sb_money_format((int64_t)f->set_aside, 9, money)) != SB_OK)
			return e->code;
	} else {
		/* each backend's computed_cost_usd, half to even to the cent,
		 * but where a run had no card: unknown, never 0 */
		if (mark_no_card(db, o, f, e) != SB_OK)
			return e->code;
		for (size_t i = 0; i < f->n; i++) {
			for (size_t k = 0; k < f->invs[i].n_lines; k++) {
				sb_invoice_line *l = &f->invs[i].lines[k];
				if (l->kind != SB_INV_COMPUTE || l->unknown)
					continue;
				if (sb_inv_to_cent(l->computed_nanos, &l->amount_nanos, "a computed cost", e) != SB_OK)
					return e->code;
				sb_inv_set_rate(l, l->computed_nanos);
			}
		}
	}
	for (size_t i = 0; i < f->n; i++) {
		sb_invoice *inv = &f->invs[i];
		qsort(inv->lines, inv->n_lines, sizeof *inv->lines, sb_inv_line_cmp);
		inv->total_nanos = 0;
		/* an unknown line adds 0 here: total_unknown says the total is not known */
		for (size_t k = 0; k < inv->n_lines; k++)
			if (sb_money_add(inv->total_nanos, inv->lines[k].amount_nanos, &inv->total_nanos) != SB_MONEY_OK)
				return sb_fail(e, SB_EDATA, "the total of the invoice of %s overflows 64-bit nanodollars",
				               QUOTE(inv->customer));
	}
	return SB_OK;
}
