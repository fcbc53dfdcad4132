/* test_nightly.c: the nightly job's rules, as library code
 * (nightly/nightly.h, nightly/inbox.h): whether a run needs a look (what
 * decides that cron mails), the inbox walk's link rule, and which periods
 * are judged. */
#include "tests/support/support.h"

#define _XOPEN_SOURCE_EXTENDED 1
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ledger/period.h"
#include "ledger/timefmt.h"
#include "nightly/inbox.h"
#include "ledger/grain.h"
#include "nightly/nightly.h"
#include "report/recon_json.h"

/* ---- the attention rule -------------------------------------------------- */

/* Nothing to look at: no look.  An open flag, a moved figure, a
 * rejected record, a skipped fetch, a day left unjudged, a stale result
 * out of reach, or a step not fine: cron mails.  Pending and not yet
 * overdue backends are not flags. */
static void test_attention_edges(void **state)
{
	sb_nightly_result r;
	sb_nightly_judged j;
	sb_recon rec;
	sb_flag open;
	sb_period day = {0, 86400000};

	(void)state;
	memset(&r, 0, sizeof r);
	memset(&j, 0, sizeof j);
	memset(&rec, 0, sizeof rec);
	memset(&open, 0, sizeof open);
	assert_false(sb_nightly_needs_attention(&r));
	rec.pending = 3;                          /* pending alone */
	rec.n_backends = 3;
	j.r = &rec;
	r.judged = &j;
	r.n_judged = 1;
	assert_false(sb_nightly_needs_attention(&r));
	r.open.list = &open;                      /* an open flag */
	r.open.n = 1;
	assert_true(sb_nightly_needs_attention(&r));
	r.open.n = 0;
	j.n_changes = 1;                          /* a result that moved */
	assert_true(sb_nightly_needs_attention(&r));
	j.n_changes = 0;
	r.rejected = 1;
	assert_true(sb_nightly_needs_attention(&r));
	r.rejected = 0;
	r.fetches_skipped = 1;
	assert_true(sb_nightly_needs_attention(&r));
	r.fetches_skipped = 0;
	r.unjudged = &day;
	r.n_unjudged = 1;
	assert_true(sb_nightly_needs_attention(&r));
	r.n_unjudged = 0;
	r.stale_older = 1;
	assert_true(sb_nightly_needs_attention(&r));
	r.stale_older = 0;
	assert_false(sb_nightly_needs_attention(&r));
	int codes[] = {SB_EDATA, SB_ENOINPUT, SB_EIO, SB_ETEMP, SB_FLAGGED, SB_EUSAGE, SB_EINTERNAL};
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		r.status = codes[i];
		assert_true(sb_nightly_needs_attention(&r));
	}
}

/* ---- the inbox walk ------------------------------------------------------ */

/* What a walk handed over. */
typedef struct seen {
	char files[16][PATH_MAX + 64];  /* "FORMAT|REAL|CONTENT" of each file, in order */
	size_t n_files;
	sb_err problems[16];            /* each problem */
	size_t n_problems;
} seen;

static void on_file(void *ctx, int fd, const char *real, const char *format)
{
	seen *s = ctx;
	char text[64] = "";
	ssize_t n = read(fd, text, sizeof text - 1);

	text[n > 0 ? n : 0] = '\0';
	close(fd);
	assert_true(s->n_files < 16);
	snprintf(s->files[s->n_files++], sizeof s->files[0], "%s|%s|%s", format != NULL ? format : "runs",
	         real, text);
}

static void on_problem(void *ctx, const sb_err *problem)
{
	seen *s = ctx;

	assert_true(s->n_problems < 16);
	s->problems[s->n_problems++] = *problem;
}

