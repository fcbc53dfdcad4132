/* test_recon_page.c: the reconciliation page and the drift page
 * (report/recon_page.c) on results built by hand: every text from the
 * ledger escaped (a backend, session, command, path and inbox holding
 * <script>, quotes and &), commands quoted for the shell, the figures in
 * their data attributes, nothing referred to outside the page, and a
 * write error reported.
 */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ledger/timefmt.h"
#include "reconcile/recon_detail.h"
#include "report/recon_page.h"

static int64_t T(const char *text)
{
	int64_t ms = 0;

	assert_int_equal(sb_time_parse(text, strlen(text), 0, &ms), SB_TIME_OK);
	return ms;
}

/* s as one shell word, allocated. */
static char *word(const char *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	sb_shell_word(f, s);
	fclose(f);
	return text;
}

static void test_shell_word(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{"sbx-91c2", "sbx-91c2"},
		{"2026-11-01T08:00:00Z..2026-12-01T08:00:00Z", "2026-11-01T08:00:00Z..2026-12-01T08:00:00Z"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", "'it'\\''s'"},
		{"$(rm -rf /)", "'$(rm -rf /)'"},
		{"<b>&", "'<b>&'"},
		{"'", "''\\'''"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *w = word(cases[i].in);
		assert_string_equal(w, cases[i].out);
		free(w);
	}
}

#define EVIL_SESSION "<script>alert(\"s\")</script>&'x"
#define EVIL_COMMAND "<script>cmd</script> \"q\" & 'a'"
#define EVIL_BACKEND "<script>b</script>"

/* A result of two backends (one with a hostile name), a flagged session
 * with a hostile id and command, the trend and a night's batch. */
typedef struct world {
	sb_recon r;
	sb_recon_backend b[2];
	sb_recon_session s[1];
	sb_recon_detail d;
	sb_detail_session ds[1];
	sb_trend t;
	sb_trend_series series[2];
	sb_trend_point points[4];
	sb_night_imports imports;
	sb_night_batch batch[1];
	sb_night_fetch fetch[1];
	sb_period unjudged[11];
	sb_flag flag[2];
	sb_invocation run;
	sb_page_opts o;
} world;

static void world_init(world *w)
{
	memset(w, 0, sizeof *w);
	w->r.opts.period.from_ms = T("2026-11-04T00:00:00Z");
	w->r.opts.period.to_ms = T("2026-11-05T00:00:00Z");
	w->r.opts.now_ms = T("2026-11-05T06:00:00Z");
	w->r.opts.abs_nanos = SB_DEFAULT_ABS_NANOS;
	w->r.opts.rel_ppb = SB_DEFAULT_REL_PPB;
	w->r.opts.billing_lag_ms = SB_DEFAULT_LAG_MS;
	w->r.backends = w->b;
	w->r.n_backends = 2;
	snprintf(w->b[0].backend, sizeof w->b[0].backend, "%s", EVIL_BACKEND);
	w->b[0].status = SB_STATUS_OVER_BILLED;
	w->b[0].flagged = true;
	w->b[0].basis = SB_RBASIS_BILLED;
	w->b[0].window = w->r.opts.period;
	w->b[0].computed_nanos = 1142298333;
	w->b[0].has_billed = w->b[0].has_drift = w->b[0].has_drift_rel = true;
	w->b[0].billed_nanos = 1713447000;
	w->b[0].drift_nanos = 571148667;
	w->b[0].drift_rel_micro = 500000;
	w->b[0].abs_nanos = SB_DEFAULT_ABS_NANOS;
	w->b[0].rel_ppb = SB_DEFAULT_REL_PPB;
	w->b[0].sessions_flagged = 1;
	snprintf(w->b[1].backend, sizeof w->b[1].backend, "vercel");
	w->b[1].status = SB_STATUS_PENDING;
	w->b[1].window.from_ms = T("2026-11-04T08:00:00Z");
	w->b[1].window.to_ms = T("2026-11-05T08:00:00Z");
	w->b[1].grid_ms = SB_GRID_DAY_MS;
	w->b[1].computed_nanos = 5;
	w->r.sessions = w->s;
	w->r.n_sessions = 1;
	w->s[0].session_id = (char *)EVIL_SESSION;
	snprintf(w->s[0].backend, sizeof w->s[0].backend, "%s", EVIL_BACKEND);
	w->s[0].status = SB_STATUS_OVER_BILLED;
	w->s[0].flagged = true;
	w->s[0].runs = 1;
	w->s[0].computed_nanos = 10;
	w->s[0].has_billed = true;
	w->s[0].billed_nanos = 30;
	w->r.flagged = 2;
	w->r.flagged_backends = 1;
	w->r.flagged_sessions = 1;
	w->r.pending = 1;
	w->r.recon_id = 7;
	w->d.stake.nanos = 571148667;
	w->d.stake.backends = 1;
	w->d.sessions = w->ds;
	w->d.n_sessions = 1;
	w->ds[0].session = &w->s[0];
	w->ds[0].has_drift = true;
	w->ds[0].drift_nanos = 20;
	w->ds[0].runs = 1;
	w->ds[0].exec_ms = 60000;
	w->ds[0].ended = 1;
	w->ds[0].lifetime_ms = 90000;
	w->ds[0].n_commands = 1;
	w->ds[0].commands[0].text = (char *)EVIL_COMMAND;
	w->ds[0].commands[0].execs = 2;
	w->ds[0].commands[0].has_cost = true;
	w->ds[0].commands[0].cost_nanos = 20;
	w->t.period = sb_trend_window(&w->r.opts.period);
	w->t.series = w->series;
	w->t.n_series = 2;
	snprintf(w->series[0].backend, sizeof w->series[0].backend, "%s", EVIL_BACKEND);
	w->series[0].points = w->points;
	w->series[0].n_points = 3;
	w->series[0].n_drift = 2;
	for (int i = 0; i < 3; i++) {
		w->points[i].from_ms = T("2026-11-02T00:00:00Z") + i * SB_MS_PER_DAY;
		w->points[i].to_ms = w->points[i].from_ms + SB_MS_PER_DAY;
		w->points[i].status = SB_STATUS_OVER_BILLED;
		w->points[i].has_drift = i != 1;
		w->points[i].drift_nanos = 100 * (i + 1);
		w->points[i].flagged = i == 2;
	}
	/* a backend stored with no drift figure, flagged: named under the chart */
	snprintf(w->series[1].backend, sizeof w->series[1].backend, "e2b");
	w->series[1].points = &w->points[3];
	w->series[1].n_points = 1;
	w->points[3] = w->points[2];
	w->points[3].status = SB_STATUS_NO_RATE;
	w->points[3].has_drift = false;
	w->d.trend = &w->t;
	w->imports.batches = w->batch;
	w->imports.n_batches = 1;
	w->imports.rejected = 2;
	w->batch[0].batch_id = 9;
	w->batch[0].kind = (char *)"runs";
	w->batch[0].format = (char *)"runs";
	w->batch[0].source = (char *)"/in & <box>/runs/<script>.jsonl";
	w->batch[0].status = (char *)"complete";
	w->batch[0].rejected = 2;
	w->run.program = "./my bin/sbledger";   /* as cron ran it, by a path */
	w->run.db = "/srv/it's <mine>/ledger.db";
	w->o.ledger = &w->run;
	w->o.made_ms = T("2026-11-05T06:00:00Z");
	w->o.imports = &w->imports;
	w->o.inbox = "/in & <box>";
	/* the night's other faults: a fetch with no key, two days unjudged */
	w->fetch[0].provider = "deepinfra";
	w->fetch[0].what = "catalog";
	w->fetch[0].skipped = true;
	w->fetch[0].code = SB_EUSAGE;
	snprintf(w->fetch[0].msg, sizeof w->fetch[0].msg, "%s", "KEY is not set: <b>export</b> it & 'retry'");
	w->imports.fetches = w->fetch;
	w->imports.n_fetches = 1;
	w->unjudged[0].from_ms = T("2026-09-01T00:00:00Z");
	w->unjudged[0].to_ms = T("2026-09-03T00:00:00Z");
	w->imports.unjudged = w->unjudged;
	w->imports.n_unjudged = 1;
	w->imports.catch_up_days = 35;
	w->imports.unjudged_days = 65;
	w->imports.inbox = "/in & <box>";
	w->imports.out = "/out/it's";
	/* the flags: one disputed by a hostile hand, one open */
	w->flag[0].id = 4;
	w->flag[0].period = w->r.opts.period;
	snprintf(w->flag[0].backend, sizeof w->flag[0].backend, "%s", EVIL_BACKEND);
	w->flag[0].is_session = true;
	w->flag[0].session_id = (char *)EVIL_SESSION;
	snprintf(w->flag[0].state, sizeof w->flag[0].state, "handled");
	snprintf(w->flag[0].handling, sizeof w->flag[0].handling, "dispute");
	w->flag[0].status = SB_STATUS_OVER_BILLED;
	w->flag[0].has_billed = w->flag[0].has_drift = true;
	w->flag[0].drift_nanos = w->flag[0].at_stake_nanos = 20;
	w->flag[0].who = (char *)"<i>ana</i>";
	w->flag[0].reason = (char *)"ticket \"4411\" & <script>x</script>";
	w->flag[1].id = 3;
	w->flag[1].period = w->r.opts.period;
	snprintf(w->flag[1].backend, sizeof w->flag[1].backend, "%s", EVIL_BACKEND);
	snprintf(w->flag[1].state, sizeof w->flag[1].state, "open");
	w->flag[1].status = SB_STATUS_OVER_BILLED;
	w->flag[1].has_drift = true;
	w->flag[1].drift_nanos = w->flag[1].at_stake_nanos = 571148667;
	w->d.flags.list = w->flag;
	w->d.flags.n = 2;
	w->d.disputed_nanos = 20;
}

/* The page of w, allocated. */
static char *render(world *w)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	sb_err e;

	assert_non_null(f);
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_recon_page(f, &w->r, &w->d, &w->o, &e));
	fclose(f);
	return text;
}

