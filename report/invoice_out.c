/* invoice_out.c: invoices rendered (see invoice_out.h). */
#include "report/invoice_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/quote.h"
#include "ledger/timefmt.h"
#include "report/csvout.h"
#include "report/html.h"
#include "report/json.h"

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

/* Money with 2 decimals into buf. */
static const char *cents(int64_t nanos, char buf[SB_MONEY_BUFSZ])
{
	return sb_money_format(nanos, 2, buf);
}

/* Minutes x 1000 with 3 decimals into buf. */
static const char *minutes3(int64_t milli, char buf[SB_MONEY_BUFSZ])
{
	return sb_money_format(milli * 1000000, 3, buf);
}

/* The quantity of a line as the table shows it: exec minutes, or the
 * tokens with thousands separators. */
static void line_quantity(const sb_invoice_line *l, char *buf, size_t size)
{
	char m[SB_MONEY_BUFSZ], in[32], out[32];

	if (l->kind == SB_INV_COMPUTE)
		snprintf(buf, size, "%s", minutes3(l->quantity_milli, m));
	else
		snprintf(buf, size, "%s in / %s out", sb_thousands(l->input_tokens, in),
		         sb_thousands(l->output_tokens, out));
}

/* The rate of a line as the table shows it, with 9 decimals: USD per exec
 * minute, or USD per million input and output tokens. */
static void line_rate(const sb_invoice_line *l, char *buf, size_t size)
{
	char a[SB_MONEY_BUFSZ], b[SB_MONEY_BUFSZ];

	if (l->kind == SB_INV_COMPUTE)
		snprintf(buf, size, "%s", l->has_rate ? strcat(sb_money_format(l->rate_nanos, 9, a), "/min") : "");
	else if (l->input_per_m_nanos != 0 || l->output_per_m_nanos != 0)
		snprintf(buf, size, "%s + %s /M", sb_money_format(l->input_per_m_nanos, 9, a),
		         sb_money_format(l->output_per_m_nanos, 9, b));
	else
		buf[0] = '\0';
}

char *sb_invoice_no_card_text(const sb_no_card *nc, char *buf, size_t size)
{
	char word[SB_QUOTE_BUFSZ], fix[1024];

	snprintf(buf, size, "the compute cost of %lld run%s of backend %s is unknown (no rate card in force at %s "
	         "start), so is the total; %s",
	         (long long)nc->runs, nc->runs == 1 ? "" : "s", sb_quote(nc->backend, SB_QUOTE_ALWAYS, word, sizeof word),
	         nc->runs == 1 ? "its" : "their", sb_rates_fix_text(nc->backend, nc->first_ms, fix, sizeof fix));
	return buf;
}

/* The amount of a line as shown: 2 decimals, or "unknown". */
static const char *line_amount(const sb_invoice_line *l, char buf[SB_MONEY_BUFSZ])
{
	return l->unknown ? "unknown" : cents(l->amount_nanos, buf);
}

/* Lines as an indented table on f (report/out.h), ending with a total
 * row (total NULL: "unknown"); amounts with 2 decimals. */
static void table_lines(FILE *f, const sb_invoice_line *lines, size_t n, const char *total_label,
                        const int64_t *total, sb_err *e)
{
	static const sb_col cols[] = {
		{"description", COL_TEXT, 0}, {"quantity", COL_NUMBER, 0}, {"unit", COL_TEXT, 0},
		{"rate", COL_NUMBER, 0}, {"amount", COL_NUMBER, 0},
	};
	char q[80], r[80], a[SB_MONEY_BUFSZ];
	sb_out *o = sb_out_new(f, FMT_TABLE, false, cols, sizeof cols / sizeof cols[0]);

	sb_out_indent(o, 2);
	for (size_t k = 0; k < n; k++) {
		line_quantity(&lines[k], q, sizeof q);
		line_rate(&lines[k], r, sizeof r);
		sb_out_text(o, lines[k].description);
		sb_out_text(o, q);
		sb_out_text(o, lines[k].kind == SB_INV_COMPUTE ? "minutes" : "tokens");
		sb_out_text(o, r);
		sb_out_text(o, line_amount(&lines[k], a));
		sb_out_row(o);
	}
	sb_out_text(o, total_label);
	sb_out_text(o, "");
	sb_out_text(o, "");
	sb_out_text(o, "");
	sb_out_text(o, total != NULL ? cents(*total, a) : "unknown");
	sb_out_row(o);
	sb_out_end(o, e);
}

