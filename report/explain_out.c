/* explain_out.c: the drift's parts as explain prints them (see
 * explain_out.h and docs/reconcile.md, "Explain").
 */
#include "report/explain_out.h"

#include <inttypes.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "report/html.h"
#include "report/json.h"

/* ---- shared ----------------------------------------------------------- */

/* The parts of a scope in the order they are shown, with their words. */
typedef struct part_row {
	const char *name;
	bool has;
	int64_t nanos;
	const char *words;
} part_row;

/* The rows of p (settled): card, idle (or its three pieces), paused,
 * metering and price or billed_beyond_lifetime; *n of them. */
static size_t part_rows(const sb_parts *p, part_row rows[8])
{
	size_t n = 0;

	rows[n++] = (part_row){"card", true, p->card, "the SDK's estimate against the card (K - C)"};
	if (p->has_split) {
		rows[n++] = (part_row){"idle_before", true, p->idle_before, "life before the first command"};
		rows[n++] = (part_row){"idle_between", true, p->idle_between, "life between the commands"};
		rows[n++] = (part_row){"idle_after", true, p->idle_after, "life after the last command"};
	} else {
		rows[n++] = (part_row){"idle", true, p->idle, "life not covered by commands (L - K)"};
	}
	rows[n++] = (part_row){"paused", true, p->paused, "paused time the provider does not bill (L' - L)"};
	if (p->has_q) {
		rows[n++] = (part_row){"metering", true, p->metering, "metered beyond the life (Q x card - L')"};
		rows[n++] = (part_row){"price", true, p->price, "the provider's rate against the card's (B - Q x card)"};
	} else {
		rows[n++] = (part_row){"billed_beyond_lifetime", true, p->beyond,
		                       "billed beyond the life at the card (B - L'; no time quantity billed)"};
	}
	return n;
}

static const char *usd(int64_t nanos, char buf[SB_MONEY_BUFSZ])
{
	return sb_money_format(nanos, 9, buf);
}

/* ms as minutes with 3 decimals. */
static const char *mins(int64_t ms, char buf[SB_MONEY_BUFSZ])
{
	return sb_money_format(ms * 1000000 / 60, 3, buf);
}

/* Whether a session is shown: every one with --session, else those not ok. */
static bool shown(const sb_xsession *s, const sb_explain_view *v)
{
	if (v->ours_only)
		return s->ours_only;
	return v->session != NULL || s->status != SB_STATUS_OK;
}

/* ---- JSON ----------------------------------------------------------------- */

static json_t *jmoney(bool has, int64_t nanos)
{
	char buf[SB_MONEY_BUFSZ];

	return has ? json_string(usd(nanos, buf)) : json_null();
}

static json_t *jtime(int64_t ms)
{
	char buf[SB_TIME_BUFSZ];

	return json_string(sb_time_format(ms, buf));
}

static json_t *jtext(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

static json_t *parts_json(const sb_parts *p, bool *ok)
{
	json_t *o = json_object(), *fig = json_object();
	part_row rows[8];
	size_t n;

	if (!p->settled) {
		json_decref(o);
		json_decref(fig);
		return json_null();
	}
	n = part_rows(p, rows);
	if (p->has_split)
		sb_json_put(o, "idle", jmoney(true, p->idle), ok);
	for (size_t i = 0; i < n; i++)
		sb_json_put(o, rows[i].name, jmoney(true, rows[i].nanos), ok);
	if (p->has_q)
		sb_json_put(o, "billed_beyond_lifetime", json_null(), ok);
	else {
		sb_json_put(o, "metering", json_null(), ok);
		sb_json_put(o, "price", json_null(), ok);
	}
	sb_json_put(fig, "computed_usd", jmoney(true, p->computed), ok);
	sb_json_put(fig, "card_cost_usd", jmoney(true, p->card_cost), ok);
	sb_json_put(fig, "lifetime_usd", jmoney(true, p->lifetime), ok);
	sb_json_put(fig, "unpaused_lifetime_usd", jmoney(true, p->unpaused), ok);
	sb_json_put(fig, "billed_quantity_at_card_usd", jmoney(p->has_q, p->q_card), ok);
	sb_json_put(fig, "billed_usd", jmoney(true, p->billed), ok);
	sb_json_put(fig, "exec_ms", json_integer(p->exec_ms), ok);
	sb_json_put(fig, "lifetime_ms", json_integer(p->lifetime_ms), ok);
	sb_json_put(fig, "paused_ms", json_integer(p->paused_ms), ok);
	if (p->has_split) {
		sb_json_put(fig, "idle_before_ms", json_integer(p->before_ms), ok);
		sb_json_put(fig, "idle_between_ms", json_integer(p->between_ms), ok);
		sb_json_put(fig, "idle_after_ms", json_integer(p->after_ms), ok);
	}
	sb_json_put(o, "figures", fig, ok);
	return o;
}

static json_t *commands_json(const sb_xcommand *c, size_t n, bool *ok)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		sb_json_append(a, json_pack("{s:o, s:I, s:I, s:o}", "command", jtext(c[i].text),
		                            "execs", (json_int_t)c[i].execs, "duration_ms",
		                            (json_int_t)c[i].duration_ms, "cost_usd",
		                            jmoney(c[i].has_cost, c[i].cost)), ok);
	return a;
}

