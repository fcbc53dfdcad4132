/* test_http.c: the parts of the HTTP layer and of fetching that need no
 * network (importers/http.c, importers/providers.c, importers/scrub.c);
 * the requests themselves are tested against a fake provider by
 * tests/http/run.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/http.h"
#include "importers/provider.h"
#include "importers/scrub.h"
#include "ledger/batch.h"
#include "support/support.h"

/* sb_http_url of base, path and query must give want. */
static void check_url(const char *base, const char *path, const char *const *query,
                      const char *want)
{
	char *url = NULL;
	sb_err e;

	sb_err_clear(&e);
	assert_sb_ok(&e, sb_http_url(base, path, query, &url, &e));
	assert_string_equal(url, want);
	free(url);
}

/* URLs are the base, the path and the percent-encoded query. */
static void test_url_built(void **state)
{
	static const char *const q[] = {"from", "2026-11-01T00:00:00Z", "team", "a b&c", NULL};

	(void)state;
	check_url("https://api.example.com", "/v1/x", NULL, "https://api.example.com/v1/x");
	check_url("https://api.example.com/", "/v1/x", NULL, "https://api.example.com/v1/x");
	check_url("https://proxy.example.com/deepinfra//", "/v1/x", NULL,
	          "https://proxy.example.com/deepinfra/v1/x");
	check_url("http://127.0.0.1:8080/ok", "/p", q,
	          "http://127.0.0.1:8080/ok/p?from=2026-11-01T00%3a00%3a00Z&team=a+b%26c");
}

/* A base URL with credentials, a query, a fragment or another scheme is
 * a usage error: keys belong in the environment. */
static void test_url_refused(void **state)
{
	static const char *const bad[] = {
		"https://user:pw@api.example.com", "https://user@api.example.com",
		"https://api.example.com/?token=x", "https://api.example.com/#x",
		"ftp://api.example.com", "not a url",
	};
	char *url = NULL;
	sb_err e;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		sb_err_clear(&e);
		assert_int_equal(sb_http_url(bad[i], "/v1", NULL, &url, &e), SB_EUSAGE);
		assert_null(url);
	}
}

/* The defaults, and nothing from the environment: the library is handed
 * its options (the command line reads SBLEDGER_HTTP_* and
 * SBLEDGER_CA_BUNDLE). */
static void test_opts_defaults(void **state)
{
	sb_http_opts o;

	(void)state;
	setenv("SBLEDGER_HTTP_BACKOFF_MS", "7", 1);
	setenv("SBLEDGER_HTTP_RETRIES", "2", 1);
	setenv("SBLEDGER_CA_BUNDLE", "/nonexistent.pem", 1);
	sb_http_opts_init(&o);
	assert_int_equal(o.backoff_ms, SB_HTTP_BACKOFF_MS);
	assert_int_equal(o.retries, SB_HTTP_RETRIES);
	assert_int_equal(o.timeout_ms, SB_HTTP_TIMEOUT_MS);
	assert_int_equal(o.connect_timeout_ms, SB_HTTP_CONNECT_TIMEOUT_MS);
	assert_int_equal(o.max_wait_ms, SB_HTTP_MAX_WAIT_MS);
	assert_true(o.max_bytes == SB_HTTP_MAX_BYTES);
	assert_null(o.ca_file);
	unsetenv("SBLEDGER_HTTP_RETRIES");
	unsetenv("SBLEDGER_HTTP_BACKOFF_MS");
	unsetenv("SBLEDGER_CA_BUNDLE");
}

/* A key never goes over plain http to a host that is not this machine,
 * and a key with a line break is refused, both before any connection. */