/* Fail unless needle is in hay. */
static void has(const char *hay, const char *needle)
{
	if (strstr(hay, needle) == NULL)
		fail_msg("the page lacks: %s", needle);
}

/* No markup from the ledger: no <script (any case), no reference outside. */
static void clean(const char *page)
{
	static const char *const refs[] = {"src=", "href=", "url(", "@import"};

	for (const char *p = page; *p != '\0'; p++)
		if (strncasecmp(p, "<script", 7) == 0)
			fail_msg("markup from the ledger came through: %.60s", p);
	for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++)
		if (strstr(page, refs[i]) != NULL)
			fail_msg("the page refers outside itself: %s", refs[i]);
}

/* The page of w as world_init makes it, allocated, held to clean. */
static char *clean_page(world *w)
{
	char *page;

	world_init(w);
	page = render(w);
	clean(page);
	return page;
}

static void test_page_escapes(void **state)
{
	world w;
	char *page = clean_page(&w);

	(void)state;
	/* text and attributes */
	has(page, "<b>&lt;script&gt;b&lt;/script&gt;</b>");
	has(page, "data-backend=\"&lt;script&gt;b&lt;/script&gt;\"");
	has(page, "data-session=\"&lt;script&gt;alert(&quot;s&quot;)&lt;/script&gt;&amp;&#39;x\"");
	has(page, "<code>&lt;script&gt;cmd&lt;/script&gt; &quot;q&quot; &amp; &#39;a&#39;</code>");
	has(page, "runs/&lt;script&gt;.jsonl");            /* shown relative to the inbox */
	has(page, "the inbox <code>/in &amp; &lt;box&gt;</code>");
	/* commands: the program and ledger as run, quoted for the shell, then escaped */
	has(page, "<code class=\"cmd\">&#39;./my bin/sbledger&#39; --db &#39;/srv/it&#39;\\&#39;&#39;s &lt;mine&gt;/ledger.db&#39; lines "
	          "--period 2026-11-04 --backend &#39;&lt;script&gt;b&lt;/script&gt;&#39; --session "
	          "&#39;&lt;script&gt;alert(&quot;s&quot;)&lt;/script&gt;&amp;&#39;\\&#39;&#39;x&#39;</code>");
	has(page, "reconcile --period 2026-11-04 --dry-run</code>");
	has(page, "rejects --batch 9</code>");
	free(page);
}