static json_t *run_json(const sb_xbackend *x, size_t k, size_t top, bool *ok)
{
	const sb_xrun *r = &x->runs[k];
	json_t *o = json_object(), *ex = json_array();
	size_t listed = 0, all = 0;

	sb_json_put(o, "run_id", jtext(r->run_id), ok);
	sb_json_put(o, "session_id", jtext(r->session_id), ok);
	sb_json_put(o, "started_at", jtime(r->started_ms), ok);
	sb_json_put(o, "ended_at", r->has_ended ? jtime(r->ended_ms) : json_null(), ok);
	sb_json_put(o, "exec_ms", json_integer(r->exec_ms), ok);
	sb_json_put(o, "computed_usd", jmoney(true, r->computed), ok);
	sb_json_put(o, "card_cost_usd", jmoney(r->has_card, r->card_cost), ok);
	sb_json_put(o, "lifetime_usd", jmoney(r->has_card, r->lifetime), ok);
	sb_json_put(o, "paused_ms", json_integer(r->paused_ms), ok);
	sb_json_put(o, "paused_usd", jmoney(true, r->paused), ok);
	if (r->has_split)
		sb_json_put(o, "idle_ms", json_pack("{s:I, s:I, s:I}", "before", (json_int_t)r->before_ms, "between",
		                                    (json_int_t)r->between_ms, "after", (json_int_t)r->after_ms), ok);
	for (size_t i = 0; i < x->n_execs; i++) {
		const sb_xexec *c = &x->execs[i];
		json_t *e;
		if (c->run != k)
			continue;
		all++;
		if (listed >= top)
			continue;
		listed++;
		e = json_pack("{s:o, s:I, s:o}", "command", jtext(c->command), "duration_ms", (json_int_t)c->duration_ms,
		              "cost_usd", jmoney(c->has_cost, c->cost));
		if (e != NULL && c->has_start)
			sb_json_put(e, "started_at", jtime(c->started_ms), ok);
		sb_json_append(ex, e, ok);
	}
	sb_json_put(o, "executions", ex, ok);
	sb_json_put(o, "executions_left", json_integer((json_int_t)(all - listed)), ok);
	return o;
}

static json_t *line_json(const sb_xline *l, bool *ok)
{
	json_t *o = json_object();

	sb_json_put(o, "line", json_integer(l->lid), ok);
	sb_json_put(o, "format", jtext(l->format), ok);
	sb_json_put(o, "line_key", jtext(l->line_key), ok);
	sb_json_put(o, "session_id", jtext(l->session_id), ok);
	sb_json_put(o, "kind", jtext(l->kind), ok);
	sb_json_put(o, "category", jtext(l->category), ok);
	sb_json_put(o, "start", jtime(l->start_ms), ok);
	sb_json_put(o, "end", jtime(l->end_ms), ok);
	sb_json_put(o, "amount", jmoney(l->has_amount, l->amount), ok);
	sb_json_put(o, "currency", jtext(l->currency), ok);
	sb_json_put(o, "quantity", jtext(l->quantity), ok);
	sb_json_put(o, "unit", jtext(l->unit), ok);
	sb_json_put(o, "quantity_at_card_usd", jmoney(l->has_q, l->q_card), ok);
	sb_json_put(o, "rule", json_string(sb_match_rule_name(l->rule)), ok);
	sb_json_put(o, "matched_runs", json_integer(l->matched_runs), ok);
	return o;
}

