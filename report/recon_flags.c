/* recon_flags.c: the parts of the reconciliation page that are not the
 * result itself (see recon_page_int.h): the night's faults, which lead
 * the verdict, and the flags of the period with their handling.  Both
 * render what they are handed: the faults the nightly run kept, the
 * flags as sb_flags_list gave them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "report/recon_page_int.h"

/* How many ranges of unjudged days are named, as the mail names them. */
enum { UNJUDGED_SHOWN = 10 };

/* ---- the night's faults -------------------------------------------------- */

/* A range of days as the mail says it: "2026-11-02" or "2026-11-02 ..
 * 2026-11-05" (its last day, not its end). */
static void days_text(page *pg, const sb_period *p)
{
	char first[SB_TIME_BUFSZ], last[SB_TIME_BUFSZ];

	sb_date_format(p->from_ms, first);
	sb_date_format(p->to_ms - 1, last);
	if (p->to_ms - p->from_ms > SB_MS_PER_DAY)
		fprintf(pg->f, "%s .. %s", first, last);
	else
		fputs(first, pg->f);
}

void sb_pg_faults(page *pg, const sb_night_imports *n)
{
	size_t faults = sb_night_faults(n);
	char id[32], days[32];

	if (faults == 0)
		return;
	fprintf(pg->f, "<p class=\"lead\" id=\"faults-head\">The night had %zu fault%s: until %s seen to, "
	        "the figures below may be incomplete</p>\n<ul class=\"faults\" id=\"faults\">\n", faults,
	        sb_pg_plural((int64_t)faults), faults == 1 ? "it is" : "they are");
	for (size_t i = 0; i < n->n_batches; i++) {
		const sb_night_batch *b = &n->batches[i];
		if (b->rejected <= 0)
			continue;
		snprintf(id, sizeof id, "%" PRId64, b->batch_id);
		fprintf(pg->f, "<li class=\"fault\" data-fault=\"rejected\" data-batch=\"%" PRId64 "\" data-rejected=\"%"
		        PRId64 "\"><b>Rejected</b>: <code>", b->batch_id, b->rejected);
		sb_pg_esc(pg, b->source);
		fprintf(pg->f, "</code>: %" PRId64 " record%s rejected (batch %" PRId64 "); see ", b->rejected,
		        sb_pg_plural(b->rejected), b->batch_id);
		sb_pg_words_cmd(pg, "rejects", "--batch", id, (const char *)NULL);
		fputs("</li>\n", pg->f);
	}
	for (size_t i = 0; i < n->n_fetches; i++) {
		const sb_night_fetch *x = &n->fetches[i];
		fputs("<li class=\"fault\" data-fault=\"fetch\" data-provider=\"", pg->f);
		sb_pg_esc(pg, x->provider);
		fputs("\" data-what=\"", pg->f);
		sb_pg_esc(pg, x->what);
		fprintf(pg->f, "\" data-skipped=\"%s\" data-code=\"%d\"><b>Fetch %s</b>: <b>", x->skipped ? "true" : "false",
		        x->code, x->skipped ? "skipped" : "failed");
		sb_pg_esc(pg, x->provider);
		fputs("</b>", pg->f);
		if (!x->skipped) {
			fputs(" ", pg->f);
			sb_pg_esc(pg, x->what);
		}
		fputs(": ", pg->f);
		sb_pg_esc(pg, x->msg);
		fprintf(pg->f, "%s</li>\n", x->skipped ? " (nothing of it was fetched; the rest of the night ran)" : "");
	}
	for (size_t i = 0; i < n->n_unjudged && i < UNJUDGED_SHOWN; i++) {
		char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];
		fprintf(pg->f, "<li class=\"fault\" data-fault=\"unjudged\" data-from=\"%s\" data-to=\"%s\"><b>Not "
		        "judged</b>: ", sb_time_format(n->unjudged[i].from_ms, from),
		        sb_time_format(n->unjudged[i].to_ms, to));
		days_text(pg, &n->unjudged[i]);
		fprintf(pg->f, " (older than --catch-up %" PRId64 " day%s)</li>\n", n->catch_up_days,
		        sb_pg_plural(n->catch_up_days));
	}
	if (n->n_unjudged > UNJUDGED_SHOWN)
		fprintf(pg->f, "<li class=\"fault\" data-fault=\"unjudged-more\" data-more=\"%zu\"><b>Not judged</b>: "
		        "and %zu more ranges</li>\n", n->n_unjudged - UNJUDGED_SHOWN, n->n_unjudged - UNJUDGED_SHOWN);
	fputs("</ul>\n", pg->f);
	if (n->n_unjudged > 0) {
		snprintf(days, sizeof days, "%" PRId64, n->unjudged_days);
		fputs("<p id=\"judge-unjudged\">Judge the days not judged: ", pg->f);
		sb_pg_words_cmd(pg, "nightly", "--inbox", n->inbox != NULL ? n->inbox : ".", "--out",
		                n->out != NULL ? n->out : ".", "--catch-up", days, (const char *)NULL);
		fputs("</p>\n", pg->f);
	}
}

