/* test_recon_detail.c: what the reconciliation page shows beyond the
 * result (reconcile/recon_detail.c): the money at stake at its edges, the
 * tolerance band, the flagged sessions worst first with their runs and
 * costliest commands, the trend's days and the night's batches.
 *
 * The money at stake is the |drift| of the flagged backends plus that of
 * the flagged sessions of backends not flagged themselves.  The sums
 * below are worked out by hand in the comments.
 */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/import.h"
#include "ledger/timefmt.h"
#include "reconcile/recon_detail.h"
#include "reconcile/reconcile.h"

#define SAMPLES "examples/samples/"

/* An RFC 3339 timestamp in ms. */
static int64_t T(const char *text)
{
	int64_t ms = 0;

	assert_int_equal(sb_time_parse(text, strlen(text), 0, &ms), SB_TIME_OK);
	return ms;
}

/* A result built by hand: up to 8 backends and 8 sessions. */
typedef struct fake {
	sb_recon r;
	sb_recon_backend b[8];
	sb_recon_session s[8];
} fake;

static void fake_init(fake *f)
{
	memset(f, 0, sizeof *f);
	f->r.backends = f->b;
	f->r.sessions = f->s;
	f->r.opts.period.from_ms = T("2026-11-04T00:00:00Z");
	f->r.opts.period.to_ms = T("2026-11-05T00:00:00Z");
}

/* Add a backend: flagged or not, with a drift (has) of drift nanos. */
static sb_recon_backend *add_backend(fake *f, const char *name, bool flagged, bool has, int64_t drift)
{
	sb_recon_backend *b = &f->b[f->r.n_backends++];

	snprintf(b->backend, sizeof b->backend, "%s", name);
	b->flagged = flagged;
	b->status = flagged ? (drift < 0 ? SB_STATUS_UNDER_BILLED : SB_STATUS_OVER_BILLED) : SB_STATUS_OK;
	b->has_billed = has;
	b->has_drift = has;
	b->drift_nanos = drift;
	b->billed_nanos = has ? drift : 0;
	return b;
}

/* Add a session of backend: flagged or not, billed (has) at computed +
 * drift. */
static sb_recon_session *add_session(fake *f, const char *backend, const char *id, bool flagged,
                                     bool has, int64_t computed, int64_t drift)
{
	sb_recon_session *s = &f->s[f->r.n_sessions++];

	snprintf(s->backend, sizeof s->backend, "%s", backend);
	s->session_id = (char *)id;
	s->flagged = flagged;
	s->status = flagged ? SB_STATUS_OVER_BILLED : SB_STATUS_UNBILLED;
	s->computed_nanos = computed;
	s->has_billed = has;
	s->billed_nanos = computed + drift;
	return s;
}

static sb_recon_stake stake_of(const fake *f)
{
	sb_recon_stake k;
	sb_err e;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_recon_at_stake(&f->r, &k, &e));
	return k;
}

/* A flagged session of a flagged backend is inside the backend's drift:
 * counted once.  modal over by 300 with its session over by 300: 300. */
static void test_stake_session_of_flagged_backend_once(void **state)
{
	fake f;
	sb_recon_stake k;

	(void)state;
	fake_init(&f);
	add_backend(&f, "modal", true, true, 300);
	add_session(&f, "modal", "m1", true, true, 1000, 300);
	k = stake_of(&f);
	assert_int_equal(k.nanos, 300);
	assert_int_equal(k.backends, 1);
	assert_int_equal(k.sessions, 0);
}

/* A flagged session of a backend that is not flagged is counted: the
 * backend is ok at 4 (inside tolerance), its session over by 4: 4, not 8,
 * and the backend's own drift is not counted (it is not flagged). */
static void test_stake_session_of_ok_backend(void **state)
{
	fake f;
	sb_recon_stake k;

	(void)state;
	fake_init(&f);
	add_backend(&f, "cloudflare", false, true, 4);
	add_session(&f, "cloudflare", "orphan", true, true, 0, 4);
	k = stake_of(&f);
	assert_int_equal(k.nanos, 4);
	assert_int_equal(k.backends, 0);
	assert_int_equal(k.sessions, 1);
}

/* Under-billed drifts count by magnitude; sessions not flagged (unbilled
 * inside the billing lag) count nothing.  |-70| + 30 + |-5| = 105. */