/* The night's faults lead the verdict, escaped, with commands that run
 * as printed; the flags escaped, the open one first. */
static void test_page_faults_and_flags(void **state)
{
	world w;
	char *page = clean_page(&w);

	(void)state;
	has(page, "data-faults=\"3\">\n<p class=\"lead\" id=\"faults-head\">The night had 3 faults");
	has(page, "<b>Rejected</b>: <code>/in &amp; &lt;box&gt;/runs/&lt;script&gt;.jsonl</code>: 2 records rejected (batch 9)");
	has(page, "data-provider=\"deepinfra\" data-what=\"catalog\" data-skipped=\"true\" data-code=\"64\"><b>Fetch skipped</b>: "
	          "<b>deepinfra</b>: KEY is not set: &lt;b&gt;export&lt;/b&gt; it &amp; &#39;retry&#39;");
	has(page, "<b>Not judged</b>: 2026-09-01 .. 2026-09-02 (older than --catch-up 35 days)");
	has(page, "nightly --inbox &#39;/in &amp; &lt;box&gt;&#39; --out &#39;/out/it&#39;\\&#39;&#39;s&#39; --catch-up 65</code>");
	has(page, "<p id=\"flags-open\" data-open=\"1\">");
	has(page, "data-open=\"1\" data-acked=\"0\" data-waived=\"0\" data-disputed=\"1\" data-in-dispute=\"0.000000020\"");
	has(page, "<td class=\"l\">&lt;i&gt;ana&lt;/i&gt;</td><td class=\"l wrap\">ticket &quot;4411&quot; &amp; &lt;script&gt;x&lt;/script&gt;</td>");
	has(page, "flags --period 2026-11-04</code>");
	/* the open flag (3) before the disputed one (4), which says so */
	assert_true(strstr(page, "data-flag=\"3\"") < strstr(page, "data-flag=\"4\""));
	has(page, "<span class=\"badge watch\">disputed</span>");
	has(page, "0.000000<span class=\"note\">in dispute</span>");
	free(page);
}