/* ---- the flags of the period --------------------------------------------- */

/* A flag's state as the page says it, and its tone: open (new or
 * reopened), acked, waived, disputed. */
static const char *flag_word(const sb_flag *f, const char **tone)
{
	if (strcmp(f->state, "open") == 0) {
		*tone = "bad";
		return "open";
	}
	if (strcmp(f->handling, "dispute") == 0) {
		*tone = "watch";
		return "disputed";
	}
	if (strcmp(f->handling, "waive") == 0) {
		*tone = "good";
		return "waived";
	}
	*tone = "wait";
	return strcmp(f->handling, "ack") == 0 ? "acked" : f->state;
}

/* Text of the ledger in a cell, or a muted "-" when there is none. */
static void text_cell(page *pg, const char *cls, const char *text)
{
	fprintf(pg->f, "<td class=\"%s\">", cls);
	if (text != NULL && text[0] != '\0')
		sb_pg_esc(pg, text);
	else
		fputs("<span class=\"muted\">-</span>", pg->f);
	fputs("</td>", pg->f);
}

static void flag_row(page *pg, const sb_flag *f)
{
	char name[96], a[SB_MONEY_BUFSZ];
	const char *tone = "";
	const char *word = flag_word(f, &tone);

	fprintf(pg->f, "<tr class=\"flag%s\" data-flag=\"%" PRId64 "\" data-state=\"%s\" data-handling=\"%s\" "
	        "data-backend=\"", strcmp(f->state, "open") == 0 ? " open" : "", f->id, f->state, f->handling);
	sb_pg_esc(pg, f->backend);
	fputs("\" data-session=\"", pg->f);
	/* as 'flags' names it: none for the backend, "(none)" for its runs naming none */
	sb_pg_esc(pg, !f->is_session ? "" : f->session_id != NULL ? f->session_id : "(none)");
	fprintf(pg->f, "\" data-status=\"%s\"", sb_recon_status_name(f->status));
	sb_pg_data_usd(pg, "data-at-stake", true, f->at_stake_nanos);
	fprintf(pg->f, "><td>%" PRId64 "</td><td class=\"l\">", f->id);
	sb_pg_esc(pg, sb_period_name(&f->period, name));
	fputs("</td><td class=\"l\"><b>", pg->f);
	sb_pg_esc(pg, f->backend);
	fputs("</b></td><td class=\"l wrap\">", pg->f);
	if (!f->is_session)
		fputs("<span class=\"muted\">the backend</span>", pg->f);
	else if (f->session_id != NULL)
		sb_pg_esc(pg, f->session_id);
	else
		fputs("<span class=\"muted\">(runs that named no session)</span>", pg->f);
	fprintf(pg->f, "</td><td class=\"l\"><span class=\"badge %s\">%s</span>", tone, word);
	if (f->reopened && strcmp(f->state, "open") == 0)
		fputs("<span class=\"note\">reopened: its figures moved</span>", pg->f);
	fprintf(pg->f, "</td><td class=\"l\">%s</td><td>%s", sb_recon_status_name(f->status),
	        sb_pg_usd6(f->at_stake_nanos, a));
	if (strcmp(f->handling, "dispute") == 0)
		fputs("<span class=\"note\">in dispute</span>", pg->f);
	else if (!f->has_drift)
		fputs("<span class=\"note muted\">its computed: no drift figure</span>", pg->f);
	fputs("</td>", pg->f);
	text_cell(pg, "l", f->who);
	text_cell(pg, "l wrap", f->reason);
	fputs("</tr>\n", pg->f);
}