static void test_stake_magnitudes(void **state)
{
	fake f;
	sb_recon_stake k;

	(void)state;
	fake_init(&f);
	add_backend(&f, "a", true, true, -70);
	add_backend(&f, "b", true, true, 30);
	add_backend(&f, "c", false, true, 2);
	add_session(&f, "c", "c1", true, true, 10, -5);
	add_session(&f, "c", "c2", false, true, 10, 999);
	add_session(&f, "a", "a1", true, true, 10, -70);
	k = stake_of(&f);
	assert_int_equal(k.nanos, 105);
	assert_int_equal(k.backends, 2);
	assert_int_equal(k.sessions, 1);
}

/* A flagged backend with no drift figure (no_rate, unbilled) adds
 * nothing and is counted apart, and so are its sessions' (not at all:
 * they belong to a flagged backend); a flagged session with no drift of
 * a backend not flagged is counted apart too. */
static void test_stake_unknown(void **state)
{
	fake f;
	sb_recon_stake k;

	(void)state;
	fake_init(&f);
	add_backend(&f, "e2b", true, false, 0)->status = SB_STATUS_NO_RATE;
	add_session(&f, "e2b", "e1", true, false, 10, 0);
	add_backend(&f, "ok", false, true, 0);
	add_session(&f, "ok", "o1", true, false, 10, 0);
	k = stake_of(&f);
	assert_int_equal(k.nanos, 0);
	assert_int_equal(k.unknown_backends, 1);
	assert_int_equal(k.unknown_sessions, 1);
	assert_int_equal(k.backends + k.sessions, 0);
}

/* The sum at the edge of int64: exactly INT64_MAX is a sum; one more is
 * an error, as is the drift INT64_MIN, whose magnitude does not fit. */
static void test_stake_overflow(void **state)
{
	fake f;
	sb_recon_stake k;
	sb_err e;

	(void)state;
	fake_init(&f);
	add_backend(&f, "a", true, true, INT64_MAX - 1);
	add_backend(&f, "b", true, true, 1);
	assert_int_equal(stake_of(&f).nanos, INT64_MAX);
	f.b[1].drift_nanos = 2;
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_recon_at_stake(&f.r, &k, &e), SB_EDATA, "does not fit");
	fake_init(&f);
	add_backend(&f, "a", true, true, INT64_MIN);
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_recon_at_stake(&f.r, &k, &e), SB_EDATA, "backend 'a'");
	fake_init(&f);
	add_backend(&f, "a", false, true, 0);
	add_session(&f, "a", "s", true, true, INT64_MIN + 1, -1);   /* drift INT64_MIN */
	f.s[0].billed_nanos = INT64_MIN;
	f.s[0].computed_nanos = 0;
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_recon_at_stake(&f.r, &k, &e), SB_EDATA, "session of backend 'a'");
}

/* The samples, November, judged on 2026-12-05: the flagged backends with
 * a drift are daytona 558,781,000, deepinfra 418,770,000,000, docker
 * 250,000,000, modal 571,148,667 and runloop 26,293,800; blaxel
 * (unbilled) and e2b (no_rate) have none; cloudflare is ok with its
 * orphan session flagged at 4,000,000; every other flagged session
 * belongs to a flagged backend.  418,770,000,000 + 558,781,000 +
 * 250,000,000 + 571,148,667 + 26,293,800 + 4,000,000 = 420,180,223,467. */