/* Never green while a fault exists: nothing flagged and nothing wrong is
 * green; one day left unjudged alone is not; a page made by hand (no
 * night) has no fault.  Ranges past ten are counted, as the mail does. */
static void test_page_green(void **state)
{
	world w;
	char *page;

	(void)state;
	world_init(&w);
	w.r.flagged = w.r.flagged_backends = w.r.flagged_sessions = 0;
	w.b[0].flagged = false;
	w.s[0].flagged = false;
	w.d.n_sessions = 0;
	w.d.flags.n = 0;
	w.batch[0].rejected = 0;
	w.imports.n_fetches = 0;
	w.imports.n_unjudged = 0;
	page = render(&w);
	has(page, "<section class=\"verdict good\"");
	assert_null(strstr(page, "id=\"faults\""));
	free(page);
	w.imports.n_unjudged = 1;
	page = render(&w);
	has(page, "<section class=\"verdict bad\"");
	has(page, "data-faults=\"1\"");
	free(page);
	for (int i = 0; i < 11; i++) {
		w.unjudged[i].from_ms = T("2026-08-01T00:00:00Z") + 2 * i * SB_MS_PER_DAY;
		w.unjudged[i].to_ms = w.unjudged[i].from_ms + SB_MS_PER_DAY;
	}
	w.imports.n_unjudged = 11;
	page = render(&w);
	has(page, "<b>Not judged</b>: 2026-08-19 (older than");
	assert_null(strstr(page, "<b>Not judged</b>: 2026-08-21 ("));
	has(page, "data-more=\"1\"><b>Not judged</b>: and 1 more ranges</li>");
	free(page);
	w.o.imports = NULL;
	page = render(&w);
	has(page, "<section class=\"verdict good\"");
	has(page, "data-faults=\"0\"");
	free(page);
}