static void test_open_refused(void **state)
{
	sb_http_req req = {"http://api.example.com/v1", "sbl-k1-0123", "SOME_KEY", NULL, "p",
	                   {SB_PAGE_NONE, NULL, NULL}};
	sb_http_opts o;
	sb_http *h = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	sb_http_opts_init(&o);
	assert_sb_fails(&e, sb_http_open(&req, &o, &h, &e), SB_EUSAGE,
	                "refusing to send SOME_KEY over plain http to 'api.example.com'");
	assert_null(h);
	req.url = "https://api.example.com/v1";
	req.token = "k1\r\nX-Evil: 1";
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_http_open(&req, &o, &h, &e), SB_EUSAGE, "control character");
	assert_null(e.msg[0] == '\0' ? NULL : strstr(e.msg, "X-Evil"));
}

/* Plain http goes to a loopback IP written as one, never to a name:
 * names (whatever they resolve to), the addresses just outside
 * 127.0.0.0/8, an IPv4-mapped ::1 lookalike are refused before anything
 * is sent (64); the loopback IPs, the edges of 127.0.0.0/8 included, are
 * tried (nothing listens on port 1: 75, not 64).  https may go anywhere. */
static void test_plain_http_loopback_only(void **state)
{
	static const char *const refused[] = {
		"http://localhost:1/v1", "http://LOCALHOST:1/v1", "http://127.attacker.example/v1",
		"http://127.0.0.1.nip.io:1/v1", "http://127.0.0.1.:1/v1", "http://localhost./v1",
		"http://126.255.255.255:1/v1", "http://128.0.0.0:1/v1", "http://0.0.0.0:1/v1",
		"http://[::ffff:127.0.0.1]:1/v1", "http://[::2]:1/v1", "http://[fe80::1]:1/v1",
	};
	static const char *const tried[] = {
		"http://127.0.0.1:1/v1", "http://127.0.0.0:1/v1", "http://127.255.255.254:1/v1",
		"http://127.1:1/v1", "http://[::1]:1/v1", "http://[0:0:0:0:0:0:0:1]:1/v1",
	};
	sb_http_req req = {NULL, "sbl-k1-0123", "SOME_KEY", NULL, "p", {SB_PAGE_NONE, NULL, NULL}};
	sb_http_opts o;
	sb_http *h = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	sb_http_opts_init(&o);
	o.retries = 0;
	o.connect_timeout_ms = 2000;
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		int rc;
		req.url = refused[i];
		sb_err_clear(&e);
		rc = sb_http_open(&req, &o, &h, &e);
		if (rc != SB_EUSAGE || strstr(e.msg, "never to a host name") == NULL)
			fail_msg("%s: %d %s (want 64, refused)", refused[i], rc, e.msg);
		assert_null(h);
	}
	for (size_t i = 0; i < sizeof tried / sizeof tried[0]; i++) {
		int rc;
		req.url = tried[i];
		sb_err_clear(&e);
		rc = sb_http_open(&req, &o, &h, &e);
		if (rc != SB_ETEMP)
			fail_msg("%s: %d %s (want 75, tried)", tried[i], rc, e.msg);
		assert_null(h);
	}
	/* the rule is the same without a key */
	req.token = NULL;
	req.url = "http://localhost:1/v1";
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_http_open(&req, &o, &h, &e), SB_EUSAGE, "never to a host name");
}

/* A key is 8 to 512 bytes: 7 and 513 are refused before anything is sent;
 * 8 and 512 pass on (to the plain http rule, which then refuses). */
static void test_key_length(void **state)
{
	char key[600];
	sb_http_req req = {"http://api.example.com/v1", key, "SOME_KEY", NULL, "p",
	                   {SB_PAGE_NONE, NULL, NULL}};
	sb_http_opts o;
	sb_http *h = NULL;
	sb_err e;

	(void)state;
	sb_err_clear(&e);
	sb_http_opts_init(&o);
	memset(key, 'k', sizeof key);
	key[7] = '\0';
	assert_sb_fails(&e, sb_http_open(&req, &o, &h, &e), SB_EUSAGE,
	                "SOME_KEY is 7 characters long: a key has at least 8");
	key[7] = 'k';
	key[8] = '\0';
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_http_open(&req, &o, &h, &e), SB_EUSAGE, "over plain http");
	key[8] = 'k';
	key[512] = '\0';
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_http_open(&req, &o, &h, &e), SB_EUSAGE, "over plain http");
	key[512] = 'k';
	key[513] = '\0';
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_http_open(&req, &o, &h, &e), SB_EUSAGE,
	                "SOME_KEY is 513 characters long: a key has at most 512");
	assert_null(h);
}