/* Whether run k of x is matched by no line. */
static bool run_unmatched(const sb_xbackend *x, size_t k)
{
	const sb_xrun *r = &x->runs[k];

	for (size_t i = 0; i < x->n_lines; i++) {
		const sb_xline *l = &x->lines[i];
		int64_t end = r->has_ended ? r->ended_ms : r->started_ms + (r->exec_ms > 0 ? r->exec_ms : 0);
		int64_t lend = l->end_ms > l->start_ms ? l->end_ms : l->start_ms + 1;
		if (end <= r->started_ms)
			end = r->started_ms + 1;
		if (l->session_id != NULL ? r->session_id != NULL && strcmp(l->session_id, r->session_id) == 0
		                          : r->started_ms < lend && end > l->start_ms)
			return false;
	}
	return true;
}

static json_t *backend_json(const sb_explained *xs, const sb_xbackend *x, const sb_explain_view *v, bool *ok)
{
	const sb_recon_backend *b = x->b;
	json_t *o = json_object(), *sessions = json_array(), *po = json_array(), *oo = json_array();
	size_t top = 5;
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];

	(void)xs;
	sb_json_put(o, "backend", json_string(b->backend), ok);
	sb_json_put(o, "status", json_string(sb_recon_status_name(b->status)), ok);
	sb_json_put(o, "window", json_pack("{s:s, s:s}", "from", sb_time_format(b->window.from_ms, from), "to",
	                                   sb_time_format(b->window.to_ms, to)), ok);
	sb_json_put(o, "explained_per", json_string(x->per_session ? "session" : "backend"), ok);
	sb_json_put(o, "computed_usd", jmoney(true, b->computed_nanos), ok);
	sb_json_put(o, "billed_usd", jmoney(b->has_billed, b->billed_nanos), ok);
	sb_json_put(o, "drift_usd", jmoney(b->has_drift, b->drift_nanos), ok);
	sb_json_put(o, "verdict", b->explain.verdict != SB_VERDICT_NONE
	                              ? json_string(sb_verdict_name(b->explain.verdict)) : json_null(), ok);
	if (!v->ours_only)
		sb_json_put(o, "parts", parts_json(&x->parts, ok), ok);
	sb_json_put(o, "commands", commands_json(x->commands, x->n_commands, ok), ok);
	for (size_t i = 0; i < x->n_lines; i++)
		if (x->lines[i].rule == SB_MATCH_NONE && !v->ours_only)
			sb_json_append(po, line_json(&x->lines[i], ok), ok);
	for (size_t k = 0; k < x->n_runs; k++)
		if (run_unmatched(x, k))
			sb_json_append(oo, run_json(x, k, 0, ok), ok);
	sb_json_put(o, "provider_only", json_pack("{s:o, s:I, s:o}", "billed_usd", jmoney(true, x->provider_only),
	                                          "lines", (json_int_t)x->provider_only_lines, "list", po), ok);
	sb_json_put(o, "ours_only", json_pack("{s:o, s:I, s:o}", "computed_usd", jmoney(true, x->ours_only), "runs",
	                                      (json_int_t)x->ours_only_runs, "list", oo), ok);
	for (size_t i = 0; i < x->n_sessions; i++) {
		const sb_xsession *s = &x->sessions[i];
		json_t *so, *runs = json_array(), *lines = json_array();
		int64_t drift = s->parts.billed - s->parts.computed;
		if (!shown(s, v))
			continue;
		so = json_object();
		sb_json_put(so, "session_id", jtext(s->session_id), ok);
		sb_json_put(so, "status", json_string(sb_recon_status_name(s->status)), ok);
		sb_json_put(so, "computed_usd", jmoney(true, s->parts.computed), ok);
		sb_json_put(so, "billed_usd", jmoney(s->parts.has_billed, s->parts.billed), ok);
		sb_json_put(so, "drift_usd", jmoney(s->parts.has_billed, drift), ok);
		sb_json_put(so, "verdict", s->verdict != SB_VERDICT_NONE ? json_string(sb_verdict_name(s->verdict))
		                                                         : json_null(), ok);
		sb_json_put(so, "provider_only", json_boolean(s->provider_only), ok);
		sb_json_put(so, "ours_only", json_boolean(s->ours_only), ok);
		sb_json_put(so, "parts", parts_json(&s->parts, ok), ok);
		for (size_t k = 0; k < s->n_runs; k++)
			sb_json_append(runs, run_json(x, s->runs[k], top, ok), ok);
		for (size_t k = 0; k < s->n_lines; k++)
			sb_json_append(lines, line_json(&x->lines[s->lines[k]], ok), ok);
		sb_json_put(so, "runs", runs, ok);
		sb_json_put(so, "lines", lines, ok);
		sb_json_put(so, "commands", commands_json(s->commands, s->n_commands, ok), ok);
		sb_json_append(sessions, so, ok);
	}
	sb_json_put(o, "sessions", sessions, ok);
	return o;
}