/* The figures in their data attributes, as the JSON has them. */
static void test_page_figures(void **state)
{
	world w;
	char *page;

	(void)state;
	world_init(&w);
	page = render(&w);
	has(page, "id=\"at-stake\" data-usd=\"0.571148667\"");
	has(page, ">0.57 USD</b>");
	has(page, "data-flagged-backends=\"1\" data-flagged-sessions=\"1\" data-pending=\"1\"");
	has(page, "data-field=\"computed\" data-usd=\"1.142298333\">1.142298</td>");
	has(page, "data-field=\"billed\" data-usd=\"1.713447000\">1.713447</td>");
	has(page, "data-field=\"drift_rel\" data-rel=\"0.500000\">50.00%</td>");
	/* 5% of 1.142298333 is 0.05711491665, half to even: 0.057114917 */
	has(page, "data-field=\"tolerance\" data-usd=\"0.057114917\">0.057115</td>");
	has(page, "data-status=\"pending\">pending</span>");
	has(page, "data-status=\"over_billed\">over_billed &middot; flagged</span>");
	has(page, "data-field=\"billed\" data-usd=\"null\"><span class=\"muted\">none</span>");
	/* the trend: two dots, a mark for the day without drift, the last red */
	has(page, "<circle class=\"pt\" data-from=\"2026-11-02T00:00:00Z\" data-drift=\"0.000000100\"");
	has(page, "<rect class=\"pt-none\" data-from=\"2026-11-03T00:00:00Z\" data-drift=\"null\"");
	has(page, "<circle class=\"pt flag\" data-from=\"2026-11-04T00:00:00Z\" data-drift=\"0.000000300\"");
	/* the line is broken at the day without drift */
	assert_non_null(strstr(page, "<path class=\"line\" d=\"M"));
	assert_non_null(strstr(strstr(page, "<path class=\"line\" d=\"M"), " M"));
	/* the window of a Pacific day, and the verdict words */
	has(page, "2026-11-04T08:00:00Z ..<br>2026-11-05T08:00:00Z");
	has(page, "not judged yet: its window ends at 2026-11-05T08:00:00Z");
	free(page);
}

/* The drift page alone, the hostile backend escaped. */
static void test_drift_page(void **state)
{
	world w;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	sb_err e;

	(void)state;
	world_init(&w);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_drift_page(f, &w.t, &w.o, &e));
	fclose(f);
	clean(text);
	has(text, "<g class=\"trend\" data-backend=\"&lt;script&gt;b&lt;/script&gt;\" data-points=\"2\">");
	has(text, "<title>sbledger drift 2026-10-06..2026-11-05</title>");
	has(text, "billed unknown): <b>e2b</b> (last no_rate; flagged on 1 of 1 day).</p>");
	assert_null(strstr(text, "data-backend=\"e2b\""));   /* no panel: no drift to draw */
	free(text);
}

/* A page that cannot be written is an I/O error, not a success. */
static void test_write_error(void **state)
{
	world w;
	FILE *f = fopen("/dev/full", "w");
	sb_err e;

	(void)state;
	assert_non_null(f);
	world_init(&w);
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_recon_page(f, &w.r, &w.d, &w.o, &e), SB_EIO, "cannot write");
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shell_word),
		cmocka_unit_test(test_page_escapes),
		cmocka_unit_test(test_page_figures),
		cmocka_unit_test(test_page_faults_and_flags),
		cmocka_unit_test(test_page_green),
		cmocka_unit_test(test_drift_page),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests_name("recon_page", tests, NULL, NULL);
}
