/* budget.c: report budget (see budget.h). */
#include "reconcile/budget.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/quote.h"
#include "ledger/rates.h"
#include "reconcile/allocate.h"

/* The names of the bases, by their enum. */
static const char *const basis_names[] = {
	[SB_COMPUTE_BILLED] = "billed",
	[SB_COMPUTE_LIFETIME] = "lifetime",
	[SB_COMPUTE_COMPUTED] = "computed",
};

const char *sb_compute_basis_name(sb_compute_basis basis)
{
	return basis_names[basis];
}

/* What a run's session was billed, read with the run. */
typedef struct session_bill {
	bool has;                   /* the session has USD billed lines only */
	int64_t billed_nanos;       /* their sum */
	int64_t weight;             /* lifetime (else exec) ms of all its runs */
	int64_t runs;               /* all its runs */
	int64_t own_weight;         /* this run's */
} session_bill;

void sb_budget_free(sb_budget *b)
{
	if (b == NULL)
		return;
	for (size_t i = 0; i < b->n_runs; i++) {
		free(b->runs[i].run_id);
		free(b->runs[i].backend);
		free(b->runs[i].session_id);
		free(b->runs[i].plan);
		free(b->runs[i].model);
	}
	for (size_t i = 0; i < b->n_unpriced; i++)
		free(b->unpriced[i]);
	free(b->unpriced);
	free(b->no_card);
	free(b->runs);
	free(b);
}

/* strdup of a nullable column; false when out of memory. */
static bool dup_col(sb_stmt *st, int col, char **out)
{
	const char *s = sb_col_text(st, col);

	*out = NULL;
	return s == NULL || (*out = strdup(s)) != NULL;
}

/* Remember a model with no price (once). */
static bool note_unpriced(sb_budget *b, const char *model)
{
	char **list;

	for (size_t i = 0; i < b->n_unpriced; i++)
		if (strcmp(b->unpriced[i], model) == 0)
			return true;
	if ((list = realloc(b->unpriced, (b->n_unpriced + 1) * sizeof *list)) == NULL)
		return false;
	b->unpriced = list;
	if ((list[b->n_unpriced] = strdup(model)) == NULL)
		return false;
	b->n_unpriced++;
	return true;
}

/* Split the bills of the runs [from, to) of one session (consecutive in
 * b->runs, all with bills[i].has): each run's share by its weight, the
 * session's runs outside the period as one more share, largest remainder
 * to the nanodollar; equal shares when no run has a weight. */