static void test_stake_samples(void **state)
{
	static const struct { const char *format, *file; } inputs[] = {
		{NULL, "runs.jsonl"}, {"record", "billing-record.jsonl"}, {"focus", "billing-focus.csv"},
		{"modal", "billing-modal.json"}, {"daytona", "billing-daytona.json"},
		{"e2b-events", "billing-e2b-events.json"}, {"deepinfra-usage", "deepinfra-usage.json"},
	};
	sb_db *db = support_memory_ledger();
	sb_recon_opts o = {{0, 0}, SB_DEFAULT_ABS_NANOS, SB_DEFAULT_REL_PPB, false, true, 0, false, 0};
	sb_recon *r = NULL;
	sb_recon_detail *d = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		sb_import_opts io = {0};
		sb_import_result ir;
		char path[128];
		snprintf(path, sizeof path, SAMPLES "%s", inputs[i].file);
		assert_sb_ok(&e, inputs[i].format == NULL ? sb_import_runs(db, path, &io, &ir, &e)
		                                          : sb_import_billing(db, inputs[i].format, path, &io, &ir, &e));
	}
	o.period.from_ms = T("2026-11-01T00:00:00Z");
	o.period.to_ms = T("2026-12-01T00:00:00Z");
	o.now_ms = T("2026-12-05T00:00:00Z");
	assert_sb_ok(&e, sb_reconcile(db, &o, &r, &e));
	assert_sb_ok(&e, sb_recon_detail_load(db, r, &d, &e));
	assert_int_equal(d->stake.nanos, INT64_C(420180223467));
	assert_int_equal(d->stake.backends, 5);
	assert_int_equal(d->stake.sessions, 1);
	assert_int_equal(d->stake.unknown_backends, 2);
	assert_int_equal(d->stake.unknown_sessions, 0);
	/* the 15 flagged sessions, worst first: modal's mod-83b59641d2 is
	 * over by 1,019,045,000 - 679,363,333 = 339,681,667; the four e2b
	 * sessions (no drift) last */
	assert_int_equal(d->n_sessions, 15);
	assert_string_equal(d->sessions[0].session->session_id, "mod-83b59641d2");
	assert_int_equal(d->sessions[0].drift_nanos, 339681667);
	for (size_t i = 11; i < 15; i++) {
		assert_false(d->sessions[i].has_drift);
		assert_string_equal(d->sessions[i].session->backend, "e2b");
	}
	sb_recon_detail_free(d);
	sb_recon_free(r);
	sb_db_close(db);
}

/* The band: max(abs, rel x computed), the product rounded half to even. */
static void test_tolerance(void **state)
{
	sb_recon_backend b;

	(void)state;
	memset(&b, 0, sizeof b);
	b.abs_nanos = 10000000;
	b.rel_ppb = 50000000;
	b.computed_nanos = 200000000;   /* 5% is 10,000,000: equal to abs */
	assert_int_equal(sb_recon_tolerance_nanos(&b), 10000000);
	b.computed_nanos = 200000020;   /* 10,000,001 */
	assert_int_equal(sb_recon_tolerance_nanos(&b), 10000001);
	b.abs_nanos = 0;
	b.rel_ppb = 500000000;          /* a half */
	b.computed_nanos = 3;           /* 1.5 -> 2 */
	assert_int_equal(sb_recon_tolerance_nanos(&b), 2);
	b.computed_nanos = 5;           /* 2.5 -> 2 */
	assert_int_equal(sb_recon_tolerance_nanos(&b), 2);
	b.computed_nanos = 0;
	b.abs_nanos = 7;
	assert_int_equal(sb_recon_tolerance_nanos(&b), 7);
}

/* A session's drift: billed - computed, none without billed or when it
 * does not fit. */
static void test_session_drift(void **state)
{
	sb_recon_session s;
	int64_t d = 0;

	(void)state;
	memset(&s, 0, sizeof s);
	s.computed_nanos = 10;
	assert_false(sb_recon_session_drift(&s, &d));
	s.has_billed = true;
	s.billed_nanos = 4;
	assert_true(sb_recon_session_drift(&s, &d));
	assert_int_equal(d, -6);
	s.billed_nanos = INT64_MAX;
	s.computed_nanos = -1;
	assert_false(sb_recon_session_drift(&s, &d));
}

/* The trend's window: the 30 UTC days ending at the period's end, rounded
 * up to a midnight. */
static void test_trend_window(void **state)
{
	sb_period p = {T("2026-11-04T00:00:00Z"), T("2026-11-05T00:00:00Z")}, w;

	(void)state;
	w = sb_trend_window(&p);
	assert_int_equal(w.to_ms, T("2026-11-05T00:00:00Z"));
	assert_int_equal(w.from_ms, T("2026-10-06T00:00:00Z"));
	p.to_ms = T("2026-11-04T12:00:00Z");
	assert_int_equal(sb_trend_window(&p).to_ms, T("2026-11-05T00:00:00Z"));
	p.to_ms = T("2026-11-04T00:00:00.001Z");
	assert_int_equal(sb_trend_window(&p).to_ms, T("2026-11-05T00:00:00Z"));
}

/* Store a reconciliation of [from, to) by hand with one backend's result
 * (drift NULL when has is false). */
