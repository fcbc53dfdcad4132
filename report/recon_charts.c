/* recon_charts.c: the charts of the reconciliation page (see
 * recon_page_int.h): computed against billed with the tolerance band,
 * and the drift trend.  Geometry is integer arithmetic in tenths of an
 * SVG unit: no double holds an amount.
 */
#include "report/recon_page_int.h"

#include <inttypes.h>
#include <string.h>

#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "report/html.h"

/* ---- the bar chart ------------------------------------------------------- */

/* Geometry of the bar chart, in SVG units. */
#define BAR_W 820          /* whole width */
#define BAR_X 170          /* where the bars start */
#define BAR_AREA 520       /* the longest bar */
#define BAR_ROW 48         /* one backend */
#define BAR_TOP 6

/* value / max of area, in tenths of a unit (0 for value <= 0). */
static int64_t scale_tenths(int64_t value, int64_t max, int64_t area)
{
	if (value <= 0 || max <= 0)
		return 0;
	if (value > max)
		value = max;
	return (int64_t)((__int128)value * area * 10 / max);
}

/* Tenths of a unit as "12.3". */
void sb_pg_tenths(page *pg, int64_t t)
{
	if (t < 0) {
		fputc('-', pg->f);
		t = -t;
	}
	fprintf(pg->f, "%" PRId64 ".%" PRId64, t / 10, t % 10);
}

/* One bar with its amount after it. */
static void chart_bar(page *pg, const char *cls, int64_t y, bool has, int64_t nanos, int64_t max,
                      const char *absent)
{
	char buf[SB_MONEY_BUFSZ];
	int64_t len = has ? scale_tenths(nanos, max, BAR_AREA) : 0;

	fprintf(pg->f, "<rect class=\"bar %s\" x=\"%d\" y=\"%" PRId64 "\" width=\"", cls, BAR_X, y);
	sb_pg_tenths(pg, len);
	fprintf(pg->f, "\" height=\"13\" rx=\"2\"><title>%s: %s</title></rect>", cls,
	        has ? sb_money_format(nanos, 9, buf) : absent);
	fputs("<text class=\"v\" x=\"", pg->f);
	sb_pg_tenths(pg, BAR_X * 10 + len + 50);
	fprintf(pg->f, "\" y=\"%" PRId64 "\">%s</text>", y + 11, has ? sb_pg_usd6(nanos, buf) : absent);
}