static int split_session(sb_budget *b, const session_bill *bills, size_t from, size_t to, sb_err *e)
{
	size_t n = to - from;
	int64_t *w = calloc(n + 1, sizeof *w), *share = calloc(n + 1, sizeof *share);
	int64_t in_weight = 0;
	int rc;

	if (w == NULL || share == NULL) {
		free(w);
		free(share);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	for (size_t k = 0; k < n; k++)
		in_weight += (w[k] = bills[from + k].own_weight > 0 ? bills[from + k].own_weight : 0);
	w[n] = bills[from].weight > in_weight ? bills[from].weight - in_weight : 0;
	rc = sb_allocate(bills[from].billed_nanos, w, n + 1, share);
	if (rc == SB_ALLOC_NO_WEIGHT) {
		for (size_t k = 0; k < n; k++)
			w[k] = 1;
		w[n] = bills[from].runs > (int64_t)n ? bills[from].runs - (int64_t)n : 0;
		rc = sb_allocate(bills[from].billed_nanos, w, n + 1, share);
	}
	for (size_t k = 0; k < n && rc == SB_ALLOC_OK; k++) {
		b->runs[from + k].compute_nanos = share[k];
		b->runs[from + k].compute_basis = SB_COMPUTE_BILLED;
	}
	free(w);
	free(share);
	if (rc != SB_ALLOC_OK)
		return sb_fail(e, SB_EDATA, "cannot split the bill of session %s over its runs",
		               sb_quote(b->runs[from].session_id, SB_QUOTE_IF_NEEDED, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ));
	return SB_OK;
}

/* Read the runs of the period: token cost, and compute cost from the
 * run's own figures; bills[] gets what each run's session was billed. */
static int read_runs(sb_db *db, sb_budget *b, session_bill **bills_out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "budget_runs", e);
	session_bill *bills = NULL;
	size_t cap = 0;
	int rc;

	*bills_out = NULL;
	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":from_ms", b->period.from_ms);
	sb_bind_i64(db, st, ":to_ms", b->period.to_ms);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		sb_budget_run *r;
		session_bill *sb;
		if (b->n_runs == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			sb_budget_run *runs = realloc(b->runs, ncap * sizeof *runs);
			session_bill *nb;
			if (runs == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				break;
			}
			b->runs = runs;
			if ((nb = realloc(bills, ncap * sizeof *nb)) == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				break;
			}
			bills = nb;
			cap = ncap;
		}
		r = &b->runs[b->n_runs];
		sb = &bills[b->n_runs];
		memset(r, 0, sizeof *r);
		memset(sb, 0, sizeof *sb);
		b->n_runs++;
		if (!dup_col(st, 0, &r->run_id) || !dup_col(st, 1, &r->backend) || !dup_col(st, 2, &r->session_id) ||
		    !dup_col(st, 3, &r->plan) ||
		    !dup_col(st, 4, &r->model)) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			break;
		}
		r->started_ms = sb_col_i64(st, 5);
		r->has_lifetime = !sb_col_is_null(st, 6);
		r->lifetime_ms = sb_col_i64(st, 6) - r->started_ms;
		r->has_budget = !sb_col_is_null(st, 7);
		r->budget_nanos = sb_col_i64(st, 7);
		/* token cost: tokens x price per million / 10^6, half to even once */
		if (r->model == NULL) {
			/* tokens but no model (the SDK's token usage names none):
			 * unknown, never 0 */
			r->tokens_without_model = sb_col_i64(st, 8) != 0 || sb_col_i64(st, 9) != 0;
			r->has_token = !r->tokens_without_model;
			b->tokens_without_model += r->tokens_without_model;
		} else if (sb_col_is_null(st, 10)) {
			if (sb_col_i64(st, 8) == 0 && sb_col_i64(st, 9) == 0) {
				r->has_token = true;
			} else if (!note_unpriced(b, r->model)) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				break;
			}
		} else {
			r->has_token = sb_div_round_even((__int128)sb_col_i64(st, 8) * sb_col_i64(st, 10) +
			                                 (__int128)sb_col_i64(st, 9) * sb_col_i64(st, 11),
			                                 1000000, &r->token_nanos) == SB_MONEY_OK;
		}
		/* compute cost from the run itself: billed, else lifetime, else computed */
		if (!sb_col_is_null(st, 13)) {
			r->compute_nanos = sb_col_i64(st, 13);
			r->compute_basis = SB_COMPUTE_BILLED;
		} else if (!sb_col_is_null(st, 14)) {
			r->compute_nanos = sb_col_i64(st, 14);
			r->compute_basis = SB_COMPUTE_LIFETIME;
		} else {
			r->compute_nanos = sb_col_i64(st, 12);
			r->compute_basis = SB_COMPUTE_COMPUTED;
		}
		sb->has = !sb_col_is_null(st, 16) && sb_col_i64(st, 17) == 0;
		sb->billed_nanos = sb_col_i64(st, 16);
		sb->weight = sb_col_i64(st, 18);
		sb->runs = sb_col_i64(st, 19);
		sb->own_weight = r->has_lifetime ? r->lifetime_ms : sb_col_i64(st, 15);
	}
	sb_stmt_reset(st);
	*bills_out = bills;
	return e->code;
}

/* A run with no bill and no card in force at its start (card a NULL
 * find): its compute cost is unknown, never 0; counted, and its backend
 * noted in b->no_card (runs come by backend).  False when out of memory. */
static bool note_no_card(sb_budget *b, sb_budget_run *r)
{
	sb_no_card *last = b->n_no_card > 0 ? &b->no_card[b->n_no_card - 1] : NULL;

	r->has_compute = false;
	r->compute_nanos = 0;
	b->has_compute = false;
	b->compute_unknown++;
	if ((last == NULL || strcmp(last->backend, r->backend) != 0) &&
	    (last = sb_no_card_push(&b->no_card, &b->n_no_card, r->backend, 0, r->started_ms)) == NULL)
		return false;
	last->runs++;
	if (r->started_ms < last->first_ms)
		last->first_ms = r->started_ms;
	return true;
}

