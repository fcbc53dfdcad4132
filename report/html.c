/* html.c: self-contained HTML pages (see html.h). */
#include "report/html.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "report/invoice_out.h"

/* The chart's geometry, in SVG user units (the SVG scales to its box). */
#define CHART_W 420        /* whole width */
#define CHART_PAD 8        /* left margin */
#define CHART_VALUE_W 104  /* room right of the longest bar for its amount */
#define CHART_ROW 58       /* height of one group */
#define CHART_TOP 8        /* margin above the first group */

void sb_html_text(FILE *f, const char *s)
{
	if (s == NULL)
		return;
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f); break;
		}
	}
}

/* The style of every page. */
static const char page_style[] =
	":root{color-scheme:light}\n"
	"*{box-sizing:border-box}\n"
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;"
	"color:#1b1b1b;background:#fff;margin:0 auto;padding:20px;max-width:1120px}\n"
	"h1{font-size:1.45em;margin:0 0 .2em}\n"
	"h2{font-size:1.1em;margin:1.4em 0 .5em}\n"
	".meta{color:#555;margin:0 0 1em}\n"
	".meta b{color:#1b1b1b;font-weight:600}\n"
	".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}\n"
	"table{border-collapse:collapse;width:100%;font-size:.93em;font-variant-numeric:tabular-nums}\n"
	"th,td{padding:5px 8px;border-bottom:1px solid #dcdcdc;text-align:right;white-space:nowrap;vertical-align:top}\n"
	"th{font-weight:600;background:#f4f5f7;border-bottom:2px solid #9aa0a6;white-space:normal;vertical-align:bottom}\n"
	"th.l,td.l{text-align:left;white-space:normal;min-width:6.5em;overflow-wrap:break-word}\n"
	"tfoot td{font-weight:700;border-top:2px solid #333;border-bottom:none}\n"
	".muted{color:#6b6b6b}\n"
	"figure{margin:0 0 1em;max-width:560px}\n"
	"figure svg{display:block;width:100%;height:auto}\n"
	".legend{display:flex;gap:1.2em;font-size:.9em;margin:.2em 0 .4em}\n"
	".sw{display:inline-block;width:.9em;height:.9em;vertical-align:-.1em;margin-right:.35em;border-radius:2px}\n"
	".computed{fill:#3b6ea5;background:#3b6ea5}\n"
	".billed{fill:#e07b24;background:#e07b24}\n"
	".notes{padding-left:1.2em;color:#333}\n"
	".notes li{margin:.2em 0}\n"
	".invoice{margin:0 0 2.5em}\n"
	".invoice header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5em 2em;"
	"border-bottom:3px solid #1b1b1b;padding-bottom:.6em;margin-bottom:.8em}\n"
	".number{font-size:1.1em;font-weight:700}\n"
	".draft{color:#b00020;font-weight:700;letter-spacing:.05em}\n"
	"dl{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em;margin:0}\n"
	"dt{color:#555}dd{margin:0}\n"
	".total td{font-size:1.1em}\n"
	"footer{color:#6b6b6b;font-size:.85em;margin-top:2em}\n"
	"@media (max-width:640px){body{padding:10px;font-size:14px}.wide{display:none}"
	"th,td{padding:4px 5px}}\n"
	"@media print{body{max-width:none;padding:0;font-size:10pt}.scroll{overflow:visible}"
	".wide{display:table-cell}th{background:none}figure,tr{break-inside:avoid}"
	".invoice{break-after:page;margin:0}.invoice:last-of-type{break-after:auto}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n";

/* The head of a page and the opening of its body. */
static void page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"sbledger\">\n<title>", f);
	sb_html_text(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", page_style);
}

/* The end of a page: a footer saying when and by what it was made. */
static void page_end(FILE *f, int64_t made_ms)
{
	char made[SB_TIME_BUFSZ];

	fprintf(f, "<footer>Made by sbledger at <time datetime=\"%s\">%s</time>. "
	        "Amounts in USD. No part of this page is fetched from a network.</footer>\n</body>\n</html>\n",
	        sb_time_format(made_ms, made), made);
}