/* The problem whose message holds part: its code (-1 when none does). */
static int problem_code(const seen *s, const char *part)
{
	for (size_t i = 0; i < s->n_problems; i++)
		if (strstr(s->problems[i].msg, part) != NULL)
			return s->problems[i].code;
	return -1;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Remove dir and everything under it, links not followed; free dir. */
static void rm_tree(char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

/* path made of dir and the parts, into buf. */
static const char *at(char *buf, const char *dir, const char *rel)
{
	snprintf(buf, PATH_MAX, "%s/%s", dir, rel);
	return buf;
}

/* An inbox in base/inbox, and beside it base/inbox2 (outside, though its
 * name begins with the inbox's). */
static void make_inbox(const char *base, char *root)
{
	char p[PATH_MAX], q[PATH_MAX];

	assert_int_equal(mkdir(at(p, base, "inbox"), 0700), 0);
	assert_int_equal(mkdir(at(p, base, "inbox2"), 0700), 0);
	assert_int_equal(mkdir(at(p, base, "inbox2/dir"), 0700), 0);
	support_write_file(at(p, base, "inbox2/secret"), "secret\n");
	assert_int_equal(mkdir(at(p, base, "inbox/runs"), 0700), 0);
	assert_int_equal(mkdir(at(p, base, "inbox/runs/f-dir"), 0700), 0);
	assert_int_equal(mkdir(at(p, base, "inbox/billing"), 0700), 0);
	assert_int_equal(mkdir(at(p, base, "inbox/billing/focus"), 0700), 0);
	assert_int_equal(mkdir(at(p, base, "inbox/billing/nosuch"), 0700), 0);
	support_write_file(at(p, base, "inbox/runs/a.jsonl"), "a\n");
	support_write_file(at(p, base, "inbox/runs/.b.jsonl"), "being written\n");
	support_write_file(at(p, base, "inbox/runs/g\nsbledger: all clear"), "g\n");
	support_write_file(at(p, base, "inbox/billing/focus/x.csv"), "x\n");
	support_write_file(at(p, base, "inbox/billing/loose.csv"), "loose\n");
	/* a link to a file of the inbox, one out of it, one to nowhere */
	assert_int_equal(symlink("../billing/focus/x.csv", at(p, base, "inbox/runs/b-in.jsonl")), 0);
	assert_int_equal(symlink(at(q, base, "inbox2/secret"), at(p, base, "inbox/runs/c-out.jsonl")), 0);
	assert_int_equal(symlink(at(q, base, "inbox2/secret"), at(p, base, "inbox/runs/h\x1b[2Jout")), 0);
	assert_int_equal(symlink("nowhere", at(p, base, "inbox/runs/d-dangling.jsonl")), 0);
	assert_int_equal(mkfifo(at(p, base, "inbox/runs/e-fifo.jsonl"), 0600), 0);
	/* a format directory that is a link out of the inbox */
	assert_int_equal(symlink(at(q, base, "inbox2/dir"), at(p, base, "inbox/billing/modal")), 0);
	assert_sb_ok(&(sb_err){0}, sb_inbox_resolve(at(p, base, "inbox"), root, PATH_MAX, &(sb_err){0}));
}

/* Links that resolve inside the inbox are followed, those that lead out
 * (to a sibling whose name begins with the inbox's too) or nowhere are
 * not, nor what is not a regular file; dot files and subdirectories are
 * skipped without a word; a billing directory that is no format, or a
 * file directly in billing/, is said; the order is runs/ then each
 * format, by name.  No message holds a raw control character, whatever
 * the names hold. */
static void test_walk_link_rule(void **state)
{
	char *base = support_tmpdir();
	char root[PATH_MAX], want[PATH_MAX + 64];
	seen s;
	sb_inbox_events ev = {on_file, on_problem, &s};
	int status;

	(void)state;
	memset(&s, 0, sizeof s);
	make_inbox(base, root);
	status = sb_inbox_walk(root, "inbox", NULL, &ev);
	assert_int_equal(status, SB_ENOINPUT);   /* the worst: 66 over 65 */
	assert_int_equal(s.n_files, 4);
	snprintf(want, sizeof want, "runs|%s/runs/a.jsonl|a\n", root);
	assert_string_equal(s.files[0], want);
	snprintf(want, sizeof want, "runs|%s/billing/focus/x.csv|x\n", root);   /* b-in.jsonl */
	assert_string_equal(s.files[1], want);
	snprintf(want, sizeof want, "runs|%s/runs/g\nsbledger: all clear|g\n", root);
	assert_string_equal(s.files[2], want);
	snprintf(want, sizeof want, "focus|%s/billing/focus/x.csv|x\n", root);
	assert_string_equal(s.files[3], want);
	/* what was not followed, and what it weighs */
	assert_int_equal(problem_code(&s, "runs/c-out.jsonl: leads out of the inbox (to "), SB_ENOINPUT);
	assert_int_equal(problem_code(&s, "inbox2/secret): not followed"), SB_ENOINPUT);
	assert_int_equal(problem_code(&s, "runs/d-dangling.jsonl: No such file or directory"), SB_ENOINPUT);
	assert_int_equal(problem_code(&s, "runs/e-fifo.jsonl: not a regular file: skipped"), SB_ENOINPUT);
	assert_int_equal(problem_code(&s, "billing/modal: leads out of the inbox"), SB_ENOINPUT);
	assert_int_equal(problem_code(&s, "billing/nosuch: 'nosuch' is not a billing format (one of "), SB_EDATA);
	assert_int_equal(problem_code(&s, "billing/loose.csv: billing files go in "), SB_EDATA);
	/* the path with an escape in it, in $'...' with the escape written out */
	assert_int_equal(problem_code(&s, "$'/"), SB_ENOINPUT);
	assert_int_equal(problem_code(&s, "/runs/h\\e[2Jout': leads out of the inbox"), SB_ENOINPUT);
	assert_int_equal(problem_code(&s, ".b.jsonl"), -1);
	assert_int_equal(problem_code(&s, "f-dir"), -1);
	assert_int_equal(s.n_problems, 7);
	for (size_t i = 0; i < s.n_problems; i++)
		for (const char *c = s.problems[i].msg; *c != '\0'; c++)
			assert_true((unsigned char)*c >= 0x20 && *c != 0x7f);
	rm_tree(base);
}

/* An inbox that is not there, or not a directory, is said, naming it. */
static void test_walk_resolve(void **state)
{
	char *base = support_tmpdir();
	char root[PATH_MAX], p[PATH_MAX];
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_inbox_resolve(at(p, base, "none"), root, sizeof root, &e), SB_ENOINPUT,
	                "/none: No such file or directory");
	support_write_file(at(p, base, "file"), "");
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_inbox_resolve(p, root, sizeof root, &e), SB_ENOINPUT,
	                "/file: not a directory");
	assert_int_equal(mkdir(at(p, base, "in box"), 0700), 0);
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_inbox_resolve(p, root, sizeof root, &e));
	assert_string_equal(root + strlen(root) - 7, "/in box");
	rm_tree(base);
}