static void store(sb_db *db, int64_t id, const char *from, const char *to, const char *backend,
                  const char *status, bool has, int64_t drift, int flagged)
{
	char sql[1024];

	snprintf(sql, sizeof sql,
	         "INSERT INTO reconciliation (recon_id, created_ms, from_ms, to_ms, abs_nanos, rel_ppb, "
	         "backends, flagged, result) VALUES (%lld, 0, %lld, %lld, 10000000, 50000000, 1, 0, '{}') "
	         "ON CONFLICT DO NOTHING;"
	         "INSERT INTO reconciliation_backend (recon_id, backend, status, runs, computed_nanos, "
	         "billed_nanos, drift_nanos, flagged) VALUES (%lld, '%s', '%s', 1, 100, %s, %s, %d);",
	         (long long)id, (long long)T(from), (long long)T(to), (long long)id, backend, status,
	         has ? "200" : "NULL", has ? "0" : "NULL", flagged);
	support_exec(db, sql);
	if (has) {
		snprintf(sql, sizeof sql, "UPDATE reconciliation_backend SET drift_nanos = %lld WHERE recon_id = %lld "
		         "AND backend = '%s'", (long long)drift, (long long)id, backend);
		support_exec(db, sql);
	}
}

/* The trend: single days inside the window, the latest result of each
 * day and backend; a day judged again shows its last verdict; a two-day
 * period, a day before the window and the day starting at its end are
 * not in it; the first and last days of the window are. */
static void test_trend_days(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_period w = {T("2026-10-06T00:00:00Z"), T("2026-11-05T00:00:00Z")};
	sb_trend *t = NULL;
	sb_err e;

	(void)state;
	store(db, 1, "2026-10-05T00:00:00Z", "2026-10-06T00:00:00Z", "modal", "ok", true, 1, 0);   /* before */
	store(db, 2, "2026-10-06T00:00:00Z", "2026-10-07T00:00:00Z", "modal", "ok", true, 2, 0);   /* first day */
	store(db, 3, "2026-11-03T00:00:00Z", "2026-11-04T00:00:00Z", "modal", "over_billed", true, 30, 1);
	store(db, 4, "2026-11-03T00:00:00Z", "2026-11-04T00:00:00Z", "modal", "ok", true, 3, 0);   /* again */
	store(db, 5, "2026-11-04T00:00:00Z", "2026-11-05T00:00:00Z", "modal", "over_billed", true, 40, 1); /* last */
	store(db, 5, "2026-11-04T00:00:00Z", "2026-11-05T00:00:00Z", "e2b", "no_rate", false, 0, 1);
	store(db, 6, "2026-11-05T00:00:00Z", "2026-11-06T00:00:00Z", "modal", "ok", true, 5, 0);   /* after */
	store(db, 7, "2026-11-01T00:00:00Z", "2026-11-03T00:00:00Z", "modal", "ok", true, 6, 0);   /* two days */
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_trend_load(db, &w, &t, &e));
	assert_int_equal(t->n_series, 2);
	assert_string_equal(t->series[0].backend, "e2b");
	assert_int_equal(t->series[0].n_points, 1);
	assert_int_equal(t->series[0].n_drift, 0);
	assert_int_equal(t->series[0].points[0].status, SB_STATUS_NO_RATE);
	assert_true(t->series[0].points[0].flagged);
	assert_string_equal(t->series[1].backend, "modal");
	assert_int_equal(t->series[1].n_points, 3);
	assert_int_equal(t->series[1].n_drift, 3);
	assert_int_equal(t->series[1].points[0].drift_nanos, 2);
	assert_int_equal(t->series[1].points[1].drift_nanos, 3);
	assert_int_equal(t->series[1].points[1].recon_id, 4);
	assert_false(t->series[1].points[1].flagged);
	assert_int_equal(t->series[1].points[2].drift_nanos, 40);
	assert_int_equal(t->series[1].points[2].from_ms, T("2026-11-04T00:00:00Z"));
	sb_trend_free(t);
	sb_db_close(db);
}

/* A flagged session's runs and costliest commands, over the period only:
 * session s1 of e2b has runs r1 (ended, 60 s of life, two commands) and r2
 * (no ended_at) in the period, r3 on the next day.  Commands: 'pytest'
 * twice (0.03 + 0.01 = 0.04, 40 s), 'make' once (0.05, 10 s), 'ls' once
 * (no cost, 50 s), '<b>&' once (0.001, 1 s): the three costliest are
 * make, pytest, <b>&; ls (no cost) is left out.  The runs that named no
 * session are a session of their own. */
