/* recon_json.c: a reconciliation as JSON, and stored (see reconcile.h). */
#include "reconcile/reconcile.h"

#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/timefmt.h"

/* Set member key of o to v, a new reference that is consumed; *ok becomes
 * false when v or o is NULL or the member cannot be added (out of memory),
 * so that a result is never printed or stored with members missing. */
static void put(json_t *o, const char *key, json_t *v, bool *ok)
{
	if (json_object_set_new(o, key, v) != 0)
		*ok = false;
}

/* Append v (consumed) to the array list, as put does. */
static void append(json_t *list, json_t *v, bool *ok)
{
	if (json_array_append_new(list, v) != 0)
		*ok = false;
}

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
	put(o, "exec_minutes", minutes(x->exec_ms), ok);
	put(o, "lifetime_minutes", minutes(x->lifetime_ms), ok);
	put(o, "lifetime_cost_usd", money(x->has_lifetime_cost, x->lifetime_nanos), ok);
	put(o, "idle_cost_usd", money(x->has_idle, x->idle_nanos), ok);
	put(o, "card_usd_per_minute", money(x->has_card_rate, x->card_rate_nanos), ok);
	put(o, "implied_usd_per_minute", money(x->has_implied, x->implied_rate_nanos), ok);
	put(o, "verdict", x->verdict != SB_VERDICT_NONE ? json_string(sb_verdict_name(x->verdict)) : json_null(),
	    ok);
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
static json_t *backend(const sb_recon_backend *b, bool *ok)
{
	json_t *o = json_object();
	char rel[SB_MONEY_BUFSZ];

	put(o, "backend", json_string(b->backend), ok);
	put(o, "status", json_string(sb_recon_status_name(b->status)), ok);
	put(o, "flagged", json_boolean(b->flagged), ok);
	put(o, "basis", b->basis != SB_RBASIS_NONE ? json_string(sb_recon_basis_name(b->basis)) : json_null(),
	    ok);
	put(o, "runs", json_integer(b->runs), ok);
	put(o, "window", span(&b->window), ok);
	put(o, "sessions", json_integer(b->sessions), ok);
	put(o, "flagged_sessions", json_integer(b->sessions_flagged), ok);
	put(o, "exec_count", json_integer(b->exec_count), ok);
	put(o, "computed_cost_usd", money(true, b->computed_nanos), ok);
	put(o, "billed_cost_usd", money(b->has_billed, b->billed_nanos), ok);
	put(o, "tax_usd", money(b->has_tax, b->tax_nanos), ok);
	put(o, "drift_usd", money(b->has_drift, b->drift_nanos), ok);
	put(o, "drift_rel", b->has_drift_rel && b->drift_rel_micro < INT64_MAX / 1000 &&
	                                            b->drift_rel_micro > INT64_MIN / 1000
	                                        ? json_string(sb_money_format(b->drift_rel_micro * 1000, 6, rel))
	                                        : json_null(), ok);
	put(o, "explain", explain(b, ok), ok);
	return o;
}

/* One session's object. */
static json_t *session(const sb_recon_session *s, bool *ok)
{
	json_t *o = json_object();
	int64_t drift = 0;
	bool has_drift = s->has_billed && sb_money_sub(s->billed_nanos, s->computed_nanos, &drift) == SB_MONEY_OK;

	put(o, "session_id", s->session_id != NULL ? json_string(s->session_id) : json_null(), ok);
	put(o, "backend", json_string(s->backend), ok);
	put(o, "status", json_string(sb_recon_status_name(s->status)), ok);
	put(o, "flagged", json_boolean(s->flagged), ok);
	put(o, "computed_cost_usd", money(true, s->computed_nanos), ok);
	put(o, "billed_cost_usd", money(s->has_billed, s->billed_nanos), ok);
	put(o, "drift_usd", money(has_drift, drift), ok);
	return o;
}

json_t *sb_recon_json(const sb_recon *r)
{
	json_t *root = json_object(), *list;
	char at[SB_TIME_BUFSZ];
	bool ok = true;

	put(root, "period", span(&r->opts.period), &ok);
	put(root, "tolerance", json_pack("{s:o, s:o}",
	        "abs_usd", money(true, r->opts.abs_nanos), "rel", ratio(r->opts.rel_ppb)), &ok);
	put(root, "judged_at", json_string(sb_time_format(r->opts.now_ms, at)), &ok);
	put(root, "billing_lag", duration(r->opts.billing_lag_ms), &ok);
	list = json_array();
	for (size_t i = 0; i < r->n_backends; i++)
		append(list, backend(&r->backends[i], &ok), &ok);
	put(root, "backends", list, &ok);
	list = json_array();
	for (size_t i = 0; i < r->n_sessions; i++)
		append(list, session(&r->sessions[i], &ok), &ok);
	put(root, "sessions", list, &ok);
	put(root, "flagged", json_integer(r->flagged), &ok);
	put(root, "flagged_backends", json_integer(r->flagged_backends), &ok);
	put(root, "flagged_sessions", json_integer(r->flagged_sessions), &ok);
	put(root, "pending", json_integer(r->pending), &ok);
	if (!ok) {
		json_decref(root);
		return NULL;
	}
	return root;
}

/* Text being dumped by jansson into memory.  jansson 2.14 does not check
 * every write of its own dump (an object's keys), so a failure is kept
 * here, where it cannot be lost. */