static const char KEY[] = "sbl-test+key/4f1c=9a7e2b";

/* scrub a copy of text (NUL-terminated) and compare with want. */
static void check_scrub(const char *text, const char *want)
{
	char buf[1024];

	snprintf(buf, sizeof buf, "%s", text);
	sb_scrub_str(buf, KEY);
	assert_string_equal(buf, want);
}

/* The key in each of the forms a server writes it in, and in a mix of
 * them, becomes [key]; what only looks like it stays. */
static void test_scrub_forms(void **state)
{
	(void)state;
	check_scrub("Bearer sbl-test+key/4f1c=9a7e2b", "Bearer [key]");
	check_scrub("?k=sbl-test%2Bkey%2F4f1c%3D9a7e2b&x=1", "?k=[key]&x=1");
	check_scrub("?k=sbl-test%2bkey%2f4f1c%3d9a7e2b&x=1", "?k=[key]&x=1");
	check_scrub("%73%62%6C-test%2bkey%2F4f1c=9a7e2%62", "[key]");
	check_scrub("{\"k\": \"sbl-test+key\\/4f1c=9a7e2b\"}", "{\"k\": \"[key]\"}");
	check_scrub("\\u0073\\u0062\\u006c-test\\u002Bkey\\u002f4f1c\\u003D9a7e2b", "[key]");
	check_scrub("sbl-test+key/4f1c=9a7e2bsbl-test+key/4f1c=9a7e2b", "[key][key]");
	check_scrub("xsbl-test+key/4f1c=9a7e2bx", "x[key]x");
	/* near misses */
	check_scrub("sbl-test+key/4f1c=9a7e2c", "sbl-test+key/4f1c=9a7e2c");
	check_scrub("sbl-test+key/4f1c=9a7e2", "sbl-test+key/4f1c=9a7e2");
	check_scrub("sbl-test%2Ckey/4f1c=9a7e2b", "sbl-test%2Ckey/4f1c=9a7e2b");
	check_scrub("sbl-test%2", "sbl-test%2");
	check_scrub("sbl-test\\u002", "sbl-test\\u002");
	check_scrub("SBL-TEST+KEY/4F1C=9A7E2B", "SBL-TEST+KEY/4F1C=9A7E2B");
	check_scrub("", "");
	{
		static const char found[] = "a%2Fb sbl-test%2Bkey%2F4f1c%3d9a7e2b";
		assert_true(sb_scrub_found(KEY, found, sizeof found - 1));
		assert_false(sb_scrub_found(KEY, found, sizeof found - 2));
	}
}

/* text scrubbed as a stream fed step bytes at a time, the bytes kept by
 * one call given first to the next, into out; returns its length. */
static size_t stream_scrub(const char *text, size_t len, size_t step, char *out)
{
	char win[2048];
	size_t wl = 0, o = 0, pos = 0, klen = strlen(KEY);

	for (;;) {
		size_t n = len - pos < step ? len - pos : step, keep = 0;
		memcpy(win + wl, text + pos, n);
		wl += n;
		pos += n;
		o += sb_scrub_run(KEY, klen, win, wl, n == 0, out + o, &keep);
		assert_true(keep <= SB_SCRUB_SPAN(klen));
		memmove(win, win + wl - keep, keep);
		wl = keep;
		if (n == 0)
			return o;
	}
}

/* A key cut anywhere by the reads of a stream is still found: every text
 * below, fed 1, 2, ... bytes at a time, comes out as it does whole, and
 * never with the key in it. */
