/* recon_page.c: the reconciliation page and the drift page (see
 * recon_page.h).  Amounts are printed as the tables print them (6
 * decimals, half to even, by sb_money_format), in sentences with 2 (6
 * when 2 would show a non-zero amount as 0.00), rates with 9; the data
 * attributes hold the JSON's 9 decimals.  The charts are in
 * recon_charts.c, what both files share in recon_page_int.h.
 *
 * Still over 600 lines: the rest is one document written top to bottom
 * (its inline style sheet, the verdict, the backends, the flagged
 * sessions, the night's imports, the commands quoted for the shell), each
 * part a function over the same page; the night's faults and the flags
 * of the period are in recon_flags.c.
 */
#include "report/recon_page.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "report/html.h"
#include "report/recon_page_int.h"
#include "report/recon_words.h"


void sb_shell_word(FILE *f, const char *s)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./:";

	if (s[0] != '\0' && strspn(s, plain) == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* ---- text ---------------------------------------------------------------- */

void sb_pg_esc(page *pg, const char *s)
{
	sb_html_text(pg->f, s);
}

/* An amount as the tables print it: 6 decimals. */
const char *sb_pg_usd6(int64_t nanos, char buf[SB_MONEY_BUFSZ])
{
	return sb_money_format(nanos, 6, buf);
}

/* An amount for a sentence: 2 decimals, or 6 when 2 would turn a
 * non-zero amount into 0.00. */
const char *sb_pg_usd_say(int64_t nanos, char buf[SB_MONEY_BUFSZ])
{
	int64_t cents = 0;

	if (nanos != 0 && sb_money_round(nanos, 2, &cents) == SB_MONEY_OK && cents == 0)
		return sb_money_format(nanos, 6, buf);
	return sb_money_format(nanos, 2, buf);
}

/* An amount for a chart's scale: 6 decimals without the trailing zeros
 * past the second ("0.12", "0.004", "418.77"). */
const char *sb_pg_usd_short(int64_t nanos, char buf[SB_MONEY_BUFSZ])
{
	size_t n = strlen(sb_money_format(nanos, 6, buf));
	char *dot = strchr(buf, '.');

	while (dot != NULL && n > 0 && buf[n - 1] == '0' && (size_t)(&buf[n - 1] - dot) > 2)
		buf[--n] = '\0';
	return buf;
}

/* A data attribute holding an amount as the JSON has it (9 decimals), or
 * "null". */
void sb_pg_data_usd(page *pg, const char *name, bool has, int64_t nanos)
{
	char buf[SB_MONEY_BUFSZ];

	fprintf(pg->f, " %s=\"%s\"", name, has ? sb_money_format(nanos, 9, buf) : "null");
}

/* Milliseconds as minutes with 3 decimals ("20.576"), half to even. */
static const char *minutes(int64_t ms, char buf[SB_MONEY_BUFSZ])
{
	int64_t milli = 0;

	if (sb_div_round_even(ms, 60, &milli) != SB_MONEY_OK || milli > INT64_MAX / 1000000 ||
	    milli < INT64_MIN / 1000000)
		return "?";
	return sb_money_format(milli * 1000000, 3, buf);
}

/* A duration for a sentence: "72 h", "90 min", "45 s". */
static const char *span_text(int64_t ms, char buf[SB_TIME_BUFSZ])
{
	if (ms % 3600000 == 0)
		snprintf(buf, SB_TIME_BUFSZ, "%" PRId64 " h", ms / 3600000);
	else if (ms % 60000 == 0)
		snprintf(buf, SB_TIME_BUFSZ, "%" PRId64 " min", ms / 60000);
	else
		snprintf(buf, SB_TIME_BUFSZ, "%" PRId64 " s", ms / 1000);
	return buf;
}

/* A duration as --billing-lag takes it: "72h", "90m", "45s". */
static const char *lag_arg(int64_t ms, char buf[SB_TIME_BUFSZ])
{
	if (ms % 3600000 == 0)
		snprintf(buf, SB_TIME_BUFSZ, "%" PRId64 "h", ms / 3600000);
	else if (ms % 60000 == 0)
		snprintf(buf, SB_TIME_BUFSZ, "%" PRId64 "m", ms / 60000);
	else
		snprintf(buf, SB_TIME_BUFSZ, "%" PRId64 "s", ms / 1000);
	return buf;
}

/* "s" unless n is 1. */
const char *sb_pg_plural(int64_t n)
{
	return n == 1 ? "" : "s";
}

/* ---- commands ------------------------------------------------------------ */

/* A command line being built (in memory, so that it is escaped whole). */
typedef struct cmd {
	char *text;                /* what was written */
	size_t len;
	FILE *m;                   /* the memory stream, NULL when it could not be opened */
} cmd;

/* Begin the command with the words of the page's invocation
 * (sb_invocation_words: "sbledger", "./sbledger --db LEDGER"). */
static void cmd_begin(page *pg, cmd *c)
{
	char run[SB_INVOCATION_BUFSZ];

	c->text = NULL;
	c->len = 0;
	if ((c->m = open_memstream(&c->text, &c->len)) == NULL) {
		pg->failed = true;
		return;
	}
	fputs(sb_invocation_words(pg->o->ledger, run, sizeof run), c->m);
}

/* Append one word, quoted for the shell where it needs it. */
static void cmd_word(cmd *c, const char *word)
{
	if (c->m == NULL)
		return;
	fputc(' ', c->m);
	sb_shell_word(c->m, word);
}

/* Write the command into the page as <code class="cmd">. */
static void cmd_end(page *pg, cmd *c)
{
	if (c->m == NULL)
		return;
	if (fclose(c->m) != 0 || c->text == NULL) {
		pg->failed = true;
	} else {
		fputs("<code class=\"cmd\">", pg->f);
		sb_pg_esc(pg, c->text);
		fputs("</code>", pg->f);
	}
	free(c->text);
	c->m = NULL;
	c->text = NULL;
}

/* The command that prints this reconciliation again as a table, every
 * session not ok included, storing nothing: the same period and, where
 * they are not the defaults, the same tolerances and billing lag. */
static void reconcile_cmd(page *pg, const sb_recon *r)
{
	char name[96], buf[SB_MONEY_BUFSZ], lag[SB_TIME_BUFSZ];
	cmd c;

	cmd_begin(pg, &c);
	cmd_word(&c, "reconcile");
	cmd_word(&c, "--period");
	cmd_word(&c, sb_period_name(&r->opts.period, name));
	if (r->opts.abs_nanos != SB_DEFAULT_ABS_NANOS) {
		cmd_word(&c, "--abs-tol");
		cmd_word(&c, sb_money_format(r->opts.abs_nanos, 9, buf));
	}
	if (r->opts.rel_ppb != SB_DEFAULT_REL_PPB) {
		cmd_word(&c, "--rel-tol");
		cmd_word(&c, sb_money_format(r->opts.rel_ppb, 9, buf));
	}
	if (r->opts.billing_lag_ms != SB_DEFAULT_LAG_MS) {
		cmd_word(&c, "--billing-lag");
		cmd_word(&c, lag_arg(r->opts.billing_lag_ms, lag));
	}
	cmd_word(&c, "--dry-run");
	cmd_end(pg, &c);
}

/* "sbledger lines --period P --backend B [--session S]": the lines behind
 * a backend's or a session's figure (a session without id: its backend's). */
static void lines_cmd(page *pg, const sb_period *p, const char *backend, const char *session)
{
	char name[96];
	cmd c;

	cmd_begin(pg, &c);
	cmd_word(&c, "lines");
	cmd_word(&c, "--period");
	cmd_word(&c, sb_period_name(p, name));
	cmd_word(&c, "--backend");
	cmd_word(&c, backend);
	if (session != NULL) {
		cmd_word(&c, "--session");
		cmd_word(&c, session);
	}
	cmd_end(pg, &c);
}

/* A command of fixed words (NULL-terminated). */
void sb_pg_words_cmd(page *pg, const char *first, ...)
{
	va_list ap;
	cmd c;

	cmd_begin(pg, &c);
	va_start(ap, first);
	for (const char *w = first; w != NULL; w = va_arg(ap, const char *))
		cmd_word(&c, w);
	va_end(ap);
	cmd_end(pg, &c);
}

/* ---- the page frame ------------------------------------------------------ */

static const char page_style[] =
	":root{color-scheme:light}\n"
	"*{box-sizing:border-box}\n"
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;"
	"color:#1b1b1b;background:#fff;margin:0 auto;padding:20px;max-width:1180px}\n"
	"h1{font-size:1.5em;margin:0 0 .15em}\n"
	"h2{font-size:1.12em;margin:1.6em 0 .5em;padding-bottom:.2em;border-bottom:1px solid #dcdcdc}\n"
	".meta{color:#555;margin:0 0 1em}\n"
	".muted{color:#666}\n"
	".small{font-size:.88em}\n"
	".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}\n"
	"table{border-collapse:collapse;width:100%;font-size:.93em;font-variant-numeric:tabular-nums}\n"
	"th,td{padding:5px 8px;text-align:right;white-space:nowrap;vertical-align:top}\n"
	"th{font-weight:600;background:#f4f5f7;border-bottom:2px solid #9aa0a6;white-space:normal;vertical-align:bottom}\n"
	"td{border-bottom:1px solid #e3e3e3}\n"
	"th.l,td.l{text-align:left}\n"
	"td.wrap{white-space:normal;overflow-wrap:anywhere}\n"
	"tr.main td{border-bottom:none}\n"
	"tr.words td{padding:0 8px 6px 1.6em;color:#333;white-space:normal;text-align:left}\n"
	"tr.words .why{display:block;font-weight:600}\n"
	"tr.words .full{display:block;color:#555;font-size:.9em;overflow-wrap:anywhere}\n"
	"tfoot td{font-weight:700;border-top:2px solid #333;border-bottom:none}\n"
	".badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:.86em;font-weight:600;"
	"border:1px solid;white-space:nowrap}\n"
	".bad{background:#fde7e9;color:#a4001d;border-color:#e8a3ab}\n"
	".good{background:#e6f4ea;color:#1e6b34;border-color:#9ccfaa}\n"
	".watch{background:#fff4dc;color:#7a4b00;border-color:#e6c27a}\n"
	".wait{background:#e8eef7;color:#2c4a72;border-color:#a9bcd8}\n"
	".note{display:block;font-size:.85em;color:#7a4b00;margin-top:2px}\n"
	".verdict{border-left:6px solid;border-radius:4px;padding:12px 16px;margin:0 0 1.2em}\n"
	".verdict.bad{background:#fdf1f2}\n"
	".verdict.good{background:#eef8f1}\n"
	".verdict p{margin:.2em 0;color:#1b1b1b}\n"
	".verdict .headline{font-size:1.3em;font-weight:700}\n"
	".verdict .lead{font-size:1.15em;font-weight:700;color:#a4001d}\n"
	"ul.faults{margin:.2em 0 .8em;padding-left:1.2em}\n"
	"ul.faults li{margin:.25em 0;overflow-wrap:anywhere;color:#1b1b1b}\n"
	"tr.flag.open td{background:#fdf1f2}\n"
	".verdict .stake b{font-size:1.15em}\n"
	"code.cmd{display:inline-block;font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;"
	"background:#f4f5f7;border:1px solid #e0e0e0;border-radius:3px;padding:1px 6px;white-space:pre-wrap;"
	"overflow-wrap:anywhere;color:#1b1b1b}\n"
	"ul.cmds{padding-left:1.2em}\n"
	"ul.cmds li{margin:.35em 0}\n"
	"ol.top{display:inline;margin:0;padding:0;list-style:none;counter-reset:top}\n"
	"ol.top li{display:inline;counter-increment:top;margin-right:1.1em}\n"
	"ol.top li::before{content:counter(top) \". \";color:#666}\n"
	".lines{display:block;margin-top:.2em}\n"
	"ol.top code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}\n"
	"figure{margin:0 0 1em}\n"
	"figure{overflow-x:auto}\n"
	"figure svg{display:block;width:100%;height:auto;max-width:820px;min-width:560px}\n"
	"figcaption{color:#555;font-size:.88em;margin:.3em 0 0;max-width:820px}\n"
	".legend{display:flex;flex-wrap:wrap;gap:.4em 1.4em;font-size:.9em;margin:.2em 0 .5em}\n"
	".sw{display:inline-block;width:.9em;height:.9em;vertical-align:-.1em;margin-right:.35em;border-radius:2px}\n"
	".sw.computed{background:#3b6ea5}.sw.billed{background:#e07b24}"
	".sw.band{background:#9aa0a6;opacity:.35}.sw.flag{background:#c0162f;border-radius:50%}"
	".sw.pt{background:#3b6ea5;border-radius:50%}\n"
	"footer{color:#6b6b6b;font-size:.85em;margin-top:2.5em;border-top:1px solid #e3e3e3;padding-top:.6em}\n"
	"@media (max-width:640px){body{padding:10px;font-size:14px}.wide{display:none}th,td{padding:4px 5px}"
	"tr.words td{padding-left:5px}tr.words td>*{max-width:calc(100vw - 32px)}}\n"
	"@media print{body{max-width:none;padding:0;font-size:10pt}.scroll{overflow:visible}.wide{display:table-cell}"
	"figure,tr,.verdict{break-inside:avoid}*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n";

/* The SVG charts' own style (inside each <svg>). */
const char sb_pg_svg_style[] =
	"<style>.k{font-size:14px;font-weight:600;fill:#1b1b1b}.s{font-size:11.5px;fill:#555}"
	".v{font-size:12px;fill:#333}.ax{font-size:11px;fill:#555}"
	".computed{fill:#3b6ea5}.billed{fill:#e07b24}.band{fill:#9aa0a6;fill-opacity:.3}"
	".edge{stroke:#6b6b6b;stroke-width:1;stroke-dasharray:3 2}"
	".sbad{fill:#a4001d}.sgood{fill:#1e6b34}.swatch{fill:#7a4b00}.swait{fill:#2c4a72}"
	".panel{fill:#f7f8fa}.zero{stroke:#9aa0a6;stroke-width:1;stroke-dasharray:4 3}"
	".line{fill:none;stroke:#3b6ea5;stroke-width:2;stroke-linejoin:round}"
	".pt{fill:#3b6ea5}.pt.flag{fill:#c0162f}.pt-none{fill:#9aa0a6}"
	".tick{stroke:#c8c8c8;stroke-width:1}</style>\n";

static void page_begin(page *pg, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"sbledger\">\n<title>", pg->f);
	sb_pg_esc(pg, title);
	fprintf(pg->f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", page_style);
}

static void page_end(page *pg)
{
	char made[SB_TIME_BUFSZ];

	fprintf(pg->f, "<footer>Made by sbledger at <time datetime=\"%s\">%s</time>. Amounts in USD; "
	        "drift is billed minus computed (above 0: billed more than the runs computed). No part of "
	        "this page is fetched from a network.</footer>\n</body>\n</html>\n",
	        sb_time_format(pg->o->made_ms, made), made);
}

/* The period as "NAME (FROM to TO, end excluded)". */
static void period_text(page *pg, const sb_period *p)
{
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ], name[96];

	fputs("<b>", pg->f);
	sb_pg_esc(pg, sb_period_name(p, name));
	fprintf(pg->f, "</b> <span class=\"muted\">(%s to %s, end excluded)</span>",
	        sb_time_format(p->from_ms, from), sb_time_format(p->to_ms, to));
}

