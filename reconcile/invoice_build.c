/* invoice_build.c: sb_invoice_build (see invoice.h): finalized invoices
 * as stored and the others computed now, merged by customer; the refusal
 * of a tag no run has and of a customer no run has had. */
#include "reconcile/invoice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/period.h"
#include "reconcile/invoice_int.h"

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
	sb_stmt *st = sb_db_stmt(db, "invoice_overlap", e);
	int rc;

	if (st == NULL)
		return e->code;
	sb_inv_bind_period_tag(db, st, o);
	sb_bind_text(db, st, ":customer", inv->customer);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		sb_period p = {sb_col_i64(st, 1), sb_col_i64(st, 2)};
		char name[96];
		if (sb_inv_note_on(inv, e, "finalized invoice %s (%s) overlaps this period: the runs it charged are not charged here",
		             sb_col_text(st, 0), sb_period_name(&p, name)) != SB_OK)
			break;
	}
	sb_stmt_reset(st);
	return e->code;
}

/* A customer given with --customer that has no invoice in the period:
 * an empty invoice when some run has ever had that tag value, else
 * SB_EDATA naming the values that exist. */
static int unknown_customer(sb_db *db, const sb_invoice_opts *o, const fresh *f, sb_invoice_set *set, sb_err *e)
{
	bool charged = false;

	sb_stmt *st = sb_db_stmt(db, "invoice_tag_value_known", e);
	sb_invoice inv;
	char list[600] = "", period[96];
	int rc;
	bool known = strcmp(o->customer, UNTAGGED) == 0;

	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":name", o->tag);
	sb_bind_text(db, st, ":value", o->customer);
	if ((rc = sb_db_step(db, st, e)) == SB_ROW)
		known = known || sb_col_i64(st, 0) > 0;
	sb_stmt_reset(st);
	if (rc < 0)
		return e->code;
	sb_period_name(&o->period, period);
	if (known) {
		memset(&inv, 0, sizeof inv);
		inv.basis = o->basis;
		memcpy(inv.currency, "USD", 4);
		for (size_t k = 0; k < f->n_claims && !charged; k++)
			charged = strcmp(f->claims[k].customer, o->customer) == 0;
		if ((inv.customer = sb_inv_dup(o->customer, e)) == NULL ||
		    (charged ? sb_inv_note_on(&inv, e, "every run of %s in %s is on a finalized invoice already: nothing new to charge",
		                        o->customer, period)
		             : sb_inv_note_on(&inv, e, "%s has no runs in %s: nothing to charge", o->customer, period)) != SB_OK ||
		    (charged && note_overlaps(db, o, &inv, e) != SB_OK) || set_push(set, &inv, e) != SB_OK) {
			sb_inv_clear(&inv);
			return e->code;
		}
		return SB_OK;
	}
	if ((st = sb_db_stmt(db, "invoice_tag_values", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":name", o->tag);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		size_t len = strlen(list);
		snprintf(list + len, sizeof list - len, "%s%s", len > 0 ? ", " : "", QUOTE(sb_col_text(st, 0)));
	}
	sb_stmt_reset(st);
	if (rc < 0)
		return e->code;
	if (list[0] == '\0') {
		char customer[SB_QUOTE_BUFSZ], tag[SB_QUOTE_BUFSZ], word[SB_QUOTE_BUFSZ];
		return sb_fail_hint(e, SB_EDATA, SB_HINT_TAG, "no customer %s: no run has a tag %s " SB_WORDS_TAG,
		                    sb_quote(o->customer, SB_QUOTE_ALWAYS, customer, sizeof customer),
		                    sb_quote(o->tag, SB_QUOTE_ALWAYS, tag, sizeof tag),
		                    sb_quote(o->tag, SB_QUOTE_IF_NEEDED, word, sizeof word));
	}
	{
		char customer[SB_QUOTE_BUFSZ], tag[SB_QUOTE_BUFSZ];
		return sb_fail(e, SB_EDATA, "no customer %s: no run has tag %s = %s; the values it has are %s",
		               sb_quote(o->customer, SB_QUOTE_ALWAYS, customer, sizeof customer),
		               sb_quote(o->tag, SB_QUOTE_IF_NEEDED, tag, sizeof tag), QUOTE(o->customer), list);
	}
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
	sb_stmt *st = sb_db_stmt(db, "invoice_tag_in_period", e);
	char list[600] = "", period[96], best[129] = "", mean[160] = "";
	size_t best_d = SIZE_MAX, n = 0;
	int rc;
	bool carried = false;

	if (st == NULL)
		return e->code;
	sb_inv_bind_period_days(db, st, o);
	if ((rc = sb_db_step(db, st, e)) == SB_ROW)
		carried = sb_col_i64(st, 0) != 0;
	sb_stmt_reset(st);
	if (rc < 0 || carried)
		return e->code;
	if ((st = sb_db_stmt(db, "invoice_period_tags", e)) == NULL)
		return e->code;
	sb_inv_bind_days(db, st, o);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		const char *name = sb_col_text(st, 0);
		size_t len = strlen(list), d = sb_edit_distance(o->tag, name);
		if (len < sizeof list - 1)
			snprintf(list + len, sizeof list - len, "%s%s", len > 0 ? ", " : "", QUOTE(name));
		if (d < best_d) {
			best_d = d;
			snprintf(best, sizeof best, "%s", name);
		}
		n++;
	}
	sb_stmt_reset(st);
	if (rc < 0)
		return e->code;
	sb_period_name(&o->period, period);
	if (n == 0)
		return sb_fail(e, SB_EDATA, "no run of %s has a tag %s: its runs have no tags at all", period,
		               QUOTE(o->tag));
	if (best_d <= 2 && best_d < strlen(best) && best_d < strlen(o->tag))
		snprintf(mean, sizeof mean, " (did you mean %s?)", QUOTE(best));
	return sb_fail(e, SB_EDATA, "no run of %s has a tag %s%s; the tag%s its runs have: %s", period,
	               QUOTE(o->tag), mean, n == 1 ? "" : "s", list);
}