/* The race of the link rule: the name checked is swapped for a link out
 * of the inbox between the check and the import; what is handed over is
 * still the file that was checked (the test hook pauses the walk there,
 * and the test asserts the pause was reached). */
typedef struct race {
	char pause[PATH_MAX];      /* the hook's file */
	char name[PATH_MAX];       /* the inbox file to swap */
	char outside[PATH_MAX];    /* what it is swapped for a link to */
	bool reached;              /* the walk paused */
} race;

static void *swapper(void *arg)
{
	race *r = arg;

	for (int i = 0; i < 3000 && access(r->pause, F_OK) != 0; i++)
		usleep(1000);
	r->reached = access(r->pause, F_OK) == 0;
	unlink(r->name);
	if (symlink(r->outside, r->name) != 0)
		r->reached = false;
	unlink(r->pause);
	return NULL;
}

static void test_walk_race(void **state)
{
	char *base = support_tmpdir();
	char root[PATH_MAX], p[PATH_MAX], want[PATH_MAX + 64];
	seen s;
	sb_inbox_events ev = {on_file, on_problem, &s};
	race r;
	pthread_t t;

	(void)state;
	memset(&s, 0, sizeof s);
	memset(&r, 0, sizeof r);
	assert_int_equal(mkdir(at(p, base, "inbox"), 0700), 0);
	assert_int_equal(mkdir(at(p, base, "inbox/runs"), 0700), 0);
	support_write_file(at(r.name, base, "inbox/runs/a.jsonl"), "checked\n");
	support_write_file(at(r.outside, base, "secret"), "secret\n");
	at(r.pause, base, "pause");
	assert_sb_ok(&(sb_err){0}, sb_inbox_resolve(at(p, base, "inbox"), root, sizeof root, &(sb_err){0}));
	assert_int_equal(pthread_create(&t, NULL, swapper, &r), 0);
	assert_int_equal(sb_inbox_walk(root, "inbox", r.pause, &ev), SB_OK);
	pthread_join(t, NULL);
	assert_true(r.reached);
	assert_int_equal(s.n_files, 1);
	snprintf(want, sizeof want, "runs|%s/runs/a.jsonl|checked\n", root);
	assert_string_equal(s.files[0], want);
	assert_int_equal(s.n_problems, 0);
	rm_tree(base);
}