static void test_scrub_stream(void **state)
{
	static const char *const texts[] = {
		"{\"a\": \"sbl-test+key/4f1c=9a7e2b\"}\n{\"b\": \"sbl-test%2Bkey%2F4f1c%3D9a7e2b\"}\n",
		"sbl-test%2bkey%2f4f1c%3d9a7e2b",
		"\\u0073bl-test\\u002bkey\\/4f1c=9a7e2b and sbl-test+key/4f1c=9a7e2",
		"%%%%%%%%sbl-test+key/4f1c=9a7e2b%",
		"sbl-sbl-test+key/4f1c=9a7e2bsbl-test+key/4f1c=9a7e2b",
	};

	(void)state;
	for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
		char whole[512], part[512];
		size_t len = strlen(texts[t]), keep = 0, wlen, plen;
		wlen = sb_scrub_run(KEY, strlen(KEY), texts[t], len, true, whole, &keep);
		assert_int_equal(keep, 0);
		assert_false(sb_scrub_found(KEY, whole, wlen));
		for (size_t step = 1; step <= len; step++) {
			plen = stream_scrub(texts[t], len, step, part);
			assert_int_equal(plen, wlen);
			assert_memory_equal(part, whole, wlen);
		}
	}
}

/* Keys of fewer than 8 or more than 512 bytes scrub nothing (fetching
 * refuses them); 8 and 512 do. */
static void test_scrub_key_length(void **state)
{
	char key[520], text[1200];
	size_t keep = 0;

	(void)state;
	memset(key, 'q', sizeof key);
	snprintf(text, sizeof text, "xqqqqqqqx");
	key[7] = '\0';
	sb_scrub_str(text, key);
	assert_string_equal(text, "xqqqqqqqx");
	key[7] = 'q';
	key[8] = '\0';
	snprintf(text, sizeof text, "xqqqqqqqqx");
	sb_scrub_str(text, key);
	assert_string_equal(text, "x[key]x");
	key[8] = 'q';
	memset(text, 'q', 513);
	assert_int_equal(sb_scrub_run(key, 512, text, 513, true, text, &keep), 6);
	assert_memory_equal(text, "[key]q", 6);
	memset(text, 'q', 513);
	assert_int_equal(sb_scrub_run(key, 513, text, 513, true, text, &keep), 513);
}

/* The table: every provider found by name, its endpoints, its base URL
 * from --base-url, then $SBLEDGER_<NAME>_URL, then its own. */
static void test_providers(void **state)
{
	const sb_provider *di = sb_provider_find("deepinfra");
	const sb_provider *ve = sb_provider_find("vercel");
	sb_fetch_opts o;
	char names[128];

	(void)state;
	assert_non_null(di);
	assert_non_null(ve);
	assert_null(sb_provider_find("nosuch"));
	assert_non_null(sb_provider_endpoint(di, "catalog"));
	assert_non_null(sb_provider_endpoint(di, "usage"));
	assert_null(sb_provider_endpoint(di, "billing"));
	assert_string_equal(sb_provider_endpoint(ve, "billing")->format, "focus");
	assert_string_equal(sb_provider_names(NULL, names, sizeof names), "deepinfra, vercel");
	assert_string_equal(sb_provider_names("billing", names, sizeof names), "vercel");
	for (const sb_provider *const *p = sb_providers(); *p != NULL; p++)
		for (const sb_endpoint *ep = (*p)->endpoints; ep->what != NULL; ep++)
			assert_true((ep->format != NULL) != (ep->store != NULL));
	memset(&o, 0, sizeof o);
	setenv("SBLEDGER_DEEPINFRA_URL", "http://127.0.0.1:1/x", 1);   /* read by the CLI only */
	assert_string_equal(sb_provider_base(di, &o), "https://api.deepinfra.com");
	o.base_url = "";
	assert_string_equal(sb_provider_base(di, &o), "https://api.deepinfra.com");
	o.base_url = "https://proxy.example.com";
	assert_string_equal(sb_provider_base(di, &o), "https://proxy.example.com");
	unsetenv("SBLEDGER_DEEPINFRA_URL");
}

/* A fetch without its key, or without the period its endpoint needs, is a
 * usage error and touches nothing. */