json_t *sb_explain_json(const sb_explained *x, const sb_explain_view *v)
{
	json_t *o = json_object(), *list = json_array();
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];
	bool ok = o != NULL && list != NULL;

	sb_json_put(o, "period", json_pack("{s:s, s:s}", "from", sb_time_format(x->r->opts.period.from_ms, from),
	                                   "to", sb_time_format(x->r->opts.period.to_ms, to)), &ok);
	for (size_t i = 0; i < x->n_backends; i++)
		sb_json_append(list, backend_json(x, &x->backends[i], v, &ok), &ok);
	sb_json_put(o, "backends", list, &ok);
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ---- table and page --------------------------------------------------------- */

/* Writes text or HTML. */
typedef struct pen {
	FILE *f;
	bool html;
} pen;

static void put(const pen *p, const char *s)
{
	if (p->html)
		sb_html_text(p->f, s);
	else
		fputs(s, p->f);
}

/* The command that explains one session, shell-quoted. */
static void session_command(const pen *p, const sb_explain_view *v, const sb_explained *xs, const char *backend,
                            const char *session)
{
	char inv[SB_INVOCATION_BUFSZ], q1[SB_QUOTE_BUFSZ], q2[SB_QUOTE_BUFSZ], name[96], line[SB_INVOCATION_BUFSZ + 1200];

	snprintf(line, sizeof line, "%s explain --period %s --backend %s --session %s",
	         sb_invocation_words(v->invoked, inv, sizeof inv),
	         sb_quote(sb_period_name(&xs->r->opts.period, name), SB_QUOTE_IF_NEEDED, q1, sizeof q1), backend,
	         sb_quote(session, SB_QUOTE_IF_NEEDED, q2, sizeof q2));
	put(p, line);
}

static void parts_block(const pen *p, const sb_parts *ps, const char *indent)
{
	part_row rows[8];
	size_t n = part_rows(ps, rows);
	char buf[SB_MONEY_BUFSZ], line[512];
	int64_t drift = ps->billed - ps->computed;

	if (p->html)
		fputs("<table><tr><th>part</th><th>usd</th><th>what it is</th></tr>\n", p->f);
	for (size_t i = 0; i < n; i++) {
		if (p->html) {
			fprintf(p->f, "<tr><td>%s</td><td class=\"num\">%s</td><td>", rows[i].name, usd(rows[i].nanos, buf));
			put(p, rows[i].words);
			fputs("</td></tr>\n", p->f);
		} else {
			snprintf(line, sizeof line, "%s%-24s %16s  %s\n", indent, rows[i].name, usd(rows[i].nanos, buf),
			         rows[i].words);
			fputs(line, p->f);
		}
	}
	if (p->html)
		fprintf(p->f, "<tr><th>drift</th><th class=\"num\">%s</th><th>billed - computed</th></tr></table>\n",
		        usd(drift, buf));
	else
		fprintf(p->f, "%s%-24s %16s  billed - computed\n", indent, "= drift", usd(drift, buf));
}