void sb_pg_bar_chart(page *pg, const sb_recon *r)
{
	int64_t height = BAR_TOP * 2 + (int64_t)r->n_backends * BAR_ROW;
	size_t row = 0;

	fputs("<h2>Computed against billed</h2>\n<figure class=\"chart\" id=\"bars\">\n<div class=\"legend\">"
	      "<span><span class=\"sw computed\"></span>computed (the runs)</span>"
	      "<span><span class=\"sw billed\"></span>billed (the providers)</span>"
	      "<span><span class=\"sw band\"></span>tolerance: billed inside the band is not flagged</span></div>\n",
	      pg->f);
	fprintf(pg->f, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %" PRId64 "\" role=\"img\" "
	        "aria-label=\"computed against billed per backend, with the tolerance band\" "
	        "font-family=\"system-ui,sans-serif\">\n%s", BAR_W, height, sb_pg_svg_style);
	for (int k = 0; k < 3; k++)
		for (size_t i = 0; i < r->n_backends; i++) {
			const sb_recon_backend *b = &r->backends[i];
			int64_t tol = sb_recon_tolerance_nanos(b), y = BAR_TOP + (int64_t)row * BAR_ROW;
			int64_t hi = 0, lo = 0, max = b->computed_nanos;
			const char *absent = sb_pg_billed_unknown(b) ? "billed unknown" : "nothing billed";
			if (sb_pg_rank(b) != k)
				continue;
			row++;
			if (sb_money_add(b->computed_nanos, tol, &hi) != SB_MONEY_OK)
				hi = INT64_MAX;
			if (sb_money_sub(b->computed_nanos, tol, &lo) != SB_MONEY_OK)
				lo = INT64_MIN;
			if (b->has_billed && hi > max)
				max = hi;
			if (b->has_billed && b->billed_nanos > max)
				max = b->billed_nanos;
			fputs("<g class=\"pair\" data-backend=\"", pg->f);
			sb_pg_esc(pg, b->backend);
			fprintf(pg->f, "\" data-status=\"%s\"", sb_recon_status_name(b->status));
			sb_pg_data_usd(pg, "data-computed", true, b->computed_nanos);
			sb_pg_data_usd(pg, "data-billed", b->has_billed, b->billed_nanos);
			sb_pg_data_usd(pg, "data-tolerance", true, tol);
			fprintf(pg->f, "><text class=\"k\" x=\"4\" y=\"%" PRId64 "\">", y + 17);
			sb_pg_esc(pg, b->backend);
			fprintf(pg->f, "</text><text class=\"s s%s\" x=\"4\" y=\"%" PRId64 "\">%s%s</text>",
			        sb_pg_tone(b->flagged, b->status), y + 33, sb_recon_status_name(b->status),
			        b->flagged ? ", flagged" : "");
			/* the band: computed - tol .. computed + tol, over both bars
			 * (where there is a billed figure to hold against it) */
			if (b->has_billed) {
				int64_t x0 = scale_tenths(lo, max, BAR_AREA), x1 = scale_tenths(hi, max, BAR_AREA);
				fputs("<rect class=\"band\" x=\"", pg->f);
				sb_pg_tenths(pg, BAR_X * 10 + x0);
				fprintf(pg->f, "\" y=\"%" PRId64 "\" width=\"", y + 2);
				sb_pg_tenths(pg, x1 - x0 > 10 ? x1 - x0 : 10);
				fputs("\" height=\"36\"><title>within tolerance: billed between ", pg->f);
				{
					char l[SB_MONEY_BUFSZ], h[SB_MONEY_BUFSZ];
					fprintf(pg->f, "%s and %s</title></rect>", sb_pg_usd6(lo > 0 ? lo : 0, l), sb_pg_usd6(hi, h));
				}
			}
			chart_bar(pg, "computed", y + 5, true, b->computed_nanos, max, "");
			chart_bar(pg, "billed", y + 22, b->has_billed, b->billed_nanos, max, absent);
			fputs("</g>\n", pg->f);
		}
	fputs("</svg>\n<figcaption>Each backend on its own scale (the longest of its bars and band fills the "
	      "row), so that a drift shows whatever the size of the bill; compare amounts by their figures. "
	      "The band is computed &plusmn; the tolerance, drawn where there is a billed figure.</figcaption>\n"
	      "</figure>\n", pg->f);
}


/* ---- the trend ----------------------------------------------------------- */

/* Geometry of the trend chart. */
#define TR_W 820           /* whole width */
#define TR_X 170           /* where the plot starts */
#define TR_PLOT 560        /* its width */
#define TR_ROW 64          /* one backend's panel and the gap below it */
#define TR_PANEL 54        /* the panel's height */
#define TR_TOP 6
#define TR_AXIS 22         /* the dates below the panels */

/* x of instant t in tenths: where t lies in [from, to). */
static int64_t trend_x(const sb_period *p, int64_t t)
{
	int64_t span = p->to_ms - p->from_ms;

	if (t < p->from_ms)
		t = p->from_ms;
	if (t > p->to_ms)
		t = p->to_ms;
	return TR_X * 10 + (int64_t)((__int128)(t - p->from_ms) * TR_PLOT * 10 / (span > 0 ? span : 1));
}

/* y of drift v in tenths, in the panel starting at top over [lo, hi]. */
static int64_t trend_y(int64_t top, int64_t lo, int64_t hi, int64_t v)
{
	return (top + 5) * 10 + (int64_t)(((__int128)hi - v) * (TR_PANEL - 10) * 10 / ((__int128)hi - lo));
}

/* One backend's panel: its name, the zero line, the drift per day as one
 * path (broken where a day has no drift figure or no stored result), a
 * dot per day with a drift (red when flagged), a grey mark per day
 * without, and the panel's scale. */
