/* invoice_store.c: sb_invoice_finalize (see invoice.h): the refusals,
 * then each invoice stored under the next number of its prefix, in one
 * transaction. */
#include "reconcile/invoice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/period.h"
#include "reconcile/invoice_int.h"

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
	sb_stmt *st = sb_db_stmt(db, "invoice_overlap", e);
	int rc;

	if (st == NULL)
		return e->code;
	sb_inv_bind_period_tag(db, st, o);
	sb_bind_text(db, st, ":customer", inv->customer);
	if ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		sb_period p = {sb_col_i64(st, 1), sb_col_i64(st, 2)};
		char name[96];
		sb_fail(e, SB_EDATA,
		        "%s already has finalized invoice %s for %s, which overlaps this period: refused (a finalized invoice never changes)",
		        QUOTE(inv->customer), sb_col_text(st, 0), sb_period_name(&p, name));
	}
	sb_stmt_reset(st);
	return e->code;
}

/* Store one draft invoice as finalized, under the next number of its
 * prefix. */
static int store(sb_db *db, const sb_invoice_opts *o, const sb_invoice *inv, int64_t now_ms, sb_err *e)
{
	char period[96], pslug[64], cslug[64], prefix[160], number[180];
	sb_stmt *st;
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
	if ((rc = sb_db_step(db, st, e)) == SB_ROW)
		seq = sb_col_i64(st, 0);
	sb_stmt_reset(st);
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
	invoice_id = sb_db_last_id(db);
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
	sb_inv_bind_period_tag(db, st, o);
	sb_bind_text(db, st, ":customer", inv->customer);
	if (sb_db_run(db, st, e) != SB_OK)
		goto out;
	charged = sb_db_changes(db);
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
	int64_t now_ms = sb_db_now_ms(db);

	*out = NULL;
	sb_period_name(&opts->period, period);
	if (sb_db_begin(db, e) != SB_OK)
		return e->code;
	if (sb_invoice_build(db, opts, &set, e) != SB_OK)
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
			snprintf(done + len, sizeof done - len, "%s%s (%s)", len > 0 ? ", " : "", inv->number,
			         QUOTE(inv->customer));
	}
	if (done[0] != '\0') {
		sb_fail(e, SB_EDATA,
		        "already finalized for %s: %s; a finalized invoice never changes (runs that arrive later are shown as its adjustments)%s",
		        period, done,
		        opts->customer == NULL ? "; " SB_WORDS_ONE_CUSTOMER : "");
		if (opts->customer == NULL)
			sb_err_hint(e, SB_HINT_ONE_CUSTOMER);
		goto fail;
	}
	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		if (inv->n_no_card > 0) {
			const sb_no_card *nc = &inv->no_card[0];
			char fix[1024];
			sb_fail(e, SB_EDATA,
			        "the invoice of %s cannot be finalized: the compute cost of %lld run%s of backend %s is "
			        "unknown (no rate card in force at %s start, so no price, never 0); %s",
			        QUOTE(inv->customer), (long long)nc->runs, nc->runs == 1 ? "" : "s", QUOTE(nc->backend),
			        nc->runs == 1 ? "its" : "their", sb_rates_fix_text(nc->backend, nc->first_ms, fix, sizeof fix));
			goto fail;
		}
		if (inv->total_unknown) {
			char runs[400] = "";
			for (size_t k = 0; k < inv->n_unknown_runs && k < 10; k++) {
				size_t len = strlen(runs);
				snprintf(runs + len, sizeof runs - len, "%s%s", k > 0 ? ", " : "", QUOTE(inv->unknown_runs[k]));
			}
			sb_fail(e, SB_EDATA,
			        "the invoice of %s cannot be finalized: the token cost of %zu run%s is unknown (tokens but no model, so no price): %s%s",
			        QUOTE(inv->customer), inv->n_unknown_runs, inv->n_unknown_runs == 1 ? "" : "s", runs,
			        inv->n_unknown_runs > 10 ? ", ..." : "");
			goto fail;
		}
	}
	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		if (refuse_overlap(db, opts, inv, e) != SB_OK)
			goto fail;
		if (inv->n_lines == 0) {
			sb_fail(e, SB_EDATA, "%s has no runs in %s: nothing to finalize%s%s%s", QUOTE(inv->customer), period,
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
	return sb_invoice_build(db, opts, out, e);
fail:
	sb_db_rollback(db);
	sb_invoice_set_free(set);
	return e->code;
}