/* ---- the periods judged -------------------------------------------------- */

static sb_period period(const char *text)
{
	sb_period p;
	sb_err e;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_period_parse(text, 0, &p, &e));
	return p;
}

static int64_t at_ms(const char *text)
{
	int64_t ms = 0;

	assert_int_equal(sb_time_parse(text, strlen(text), 0, &ms), SB_TIME_OK);
	return ms;
}

static void assert_period(sb_period got, const char *want)
{
	sb_period w = period(want);

	assert_int_equal(got.from_ms, w.from_ms);
	assert_int_equal(got.to_ms, w.to_ms);
}

/* The period before: a day, a month (of 28 days; January to December of
 * the year before), a year, and a span of its own length just before. */
/* The grains' periods at their edges: one UTC day (not a day shifted by
 * a millisecond, not two), one calendar month, whole months (not a month
 * and a day); the month of an instant at its first and last millisecond. */
static void test_grain_periods(void **state)
{
	sb_period p;

	(void)state;
	p = period("2026-11-03");
	assert_true(sb_period_one_day(&p));
	assert_false(sb_period_one_month(&p));
	assert_false(sb_period_whole_months(&p));
	p.from_ms++;
	p.to_ms++;
	assert_false(sb_period_one_day(&p));
	p = period("2026-11-03..2026-11-05");
	assert_false(sb_period_one_day(&p));
	p = period("2026-11");
	assert_true(sb_period_one_month(&p));
	assert_true(sb_period_whole_months(&p));
	assert_false(sb_period_one_day(&p));
	p = period("2026-02");
	assert_true(sb_period_one_month(&p));
	p = period("2026-11-01..2027-01-01");
	assert_false(sb_period_one_month(&p));
	assert_true(sb_period_whole_months(&p));
	p = period("2026-11-01..2026-12-02");
	assert_false(sb_period_whole_months(&p));
	assert_period(sb_month_of(at_ms("2026-12-01T00:00:00Z")), "2026-12");
	assert_period(sb_month_of(at_ms("2026-11-30T23:59:59.999Z")), "2026-11");
}

/* ---- a grain set, and the results it makes stale -------------------------- */

/* Judge 2026-11-02 with the defaults and store it; its id. */
static int64_t store_day(sb_db *db)
{
	sb_recon_opts ro;
	sb_recon *r = NULL;
	char *text;
	int64_t id;
	sb_err e;

	sb_err_clear(&e);
	memset(&ro, 0, sizeof ro);
	ro.period = period("2026-11-02");
	ro.abs_nanos = SB_DEFAULT_ABS_NANOS;
	ro.rel_ppb = SB_DEFAULT_REL_PPB;
	assert_sb_ok(&e, sb_reconcile(db, &ro, &r, &e));
	text = sb_recon_json_text(r, JSON_COMPACT);
	assert_sb_ok(&e, sb_recon_store(db, r, text, NULL, &e));
	id = r->recon_id;
	free(text);
	sb_recon_free(r);
	return id;
}