/* SB_EIO when f failed, SB_EINTERNAL when a command could not be built. */
static int page_status(page *pg, sb_err *e)
{
	if (pg->failed)
		return sb_fail(e, SB_EINTERNAL, "out of memory while writing the HTML page");
	if (ferror(pg->f))
		return sb_fail(e, SB_EIO, "cannot write the HTML page");
	return SB_OK;
}

/* ---- statuses ------------------------------------------------------------ */

/* The tone of a status: bad (flagged), good (ok), wait (pending), watch
 * (neither flagged nor ok: a bill not come yet). */
const char *sb_pg_tone(bool flagged, sb_recon_status s)
{
	if (flagged)
		return "bad";
	if (s == SB_STATUS_OK)
		return "good";
	return s == SB_STATUS_PENDING ? "wait" : "watch";
}

/* A status badge: its word, and "flagged" when it is (colour is never the
 * only sign). */
static void badge(page *pg, bool flagged, sb_recon_status s)
{
	fprintf(pg->f, "<span class=\"badge %s\" data-status=\"%s\">%s%s</span>", sb_pg_tone(flagged, s),
	        sb_recon_status_name(s), sb_recon_status_name(s), flagged ? " &middot; flagged" : "");
}

/* ---- the verdict --------------------------------------------------------- */