/* Money with `decimals` places into f. */
static void money(FILE *f, int64_t nanos, int decimals)
{
	char buf[SB_MONEY_BUFSZ];

	fputs(sb_money_format(nanos, decimals, buf), f);
}

/* A bar's length in tenths of a unit: value / max of the bar area,
 * computed in integers (no double), at least 0. */
static int64_t bar_tenths(int64_t value, int64_t max, int64_t area)
{
	if (value <= 0 || max <= 0)
		return 0;
	return (int64_t)((__int128)value * area * 10 / max);
}

/* Tenths of a unit as "12.3". */
static void tenths(FILE *f, int64_t t)
{
	fprintf(f, "%" PRId64 ".%" PRId64, t / 10, t % 10);
}

/* One bar with its amount at its end; label names it in its tooltip,
 * absent is what an unknown amount reads. */
static void bar(FILE *f, const char *cls, const char *label, int64_t y, bool has, int64_t nanos,
                int64_t max, int64_t area, const char *absent)
{
	int64_t len = has ? bar_tenths(nanos, max, area) : 0;

	fprintf(f, "<rect class=\"bar %s\" x=\"%d\" y=\"%" PRId64 "\" width=\"", cls, CHART_PAD, y);
	tenths(f, len);
	fputs("\" height=\"14\" rx=\"2\"><title>", f);
	fputs(label, f);
	fputs(": ", f);
	if (has)
		money(f, nanos, 9);
	else
		fputs(absent, f);
	fputs("</title></rect>", f);
	fputs("<text class=\"v\" x=\"", f);
	tenths(f, (int64_t)CHART_PAD * 10 + len + 40);
	fprintf(f, "\" y=\"%" PRId64 "\">", y + 12);
	if (has)
		money(f, nanos, 6);
	else
		fputs(absent, f);
	fputs("</text>", f);
}

void sb_html_bar_chart(FILE *f, const sb_html_bar *bars, size_t n)
{
	int64_t max = 0, area = CHART_W - CHART_PAD - CHART_VALUE_W;
	int64_t height = CHART_TOP * 2 + (int64_t)n * CHART_ROW;

	for (size_t i = 0; i < n; i++) {
		if (bars[i].computed_nanos > max)
			max = bars[i].computed_nanos;
		if (bars[i].has_billed && bars[i].billed_nanos > max)
			max = bars[i].billed_nanos;
	}
	fputs("<figure class=\"chart\">\n<div class=\"legend\"><span><span class=\"sw computed\"></span>computed</span>"
	      "<span><span class=\"sw billed\"></span>runs' own billed</span></div>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %" PRId64 "\" role=\"img\" "
	        "aria-label=\"computed against billed per group\" font-family=\"system-ui,sans-serif\">\n"
	        "<style>.k{font-size:15px;fill:#1b1b1b}.v{font-size:12.5px;fill:#444}</style>\n",
	        CHART_W, height);
	for (size_t i = 0; i < n; i++) {
		int64_t y = CHART_TOP + (int64_t)i * CHART_ROW;
		fputs("<g class=\"pair\" data-key=\"", f);
		sb_html_text(f, bars[i].key);
		fprintf(f, "\"><text class=\"k\" x=\"%d\" y=\"%" PRId64 "\">", CHART_PAD, y + 15);
		sb_html_text(f, bars[i].key);
		fputs("</text>", f);
		bar(f, "computed", "computed", y + 22, true, bars[i].computed_nanos, max, area, "");
		bar(f, "billed", "runs' own billed", y + 38, bars[i].has_billed, bars[i].billed_nanos, max, area,
		    "none in the runs");
		fputs("</g>\n", f);
	}
	fputs("</svg>\n</figure>\n", f);
}

/* A money cell: 6 decimals, or "-" when absent. */
static void money_cell(FILE *f, const char *cls, bool has, int64_t nanos)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	if (has)
		money(f, nanos, 6);
	else
		fputs("<span class=\"muted\">-</span>", f);
	fputs("</td>", f);
}

