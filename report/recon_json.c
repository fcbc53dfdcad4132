/* recon_json.c: a reconciliation as JSON (see recon_json.h). */
#include "report/recon_json.h"

#include <string.h>

#include "ledger/money.h"
#include "ledger/timefmt.h"
#include "report/json.h"
#include "report/recon_words.h"

/* A money member: 9 decimals, or null. */
static json_t *money(bool has, int64_t nanos)
{
	char buf[SB_MONEY_BUFSZ];

	return has ? json_string(sb_money_format(nanos, 9, buf)) : json_null();
}

/* Milliseconds as minutes with 3 decimals ("20.576"), half to even. */
static json_t *minutes(int64_t ms)
{
	char buf[SB_MONEY_BUFSZ];
	int64_t milli = 0;

	if (sb_div_round_even(ms, 60, &milli) != SB_MONEY_OK || milli > INT64_MAX / 1000000)
		return json_null();
	return json_string(sb_money_format(milli * 1000000, 3, buf));
}

/* A ratio in parts per 10^9 as a short decimal: "0.05", "0.125". */
static json_t *ratio(int64_t ppb)
{
	char buf[SB_MONEY_BUFSZ];
	size_t n = strlen(sb_money_format(ppb, 9, buf));
	char *dot = strchr(buf, '.');

	while (n > 0 && buf[n - 1] == '0' && dot != NULL && (size_t)(&buf[n - 1] - dot) > 2)
		buf[--n] = '\0';
	return json_string(buf);
}

/* The explanation object, or null. */
static json_t *explain(const sb_recon_backend *b, bool *ok)
{
	const sb_explain *x = &b->explain;
	json_t *o;

	if (!x->has)
		return json_null();
	o = json_object();
	sb_json_put(o, "exec_minutes", minutes(x->exec_ms), ok);
	sb_json_put(o, "lifetime_minutes", minutes(x->lifetime_ms), ok);
	sb_json_put(o, "lifetime_cost_usd", money(x->has_lifetime_cost, x->lifetime_nanos), ok);
	sb_json_put(o, "idle_cost_usd", money(x->has_idle, x->idle_nanos), ok);
	sb_json_put(o, "card_usd_per_minute", money(x->has_card_rate, x->card_rate_nanos), ok);
	sb_json_put(o, "implied_usd_per_minute", money(x->has_implied, x->implied_rate_nanos), ok);
	sb_json_put(o, "verdict",
	            x->verdict != SB_VERDICT_NONE ? json_string(sb_verdict_name(x->verdict)) : json_null(), ok);
	return o;
}

/* A period as {"from", "to"}. */
static json_t *span(const sb_period *p)
{
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];

	return json_pack("{s:s, s:s}", "from", sb_time_format(p->from_ms, from), "to",
	                 sb_time_format(p->to_ms, to));
}

/* A duration in ms as text: "72h", "90m", "45s", "1500ms" (the largest
 * unit that divides it). */
static json_t *duration(int64_t ms)
{
	char buf[40];

	if (ms % 3600000 == 0)
		snprintf(buf, sizeof buf, "%lldh", (long long)(ms / 3600000));
	else if (ms % 60000 == 0)
		snprintf(buf, sizeof buf, "%lldm", (long long)(ms / 60000));
	else if (ms % 1000 == 0)
		snprintf(buf, sizeof buf, "%llds", (long long)(ms / 1000));
	else
		snprintf(buf, sizeof buf, "%lldms", (long long)ms);
	return json_string(buf);
}