/* The verdict's line of the period's open flags (none when open is 0). */
static void open_flags(page *pg, size_t open)
{
	if (open > 0)
		fprintf(pg->f, "<p id=\"flags-open\" data-open=\"%zu\"><b>%zu open flag%s</b> in the period, not "
		        "handled yet: listed under Flags of the period, below.</p>\n", open, open,
		        sb_pg_plural((int64_t)open));
}

static void verdict(page *pg, const sb_recon *r, const sb_recon_detail *d)
{
	const sb_recon_stake *k = &d->stake;
	char a[SB_MONEY_BUFSZ], b[SB_MONEY_BUFSZ];
	bool any = r->flagged > 0;
	bool first = true;
	size_t faults = sb_night_faults(pg->o->imports);
	size_t open = 0;

	/* never green while the night had a fault: the figures below may
	 * lack what it kept out of the ledger */
	fprintf(pg->f, "<section class=\"verdict %s\" id=\"verdict\" data-flagged=\"%" PRId64
	        "\" data-flagged-backends=\"%" PRId64 "\" data-flagged-sessions=\"%" PRId64
	        "\" data-pending=\"%" PRId64 "\" data-faults=\"%zu\">\n", any || faults > 0 ? "bad" : "good",
	        r->flagged, r->flagged_backends, r->flagged_sessions, r->pending, faults);
	sb_pg_faults(pg, pg->o->imports);
	for (size_t i = 0; i < d->flags.n; i++)
		open += strcmp(d->flags.list[i].state, "open") == 0;
	if (r->n_backends == 0) {
		fputs("<p class=\"headline\">Nothing to reconcile: no runs and no billing lines in the "
		      "period.</p>\n", pg->f);
		open_flags(pg, open);
		fputs("</section>\n", pg->f);
		return;
	}
	fprintf(pg->f, "<p class=\"headline\"><span id=\"flagged-backends\">%" PRId64 "</span> backend%s, "
	        "<span id=\"flagged-sessions\">%" PRId64 "</span> session%s flagged</p>\n",
	        r->flagged_backends, sb_pg_plural(r->flagged_backends), r->flagged_sessions,
	        sb_pg_plural(r->flagged_sessions));
	fprintf(pg->f, "<p class=\"stake\">Money at stake: <b id=\"at-stake\"");
	sb_pg_data_usd(pg, "data-usd", true, k->nanos);
	fprintf(pg->f, " title=\"%s USD\">%s USD</b>", sb_money_format(k->nanos, 9, a), sb_pg_usd_say(k->nanos, b));
	if (any) {
		fprintf(pg->f, " <span class=\"muted small\">(the |drift| of %" PRId64 " flagged backend%s",
		        k->backends, sb_pg_plural(k->backends));
		if (k->sessions > 0)
			fprintf(pg->f, ", plus that of %" PRId64 " flagged session%s of backends not flagged "
			        "themselves", k->sessions, sb_pg_plural(k->sessions));
		fputs("; a flagged backend's sessions are inside its own drift and are not counted again)</span>",
		      pg->f);
	}
	fputs("</p>\n", pg->f);
	if (k->unknown_backends + k->unknown_sessions > 0) {
		fputs("<p class=\"small\">Not in that sum, their drift being unknown (nothing billed, or billed "
		      "unknown): ", pg->f);
		for (size_t i = 0; i < r->n_backends; i++) {
			const sb_recon_backend *be = &r->backends[i];
			if (!be->flagged || be->has_drift)
				continue;
			fprintf(pg->f, "%s<b>", first ? "" : ", ");
			sb_pg_esc(pg, be->backend);
			fprintf(pg->f, "</b> (%s)", sb_recon_status_name(be->status));
			first = false;
		}
		if (k->unknown_sessions > 0)
			fprintf(pg->f, "%s%" PRId64 " flagged session%s of backends not flagged", first ? "" : ", ",
			        k->unknown_sessions, sb_pg_plural(k->unknown_sessions));
		fputs(".</p>\n", pg->f);
	}
	if (!any)
		fprintf(pg->f, "<p>Every backend agrees with its bill within tolerance%s%s.</p>\n",
		        r->pending > 0 ? ", or is not judged yet" : "",
		        faults > 0 ? ", on what the ledger holds (the faults above kept something out)" : "");
	if (r->pending > 0)
		fprintf(pg->f, "<p class=\"small\"><b>%" PRId64 " backend%s pending</b>: %s window%s not ended "
		        "when this was judged; judged again once %s (nightly does). Pending is never flagged.</p>\n",
		        r->pending, sb_pg_plural(r->pending), r->pending == 1 ? "its" : "their",
		        r->pending == 1 ? " had" : "s had", r->pending == 1 ? "it has" : "they have");
	open_flags(pg, open);
	fputs("</section>\n", pg->f);
}