static void test_fetch_usage(void **state)
{
	sb_db *db = support_memory_ledger();
	const sb_provider *di = sb_provider_find("deepinfra");
	sb_fetch_opts o;
	sb_fetch_result r;
	sb_err e;

	(void)state;
	memset(&o, 0, sizeof o);
	setenv("DEEPINFRA_API_KEY", "sbl-k1-0123", 1);   /* read by the CLI only */
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_fetch(db, di, sb_provider_endpoint(di, "catalog"), &o, &r, &e),
	                SB_EUSAGE, "no key for deepinfra was given (its key is kept in DEEPINFRA_API_KEY)");
	assert_int_equal(e.hint, SB_HINT_KEY);
	o.key = "";
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_fetch(db, di, sb_provider_endpoint(di, "catalog"), &o, &r, &e),
	                SB_EUSAGE, "no key for deepinfra was given (its key is kept in DEEPINFRA_API_KEY)");
	o.key = "sbl-k1-0123";
	sb_err_clear(&e);
	assert_sb_fails(&e, sb_fetch(db, di, sb_provider_endpoint(di, "usage"), &o, &r, &e),
	                SB_EUSAGE, "needs a period, and none was given");
	unsetenv("DEEPINFRA_API_KEY");
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM batch"), 0);
	sb_db_close(db);
}

/* A failed fetch keeps its batch, marked failed, with the reason as its
 * rejected record, and nothing of what it stored; a good one commits. */
static void test_fetch_batch(void **state)
{
	sb_db *db = support_memory_ledger();
	sb_fetch_result r;
	sb_batch b;
	sb_err e;

	(void)state;
	memset(&r, 0, sizeof r);
	strcpy(r.url, "https://api.example.com/v1/x");
	sb_err_clear(&e);
	assert_sb_ok(&e, sb_fetch_begin(db, "rates", "test-catalog", &r, &b, &e));
	support_exec(db, "INSERT INTO model_price VALUES ('m', 1, 2, 3)");
	assert_sb_ok(&e, sb_fetch_end(db, &b, false, "the catalog is not JSON", "{oops", 5, &r, &e));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM model_price"), 0);
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM batch WHERE status = 'failed' "
	                                 "AND rejected = 1 AND source = 'https://api.example.com/v1/x'"), 1);
	/* the record's bytes as they came: reject.content is a BLOB on SQLite,
	 * a BYTEA on PostgreSQL */
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM reject WHERE reason = "
	                                 "'the catalog is not JSON' AND content = CAST('{oops' AS %s)",
	                             strcmp(sb_db_engine(db), "PostgreSQL") == 0 ? "BYTEA" : "BLOB"), 1);
	assert_int_equal(r.rejected, 1);

	memset(&r, 0, sizeof r);
	strcpy(r.url, "https://api.example.com/v1/x");
	assert_sb_ok(&e, sb_fetch_begin(db, "rates", "test-catalog", &r, &b, &e));
	support_exec(db, "INSERT INTO model_price VALUES ('m', 1, 2, 3)");
	r.accepted = 1;
	assert_sb_ok(&e, sb_fetch_end(db, &b, true, NULL, "[]", 2, &r, &e));
	assert_int_equal(support_i64(db, "SELECT COUNT(*) FROM model_price"), 1);
	assert_int_equal(support_i64(db, "SELECT accepted FROM batch WHERE batch_id = %lld AND "
	                                 "status = 'complete' AND sha256 IS NOT NULL",
	                             (long long)b.id), 1);
	sb_db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_url_built),
		cmocka_unit_test(test_url_refused),
		cmocka_unit_test(test_opts_defaults),
		cmocka_unit_test(test_open_refused),
		cmocka_unit_test(test_plain_http_loopback_only),
		cmocka_unit_test(test_key_length),
		cmocka_unit_test(test_scrub_forms),
		cmocka_unit_test(test_scrub_stream),
		cmocka_unit_test(test_scrub_key_length),
		cmocka_unit_test(test_providers),
		cmocka_unit_test(test_fetch_usage),
		cmocka_unit_test(test_fetch_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