typedef struct text_buf {
	char *text;        /* what was written, NUL-terminated */
	size_t len;        /* its length */
	size_t cap;        /* allocated */
	bool failed;       /* a write failed: the text is not whole */
} text_buf;

/* json_dump_callback's writer: append size bytes of buf. */
static int text_write(const char *buf, size_t size, void *data)
{
	text_buf *t = data;

	if (t->failed)
		return -1;
	if (t->len + size + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		char *more;
		while (cap < t->len + size + 1)
			cap *= 2;
		if ((more = realloc(t->text, cap)) == NULL) {
			t->failed = true;
			return -1;
		}
		t->text = more;
		t->cap = cap;
	}
	memcpy(t->text + t->len, buf, size);
	t->len += size;
	t->text[t->len] = '\0';
	return 0;
}

char *sb_recon_json_text(const sb_recon *r, size_t flags)
{
	json_t *json = sb_recon_json(r);
	text_buf t = {NULL, 0, 0, false};
	int rc;

	if (json == NULL)
		return NULL;
	rc = json_dump_callback(json, text_write, &t, flags);
	json_decref(json);
	if (rc != 0 || t.failed || t.text == NULL) {
		free(t.text);
		return NULL;
	}
	return t.text;
}

/* Store one backend's result. */
static int store_backend(sb_db *db, int64_t id, const sb_recon_backend *b, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "recon_backend_insert", e);

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":recon_id", id);
	sb_bind_text(db, st, ":backend", b->backend);
	sb_bind_text(db, st, ":status", sb_recon_status_name(b->status));
	sb_bind_text_opt(db, st, ":basis", sb_recon_basis_name(b->basis));
	sb_bind_i64(db, st, ":runs", b->runs);
	sb_bind_i64(db, st, ":computed_nanos", b->computed_nanos);
	sb_bind_i64_opt(db, st, ":billed_nanos", b->has_billed, b->billed_nanos);
	sb_bind_i64_opt(db, st, ":drift_nanos", b->has_drift, b->drift_nanos);
	sb_bind_i64_opt(db, st, ":tax_nanos", b->has_tax, b->tax_nanos);
	sb_bind_text_opt(db, st, ":verdict", sb_verdict_name(b->explain.verdict));
	sb_bind_i64(db, st, ":window_from_ms", b->window.from_ms);
	sb_bind_i64(db, st, ":window_to_ms", b->window.to_ms);
	sb_bind_i64(db, st, ":flagged", b->flagged);
	sb_bind_i64(db, st, ":sessions_flagged", b->sessions_flagged);
	return sb_db_run(db, st, e);
}

/* Store one listed session's result. */
static int store_session(sb_db *db, int64_t id, const sb_recon_session *s, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "recon_session_insert", e);
	int64_t drift = 0;
	bool has_drift = s->has_billed && sb_money_sub(s->billed_nanos, s->computed_nanos, &drift) == SB_MONEY_OK;

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":recon_id", id);
	sb_bind_text(db, st, ":backend", s->backend);
	sb_bind_text_opt(db, st, ":session_id", s->session_id);
	sb_bind_text(db, st, ":status", sb_recon_status_name(s->status));
	sb_bind_i64(db, st, ":computed_nanos", s->computed_nanos);
	sb_bind_i64_opt(db, st, ":billed_nanos", s->has_billed, s->billed_nanos);
	sb_bind_i64_opt(db, st, ":drift_nanos", has_drift, drift);
	sb_bind_i64(db, st, ":flagged", s->flagged);
	return sb_db_run(db, st, e);
}

int sb_recon_store(sb_db *db, sb_recon *r, sb_err *e)
{
	char *text = sb_recon_json_text(r, JSON_COMPACT);
	sqlite3_stmt *st;
	int64_t id;

	if (text == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	if (sb_db_begin(db, e) != SB_OK || (st = sb_db_stmt(db, "recon_insert", e)) == NULL)
		goto fail;
	sb_bind_i64(db, st, ":created_ms", sb_now_ms());
	sb_bind_i64(db, st, ":from_ms", r->opts.period.from_ms);
	sb_bind_i64(db, st, ":to_ms", r->opts.period.to_ms);
	sb_bind_i64(db, st, ":abs_nanos", r->opts.abs_nanos);
	sb_bind_i64(db, st, ":rel_ppb", r->opts.rel_ppb);
	sb_bind_i64(db, st, ":backends", (int64_t)r->n_backends);
	sb_bind_i64(db, st, ":flagged", r->flagged);
	sb_bind_text(db, st, ":result", text);
	sb_bind_i64(db, st, ":judged_ms", r->opts.now_ms);
	sb_bind_i64(db, st, ":billing_lag_ms", r->opts.billing_lag_ms);
	sb_bind_i64(db, st, ":flagged_backends", r->flagged_backends);
	sb_bind_i64(db, st, ":flagged_sessions", r->flagged_sessions);
	if (sb_db_run(db, st, e) != SB_OK)
		goto fail;
	id = sqlite3_last_insert_rowid(sb_db_handle(db));
	for (size_t i = 0; i < r->n_backends; i++)
		if (store_backend(db, id, &r->backends[i], e) != SB_OK)
			goto fail;
	for (size_t i = 0; i < r->n_sessions; i++)
		if (store_session(db, id, &r->sessions[i], e) != SB_OK)
			goto fail;
	if (sb_db_commit(db, e) != SB_OK)
		goto fail;
	r->recon_id = id;
	free(text);
	return SB_OK;
fail:
	sb_db_rollback(db);
	free(text);
	return e->code;
}