/* ---- the backends -------------------------------------------------------- */

/* What a backend's result means, in a few words that agree with its
 * figures (the sentence of sb_recon_words follows it on the page). */
static void headline(page *pg, const sb_recon *r, const sb_recon_backend *b)
{
	const sb_explain *x = &b->explain;
	char a[SB_MONEY_BUFSZ], c[SB_MONEY_BUFSZ], t[SB_TIME_BUFSZ], text[512];

	text[0] = '\0';
	switch (b->status) {
	case SB_STATUS_PENDING:
		snprintf(text, sizeof text, "not judged yet: its window ends at %s", sb_time_format(b->window.to_ms, t));
		break;
	case SB_STATUS_CURRENCY:
		snprintf(text, sizeof text, "billed unknown: %" PRId64 " line%s in %s had no exchange rate",
		         b->currency_lines, sb_pg_plural(b->currency_lines), b->currency);
		break;
	case SB_STATUS_NO_RATE:
		if (b->rate_fix.lines > 0)
			snprintf(text, sizeof text, "billed unknown: %" PRId64 " metered line%s found no rate on the card",
			         b->rate_fix.lines, sb_pg_plural(b->rate_fix.lines));
		else
			snprintf(text, sizeof text, "card cost unknown: %" PRId64 " run%s with no rate card in force",
			         b->unpriced_runs, sb_pg_plural(b->unpriced_runs));
		break;
	case SB_STATUS_PARTIAL:
		snprintf(text, sizeof text, "a line of the account runs past the window (to %s): reconcile a "
		         "period that holds it", sb_time_format(b->partial_end_ms, t));
		break;
	case SB_STATUS_UNEXPECTED:
		snprintf(text, sizeof text, "billed %s USD %s", sb_pg_usd_say(b->billed_nanos, a),
		         b->free ? "on a free backend" : "with no runs to account for it");
		break;
	case SB_STATUS_UNBILLED:
		if (b->flagged)
			snprintf(text, sizeof text, "the bill is missing: nothing billed, and the window ended more "
			         "than %s ago", span_text(r->opts.billing_lag_ms, t));
		else
			snprintf(text, sizeof text, "no bill yet (billing lag): flagged if none has come %s after "
			         "the window's end", span_text(r->opts.billing_lag_ms, t));
		break;
	case SB_STATUS_OVER_BILLED:
	case SB_STATUS_UNDER_BILLED:
		if (x->verdict == SB_VERDICT_LIFETIME && b->drift_nanos > 0 && x->has_idle)
			snprintf(text, sizeof text, "the provider bills session life: boot and idle are %s USD of the "
			         "%s billed", sb_pg_usd_say(x->idle_nanos, a), sb_pg_usd_say(b->billed_nanos, c));
		else if (x->verdict == SB_VERDICT_LIFETIME && b->drift_nanos > 0)
			snprintf(text, sizeof text, "the provider bills session life: %s USD billed is the lifetime at "
			         "the card rate", sb_pg_usd_say(b->billed_nanos, a));
		else if (x->verdict == SB_VERDICT_LIFETIME)
			snprintf(text, sizeof text, "billed is the session lifetime at the card rate (%s USD); the "
			         "runs' own estimates used a higher rate", sb_pg_usd_say(x->lifetime_nanos, a));
		else if (x->verdict == SB_VERDICT_RATE && x->has_billed_rate)
			snprintf(text, sizeof text, "the card's rate is too %s: the provider bills %s USD a minute "
			         "billed, the card says %s",
			         x->billed_rate_nanos > x->card_rate_nanos ? "low" : "high",
			         sb_money_format(x->billed_rate_nanos, 9, a), sb_money_format(x->card_rate_nanos, 9, c));
		else if (x->verdict == SB_VERDICT_RATE)
			snprintf(text, sizeof text, "the card's rate is too %s: the provider bills %s USD a minute of "
			         "session life, the card says %s",
			         x->implied_rate_nanos > x->card_rate_nanos ? "low" : "high",
			         sb_money_format(x->implied_rate_nanos, 9, a), sb_money_format(x->card_rate_nanos, 9, c));
		else if (x->verdict == SB_VERDICT_UNEXPLAINED)
			snprintf(text, sizeof text, "unexplained: neither session life nor the card's rate accounts "
			         "for the drift");
		else
			snprintf(text, sizeof text, "unexplained: its runs have no ended_at, so session life cannot "
			         "be weighed");
		break;
	case SB_STATUS_OK:
		if (b->sessions_flagged > 0)
			snprintf(text, sizeof text, "within tolerance as a whole, but %" PRId64 " of its sessions %s "
			         "flagged (below)", b->sessions_flagged, b->sessions_flagged == 1 ? "is" : "are");
		else if (b->has_billed)
			snprintf(text, sizeof text, "billed agrees with computed within tolerance");
		else
			snprintf(text, sizeof text, "nothing billed and nothing due%s", b->free ? " (a free backend)" : "");
		break;
	}
	fputs("<span class=\"why\">", pg->f);
	sb_pg_esc(pg, text);
	fputs("</span>", pg->f);
}

