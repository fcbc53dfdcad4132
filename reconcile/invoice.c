/* invoice.c: invoices per customer (see invoice.h): the names of the
 * enums, freeing what the builder allocates, and the helpers its files
 * share (invoice_int.h). */
#include "reconcile/invoice.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/names.h"
#include "ledger/timefmt.h"
#include "reconcile/invoice_int.h"

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

char *sb_inv_dup(const char *s, sb_err *e)
{
	char *d;

	if (s == NULL)
		return NULL;
	if ((d = strdup(s)) == NULL)
		sb_fail(e, SB_EINTERNAL, "out of memory");
	return d;
}



int sb_inv_note(notes *list, sb_err *e, const char *fmt, ...)
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

/* Free the strings of a line (not the line). */
static void line_free(sb_invoice_line *l)
{
	free(l->description);
	free(l->backend);
	free(l->model);
}

void sb_inv_adjust_free(sb_invoice_adjust *a)
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

void sb_inv_clear(sb_invoice *inv)
{
	free(inv->customer);
	free(inv->number);
	for (size_t i = 0; i < inv->n_lines; i++)
		line_free(&inv->lines[i]);
	free(inv->lines);
	notes_free(inv->notes, inv->n_notes);
	notes_free(inv->unknown_runs, inv->n_unknown_runs);
	free(inv->no_card);
	sb_inv_adjust_free(inv->adjust);
	memset(inv, 0, sizeof *inv);
}

void sb_invoice_set_free(sb_invoice_set *set)
{
	if (set == NULL)
		return;
	for (size_t i = 0; i < set->n_invoices; i++)
		sb_inv_clear(&set->invoices[i]);
	free(set->invoices);
	notes_free(set->notes, set->n_notes);
	notes_free(set->notices, set->n_notices);
	free(set->claimed_where);
	free(set);
}

void sb_inv_fresh_free(fresh *f)
{
	for (size_t i = 0; i < f->n; i++) {
		sb_inv_clear(&f->invs[i]);
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



int sb_inv_note_on(sb_invoice *inv, sb_err *e, const char *fmt, ...)
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
	rc = sb_inv_note(&list, e, "%s", text);
	free(text);
	inv->notes = list.items;
	inv->n_notes = list.n;
	return rc;
}

size_t sb_inv_fresh_customer(fresh *f, const char *customer, sb_basis basis, sb_err *e)
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
	if ((f->invs[lo].customer = sb_inv_dup(customer, e)) == NULL)
		return (size_t)-1;
	return lo;
}

size_t sb_inv_fresh_find(const fresh *f, const char *customer)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->invs[i].customer, customer) == 0)
			return i;
	return (size_t)-1;
}

sb_invoice_line *sb_inv_add_line(sb_invoice *inv, sb_err *e)
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

int sb_inv_describe(sb_invoice_line *l, const char *prefix, const char *name, sb_err *e)
{
	if (asprintf(&l->description, "%s: %s", prefix, name) < 0) {
		l->description = NULL;
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	return SB_OK;
}

sb_invoice_line *sb_inv_compute_line(sb_invoice *inv, const char *backend, sb_err *e)
{
	sb_invoice_line *l;

	for (size_t i = 0; i < inv->n_lines; i++)
		if (inv->lines[i].kind == SB_INV_COMPUTE && strcmp(inv->lines[i].backend, backend) == 0)
			return &inv->lines[i];
	if ((l = sb_inv_add_line(inv, e)) == NULL)
		return NULL;
	l->kind = SB_INV_COMPUTE;
	if ((l->backend = sb_inv_dup(backend, e)) == NULL ||
	    sb_inv_describe(l, "Sandbox compute", backend, e) != SB_OK)
		return NULL;
	return l;
}

int sb_inv_line_cmp(const void *pa, const void *pb)
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

void sb_inv_set_rate(sb_invoice_line *l, __int128 amount)
{
	l->has_rate = l->exec_ms > 0 &&
	              sb_div_round_even(amount * 60000, l->exec_ms, &l->rate_nanos) == SB_MONEY_OK;
}

int sb_inv_to_cent(__int128 nanos, int64_t *out, const char *what, sb_err *e)
{
	if (nanos > INT64_MAX || nanos < INT64_MIN ||
	    sb_money_round((int64_t)nanos, 2, out) != SB_MONEY_OK)
		return sb_fail(e, SB_EDATA, "%s does not fit in 64-bit nanodollars", what);
	return SB_OK;
}

void sb_inv_bind_period_tag(sb_db *db, sb_stmt *st, const sb_invoice_opts *o)
{
	sb_bind_text(db, st, ":tag", o->tag);
	sb_bind_i64(db, st, ":from_ms", o->period.from_ms);
	sb_bind_i64(db, st, ":to_ms", o->period.to_ms);
}

void sb_inv_bind_days(sb_db *db, sb_stmt *st, const sb_invoice_opts *o)
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

void sb_inv_bind_period_days(sb_db *db, sb_stmt *st, const sb_invoice_opts *o)
{
	sb_inv_bind_days(db, st, o);
	sb_bind_text(db, st, ":tag", o->tag);
}