/* The invoices as text on f. */
static int print_table(FILE *f, const sb_invoice_set *set, sb_err *e)
{
	char name[96], from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ], made[SB_TIME_BUFSZ], known[SB_MONEY_BUFSZ];
	char label[64];

	sb_period_name(&set->period, name);
	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		if (i > 0)
			fputc('\n', f);
		fprintf(f, "Invoice %s\n", inv->number != NULL ? inv->number : "(draft, not finalized)");
		fprintf(f, "  customer  %s (tag %s)\n", inv->customer, set->tag);
		fprintf(f, "  period    %s (%s to %s)\n", name, sb_time_format(set->period.from_ms, from),
		           sb_time_format(set->period.to_ms, to));
		fprintf(f, "  basis     %s\n", sb_basis_name(inv->basis));
		if (inv->number != NULL)
			fprintf(f, "  finalized %s\n", sb_time_format(inv->created_ms, made));
		fputc('\n', f);
		snprintf(label, sizeof label, "total %s", inv->currency);
		table_lines(f, inv->lines, inv->n_lines, label, inv->total_unknown ? NULL : &inv->total_nanos, e);
		if (inv->n_unknown_runs > 0)
			fprintf(f, "  the token cost of %zu run%s is unknown (tokens, no model), so is the total; the other lines add up to %s\n",
			           inv->n_unknown_runs, inv->n_unknown_runs == 1 ? "" : "s", cents(inv->total_nanos, known));
		for (size_t k = 0; k < inv->n_no_card; k++) {
			char why[1400];
			fprintf(f, "  %s\n", sb_invoice_no_card_text(&inv->no_card[k], why, sizeof why));
		}
		if (inv->n_no_card > 0 && inv->n_unknown_runs == 0)
			fprintf(f, "  the other lines add up to %s\n", cents(inv->total_nanos, known));
		for (size_t k = 0; k < inv->n_unknown_runs; k++)
			fprintf(f, "  run with tokens and no model: %s\n", inv->unknown_runs[k]);
		for (size_t k = 0; k < inv->n_notes; k++)
			fprintf(f, "  note: %s\n", inv->notes[k]);
		if (inv->adjust != NULL) {
			char runs[200], text[1200];
			fprintf(f, "\n  adjustments since it was finalized (%s; the invoice is unchanged):\n",
			           sb_adjust_summary(inv->adjust, runs, sizeof runs));
			table_lines(f, inv->adjust->lines, inv->adjust->n_lines, "adjustment total", &inv->adjust->total_nanos, e);
			for (size_t k = 0; k < inv->adjust->n_runs; k++)
				fprintf(f, "  %s\n", sb_adjust_run_text(&inv->adjust->runs[k], text, sizeof text));
		}
	}
	for (size_t k = 0; k < set->n_notes; k++)
		fprintf(f, "%snote: %s\n", k == 0 && set->n_invoices > 0 ? "\n" : "", set->notes[k]);
	return e->code;
}