/* The order of backends on the page: flagged (or with flagged sessions),
 * then the others not ok (pending, a bill not come yet), then ok; by name
 * within each (as the reconcile table lists them). */
int sb_pg_rank(const sb_recon_backend *b)
{
	if (b->flagged || b->sessions_flagged > 0)
		return 0;
	return b->status != SB_STATUS_OK ? 1 : 2;
}

bool sb_pg_billed_unknown(const sb_recon_backend *b)
{
	return b->status == SB_STATUS_CURRENCY || (b->status == SB_STATUS_NO_RATE && b->rate_fix.lines > 0);
}

/* A money cell with its exact figure in data-usd; "-" when absent. */
static void money_cell(page *pg, const char *field, bool has, int64_t nanos, const char *absent)
{
	char buf[SB_MONEY_BUFSZ];

	fprintf(pg->f, "<td%s data-field=\"%s\"", strcmp(field, "tolerance") == 0 ? " class=\"wide\"" : "", field);
	sb_pg_data_usd(pg, "data-usd", has, nanos);
	if (has)
		fprintf(pg->f, ">%s</td>", sb_pg_usd6(nanos, buf));
	else
		fprintf(pg->f, "><span class=\"muted\">%s</span></td>", absent);
}

/* The window of b: "the period", or its own bounds. */
static void window_cell(page *pg, const sb_recon *r, const sb_recon_backend *b)
{
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];

	fprintf(pg->f, "<td class=\"l wide\" data-field=\"window\" data-from=\"%s\" data-to=\"%s\">",
	        sb_time_format(b->window.from_ms, from), sb_time_format(b->window.to_ms, to));
	if (b->window.from_ms == r->opts.period.from_ms && b->window.to_ms == r->opts.period.to_ms)
		fputs("the period", pg->f);
	else
		fprintf(pg->f, "%s ..<br>%s <span class=\"muted\">(its billing %s)</span>", from, to,
		        b->grid_ms == SB_GRID_HOUR_MS ? "hours" : "days");
	fputs("</td>", pg->f);
}

/* The name of a basis for the table. */
static const char *basis_text(sb_recon_basis basis)
{
	switch (basis) {
	case SB_RBASIS_BILLED: return "billed lines";
	case SB_RBASIS_METERED: return "metered lines";
	case SB_RBASIS_RUN: return "runs' own";
	case SB_RBASIS_NONE: break;
	}
	return "-";
}