/* One backend's object. */
static json_t *backend(const sb_recon *r, const sb_recon_backend *b, bool *ok)
{
	json_t *o = json_object();
	char rel[SB_MONEY_BUFSZ];

	sb_json_put(o, "backend", json_string(b->backend), ok);
	sb_json_put(o, "status", json_string(sb_recon_status_name(b->status)), ok);
	sb_json_put(o, "flagged", json_boolean(b->flagged), ok);
	sb_json_put(o, "basis",
	            b->basis != SB_RBASIS_NONE ? json_string(sb_recon_basis_name(b->basis)) : json_null(), ok);
	sb_json_put(o, "runs", json_integer(b->runs), ok);
	sb_json_put(o, "window", span(&b->window), ok);
	sb_json_put(o, "sessions", json_integer(b->sessions), ok);
	sb_json_put(o, "flagged_sessions", json_integer(b->sessions_flagged), ok);
	sb_json_put(o, "exec_count", json_integer(b->exec_count), ok);
	sb_json_put(o, "computed_cost_usd", money(true, b->computed_nanos), ok);
	sb_json_put(o, "billed_cost_usd", money(b->has_billed, b->billed_nanos), ok);
	sb_json_put(o, "tax_usd", money(b->has_tax, b->tax_nanos), ok);
	sb_json_put(o, "drift_usd", money(b->has_drift, b->drift_nanos), ok);
	sb_json_put(o, "drift_rel",
	            b->has_drift_rel && b->drift_rel_micro < INT64_MAX / 1000 && b->drift_rel_micro > INT64_MIN / 1000
	                ? json_string(sb_money_format(b->drift_rel_micro * 1000, 6, rel))
	                : json_null(),
	            ok);
	sb_json_put(o, "explain", explain(b, ok), ok);
	if (b->status == SB_STATUS_NO_RATE) {
		/* what is missing and the ways out, as the table says them */
		char words[2048];
		sb_json_put(o, "runs_without_card", json_integer(b->unpriced_runs), ok);
		sb_json_put(o, "message", sb_recon_words(r, b, NULL, words, sizeof words) ? json_string(words) : json_null(), ok);
	}
	return o;
}

/* One session's object. */
static json_t *session(const sb_recon_session *s, bool *ok)
{
	json_t *o = json_object();
	int64_t drift = 0;
	bool has_drift = s->has_billed && sb_money_sub(s->billed_nanos, s->computed_nanos, &drift) == SB_MONEY_OK;

	sb_json_put(o, "session_id", s->session_id != NULL ? json_string(s->session_id) : json_null(), ok);
	sb_json_put(o, "backend", json_string(s->backend), ok);
	sb_json_put(o, "status", json_string(sb_recon_status_name(s->status)), ok);
	sb_json_put(o, "flagged", json_boolean(s->flagged), ok);
	sb_json_put(o, "computed_cost_usd", money(true, s->computed_nanos), ok);
	sb_json_put(o, "billed_cost_usd", money(s->has_billed, s->billed_nanos), ok);
	sb_json_put(o, "drift_usd", money(has_drift, drift), ok);
	return o;
}

json_t *sb_recon_json(const sb_recon *r)
{
	json_t *root = json_object(), *list;
	char at[SB_TIME_BUFSZ];
	bool ok = true;

	sb_json_put(root, "period", span(&r->opts.period), &ok);
	sb_json_put(root, "tolerance",
	            json_pack("{s:o, s:o}", "abs_usd", money(true, r->opts.abs_nanos), "rel", ratio(r->opts.rel_ppb)),
	            &ok);
	sb_json_put(root, "judged_at", json_string(sb_time_format(r->opts.now_ms, at)), &ok);
	sb_json_put(root, "billing_lag", duration(r->opts.billing_lag_ms), &ok);
	list = json_array();
	for (size_t i = 0; i < r->n_backends; i++)
		sb_json_append(list, backend(r, &r->backends[i], &ok), &ok);
	sb_json_put(root, "backends", list, &ok);
	list = json_array();
	for (size_t i = 0; i < r->n_sessions; i++)
		sb_json_append(list, session(&r->sessions[i], &ok), &ok);
	sb_json_put(root, "sessions", list, &ok);
	sb_json_put(root, "flagged", json_integer(r->flagged), &ok);
	sb_json_put(root, "flagged_backends", json_integer(r->flagged_backends), &ok);
	sb_json_put(root, "flagged_sessions", json_integer(r->flagged_sessions), &ok);
	sb_json_put(root, "pending", json_integer(r->pending), &ok);
	if (!ok) {
		json_decref(root);
		return NULL;
	}
	return root;
}

char *sb_recon_json_text(const sb_recon *r, size_t flags)
{
	json_t *json = sb_recon_json(r);
	char *text = sb_json_text(json, flags);

	json_decref(json);
	return text;
}