static void commands_block(const pen *p, const sb_xcommand *c, size_t n, const char *indent)
{
	char buf[SB_MONEY_BUFSZ], m[SB_MONEY_BUFSZ];

	if (n == 0)
		return;
	if (p->html)
		fputs("<table><tr><th>command</th><th>runs</th><th>minutes</th><th>cost</th></tr>\n", p->f);
	else
		fprintf(p->f, "%scostliest commands (runs, minutes, cost):\n", indent);
	for (size_t i = 0; i < n; i++) {
		if (p->html) {
			fputs("<tr><td><code>", p->f);
			put(p, c[i].text != NULL ? c[i].text : "(no command recorded)");
			fprintf(p->f, "</code></td><td class=\"num\">%" PRId64 "</td><td class=\"num\">%s</td><td class=\"num\">%s</td></tr>\n",
			        c[i].execs, mins(c[i].duration_ms, m), c[i].has_cost ? usd(c[i].cost, buf) : "-");
		} else {
			fprintf(p->f, "%s  %" PRId64 "x %s min %s  ", indent, c[i].execs, mins(c[i].duration_ms, m),
			        c[i].has_cost ? usd(c[i].cost, buf) : "-");
			put(p, c[i].text != NULL ? c[i].text : "(no command recorded)");
			fputc('\n', p->f);
		}
	}
	if (p->html)
		fputs("</table>\n", p->f);
}

/* The lines left unmatched and the runs no line matched. */
static void unmatched_block(const pen *p, const sb_xbackend *x, const sb_explain_view *v)
{
	char buf[SB_MONEY_BUFSZ], t0[SB_TIME_BUFSZ], t1[SB_TIME_BUFSZ], line[1024];

	if (!v->ours_only && x->provider_only_lines > 0) {
		snprintf(line, sizeof line, "  provider_only: %" PRId64 " line%s billed with no run of ours, %s USD:\n",
		         x->provider_only_lines, x->provider_only_lines == 1 ? "" : "s", usd(x->provider_only, buf));
		put(p, line);
		for (size_t i = 0; i < x->n_lines; i++) {
			const sb_xline *l = &x->lines[i];
			if (l->rule != SB_MATCH_NONE)
				continue;
			snprintf(line, sizeof line, "    line %" PRId64 " %s %s %s..%s %s %s\n", l->lid, l->format,
			         l->session_id != NULL ? l->session_id : "(account)", sb_time_format(l->start_ms, t0),
			         sb_time_format(l->end_ms, t1), l->has_amount ? usd(l->amount, buf) : "metered",
			         l->currency != NULL ? l->currency : "");
			put(p, line);
		}
	}
	if (x->ours_only_runs > 0) {
		snprintf(line, sizeof line, "  ours_only: %" PRId64 " run%s no line bills, computed %s USD:\n",
		         x->ours_only_runs, x->ours_only_runs == 1 ? "" : "s", usd(x->ours_only, buf));
		put(p, line);
		for (size_t k = 0; k < x->n_runs; k++) {
			const sb_xrun *r = &x->runs[k];
			if (!run_unmatched(x, k))
				continue;
			snprintf(line, sizeof line, "    run %s session %s started %s computed %s\n", r->run_id,
			         r->session_id != NULL ? r->session_id : "(none)", sb_time_format(r->started_ms, t0),
			         usd(r->computed, buf));
			put(p, line);
		}
	}
}