static void trend_panel(page *pg, const sb_trend *t, const sb_trend_series *s, int64_t top)
{
	char a[SB_MONEY_BUFSZ], b[SB_MONEY_BUFSZ], day[SB_TIME_BUFSZ];
	int64_t lo = 0, hi = 0;
	const sb_trend_point *last = NULL, *prev = NULL;
	bool pen = false, flat;

	for (size_t i = 0; i < s->n_points; i++) {
		const sb_trend_point *pt = &s->points[i];
		if (!pt->has_drift)
			continue;
		if (pt->drift_nanos < lo)
			lo = pt->drift_nanos;
		if (pt->drift_nanos > hi)
			hi = pt->drift_nanos;
		last = pt;
	}
	if ((flat = lo == hi)) {  /* every drift 0: a band around the zero line */
		lo = -1;
		hi = 1;
	}
	fputs("<g class=\"trend\" data-backend=\"", pg->f);
	sb_pg_esc(pg, s->backend);
	fprintf(pg->f, "\" data-points=\"%zu\"><rect class=\"panel\" x=\"%d\" y=\"%" PRId64 "\" width=\"%d\" "
	        "height=\"%d\"/>", s->n_drift, TR_X, top, TR_PLOT, TR_PANEL);
	fprintf(pg->f, "<text class=\"k\" x=\"4\" y=\"%" PRId64 "\">", top + 20);
	sb_pg_esc(pg, s->backend);
	fputs("</text>", pg->f);
	if (last != NULL)
		fprintf(pg->f, "<text class=\"s\" x=\"4\" y=\"%" PRId64 "\">last drift %s: %s</text>", top + 38,
		        sb_date_format(last->from_ms, day), sb_pg_usd_short(last->drift_nanos, a));
	/* the zero line and the scale */
	fputs("<line class=\"zero\" x1=\"", pg->f);
	sb_pg_tenths(pg, TR_X * 10);
	fputs("\" x2=\"", pg->f);
	sb_pg_tenths(pg, (TR_X + TR_PLOT) * 10);
	fputs("\" y1=\"", pg->f);
	sb_pg_tenths(pg, trend_y(top, lo, hi, 0));
	fputs("\" y2=\"", pg->f);
	sb_pg_tenths(pg, trend_y(top, lo, hi, 0));
	fputs("\"/>", pg->f);
	fprintf(pg->f, "<text class=\"ax\" x=\"%d\" y=\"%" PRId64 "\">%s</text>", TR_X + TR_PLOT + 6, top + 11,
	        flat ? "0.00" : sb_pg_usd_short(hi, a));
	fprintf(pg->f, "<text class=\"ax\" x=\"%d\" y=\"%" PRId64 "\">%s</text>", TR_X + TR_PLOT + 6,
	        top + TR_PANEL - 2, flat ? "0.00" : sb_pg_usd_short(lo, b));
	/* the line */
	fputs("<path class=\"line\" d=\"", pg->f);
	for (size_t i = 0; i < s->n_points; i++) {
		const sb_trend_point *pt = &s->points[i];
		if (!pt->has_drift) {
			pen = false;
			continue;
		}
		if (pen && prev != NULL && prev->to_ms != pt->from_ms)
			pen = false;
		fputs(pen ? " L" : (prev == NULL ? "M" : " M"), pg->f);
		sb_pg_tenths(pg, trend_x(&t->period, pt->from_ms + (pt->to_ms - pt->from_ms) / 2));
		fputc(' ', pg->f);
		sb_pg_tenths(pg, trend_y(top, lo, hi, pt->drift_nanos));
		pen = true;
		prev = pt;
	}
	fputs("\"/>", pg->f);
	/* the points */
	for (size_t i = 0; i < s->n_points; i++) {
		const sb_trend_point *pt = &s->points[i];
		int64_t x = trend_x(&t->period, pt->from_ms + (pt->to_ms - pt->from_ms) / 2);
		sb_time_format(pt->from_ms, day);
		if (pt->has_drift) {
			fprintf(pg->f, "<circle class=\"pt%s\" data-from=\"%s\"", pt->flagged ? " flag" : "", day);
			sb_pg_data_usd(pg, "data-drift", true, pt->drift_nanos);
			fputs(" cx=\"", pg->f);
			sb_pg_tenths(pg, x);
			fputs("\" cy=\"", pg->f);
			sb_pg_tenths(pg, trend_y(top, lo, hi, pt->drift_nanos));
			fprintf(pg->f, "\" r=\"%s\"><title>%.10s: drift %s USD, %s%s (reconciliation %" PRId64
			        ")</title></circle>", pt->flagged ? "4.5" : "3", day, sb_pg_usd6(pt->drift_nanos, a),
			        sb_recon_status_name(pt->status), pt->flagged ? ", flagged" : "", pt->recon_id);
		} else {
			fprintf(pg->f, "<rect class=\"pt-none\" data-from=\"%s\" data-drift=\"null\" x=\"", day);
			sb_pg_tenths(pg, x - 15);
			fprintf(pg->f, "\" y=\"%" PRId64 "\" width=\"3\" height=\"8\"><title>%.10s: no drift figure "
			        "(%s%s)</title></rect>", top + TR_PANEL - 9, day, sb_recon_status_name(pt->status),
			        pt->flagged ? ", flagged" : "");
		}
	}
	fputs("</g>\n", pg->f);
}