/* One CSV row of an invoice: the invoice's columns, then the line's. */
static void csv_row(sb_csv_out *w, const sb_invoice_set *set, const sb_invoice *inv, const char *kind,
                    const sb_invoice_line *l, const int64_t *amount)
{
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ], buf[SB_MONEY_BUFSZ], n[32];

	sb_csv_value(w, inv->number);
	sb_csv_text(w, inv->customer);
	sb_csv_value(w, sb_time_format(set->period.from_ms, from));
	sb_csv_value(w, sb_time_format(set->period.to_ms, to));
	sb_csv_value(w, sb_basis_name(inv->basis));
	sb_csv_value(w, inv->currency);
	sb_csv_value(w, kind);
	sb_csv_text(w, l != NULL ? l->description : NULL);
	sb_csv_text(w, l != NULL ? l->backend : NULL);
	sb_csv_text(w, l != NULL ? l->model : NULL);
	if (l != NULL && l->kind == SB_INV_COMPUTE) {
		sb_csv_value(w, minutes3(l->quantity_milli, buf));
		sb_csv_value(w, "minutes");
		sb_csv_value(w, l->has_rate ? sb_money_format(l->rate_nanos, 9, buf) : NULL);
		sb_csv_value(w, NULL);
		sb_csv_value(w, NULL);
	} else if (l != NULL) {
		sb_csv_value(w, NULL);
		sb_csv_value(w, "tokens");
		sb_csv_value(w, NULL);
		snprintf(n, sizeof n, "%lld", (long long)l->input_tokens);
		sb_csv_value(w, n);
		snprintf(n, sizeof n, "%lld", (long long)l->output_tokens);
		sb_csv_value(w, n);
	} else {
		for (int k = 0; k < 5; k++)
			sb_csv_value(w, NULL);
	}
	sb_csv_value(w, amount != NULL ? cents(*amount, buf) : NULL);   /* empty: unknown */
	sb_csv_end(w);
}

/* The invoices as CSV: one row per line, a total row per invoice, and
 * adjustment rows after it; free text guarded unless raw. */