static void render(const pen *p, const sb_explained *xs, const sb_explain_view *v)
{
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ], b1[SB_MONEY_BUFSZ], b2[SB_MONEY_BUFSZ], b3[SB_MONEY_BUFSZ];
	char line[1024];

	if (p->html)
		fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
		      "<title>sbledger explain</title><style>body{font-family:sans-serif;margin:1em}"
		      "table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:left}"
		      ".num{text-align:right;font-variant-numeric:tabular-nums}pre{white-space:pre-wrap}</style></head><body>\n",
		      p->f);
	snprintf(line, sizeof line, "explain %s..%s\n", sb_time_format(xs->r->opts.period.from_ms, from),
	         sb_time_format(xs->r->opts.period.to_ms, to));
	if (p->html) {
		fputs("<h1>", p->f);
		put(p, line);
		fputs("</h1>\n", p->f);
	} else {
		fputs(line, p->f);
	}
	if (xs->n_backends == 0)
		put(p, "nothing to explain: no backend has runs or billing in the period\n");
	for (size_t i = 0; i < xs->n_backends; i++) {
		const sb_xbackend *x = &xs->backends[i];
		const sb_recon_backend *b = x->b;
		snprintf(line, sizeof line, "%s %s%s%s%s: billed %s - computed %s = drift %s (window %s..%s)\n", b->backend,
		         sb_recon_status_name(b->status), b->explain.verdict != SB_VERDICT_NONE ? ", verdict " : "",
		         b->explain.verdict != SB_VERDICT_NONE ? sb_verdict_name(b->explain.verdict) : "",
		         x->per_session ? ", explained per session" : "",
		         b->has_billed ? usd(b->billed_nanos, b1) : "unknown", usd(b->computed_nanos, b2),
		         b->has_drift ? usd(b->drift_nanos, b3) : "unknown", sb_time_format(b->window.from_ms, from),
		         sb_time_format(b->window.to_ms, to));
		if (p->html) {
			fputs("<h2>", p->f);
			put(p, line);
			fputs("</h2>\n", p->f);
		} else {
			fputs(line, p->f);
		}
		if (!v->ours_only) {
			if (x->parts.settled)
				parts_block(p, &x->parts, "  ");
			else
				put(p, b->has_billed ? "  no parts: a run has no rate card in force (no_rate)\n"
				                     : "  no parts: nothing billed to split\n");
			commands_block(p, x->commands, x->n_commands, "  ");
		}
		if (p->html)
			fputs("<pre>", p->f);
		unmatched_block(p, x, v);
		if (p->html)
			fputs("</pre>\n", p->f);
		for (size_t k = 0; k < x->n_sessions; k++) {
			const sb_xsession *s = &x->sessions[k];
			if (!shown(s, v) || v->ours_only)
				continue;
			snprintf(line, sizeof line, "  session %s %s%s%s: billed %s - computed %s\n",
			         s->session_id != NULL ? s->session_id : "(none)", sb_recon_status_name(s->status),
			         s->verdict != SB_VERDICT_NONE ? ", verdict " : "",
			         s->verdict != SB_VERDICT_NONE ? sb_verdict_name(s->verdict) : "",
			         s->parts.has_billed ? usd(s->parts.billed, b1) : "unknown", usd(s->parts.computed, b2));
			if (p->html) {
				fputs("<h3>", p->f);
				put(p, line);
				fputs("</h3>\n", p->f);
			} else {
				fputs(line, p->f);
			}
			if (s->parts.settled)
				parts_block(p, &s->parts, "    ");
			commands_block(p, s->commands, s->n_commands, "    ");
			if (s->session_id != NULL && v->session == NULL) {
				put(p, p->html ? "dispute pack: " : "    dispute pack: ");
				if (p->html)
					fputs("<code>", p->f);
				session_command(p, v, xs, b->backend, s->session_id);
				put(p, " --format dispute");
				fputs(p->html ? "</code><br>\n" : "\n", p->f);
			}
		}
	}
	if (p->html)
		fputs("</body></html>\n", p->f);
}

int sb_explain_table(FILE *f, const sb_explained *x, const sb_explain_view *v, sb_err *e)
{
	pen p = {f, false};

	render(&p, x, v);
	return ferror(f) ? sb_fail(e, SB_EIO, "could not write the explanation") : SB_OK;
}

int sb_explain_html(FILE *f, const sb_explained *x, const sb_explain_view *v, sb_err *e)
{
	pen p = {f, true};

	render(&p, x, v);
	return ferror(f) ? sb_fail(e, SB_EIO, "could not write the explanation") : SB_OK;
}

/* ---- the dispute pack ------------------------------------------------------ */