static void test_session_runs(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_recon_detail *d = NULL;
	fake f;
	sb_err e;
	int64_t before = 0, after = 0;
	sb_night_imports *n = NULL;

	(void)state;
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_batch_last_id(db, &before, &e));
	assert_int_equal(before, 0);
	support_add_runs(db,
	    "{\"run_id\":\"r1\",\"backend\":\"e2b\",\"session_id\":\"s1\",\"started_at\":\"2026-11-04T10:00:00Z\","
	    "\"ended_at\":\"2026-11-04T10:01:00Z\",\"sandbox_usage\":{\"exec_count\":3,\"total_duration_ms\":60000,"
	    "\"computed_cost_usd\":0.08,\"executions\":[{\"command\":\"pytest\",\"duration_ms\":30000,\"cost_usd\":0.03},"
	    "{\"command\":\"make\",\"duration_ms\":10000,\"cost_usd\":0.05},"
	    "{\"command\":\"ls\",\"duration_ms\":20000}]}}\n"
	    "{\"run_id\":\"r2\",\"backend\":\"e2b\",\"session_id\":\"s1\",\"started_at\":\"2026-11-04T11:00:00Z\","
	    "\"sandbox_usage\":{\"exec_count\":3,\"total_duration_ms\":41000,"
	    "\"computed_cost_usd\":0.011,\"executions\":[{\"command\":\"pytest\",\"duration_ms\":10000,\"cost_usd\":0.01},"
	    "{\"command\":\"ls\",\"duration_ms\":30000},{\"command\":\"<b>&\",\"duration_ms\":1000,\"cost_usd\":0.001}]}}\n"
	    "{\"run_id\":\"r3\",\"backend\":\"e2b\",\"session_id\":\"s1\",\"started_at\":\"2026-11-05T00:00:00Z\","
	    "\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":9000,"
	    "\"computed_cost_usd\":9,\"executions\":[{\"command\":\"rm -rf\",\"duration_ms\":9000,\"cost_usd\":9}]}}\n"
	    "{\"run_id\":\"r4\",\"backend\":\"e2b\",\"started_at\":\"2026-11-04T12:00:00Z\","
	    "\"ended_at\":\"2026-11-04T12:02:00Z\",\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":5000,"
	    "\"computed_cost_usd\":0.005,\"executions\":[{\"duration_ms\":5000,\"cost_usd\":0.005}]}}\n");
	assert_sb_ok(&e, sb_batch_last_id(db, &after, &e));
	assert_int_equal(after, before + 1);
	fake_init(&f);
	add_backend(&f, "e2b", false, true, 0);
	add_session(&f, "e2b", "s1", true, true, 101000000, 1);
	add_session(&f, "e2b", NULL, true, true, 5000000, 2);
	assert_sb_ok(&e, sb_recon_detail_load(db, &f.r, &d, &e));
	assert_int_equal(d->n_sessions, 2);
	/* worst first: the session without id is over by 2 */
	assert_null(d->sessions[0].session->session_id);
	assert_int_equal(d->sessions[0].runs, 1);
	assert_int_equal(d->sessions[0].lifetime_ms, 120000);
	assert_int_equal(d->sessions[0].n_commands, 1);
	assert_null(d->sessions[0].commands[0].text);
	{
		const sb_detail_session *s = &d->sessions[1];
		assert_int_equal(s->runs, 2);
		assert_int_equal(s->exec_ms, 101000);
		assert_int_equal(s->ended, 1);
		assert_int_equal(s->lifetime_ms, 60000);
		assert_int_equal(s->n_commands, 3);
		assert_string_equal(s->commands[0].text, "make");
		assert_int_equal(s->commands[0].cost_nanos, 50000000);
		assert_string_equal(s->commands[1].text, "pytest");
		assert_int_equal(s->commands[1].execs, 2);
		assert_int_equal(s->commands[1].duration_ms, 40000);
		assert_int_equal(s->commands[1].cost_nanos, 40000000);
		assert_true(s->commands[1].has_cost);
		assert_string_equal(s->commands[2].text, "<b>&");
		assert_false(s->commands[2].cut);
	}
	sb_recon_detail_free(d);
	/* the night's batches: the one after `before` */
	assert_sb_ok(&e, sb_night_imports_load(db, before, &n, &e));
	assert_int_equal(n->n_batches, 1);
	assert_int_equal(n->batches[0].batch_id, after);
	assert_int_equal(n->accepted, 4);
	assert_string_equal(n->batches[0].kind, "runs");
	sb_night_imports_free(n);
	assert_sb_ok(&e, sb_night_imports_load(db, after, &n, &e));
	assert_int_equal(n->n_batches, 0);
	sb_night_imports_free(n);
	sb_db_close(db);
}