/* The savings of a lifetime cap: the card cost of the lifetime past the
 * limit, with the card in force at the run's start. */
static void savings(const sb_rates *rates, sb_budget_run *r, int64_t max_ms)
{
	const sb_card *card = sb_rates_find(rates, r->backend, r->plan, r->started_ms);

	r->has_savings = card != NULL &&
	                 sb_card_cost_for_ms(card, r->lifetime_ms - max_ms, &r->savings_nanos) == SB_MONEY_OK;
}

int sb_budget_build(sb_db *db, const sb_period *period, int64_t max_lifetime_ms, sb_budget **out,
                    sb_err *e)
{
	sb_budget *b = calloc(1, sizeof *b);
	session_bill *bills = NULL;
	sb_rates *rates = NULL;

	*out = NULL;
	if (b == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	b->period = *period;
	b->max_lifetime_ms = max_lifetime_ms;
	b->has_token = true;
	b->has_compute = true;
	if (read_runs(db, b, &bills, e) != SB_OK || sb_rates_load(db, &rates, e) != SB_OK)
		goto out;
	/* sessions the providers billed: their lines override the runs' own */
	for (size_t i = 0; i < b->n_runs;) {
		size_t j = i + 1;
		if (!bills[i].has) {
			i++;
			continue;
		}
		while (j < b->n_runs && bills[j].has && strcmp(b->runs[j].backend, b->runs[i].backend) == 0 &&
		       strcmp(b->runs[j].session_id, b->runs[i].session_id) == 0)
			j++;
		if (split_session(b, bills, i, j, e) != SB_OK)
			goto out;
		i = j;
	}
	for (size_t i = 0; i < b->n_runs; i++) {
		sb_budget_run *r = &b->runs[i];
		bool ok = true;
		r->has_compute = true;
		if (r->compute_basis == SB_COMPUTE_COMPUTED &&
		    sb_rates_find(rates, r->backend, r->plan, r->started_ms) == NULL && !note_no_card(b, r)) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			goto out;
		}
		if (!r->has_token)
			b->has_token = false;
		ok = sb_money_add(r->compute_nanos, r->has_token ? r->token_nanos : 0, &r->total_nanos) == SB_MONEY_OK &&
		     sb_money_add(b->token_nanos, r->has_token ? r->token_nanos : 0, &b->token_nanos) == SB_MONEY_OK &&
		     sb_money_add(b->compute_nanos, r->compute_nanos, &b->compute_nanos) == SB_MONEY_OK;
		if (ok && r->has_budget) {
			b->budgeted_runs++;
			ok = sb_money_add(b->budget_nanos, r->budget_nanos, &b->budget_nanos) == SB_MONEY_OK;
			if (ok && r->total_nanos > r->budget_nanos) {
				r->over_budget = true;
				r->over_nanos = r->total_nanos - r->budget_nanos;
				b->over_budget++;
			}
		}
		if (ok && r->has_lifetime && r->lifetime_ms > max_lifetime_ms) {
			r->over_lifetime = true;
			b->over_lifetime++;
			savings(rates, r, max_lifetime_ms);
			if (r->has_savings)
				ok = sb_money_add(b->savings_nanos, r->savings_nanos, &b->savings_nanos) == SB_MONEY_OK;
		}
		if (r->has_compute)
			b->by_basis[r->compute_basis]++;
		if (!ok) {
			sb_fail(e, SB_EDATA, "a sum of the budget report overflows 64-bit nanodollars");
			goto out;
		}
	}
	if (sb_money_add(b->token_nanos, b->compute_nanos, &b->total_nanos) != SB_MONEY_OK)
		sb_fail(e, SB_EDATA, "a sum of the budget report overflows 64-bit nanodollars");
out:
	free(bills);
	sb_rates_free(rates);
	if (e->code != SB_OK) {
		sb_budget_free(b);
		return e->code;
	}
	*out = b;
	return SB_OK;
}