static void backend_rows(page *pg, const sb_recon *r, const sb_recon_backend *b)
{
	char rel[SB_MONEY_BUFSZ], words[2048];
	bool has_rel = b->has_drift_rel && b->drift_rel_micro < INT64_MAX / 1000 && b->drift_rel_micro > INT64_MIN / 1000;
	const char *absent_billed = sb_pg_billed_unknown(b) ? "unknown" : "none";

	fputs("<tr class=\"backend main\" data-backend=\"", pg->f);
	sb_pg_esc(pg, b->backend);
	fprintf(pg->f, "\" data-status=\"%s\" data-flagged=\"%s\" data-flagged-sessions=\"%" PRId64 "\">",
	        sb_recon_status_name(b->status), b->flagged ? "true" : "false", b->sessions_flagged);
	fputs("<td class=\"l\"><b>", pg->f);
	sb_pg_esc(pg, b->backend);
	fputs("</b></td><td class=\"l\">", pg->f);
	badge(pg, b->flagged, b->status);
	if (b->sessions_flagged > 0)
		fprintf(pg->f, "<span class=\"note\">%" PRId64 " session%s flagged</span>", b->sessions_flagged,
		        sb_pg_plural(b->sessions_flagged));
	fputs("</td>", pg->f);
	money_cell(pg, "computed", true, b->computed_nanos, "");
	money_cell(pg, "billed", b->has_billed, b->billed_nanos, absent_billed);
	money_cell(pg, "drift", b->has_drift, b->drift_nanos, "-");
	fprintf(pg->f, "<td data-field=\"drift_rel\" data-rel=\"%s\">",
	        has_rel ? sb_money_format(b->drift_rel_micro * 1000, 6, rel) : "null");
	if (has_rel && b->drift_rel_micro < INT64_MAX / 100000 && b->drift_rel_micro > INT64_MIN / 100000)
		fprintf(pg->f, "%s%%", sb_money_format(b->drift_rel_micro * 100000, 2, rel));
	else
		fputs("<span class=\"muted\">-</span>", pg->f);
	fputs("</td>", pg->f);
	money_cell(pg, "tolerance", true, sb_recon_tolerance_nanos(b), "");
	fprintf(pg->f, "<td class=\"l wide\" data-field=\"basis\" data-basis=\"%s\">%s",
	        b->basis != SB_RBASIS_NONE ? sb_recon_basis_name(b->basis) : "null", basis_text(b->basis));
	if (b->has_tax)
		fprintf(pg->f, "<span class=\"note muted\">tax %s apart</span>", sb_pg_usd6(b->tax_nanos, rel));
	fputs("</td>", pg->f);
	window_cell(pg, r, b);
	fputs("</tr>\n<tr class=\"words\"><td colspan=\"9\">", pg->f);
	headline(pg, r, b);
	if (sb_recon_words(r, b, pg->o->ledger, words, sizeof words)) {
		fputs("<span class=\"full\">", pg->f);
		sb_pg_esc(pg, words);
		fputs("</span>", pg->f);
	}
	fputs("</td></tr>\n", pg->f);
}

static void backends_table(page *pg, const sb_recon *r)
{
	fputs("<h2>Backends</h2>\n<div class=\"scroll\"><table id=\"backends\">\n<thead><tr>"
	      "<th class=\"l\">Backend</th><th class=\"l\">Status</th><th>Computed USD</th><th>Billed USD</th>"
	      "<th>Drift USD</th><th>Drift</th><th class=\"wide\">Flagged beyond &plusmn; USD</th>"
	      "<th class=\"l wide\">Basis</th>"
	      "<th class=\"l wide\">Window</th></tr></thead>\n<tbody>\n", pg->f);
	for (int k = 0; k < 3; k++)
		for (size_t i = 0; i < r->n_backends; i++)
			if (sb_pg_rank(&r->backends[i]) == k)
				backend_rows(pg, r, &r->backends[i]);
	fputs("</tbody>\n</table></div>\n<p class=\"small muted\">Computed is the runs' own estimate "
	      "(their rate card); billed is what the providers' lines say (the runs' own billed figure only "
	      "where a session has no line). A drift is flagged when it is beyond the tolerance, compared "
	      "exactly.</p>\n", pg->f);
}

/* ---- the flagged sessions ------------------------------------------------ */