/* The stale results' ids: how many, and the first (0 when none). */
static size_t stale_ids(sb_db *db, int64_t *first)
{
	int64_t *ids = NULL;
	size_t n = 0;
	sb_err e;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_nightly_stale(db, INT64_MIN, &ids, &n, &e));
	*first = n > 0 ? ids[0] : 0;
	free(ids);
	return n;
}

/* The same grain again stores and logs nothing; a setting that leaves the
 * grain as judged (auto to day, where the lines say day) is stored and
 * logs nothing; one that moves it logs one change and makes the result
 * that judged the backend stale, a backend the result did not judge
 * makes nothing stale.  Judged again by hand, the month-grained
 * backend's day is partial, the new result names the one it replaces,
 * and nothing is stale after. */
static void test_grain_set_stale(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_grain_change c;
	sb_nightly_result res;
	int64_t id, first;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	support_add_runs(db,
	    "{\"run_id\":\"m1\",\"backend\":\"modal\",\"session_id\":\"s1\",\"started_at\":\"2026-11-02T10:00:00Z\","
	    "\"ended_at\":\"2026-11-02T10:01:00Z\",\"sandbox_usage\":{\"exec_count\":1,\"total_duration_ms\":60000,"
	    "\"computed_cost_usd\":0.1}}\n");
	id = store_day(db);
	assert_int_equal(stale_ids(db, &first), 0);
	assert_sb_ok(&e, sb_grain_set(db, "modal", SB_GRAIN_AUTO, &c, &e));
	assert_false(c.stored);
	assert_false(c.logged);
	assert_sb_ok(&e, sb_grain_set(db, "modal", SB_GRAIN_DAY, &c, &e));
	assert_true(c.stored);
	assert_false(c.logged);
	assert_int_equal(c.was, SB_GRAIN_AUTO);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM ledger_change WHERE what = 'grain'"), 0);
	assert_int_equal(stale_ids(db, &first), 0);
	assert_sb_ok(&e, sb_grain_set(db, "vercel", SB_GRAIN_MONTH, &c, &e));
	assert_true(c.logged);
	assert_int_equal(stale_ids(db, &first), 0);
	assert_sb_ok(&e, sb_grain_set(db, "modal", SB_GRAIN_MONTH, &c, &e));
	assert_true(c.logged);
	assert_int_equal(c.judged_was, SB_GRAIN_DAY);
	assert_int_equal(c.judged, SB_GRAIN_MONTH);
	assert_int_equal(stale_ids(db, &first), 1);
	assert_int_equal(first, id);
	assert_sb_ok(&e, sb_nightly_judge_stale(db, INT64_MIN, SB_DEFAULT_LAG_MS, true, &res, &e));
	assert_int_equal(res.n_judged, 1);
	assert_non_null(res.judged[0].r);
	assert_int_equal(res.judged[0].prev_id, id);
	assert_int_equal(res.judged[0].r->backends[0].status, SB_STATUS_PARTIAL);
	assert_int_equal(res.judged[0].n_changes, 1);
	assert_int_equal(support_i64(db, "SELECT replaces FROM reconciliation WHERE recon_id = %lld",
	                             (long long)res.judged[0].r->recon_id), id);
	assert_false(res.open_judged);
	sb_nightly_result_free(&res);
	assert_int_equal(stale_ids(db, &first), 0);
	sb_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attention_edges),
		cmocka_unit_test(test_walk_link_rule),
		cmocka_unit_test(test_walk_resolve),
		cmocka_unit_test(test_walk_race),
		cmocka_unit_test(test_grain_periods),
		cmocka_unit_test(test_grain_set_stale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