/* One row of the summary table. */
static void summary_row(FILE *f, const char *key, const sb_usage *u)
{
	int64_t token = 0;
	bool has_token = sb_usage_token_nanos(u, &token);

	fputs("<tr><td class=\"l\">", f);
	sb_html_text(f, key);
	fprintf(f, "</td><td>%" PRId64 "</td><td>%" PRId64 "</td><td class=\"wide\">%" PRId64
	        "</td><td class=\"wide\">%" PRId64 "</td><td class=\"wide\">%" PRId64
	        "</td><td class=\"wide\">%" PRId64 "</td><td class=\"wide\">%" PRId64 "</td>",
	        u->runs, u->exec_count, u->total_duration_ms, u->cpu_ms, u->memory_peak_mb,
	        u->bytes_read, u->bytes_written);
	money_cell(f, NULL, true, u->computed_nanos);
	money_cell(f, NULL, u->has_billed, u->billed_nanos);
	money_cell(f, "wide", u->has_card, u->card_nanos);
	money_cell(f, NULL, has_token, token);
	fputs("</tr>\n", f);
}

/* The period as "FROM to TO (NAME)". */
static void period_text(FILE *f, const sb_period *p)
{
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ], name[96];

	fputs("<b>", f);
	sb_html_text(f, sb_period_name(p, name));
	fprintf(f, "</b> <span class=\"muted\">(%s to %s, end excluded)</span>",
	        sb_time_format(p->from_ms, from), sb_time_format(p->to_ms, to));
}

/* SB_EIO when f failed. */
static int check_file(FILE *f, sb_err *e)
{
	if (ferror(f))
		return sb_fail(e, SB_EIO, "cannot write the HTML page");
	return SB_OK;
}

