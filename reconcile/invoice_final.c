/* invoice_final.c: finalized invoices read back as stored, and what
 * changed for each since (see invoice.h): its adjustment. */
#include "reconcile/invoice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "reconcile/invoice_int.h"

/* Load the stored lines of a finalized invoice. */
static int load_lines(sb_db *db, int64_t invoice_id, sb_invoice *inv, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "invoice_lines", e);
	int rc;

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":invoice_id", invoice_id);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		sb_invoice_line *l = sb_inv_add_line(inv, e);
		if (l == NULL)
			break;
		if (sb_inv_kind_parse(sb_col_text(st, 0), &l->kind, e) != SB_OK)
			break;
		if ((l->description = sb_inv_dup(sb_col_text(st, 1), e)) == NULL)
			break;
		l->backend = sb_inv_dup(sb_col_text(st, 2), e);
		l->model = sb_inv_dup(sb_col_text(st, 3), e);
		if ((l->kind == SB_INV_COMPUTE && l->backend == NULL) || (l->kind == SB_INV_TOKENS && l->model == NULL)) {
			sb_fail(e, SB_EINTERNAL, "invoice %lld: a stored line lacks its backend or model",
			        (long long)invoice_id);
			break;
		}
		l->quantity_milli = sb_col_i64(st, 4);
		l->has_rate = !sb_col_is_null(st, 6);
		l->rate_nanos = sb_col_i64(st, 6);
		l->input_tokens = sb_col_i64(st, 7);
		l->output_tokens = sb_col_i64(st, 8);
		l->input_per_m_nanos = sb_col_i64(st, 9);
		l->output_per_m_nanos = sb_col_i64(st, 10);
		l->amount_nanos = sb_col_i64(st, 11);
	}
	sb_stmt_reset(st);
	return e->code;
}

/* Split stored notes (one per line) into inv's notes. */
static int load_notes(const char *text, sb_invoice *inv, sb_err *e)
{
	while (text != NULL && *text != '\0') {
		const char *nl = strchr(text, '\n');
		size_t len = nl != NULL ? (size_t)(nl - text) : strlen(text);
		if (sb_inv_note_on(inv, e, "%.*s", (int)len, text) != SB_OK)
			return e->code;
		text = nl != NULL ? nl + 1 : NULL;
	}
	return SB_OK;
}

int sb_inv_load_stored(sb_db *db, const sb_invoice_opts *o, stored **out, size_t *n_out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "invoice_find", e);
	stored *list = NULL;
	size_t n = 0;
	int rc;

	*out = NULL;
	*n_out = 0;
	if (st == NULL)
		return e->code;
	sb_inv_bind_period_tag(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
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
		list[n - 1].invoice_id = sb_col_i64(st, 0);
		if ((inv->number = sb_inv_dup(sb_col_text(st, 1), e)) == NULL ||
		    (inv->customer = sb_inv_dup(sb_col_text(st, 2), e)) == NULL)
			break;
		if (sb_basis_parse(sb_col_text(st, 3), &inv->basis, e) != SB_OK)
			break;
		snprintf(inv->currency, sizeof inv->currency, "%s", sb_col_text(st, 4));
		inv->total_nanos = sb_col_i64(st, 5);
		inv->runs = sb_col_i64(st, 6);
		if (load_notes(sb_col_text(st, 7), inv, e) != SB_OK)
			break;
		inv->created_ms = sb_col_i64(st, 8);
	}
	sb_stmt_reset(st);
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
			    sb_inv_to_cent(nanos, &d.amount_nanos, "a token cost", e) != SB_OK)
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
	if ((l->description = sb_inv_dup(any->description, e)) == NULL)
		return e->code;
	l->backend = sb_inv_dup(any->backend, e);
	l->model = sb_inv_dup(any->model, e);
	a->total_nanos += d.amount_nanos;
	return e->code;
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
	sb_stmt *st = sb_db_stmt(db, "invoice_changed_runs", e);
	size_t cap = 0;
	int rc;

	if (st == NULL)
		return e->code;
	sb_inv_bind_period_tag(db, st, o);
	sb_bind_text(db, st, ":customer", s->inv.customer);
	sb_bind_i64(db, st, ":invoice_id", s->invoice_id);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		int64_t kind = sb_col_i64(st, 0);
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
		if ((r->run_id = sb_inv_dup(sb_col_text(st, 1), e)) == NULL)
			break;
		r->to = sb_inv_dup(sb_col_text(st, 2), e);
		r->from = sb_inv_dup(sb_col_text(st, 3), e);
		r->invoice = sb_inv_dup(sb_col_text(st, 4), e);
		if (e->code != SB_OK)
			break;
	}
	sb_stmt_reset(st);
	return e->code;
}

/* True when two lines are for the same backend or model. */
static bool same_line(const sb_invoice_line *a, const sb_invoice_line *b)
{
	return a->kind == b->kind && sb_inv_line_cmp(a, b) == 0;
}

int sb_inv_adjust(sb_db *db, const sb_invoice_opts *o, stored *s, const sb_invoice *now, sb_err *e)
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
		if (match == NULL || !match->unknown)   /* unknown now: noted below, never a credit */
			add_delta(a, &then->lines[k], match, e);
	}
	for (size_t j = 0; now != NULL && j < now->n_lines && e->code == SB_OK; j++) {
		bool known = false;
		for (size_t k = 0; k < then->n_lines && !known; k++)
			known = same_line(&then->lines[k], &now->lines[j]);
		if (now->lines[j].unknown && now->lines[j].kind == SB_INV_COMPUTE)
			sb_inv_note_on(&s->inv, e, "the compute cost of %lld run%s of %s is unknown (no rate card in force at %s start): left out of the adjustment",
			         (long long)now->lines[j].no_card_runs, now->lines[j].no_card_runs == 1 ? "" : "s",
			         QUOTE(now->lines[j].backend), now->lines[j].no_card_runs == 1 ? "its" : "their");
		else if (now->lines[j].unknown)
			sb_inv_note_on(&s->inv, e, "the tokens of %zu run%s name no model, so they have no price: they are left out of the adjustment",
			         now->n_unknown_runs, now->n_unknown_runs == 1 ? "" : "s");
		else if (!known)
			add_delta(a, NULL, &now->lines[j], e);
	}
	if (e->code == SB_OK)
		changed_runs(db, o, s, a, e);
	if (e->code != SB_OK || (a->n_lines == 0 && a->n_runs == 0)) {
		sb_inv_adjust_free(a);
		return e->code;
	}
	qsort(a->lines, a->n_lines, sizeof *a->lines, sb_inv_line_cmp);
	s->inv.adjust = a;
	return SB_OK;
}