/* The trend chart of t (the <h2> is the caller's). */
void sb_pg_trend_chart(page *pg, const sb_trend *t)
{
	const sb_period *p = &t->period;
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];
	size_t panels = 0, none = 0;
	int64_t height, axis;
	int64_t days = (p->to_ms - p->from_ms + SB_MS_PER_DAY - 1) / SB_MS_PER_DAY;

	for (size_t i = 0; i < t->n_series; i++)
		if (t->series[i].n_drift > 0)
			panels++;
		else
			none++;
	if (panels == 0) {
		fprintf(pg->f, "<p id=\"trend-none\">No stored daily reconciliation from %s to %s has a drift "
		        "figure: the trend is drawn from the reconciliations of single UTC days that were stored "
		        "(nightly stores one a day).</p>\n",
		        sb_date_format(p->from_ms, from), sb_date_format(p->to_ms - 1, to));
	} else {
		height = TR_TOP + (int64_t)panels * TR_ROW + TR_AXIS;
		axis = TR_TOP + (int64_t)panels * TR_ROW;
		fputs("<figure class=\"chart\" id=\"trend\">\n<div class=\"legend\"><span><span class=\"sw pt\"></span>"
		      "drift of a day (billed - computed)</span><span><span class=\"sw flag\"></span>flagged that day</span>"
		      "<span>- - - zero: billed = computed</span></div>\n", pg->f);
		fprintf(pg->f, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %" PRId64 "\" role=\"img\" "
		        "aria-label=\"drift per day and backend\" font-family=\"system-ui,sans-serif\">\n%s",
		        TR_W, height, sb_pg_svg_style);
		panels = 0;
		for (size_t i = 0; i < t->n_series; i++)
			if (t->series[i].n_drift > 0)
				trend_panel(pg, t, &t->series[i], TR_TOP + (int64_t)(panels++) * TR_ROW);
		/* five dates under the panels */
		for (int k = 0; k <= 4; k++) {
			int64_t day0 = p->from_ms + (int64_t)((__int128)(days > 0 ? days - 1 : 0) * k / 4) * SB_MS_PER_DAY;
			int64_t x = trend_x(p, day0 + SB_MS_PER_DAY / 2);
			fputs("<line class=\"tick\" x1=\"", pg->f);
			sb_pg_tenths(pg, x);
			fputs("\" x2=\"", pg->f);
			sb_pg_tenths(pg, x);
			fprintf(pg->f, "\" y1=\"%d\" y2=\"%" PRId64 "\"/>", TR_TOP, axis - 6);
			fputs("<text class=\"ax\" text-anchor=\"middle\" x=\"", pg->f);
			sb_pg_tenths(pg, x);
			fprintf(pg->f, "\" y=\"%" PRId64 "\">%s</text>", axis + 10, sb_date_format(day0, from));
		}
		fputs("</svg>\n<figcaption>One panel per backend, each on its own scale (its largest and smallest "
		      "drift of the days shown, and zero), so that a slow creep shows on a small bill as on a large "
		      "one. From the stored reconciliations of single UTC days (the latest of each day); a gap is a "
		      "day with no stored result, or with no drift figure (a grey mark: nothing billed, or billed "
		      "unknown).</figcaption>\n</figure>\n", pg->f);
	}
	if (none > 0) {
		bool first = true;
		fputs("<p class=\"small\" id=\"trend-nodrift\">Stored, with no drift figure on any day (nothing billed, "
		      "or billed unknown): ", pg->f);
		for (size_t i = 0; i < t->n_series; i++) {
			const sb_trend_series *ts = &t->series[i];
			const sb_trend_point *last = &ts->points[ts->n_points - 1];
			size_t flagged = 0;
			if (ts->n_drift > 0)
				continue;
			for (size_t k = 0; k < ts->n_points; k++)
				flagged += ts->points[k].flagged ? 1 : 0;
			fputs(first ? "<b>" : ", <b>", pg->f);
			sb_pg_esc(pg, ts->backend);
			fprintf(pg->f, "</b> (last %s", sb_recon_status_name(last->status));
			if (flagged > 0)
				fprintf(pg->f, "; flagged on %zu of %zu day%s", flagged, ts->n_points, ts->n_points == 1 ? "" : "s");
			fputs(")", pg->f);
			first = false;
		}
		fputs(".</p>\n", pg->f);
	}
}