int sb_html_summary(FILE *f, const sb_summary *s, int64_t made_ms, sb_err *e)
{
	char title[256], name[96];
	sb_html_bar *bars = calloc(s->n_rows > 0 ? s->n_rows : 1, sizeof *bars);

	if (bars == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	snprintf(title, sizeof title, "sbledger summary %s by %s", sb_period_name(&s->period, name), s->by);
	page_begin(f, title);
	fputs("<h1>Sandbox cost summary</h1>\n<p class=\"meta\">Period ", f);
	period_text(f, &s->period);
	fputs("<br>Grouped by <b>", f);
	sb_html_text(f, s->by);
	fprintf(f, "</b> &middot; %" PRId64 " run%s &middot; computed ", s->total.runs, s->total.runs == 1 ? "" : "s");
	money(f, s->total.computed_nanos, 6);
	if (s->total.has_billed) {
		fputs(" USD, runs' own billed ", f);
		money(f, s->total.billed_nanos, 6);
		fputs(" USD", f);
	} else {
		fputs(" USD; no run reports a billed figure of its own", f);
	}
	fputs(" (the summary sums the runs only: the providers' bills are on the reconciliation page, "
	      "sbledger reconcile --format html)</p>\n", f);
	if (s->n_rows == 0) {
		fputs("<p>No runs started in this period.</p>\n", f);
	} else {
		for (size_t i = 0; i < s->n_rows; i++) {
			bars[i].key = s->rows[i].key;
			bars[i].computed_nanos = s->rows[i].u.computed_nanos;
			bars[i].has_billed = s->rows[i].u.has_billed;
			bars[i].billed_nanos = s->rows[i].u.billed_nanos;
		}
		fputs("<h2>Computed against the runs' own billed</h2>\n", f);
		sb_html_bar_chart(f, bars, s->n_rows);
		fputs("<h2>Table</h2>\n<div class=\"scroll\"><table>\n<thead><tr><th class=\"l\">", f);
		sb_html_text(f, s->by);
		fputs("</th><th>runs</th><th>execs</th><th class=\"wide\">exec ms</th><th class=\"wide\">CPU ms</th>"
		      "<th class=\"wide\">peak MB</th><th class=\"wide\">bytes read</th><th class=\"wide\">bytes written</th>"
		      "<th>computed USD</th><th>runs' own billed USD</th><th class=\"wide\">card USD</th><th>token USD</th></tr></thead>\n<tbody>\n",
		      f);
		for (size_t i = 0; i < s->n_rows; i++)
			summary_row(f, s->rows[i].key, &s->rows[i].u);
		fputs("</tbody>\n<tfoot>\n", f);
		summary_row(f, "total", &s->total);
		fputs("</tfoot>\n</table></div>\n", f);
	}
	if (s->n_unpriced > 0 || s->unpriced_no_model || s->n_no_card > 0) {
		fputs("<ul class=\"notes\">\n", f);
		for (size_t i = 0; i < s->n_no_card; i++) {
			char fix[1024];
			fprintf(f, "<li>Card cost unknown: %" PRId64 " run%s of <b>", s->no_card[i].runs,
			        s->no_card[i].runs == 1 ? "" : "s");
			sb_html_text(f, s->no_card[i].backend);
			fputs("</b> had no rate card in force; ", f);
			sb_html_text(f, sb_rates_fix_text(s->no_card[i].backend, s->no_card[i].first_ms, fix, sizeof fix));
			fputs(".</li>\n", f);
		}
		for (size_t i = 0; i < s->n_unpriced; i++) {
			fputs("<li>Token cost unknown: model <b>", f);
			sb_html_text(f, s->unpriced[i]);
			fputs("</b> has no price (sbledger prices set).</li>\n", f);
		}
		if (s->unpriced_no_model)
			fputs("<li>Token cost unknown: some runs have tokens but name no model.</li>\n", f);
		fputs("</ul>\n", f);
	}
	page_end(f, made_ms);
	free(bars);
	return check_file(f, e);
}

/* Minutes x 1000 with 3 decimals. */
static void minutes(FILE *f, int64_t milli)
{
	money(f, milli * 1000000, 3);
}

/* One invoice line (or adjustment line) as a table row. */
static void invoice_row(FILE *f, const sb_invoice_line *l)
{
	fputs("<tr><td class=\"l\">", f);
	sb_html_text(f, l->description);
	fputs("</td><td>", f);
	if (l->kind == SB_INV_COMPUTE) {
		minutes(f, l->quantity_milli);
		fputs("</td><td class=\"l\">minutes</td><td class=\"wide\">", f);
		if (l->has_rate) {
			money(f, l->rate_nanos, 9);
			fputs("/min", f);
		}
	} else {
		fprintf(f, "%" PRId64 " in<br>%" PRId64 " out</td><td class=\"l\">tokens</td><td class=\"wide\">",
		        l->input_tokens, l->output_tokens);
		if (l->input_per_m_nanos != 0 || l->output_per_m_nanos != 0) {
			money(f, l->input_per_m_nanos, 9);
			fputs(" in / ", f);
			money(f, l->output_per_m_nanos, 9);
			fputs(" out per M", f);
		}
	}
	fputs("</td><td>", f);
	if (l->unknown)
		fputs("unknown", f);
	else
		money(f, l->amount_nanos, 2);
	fputs("</td></tr>\n", f);
}

/* The table head of invoice lines. */
static void invoice_head(FILE *f)
{
	fputs("<div class=\"scroll\"><table>\n<thead><tr><th class=\"l\">Description</th><th>Quantity</th>"
	      "<th class=\"l\">Unit</th><th class=\"wide\">Rate (USD)</th><th>Amount (USD)</th></tr></thead>\n<tbody>\n", f);
}

/* One invoice as a section. */
static void invoice_section(FILE *f, const sb_invoice_set *set, const sb_invoice *inv)
{
	char made[SB_TIME_BUFSZ];

	fputs("<section class=\"invoice\">\n<header><div><h1>Invoice</h1>", f);
	if (inv->number != NULL) {
		fputs("<div class=\"number\">", f);
		sb_html_text(f, inv->number);
		fputs("</div>", f);
	} else {
		fputs("<div class=\"draft\">DRAFT &middot; not finalized</div>", f);
	}
	fputs("</div>\n<dl><dt>Customer</dt><dd><b class=\"customer\">", f);
	sb_html_text(f, inv->customer);
	fputs("</b> <span class=\"muted\">(tag ", f);
	sb_html_text(f, set->tag);
	fputs(")</span></dd><dt>Period</dt><dd>", f);
	period_text(f, &set->period);
	fprintf(f, "</dd><dt>Basis</dt><dd>%s</dd><dt>Currency</dt><dd>", sb_basis_name(inv->basis));
	sb_html_text(f, inv->currency);
	fputs("</dd>", f);
	if (inv->number != NULL)
		fprintf(f, "<dt>Finalized</dt><dd>%s</dd>", sb_time_format(inv->created_ms, made));
	fputs("</dl></header>\n", f);
	invoice_head(f);
	for (size_t k = 0; k < inv->n_lines; k++)
		invoice_row(f, &inv->lines[k]);
	if (inv->n_lines == 0)
		fputs("<tr><td class=\"l muted\" colspan=\"5\">No charges in this period.</td></tr>\n", f);
	fputs("</tbody>\n<tfoot><tr class=\"total\"><td class=\"l\" colspan=\"3\">Total ", f);
	sb_html_text(f, inv->currency);
	fputs("</td><td class=\"wide\"></td><td class=\"amount-total\">", f);
	if (inv->total_unknown)
		fputs("unknown", f);
	else
		money(f, inv->total_nanos, 2);
	fputs("</td></tr></tfoot>\n</table></div>\n", f);
	for (size_t k = 0; k < inv->n_no_card; k++) {
		char why[1400];
		fputs("<p class=\"notes\">", f);
		sb_html_text(f, sb_invoice_no_card_text(&inv->no_card[k], why, sizeof why));
		fputs(".</p>\n", f);
	}
	if (inv->n_unknown_runs > 0) {
		fprintf(f, "<p class=\"notes\">The token cost of %zu run%s is unknown (tokens, no model), so is the total: ",
		        inv->n_unknown_runs, inv->n_unknown_runs == 1 ? "" : "s");
		for (size_t k = 0; k < inv->n_unknown_runs; k++) {
			if (k > 0)
				fputs(", ", f);
			sb_html_text(f, inv->unknown_runs[k]);
		}
		fputs(".</p>\n", f);
	}
	if (inv->n_notes > 0) {
		fputs("<ul class=\"notes\">\n", f);
		for (size_t k = 0; k < inv->n_notes; k++) {
			fputs("<li>", f);
			sb_html_text(f, inv->notes[k]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	if (inv->adjust != NULL) {
		const sb_invoice_adjust *a = inv->adjust;
		char runs[200], text[1200];
		fputs("<h2>Adjustments since it was finalized</h2>\n<p>Since this invoice was finalized: ", f);
		sb_html_text(f, sb_adjust_summary(a, runs, sizeof runs));
		fputs(". The invoice is unchanged; the differences below are what a new invoice "
		      "(or a credit note) would carry.</p>\n", f);
		invoice_head(f);
		for (size_t k = 0; k < a->n_lines; k++)
			invoice_row(f, &a->lines[k]);
		fputs("</tbody>\n<tfoot><tr class=\"total\"><td class=\"l\" colspan=\"3\">Adjustment total</td>"
		      "<td class=\"wide\"></td><td>", f);
		money(f, a->total_nanos, 2);
		fputs("</td></tr></tfoot>\n</table></div>\n", f);
		if (a->n_runs > 0) {
			fputs("<ul class=\"muted adjust-runs\">\n", f);
			for (size_t k = 0; k < a->n_runs; k++) {
				fputs("<li>", f);
				sb_html_text(f, sb_adjust_run_text(&a->runs[k], text, sizeof text));
				fputs("</li>\n", f);
			}
			fputs("</ul>\n", f);
		}
	}
	fputs("</section>\n", f);
}

int sb_html_invoices(FILE *f, const sb_invoice_set *set, sb_err *e)
{
	char title[256], name[96];

	snprintf(title, sizeof title, "Invoices %s by tag %s", sb_period_name(&set->period, name), set->tag);
	page_begin(f, title);
	for (size_t i = 0; i < set->n_invoices; i++)
		invoice_section(f, set, &set->invoices[i]);
	if (set->n_invoices == 0) {
		fputs("<h1>No invoices</h1>\n<p class=\"meta\">No runs in ", f);
		period_text(f, &set->period);
		fputs(".</p>\n", f);
	}
	if (set->n_notes > 0) {
		fputs("<h2>Notes</h2>\n<ul class=\"notes\">\n", f);
		for (size_t k = 0; k < set->n_notes; k++) {
			fputs("<li>", f);
			sb_html_text(f, set->notes[k]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	page_end(f, set->made_ms);
	return check_file(f, e);
}