int sb_invoice_build(sb_db *db, const sb_invoice_opts *o, sb_invoice_set **out, sb_err *e)
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
	set->made_ms = sb_db_now_ms(db);
	snprintf(set->tag, sizeof set->tag, "%s", o->tag);
	if (sb_inv_compute_fresh(db, o, o->basis, &f[o->basis], e) != SB_OK ||
	    (f[o->basis].any_runs && !f[o->basis].tag_seen && refuse_unknown_tag(db, o, e) != SB_OK) ||
	    sb_inv_load_stored(db, o, &st, &n_st, e) != SB_OK)
		goto out;
	have[o->basis] = true;
	/* adjustments of finalized invoices, on their own basis */
	for (size_t k = 0; k < n_st; k++) {
		sb_basis b = st[k].inv.basis;
		size_t i;
		if (o->customer != NULL && strcmp(o->customer, st[k].inv.customer) != 0)
			continue;
		if (!have[b]) {
			if (sb_inv_compute_fresh(db, o, b, &f[b], e) != SB_OK)
				goto out;
			have[b] = true;
		}
		i = sb_inv_fresh_find(&f[b], st[k].inv.customer);
		if (i != (size_t)-1 && f[b].unpriced[i] != NULL)
			sb_inv_note_on(&st[k].inv, e, "model '%s' has no price: its tokens are left out of the adjustment",
			         f[b].unpriced[i]);
		if (sb_inv_adjust(db, o, &st[k], i != (size_t)-1 ? &f[b].invs[i] : NULL, e) != SB_OK)
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
			char model[SB_QUOTE_BUFSZ], customer[SB_QUOTE_BUFSZ];
			sb_quote(fb->unpriced[i], SB_QUOTE_ALWAYS, model, sizeof model);
			sb_fail_hint(e, SB_EDATA, SB_HINT_PRICE,
			             "model %s has no price, so the invoice of %s cannot charge its tokens " SB_WORDS_PRICE,
			             model, sb_quote(cust, SB_QUOTE_ALWAYS, customer, sizeof customer), model);
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
			sb_inv_note(&list, e, "%s", f[b].notices.items[k]);
		set->notices = list.items;
		set->n_notices = list.n;
	}
out:
	for (size_t k = 0; k < n_st; k++)
		sb_inv_clear(&st[k].inv);
	free(st);
	sb_inv_fresh_free(&f[0]);
	sb_inv_fresh_free(&f[1]);
	if (e->code != SB_OK) {
		sb_invoice_set_free(set);
		return e->code;
	}
	*out = set;
	return SB_OK;
}