/* A command is cut to SB_DETAIL_COMMAND_CHARS characters (not bytes: a
 * character of several bytes is never split), and says so; a command of
 * exactly that many is whole. */
static void test_command_cut(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_recon_detail *d = NULL;
	char json[4096], exact[SB_DETAIL_COMMAND_CHARS + 1], longer[3 * SB_DETAIL_COMMAND_CHARS + 8];
	size_t n = 0;
	fake f;
	sb_err e;

	(void)state;
	memset(exact, 'x', SB_DETAIL_COMMAND_CHARS);
	exact[SB_DETAIL_COMMAND_CHARS] = '\0';
	for (int i = 0; i <= SB_DETAIL_COMMAND_CHARS; i++) {   /* one character more, each two bytes */
		longer[n++] = '\xc3';
		longer[n++] = '\xa9';
	}
	longer[n] = '\0';
	snprintf(json, sizeof json,
	         "{\"run_id\":\"c1\",\"backend\":\"e2b\",\"session_id\":\"s\",\"started_at\":\"2026-11-04T10:00:00Z\","
	         "\"sandbox_usage\":{\"exec_count\":2,\"total_duration_ms\":3000,\"computed_cost_usd\":0.03,"
	         "\"executions\":[{\"command\":\"%s\",\"duration_ms\":1000,\"cost_usd\":0.02},"
	         "{\"command\":\"%s\",\"duration_ms\":2000,\"cost_usd\":0.01}]}}\n", exact, longer);
	support_add_runs(db, json);
	fake_init(&f);
	add_backend(&f, "e2b", false, true, 0);
	add_session(&f, "e2b", "s", true, true, 0, 1);
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_recon_detail_load(db, &f.r, &d, &e));
	assert_int_equal(d->sessions[0].n_commands, 2);
	assert_string_equal(d->sessions[0].commands[0].text, exact);
	assert_false(d->sessions[0].commands[0].cut);
	assert_true(d->sessions[0].commands[1].cut);
	assert_int_equal(strlen(d->sessions[0].commands[1].text), 2 * SB_DETAIL_COMMAND_CHARS);
	sb_recon_detail_free(d);
	sb_db_close(db);
}

/* At most SB_DETAIL_SESSIONS sessions are detailed, the worst; the rest
 * are counted. */
static void test_sessions_left(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_recon_detail *d = NULL;
	sb_recon r;
	sb_recon_session *s = calloc(SB_DETAIL_SESSIONS + 2, sizeof *s);
	sb_err e;

	(void)state;
	assert_non_null(s);
	memset(&r, 0, sizeof r);
	r.sessions = s;
	r.n_sessions = SB_DETAIL_SESSIONS + 2;
	for (size_t i = 0; i < r.n_sessions; i++) {
		snprintf(s[i].backend, sizeof s[i].backend, "b");
		s[i].flagged = i != 0;    /* one not flagged: SB_DETAIL_SESSIONS + 1 flagged */
		s[i].has_billed = true;
		s[i].billed_nanos = (int64_t)i;
	}
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_recon_detail_load(db, &r, &d, &e));
	assert_int_equal(d->n_sessions, SB_DETAIL_SESSIONS);
	assert_int_equal(d->sessions_left, 1);
	assert_int_equal(d->sessions[0].drift_nanos, SB_DETAIL_SESSIONS + 1);
	assert_int_equal(d->sessions[SB_DETAIL_SESSIONS - 1].drift_nanos, 2);
	sb_recon_detail_free(d);
	free(s);
	sb_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stake_session_of_flagged_backend_once),
		cmocka_unit_test(test_stake_session_of_ok_backend),
		cmocka_unit_test(test_stake_magnitudes),
		cmocka_unit_test(test_stake_unknown),
		cmocka_unit_test(test_stake_overflow),
		cmocka_unit_test(test_stake_samples),
		cmocka_unit_test(test_tolerance),
		cmocka_unit_test(test_session_drift),
		cmocka_unit_test(test_trend_window),
		cmocka_unit_test(test_trend_days),
		cmocka_unit_test(test_session_runs),
		cmocka_unit_test(test_command_cut),
		cmocka_unit_test(test_sessions_left),
	};

	return cmocka_run_group_tests_name("recon_detail", tests, NULL, NULL);
}