static void print_csv(FILE *f, const sb_invoice_set *set, bool raw)
{
	sb_csv_out w;

	sb_csv_out_init(&w, f, raw);
	fputs("number,customer,period_from,period_to,basis,currency,kind,description,backend,model,"
	      "quantity,unit,rate,input_tokens,output_tokens,amount\n", f);
	for (size_t i = 0; i < set->n_invoices; i++) {
		const sb_invoice *inv = &set->invoices[i];
		for (size_t k = 0; k < inv->n_lines; k++)
			csv_row(&w, set, inv, sb_inv_kind_name(inv->lines[k].kind), &inv->lines[k],
			        inv->lines[k].unknown ? NULL : &inv->lines[k].amount_nanos);
		csv_row(&w, set, inv, "total", NULL, inv->total_unknown ? NULL : &inv->total_nanos);
		if (inv->adjust != NULL) {
			for (size_t k = 0; k < inv->adjust->n_lines; k++)
				csv_row(&w, set, inv, "adjustment", &inv->adjust->lines[k], &inv->adjust->lines[k].amount_nanos);
			csv_row(&w, set, inv, "adjustment_total", NULL, &inv->adjust->total_nanos);
		}
	}
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

/* One line as JSON (section 7's shape); *ok as sb_json_put. */
static json_t *json_line(const sb_invoice_line *l, bool *ok)
{
	json_t *o = json_object();

	sb_json_put(o, "description", json_string(l->description), ok);
	if (l->kind == SB_INV_COMPUTE) {
		sb_json_put(o, "backend", json_string(l->backend), ok);
		sb_json_put(o, "quantity", json_minutes(l->quantity_milli), ok);
		sb_json_put(o, "unit", json_string("minutes"), ok);
	} else {
		sb_json_put(o, "model", l->model != NULL ? json_string(l->model) : json_null(), ok);
		sb_json_put(o, "input_tokens", json_integer(l->input_tokens), ok);
		sb_json_put(o, "output_tokens", json_integer(l->output_tokens), ok);
	}
	sb_json_put(o, "amount", l->unknown ? json_null() : json_cents(l->amount_nanos), ok);
	return o;
}

/* The runs an adjustment names, other than late ones, as JSON objects. */
static json_t *json_changed_runs(const sb_invoice_adjust *a, bool *ok)
{
	json_t *list = json_array();

	for (size_t k = 0; k < a->n_runs; k++) {
		const sb_adjust_run *r = &a->runs[k];
		json_t *o;
		if (r->kind == SB_ADJ_LATE)
			continue;
		o = json_pack("{s:s, s:s}", "run_id", r->run_id, "change", sb_adjust_kind_name(r->kind));
		if (r->kind == SB_ADJ_MOVED_OUT)
			sb_json_put(o, "to", r->to != NULL ? json_string(r->to) : json_null(), ok);
		if (r->kind == SB_ADJ_MOVED_IN)
			sb_json_put(o, "from", r->from != NULL ? json_string(r->from) : json_null(), ok);
		if (r->kind == SB_ADJ_MOVED_IN || r->kind == SB_ADJ_DUPLICATE)
			sb_json_put(o, "invoice", r->invoice != NULL ? json_string(r->invoice) : json_null(), ok);
		sb_json_append(list, o, ok);
	}
	return list;
}

/* A finalized invoice's "adjustments": null when nothing changed. */
static json_t *json_adjust(const sb_invoice_adjust *a, bool *ok)
{
	json_t *adj, *late, *lines;

	if (a == NULL)
		return json_null();
	adj = json_object();
	late = json_array();
	lines = json_array();
	for (size_t k = 0; k < a->n_runs; k++)
		if (a->runs[k].kind == SB_ADJ_LATE)
			sb_json_append(late, json_string(a->runs[k].run_id), ok);
	for (size_t k = 0; k < a->n_lines; k++)
		sb_json_append(lines, json_line(&a->lines[k], ok), ok);
	sb_json_put(adj, "late_runs", late, ok);
	sb_json_put(adj, "changed_runs", json_changed_runs(a, ok), ok);
	sb_json_put(adj, "lines", lines, ok);
	sb_json_put(adj, "total", json_cents(a->total_nanos), ok);
	return adj;
}

/* One invoice as JSON. */
static json_t *json_invoice(const sb_invoice *inv, bool *ok)
{
	json_t *o = json_object(), *lines = json_array();

	sb_json_put(o, "customer", json_string(inv->customer), ok);
	sb_json_put(o, "number", inv->number != NULL ? json_string(inv->number) : json_null(), ok);
	sb_json_put(o, "basis", json_string(sb_basis_name(inv->basis)), ok);
	sb_json_put(o, "currency", json_string(inv->currency), ok);
	for (size_t k = 0; k < inv->n_lines; k++)
		sb_json_append(lines, json_line(&inv->lines[k], ok), ok);
	sb_json_put(o, "lines", lines, ok);
	sb_json_put(o, "total", inv->total_unknown ? json_null() : json_cents(inv->total_nanos), ok);
	if (inv->total_unknown) {
		json_t *runs = json_array();
		for (size_t k = 0; k < inv->n_unknown_runs; k++)
			sb_json_append(runs, json_string(inv->unknown_runs[k]), ok);
		sb_json_put(o, "unknown_token_runs", runs, ok);
		if (inv->n_no_card > 0) {
			json_t *backends = json_array();
			for (size_t k = 0; k < inv->n_no_card; k++)
				sb_json_append(backends, json_string(inv->no_card[k].backend), ok);
			sb_json_put(o, "no_card_backends", backends, ok);
		}
	}
	if (inv->number != NULL)
		sb_json_put(o, "adjustments", json_adjust(inv->adjust, ok), ok);
	return o;
}

json_t *sb_invoice_json(const sb_invoice_set *set)
{
	json_t *root = json_object(), *list = json_array();
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];
	bool ok = true;

	sb_json_put(root, "period",
	            json_pack("{s:s, s:s}", "from", sb_time_format(set->period.from_ms, from), "to",
	                      sb_time_format(set->period.to_ms, to)),
	            &ok);
	sb_json_put(root, "basis", json_string(sb_basis_name(set->basis)), &ok);
	for (size_t i = 0; i < set->n_invoices; i++)
		sb_json_append(list, json_invoice(&set->invoices[i], &ok), &ok);
	sb_json_put(root, "invoices", list, &ok);
	if (!ok) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int sb_report_invoices(FILE *f, sb_format fmt, bool csv_raw, const sb_invoice_set *set, sb_err *e)
{
	switch (fmt) {
	case FMT_JSON:
		return sb_json_print(f, sb_invoice_json(set), JSON_INDENT(1), e);
	case FMT_CSV:
		print_csv(f, set, csv_raw);
		return SB_OK;
	case FMT_HTML:
		return sb_html_invoices(f, set, e);
	case FMT_TABLE:
		break;
	}
	return print_table(f, set, e);
}