static void session_rows(page *pg, const sb_recon *r, const sb_detail_session *d)
{
	const sb_recon_session *s = d->session;
	char a[SB_MONEY_BUFSZ], m[SB_MONEY_BUFSZ];

	fputs("<tr class=\"session main\" data-backend=\"", pg->f);
	sb_pg_esc(pg, s->backend);
	fputs("\" data-session=\"", pg->f);
	sb_pg_esc(pg, s->session_id != NULL ? s->session_id : "");
	fprintf(pg->f, "\" data-status=\"%s\"", sb_recon_status_name(s->status));
	sb_pg_data_usd(pg, "data-drift", d->has_drift, d->drift_nanos);
	fputs("><td class=\"l\"><b>", pg->f);
	sb_pg_esc(pg, s->backend);
	fputs("</b></td><td class=\"l wrap\">", pg->f);
	if (s->session_id != NULL)
		sb_pg_esc(pg, s->session_id);
	else
		fputs("<span class=\"muted\">(runs that named no session)</span>", pg->f);
	fputs("</td><td class=\"l\">", pg->f);
	badge(pg, s->flagged, s->status);
	fputs("</td>", pg->f);
	money_cell(pg, "computed", true, s->computed_nanos, "");
	money_cell(pg, "billed", s->has_billed, s->billed_nanos,
	           s->status == SB_STATUS_NO_RATE || s->status == SB_STATUS_CURRENCY ? "unknown" : "none");
	money_cell(pg, "drift", d->has_drift, d->drift_nanos, "-");
	fprintf(pg->f, "<td data-field=\"runs\">%" PRId64 "</td><td data-field=\"exec_minutes\">%s</td>",
	        d->runs, minutes(d->exec_ms, m));
	fprintf(pg->f, "<td data-field=\"lifetime_minutes\">%s", d->ended > 0 ? minutes(d->lifetime_ms, a) : "-");
	if (d->ended > 0 && d->ended < d->runs)
		fprintf(pg->f, "<span class=\"note muted\">%" PRId64 " of %" PRId64 " runs ended</span>", d->ended, d->runs);
	fputs("</td></tr>\n<tr class=\"words\"><td colspan=\"9\">", pg->f);
	if (d->n_commands == 0) {
		fputs("<span class=\"muted\">No commands recorded.</span>", pg->f);
	} else {
		fputs("Costliest commands: <ol class=\"top\">", pg->f);
		for (size_t k = 0; k < d->n_commands; k++) {
			const sb_detail_command *c = &d->commands[k];
			fputs("<li><code>", pg->f);
			if (c->text != NULL)
				sb_pg_esc(pg, c->text);
			else
				fputs("(no command text)", pg->f);
			fprintf(pg->f, "%s</code> <span class=\"muted\">&times;%" PRId64 ", %s min, ", c->cut ? "&hellip;" : "",
			        c->execs, minutes(c->duration_ms, m));
			if (c->has_cost)
				fprintf(pg->f, "%s USD", sb_pg_usd6(c->cost_nanos, a));
			else
				fputs("cost unknown", pg->f);
			fputs("</span></li>", pg->f);
		}
		fputs("</ol>", pg->f);
	}
	fputs("<span class=\"lines\">Its lines: ", pg->f);
	lines_cmd(pg, &r->opts.period, s->backend, s->session_id);
	fputs("</span>", pg->f);
	fputs("</td></tr>\n", pg->f);
}

static void sessions_table(page *pg, const sb_recon *r, const sb_recon_detail *d)
{
	fputs("<h2>Flagged sessions, worst drift first</h2>\n", pg->f);
	if (d->n_sessions == 0) {
		fputs("<p id=\"sessions-none\">No session is flagged.</p>\n", pg->f);
		return;
	}
	fputs("<div class=\"scroll\"><table id=\"sessions\">\n<thead><tr><th class=\"l\">Backend</th>"
	      "<th class=\"l\">Session</th><th class=\"l\">Status</th><th>Computed USD</th><th>Billed USD</th>"
	      "<th>Drift USD</th><th>Runs</th><th>Exec min</th><th>Lifetime min</th></tr></thead>\n<tbody>\n",
	      pg->f);
	for (size_t i = 0; i < d->n_sessions; i++)
		session_rows(pg, r, &d->sessions[i]);
	fputs("</tbody>\n</table></div>\n", pg->f);
	fputs("<p class=\"small muted\">A session is judged over the period itself: its runs started in "
	      "it, its lines charged from it. Exec minutes are the commands' time, lifetime minutes the "
	      "sessions' life (ended_at - started_at); a provider that bills session life bills the "
	      "difference too. A session with no drift figure (billed unknown) comes last.</p>\n", pg->f);
	if (d->sessions_left > 0) {
		fprintf(pg->f, "<p id=\"sessions-left\" data-left=\"%" PRId64 "\">And %" PRId64 " more flagged "
		        "session%s, smaller: ", d->sessions_left, d->sessions_left, sb_pg_plural(d->sessions_left));
		reconcile_cmd(pg, r);
		fputs(" lists them all.</p>\n", pg->f);
	}
}

/* ---- the night's imports and the commands -------------------------------- */

/* src relative to the inbox when it lies inside it. */
static const char *inbox_relative(const char *inbox, const char *src)
{
	size_t n = inbox != NULL ? strlen(inbox) : 0;

	if (n > 0 && strncmp(src, inbox, n) == 0 && src[n] == '/' && src[n + 1] != '\0')
		return src + n + 1;
	return src;
}

static void imports_section(page *pg, const sb_night_imports *n)
{
	char id[32];

	fputs("<h2>What the night imported</h2>\n", pg->f);
	fprintf(pg->f, "<p id=\"imports\" data-batches=\"%zu\" data-accepted=\"%" PRId64 "\" data-duplicates=\"%"
	        PRId64 "\" data-rejected=\"%" PRId64 "\" data-already=\"%" PRId64 "\">%zu batch%s: <b>%" PRId64
	        "</b> accepted, <b>%" PRId64 "</b> duplicates, <b>%" PRId64 "</b> rejected; %" PRId64
	        " file%s already in the ledger (skipped)", n->n_batches, n->accepted, n->duplicates, n->rejected,
	        n->already, n->n_batches, n->n_batches == 1 ? "" : "es", n->accepted, n->duplicates, n->rejected,
	        n->already, sb_pg_plural(n->already));
	if (pg->o->inbox != NULL) {
		fputs(", from the inbox <code>", pg->f);
		sb_pg_esc(pg, pg->o->inbox);
		fputs("</code>", pg->f);
	}
	fputs(".</p>\n", pg->f);
	if (n->n_batches > 0) {
		fputs("<div class=\"scroll\"><table id=\"batches\">\n<thead><tr><th>Batch</th><th class=\"l\">File</th>"
		      "<th class=\"l\">Format</th><th class=\"l\">Status</th><th>Accepted</th><th>Duplicates</th>"
		      "<th>Rejected</th></tr></thead>\n<tbody>\n", pg->f);
		for (size_t i = 0; i < n->n_batches; i++) {
			const sb_night_batch *b = &n->batches[i];
			fprintf(pg->f, "<tr class=\"batch\" data-batch=\"%" PRId64 "\"><td>%" PRId64 "</td><td class=\"l wrap\">",
			        b->batch_id, b->batch_id);
			sb_pg_esc(pg, inbox_relative(pg->o->inbox, b->source));
			fputs("</td><td class=\"l\">", pg->f);
			sb_pg_esc(pg, b->format);
			fputs("</td><td class=\"l\">", pg->f);
			sb_pg_esc(pg, b->status);
			fprintf(pg->f, "</td><td>%" PRId64 "</td><td>%" PRId64 "</td><td>%" PRId64 "</td></tr>\n",
			        b->accepted, b->duplicates, b->rejected);
			if (b->rejected > 0) {
				snprintf(id, sizeof id, "%" PRId64, b->batch_id);
				fputs("<tr class=\"words\"><td colspan=\"7\">Its rejected lines: ", pg->f);
				sb_pg_words_cmd(pg, "rejects", "--batch", id, (const char *)NULL);
				fputs("</td></tr>\n", pg->f);
			}
		}
		fputs("</tbody>\n</table></div>\n", pg->f);
	}
	fputs("<p>Every batch: ", pg->f);
	sb_pg_words_cmd(pg, "batches", (const char *)NULL);
	if (n->rejected > 0) {
		fputs(" &middot; every rejected line, verbatim with its reason: ", pg->f);
		sb_pg_words_cmd(pg, "rejects", (const char *)NULL);
	}
	fputs("</p>\n", pg->f);
}