void sb_pg_flags(page *pg, const sb_recon *r, const sb_recon_detail *d)
{
	size_t open = 0, acked = 0, waived = 0, disputed = 0;
	char name[96], a[SB_MONEY_BUFSZ];

	for (size_t i = 0; i < d->flags.n; i++) {
		const sb_flag *f = &d->flags.list[i];
		const char *tone = "";
		const char *word = flag_word(f, &tone);
		open += strcmp(word, "open") == 0;
		acked += strcmp(word, "acked") == 0;
		waived += strcmp(word, "waived") == 0;
		disputed += strcmp(word, "disputed") == 0;
	}
	fputs("<h2>Flags of the period</h2>\n", pg->f);
	fprintf(pg->f, "<p id=\"flags-summary\" data-open=\"%zu\" data-acked=\"%zu\" data-waived=\"%zu\" "
	        "data-disputed=\"%zu\"", open, acked, waived, disputed);
	sb_pg_data_usd(pg, "data-in-dispute", true, d->disputed_nanos);
	if (d->flags.n == 0) {
		fputs(">No flag of the period is open or handled.", pg->f);
	} else {
		fprintf(pg->f, "><b>%zu open</b> (mailed every night until someone handles it), %zu acked, %zu waived, "
		        "%zu disputed", open, acked, waived, disputed);
		if (disputed > 0)
			fprintf(pg->f, ": <b id=\"in-dispute\">%s USD</b> in dispute", sb_pg_usd_say(d->disputed_nanos, a));
		fputs(".", pg->f);
	}
	fputs(" All of them: ", pg->f);
	sb_pg_words_cmd(pg, "flags", "--period", sb_period_name(&r->opts.period, name), (const char *)NULL);
	fputs("</p>\n", pg->f);
	if (d->flags.n == 0)
		return;
	fputs("<div class=\"scroll\"><table id=\"flags\">\n<thead><tr><th>Flag</th><th class=\"l\">Period</th>"
	      "<th class=\"l\">Backend</th><th class=\"l\">Session</th><th class=\"l\">State</th>"
	      "<th class=\"l\">Status</th><th>At stake USD</th><th class=\"l\">Who</th><th class=\"l\">Reason</th>"
	      "</tr></thead>\n<tbody>\n", pg->f);
	/* the open ones first: they are what needs a look */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < d->flags.n; i++)
			if ((strcmp(d->flags.list[i].state, "open") == 0) == (pass == 0))
				flag_row(pg, &d->flags.list[i]);
	fputs("</tbody>\n</table></div>\n<p class=\"small muted\">A flag is a flagged backend or session of a stored "
	      "result, kept under one number across the re-judgments of its period. The money at stake is its "
	      "|drift| (a dispute's is the amount in dispute), or its computed cost when nothing was billed. "
	      "A handled flag stays quiet while a re-judgment gives the same figures and reopens when they "
	      "move; handle one with <code>flags ack|waive|dispute ID --reason TEXT</code>.</p>\n", pg->f);
}