int sb_explain_dispute(FILE *f, const sb_explained *xs, const sb_explain_view *v, sb_err *e)
{
	char t0[SB_TIME_BUFSZ], t1[SB_TIME_BUFSZ], b1[SB_MONEY_BUFSZ], b2[SB_MONEY_BUFSZ], b3[SB_MONEY_BUFSZ];
	char m[SB_MONEY_BUFSZ];
	size_t found = 0;

	for (size_t i = 0; i < xs->n_backends; i++) {
		const sb_xbackend *x = &xs->backends[i];
		for (size_t k = 0; k < x->n_sessions; k++) {
			const sb_xsession *s = &x->sessions[k];
			const sb_parts *p = &s->parts;
			int64_t rate = 0;
			if (s->session_id == NULL || strcmp(s->session_id, v->session) != 0)
				continue;
			found++;
			fprintf(f, "Billing dispute: %s sandbox %s\n", x->b->backend, s->session_id);
			fprintf(f, "Sandbox id / session id: %s\n", s->session_id);
			fprintf(f, "Period: %s to %s (UTC)\n", sb_time_format(xs->r->opts.period.from_ms, t0),
			        sb_time_format(xs->r->opts.period.to_ms, t1));
			fprintf(f, "\nOur runs in this sandbox (%zu):\n", s->n_runs);
			for (size_t r = 0; r < s->n_runs; r++) {
				const sb_xrun *run = &x->runs[s->runs[r]];
				if (run->rate > 0)
					rate = run->rate;
				fprintf(f, "  run %s: %s to %s", run->run_id, sb_time_format(run->started_ms, t0),
				        run->has_ended ? sb_time_format(run->ended_ms, t1) : "(no end recorded)");
				if (run->has_ended)
					fprintf(f, ", %s minutes", mins(run->ended_ms - run->started_ms, m));
				fprintf(f, "; commands %s minutes", mins(run->exec_ms, m));
				if (run->paused_ms > 0)
					fprintf(f, "; paused %s minutes", mins(run->paused_ms, m));
				fputc('\n', f);
				for (size_t c = 0; c < x->n_execs; c++) {
					const sb_xexec *ex = &x->execs[c];
					if (ex->run != s->runs[r])
						continue;
					fprintf(f, "    %s%s%s s  %s\n", ex->has_start ? sb_time_format(ex->started_ms, t0) : "",
					        ex->has_start ? "  " : "", sb_money_format(ex->duration_ms * 1000000, 3, m),
					        ex->command != NULL ? ex->command : "(no command recorded)");
				}
			}
			fprintf(f, "\nThe provider's lines for this sandbox (%zu):\n", s->n_lines);
			for (size_t l = 0; l < s->n_lines; l++) {
				const sb_xline *ln = &x->lines[s->lines[l]];
				fprintf(f, "  line %s (%s): %s to %s, %s %s", ln->line_key, ln->format,
				        sb_time_format(ln->start_ms, t0), sb_time_format(ln->end_ms, t1),
				        ln->has_amount ? usd(ln->amount, b1) : "metered", ln->currency);
				if (ln->quantity != NULL)
					fprintf(f, ", quantity %s %s", ln->quantity, ln->unit != NULL ? ln->unit : "");
				fputc('\n', f);
			}
			fputc('\n', f);
			if (!p->settled) {
				fprintf(f, "Expected (our estimate): %s USD; billed: %s\n", usd(p->computed, b1),
				        p->has_billed ? usd(p->billed, b2) : "nothing");
				continue;
			}
			if (p->has_q && p->q_card > 0 && rate > 0) {
				/* Q in minutes: Q x card / card rate */
				int64_t q_milli = 0, implied = 0;
				(void)sb_div_round_even((__int128)p->q_card * 1000, rate, &q_milli);
				(void)sb_div_round_even((__int128)p->billed * 1000, q_milli > 0 ? q_milli : 1, &implied);
				fprintf(f, "The provider's formula: %s billed minutes x %s USD per minute = %s USD\n",
				        sb_money_format(q_milli * 1000000, 3, m), usd(implied, b1), usd(p->billed, b2));
			} else if (rate > 0) {
				int64_t q_milli = 0;
				(void)sb_div_round_even((__int128)p->billed * 1000, rate, &q_milli);
				fprintf(f, "The provider's formula: %s USD billed is %s minutes x %s USD per minute (our card)\n",
				        usd(p->billed, b1), sb_money_format(q_milli * 1000000, 3, m), usd(rate, b2));
			}
			fprintf(f, "The sandbox's life: %s minutes, of which commands %s minutes and paused %s minutes;\n"
			        "  at our card's %s USD per minute that is %s USD (less paused time: %s USD)\n",
			        mins(p->lifetime_ms, m), mins(p->exec_ms, b3), mins(p->paused_ms, t0), usd(rate, b1),
			        usd(p->lifetime, b2), usd(p->unpaused, t1));
			fprintf(f, "Expected (our estimate of the commands): %s USD\n", usd(p->computed, b1));
			fprintf(f, "Billed: %s USD\n", usd(p->billed, b1));
			fprintf(f, "Money at stake (billed - expected): %s USD\n", usd(p->billed - p->computed, b1));
			fprintf(f, "Billed beyond the sandbox's life at our card: %s USD\n", usd(p->beyond, b1));
		}
	}
	if (found == 0)
		return sb_fail(e, SB_ENOINPUT, "no session '%s' in a backend billed per session in the period",
		               v->session);
	return ferror(f) ? sb_fail(e, SB_EIO, "could not write the dispute pack") : SB_OK;
}