static void commands_section(page *pg, const sb_recon *r)
{
	sb_period w = sb_trend_window(&r->opts.period);
	char name[96];

	fputs("<h2>To dig further</h2>\n<p class=\"small muted\">Run as printed (the words a shell would "
	      "misread are quoted).</p>\n<ul class=\"cmds\" id=\"commands\">\n<li>", pg->f);
	reconcile_cmd(pg, r);
	fputs(" &mdash; this reconciliation as a table, with every session that is not ok (stores "
	      "nothing)</li>\n", pg->f);
	for (size_t i = 0; i < r->n_backends; i++) {
		const sb_recon_backend *b = &r->backends[i];
		if (sb_pg_rank(b) != 0)
			continue;
		fputs("<li>", pg->f);
		lines_cmd(pg, &b->window, b->backend, NULL);
		fputs(" &mdash; the lines behind <b>", pg->f);
		sb_pg_esc(pg, b->backend);
		fprintf(pg->f, "</b>'s billed figure (%s)</li>\n", sb_recon_status_name(b->status));
	}
	fputs("<li>", pg->f);
	sb_pg_words_cmd(pg, "report", "drift", "--period", sb_period_name(&w, name), (const char *)NULL);
	fputs(" &mdash; the drift per day and backend behind the trend</li>\n", pg->f);
	fputs("<li>", pg->f);
	sb_pg_words_cmd(pg, "reconciliations", (const char *)NULL);
	fputs(" &mdash; every stored reconciliation, with its counts</li>\n</ul>\n", pg->f);
}

/* ---- the pages ----------------------------------------------------------- */

int sb_recon_page(FILE *f, const sb_recon *r, const sb_recon_detail *d, const sb_page_opts *o,
                  sb_err *e)
{
	page pg = {f, o, false};
	char title[160], name[96], at[SB_TIME_BUFSZ], abs[SB_MONEY_BUFSZ], rel[SB_MONEY_BUFSZ];
	char lag[SB_TIME_BUFSZ], from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];
	sb_period w = sb_trend_window(&r->opts.period);

	snprintf(title, sizeof title, "sbledger reconciliation %s", sb_period_name(&r->opts.period, name));
	page_begin(&pg, title);
	fputs("<h1>Reconciliation: computed against billed</h1>\n<p class=\"meta\" id=\"period\">Period ", f);
	period_text(&pg, &r->opts.period);
	fprintf(f, "<br>Judged at %s &middot; drift flagged beyond the larger of %s USD and %s%% of "
	        "computed (or a backend's own tolerance) &middot; a missing bill flagged %s after its window "
	        "ends &middot; ",
	        sb_time_format(r->opts.now_ms, at), sb_money_format(r->opts.abs_nanos, 2, abs),
	        sb_money_format(r->opts.rel_ppb * 100, 2, rel), span_text(r->opts.billing_lag_ms, lag));
	if (r->recon_id > 0)
		fprintf(f, "stored as reconciliation <b id=\"recon-id\">%" PRId64 "</b></p>\n", r->recon_id);
	else
		fputs("<b id=\"recon-id\">not stored</b> (a dry run)</p>\n", f);
	verdict(&pg, r, d);
	if (r->n_backends > 0) {
		backends_table(&pg, r);
		sb_pg_bar_chart(&pg, r);
	}
	sb_pg_flags(&pg, r, d);
	sessions_table(&pg, r, d);
	fprintf(f, "<h2>Drift per day, %s to %s</h2>\n", sb_date_format(w.from_ms, from),
	        sb_date_format(w.to_ms - 1, to));
	sb_pg_trend_chart(&pg, d->trend);
	if (r->recon_id == 0)
		fputs("<p class=\"small muted\">This reconciliation was not stored (a dry run): it is not in the "
		      "trend.</p>\n", f);
	if (o->imports != NULL)
		imports_section(&pg, o->imports);
	commands_section(&pg, r);
	page_end(&pg);
	return page_status(&pg, e);
}

int sb_drift_page(FILE *f, const sb_trend *t, const sb_page_opts *o, sb_err *e)
{
	page pg = {f, o, false};
	char title[160], name[96];

	snprintf(title, sizeof title, "sbledger drift %s", sb_period_name(&t->period, name));
	page_begin(&pg, title);
	fputs("<h1>Drift per day and backend</h1>\n<p class=\"meta\" id=\"period\">Period ", f);
	period_text(&pg, &t->period);
	fputs("<br>From the stored reconciliations of single UTC days inside the period (the latest of "
	      "each day and backend, as <code>sbledger report drift --by day</code> lists them). Drift is "
	      "billed minus computed.</p>\n", f);
	sb_pg_trend_chart(&pg, t);
	page_end(&pg);
	return page_status(&pg, e);
}
