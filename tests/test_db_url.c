/* test_db_url.c: a PostgreSQL ledger's URL read by libpq's parser before
 * anything connects (sb_db_url_read, ledger/db_pg.c), with no server at
 * all: a password under every spelling refused without its value in the
 * message, an option libpq does not know and a value it would refuse only
 * when connecting named, and the URL written back password-free in the
 * one form that libpq reads to the same options (a second reading gives
 * it again).  sb_db_open refuses the same before it connects. */
#include "tests/support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/db.h"

/* Fail at the caller's line unless url is refused as a usage error whose
 * message holds part and neither "pgsecret" nor the URL. */
static void refused(const char *url, const char *part, const char *file, int line)
{
	char *out = (char *)"untouched";
	sb_db *db = NULL;
	sb_err e;

	sb_err_clear(&e);
	support_assert_fails(sb_db_url_read(url, &out, &e), &e, SB_EUSAGE, part, file, line);
	if (out != NULL || strstr(e.msg, "pgsecret") != NULL || strstr(e.msg, url) != NULL) {
		print_error("%s: refused as it should be, but out %s, message: %s\n", url,
		            out != NULL ? "set" : "NULL", e.msg);
		_fail(file, line);
	}
	/* and sb_db_open says the same, before it connects (no server here) */
	sb_err_clear(&e);
	support_assert_fails(sb_db_open(url, 0, 100, &db, &e), &e, SB_EUSAGE, part, file, line);
	if (db != NULL || strstr(e.msg, "pgsecret") != NULL)
		_fail(file, line);
}
#define assert_refused(url, part) refused((url), (part), __FILE__, __LINE__)

/* Fail at the caller's line unless url reads as want, and want reads as
 * itself. */
static void reads_as(const char *url, const char *want, const char *file, int line)
{
	char *out = NULL, *again = NULL;
	sb_err e;

	sb_err_clear(&e);
	support_assert_fails(sb_db_url_read(url, &out, &e), &e, SB_OK, NULL, file, line);
	if (out == NULL || strcmp(out, want) != 0) {
		print_error("%s: read as %s, expected %s\n", url, out != NULL ? out : "NULL", want);
		_fail(file, line);
	}
	support_assert_fails(sb_db_url_read(out, &again, &e), &e, SB_OK, NULL, file, line);
	if (strcmp(again, out) != 0) {
		print_error("%s: read again as %s\n", out, again);
		_fail(file, line);
	}
	free(out);
	free(again);
}
#define assert_reads_as(url, want) reads_as((url), (want), __FILE__, __LINE__)

/* Every spelling of a password libpq takes is refused: in the userinfo
 * (an empty one there libpq does not keep), password= in the query (an
 * empty one too), its key percent-encoded
 * in part or whole, after another option, the TLS key's sslpassword. */
static void test_password_spellings(void **state)
{
	(void)state;
	assert_refused("postgresql://u:pgsecret@localhost/db", "holds a password (libpq's option password)");
	assert_refused("postgresql://u@localhost/db?password=pgsecret", "holds a password");
	assert_refused("postgresql://u@localhost/db?pass%77ord=pgsecret", "holds a password");
	assert_refused("postgresql://u@localhost/db?%70%61%73%73%77%6f%72%64=pgsecret", "holds a password");
	assert_refused("postgresql://u@localhost/db?sslmode=disable&password=pgsecret", "holds a password");
	assert_refused("postgresql://u@localhost/db?password=", "holds a password");
	/* an empty one after u: libpq does not keep: no secret, nothing refused */
	assert_reads_as("postgres://u:@localhost/db", "postgresql://u@localhost/db");
	assert_refused("postgresql://u%40x:pgsecret@localhost/db?sslmode=bogus", "holds a password");
	assert_refused("postgresql://u@localhost/db?sslpassword=pgsecret", "libpq's option sslpassword");
	/* a URL libpq cannot read, with a password in it: its message (which
	 * quotes the URL or the token it stopped at) is not passed on */
	assert_refused("postgresql://u:pgsecret@[::1/db", "cannot be read by libpq (end of string reached");
	assert_refused("postgresql://u@localhost/db?password=%zzpgsecret", "cannot be read by libpq (invalid percent-encoded token)");
	assert_refused("postgresql://u@localhost/db?password=a=pgsecret", "cannot be read by libpq (extra key/value separator");
}

/* An option libpq does not know is named (a key that decodes to
 * "password=" is one); each value checked is refused one past its edge
 * and taken at it. */
static void test_options_checked(void **state)
{
	(void)state;
	assert_refused("postgresql://u@localhost/db?foo=1", "does not know, 'foo'");
	assert_refused("postgresql://u@localhost/db?password%3D=pgsecret", "does not know, 'password='");
	assert_refused("postgresql://u@localhost/db?Password=pgsecret", "does not know, 'Password'");
	assert_refused("postgresql://u@localhost/db?sslmode=bogus", "sslmode is 'bogus', not one of disable, allow");
	assert_refused("postgresql://u@localhost/db?sslmode=", "sslmode is '', not one of");
	assert_refused("postgresql://u@localhost/db?port=notaport", "port is 'notaport', not a port number");
	assert_refused("postgresql://u@localhost:65536/db", "port is '65536'");
	assert_refused("postgresql://u@localhost:0/db", "port is '0'");
	assert_refused("postgresql://u@a,b/db?port=5432,x", "port is '5432,x'");
	assert_refused("postgresql://u@localhost/db?connect_timeout=1x", "connect_timeout is '1x', not a whole number");
	assert_refused("postgresql://u@localhost/db?connect_timeout=-1", "connect_timeout is '-1'");
	assert_refused("postgresql://u@localhost/db?keepalives_idle=", "keepalives_idle is ''");
	assert_refused("postgresql://u@localhost/db?target_session_attrs=write", "target_session_attrs is 'write'");
	assert_refused("postgresql://u@localhost/db?gssencmode=on", "gssencmode is 'on'");
	assert_reads_as("postgresql://u@localhost:65535/db?sslmode=verify-full&connect_timeout=0",
	                "postgresql://u@localhost:65535/db?connect_timeout=0&sslmode=verify-full");
	assert_reads_as("postgresql://u@localhost:1/db", "postgresql://u@localhost:1/db");
	assert_reads_as("postgresql://u@a,b/db?port=5432,", "postgresql://u@/db?host=a,b&port=5432,");
}

/* The URL written back: options as libpq read them (decoded, in its
 * order), a socket directory and its port in the query, the scheme
 * postgresql://, bytes outside the plain ones encoded. */
static void test_written_back(void **state)
{
	(void)state;
	assert_reads_as("postgresql://sbledger@/postgres?host=/tmp/pg&port=6276",
	                "postgresql://sbledger@/postgres?host=/tmp/pg&port=6276");
	assert_reads_as("postgres://sbledger@/ledger?port=6276&host=%2Ftmp%2Fpg",
	                "postgresql://sbledger@/ledger?host=/tmp/pg&port=6276");
	assert_reads_as("postgresql://%2Ftmp%2Fpg:6276/ledger", "postgresql:///ledger?host=/tmp/pg&port=6276");
	assert_reads_as("postgresql://postgres@localhost/led%67er?application_name=a%20b%26c",
	                "postgresql://postgres@localhost/ledger?application_name=a%20b%26c");
	assert_reads_as("postgresql://[::1]:5433/db", "postgresql:///db?host=::1&port=5433");
	assert_reads_as("postgresql://", "postgresql:///");
	assert_reads_as("postgresql://h", "postgresql://h/");
	assert_reads_as("postgresql://u%40x@h/d%2Fb", "postgresql://u%40x@h/d%2Fb");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_password_spellings),
		cmocka_unit_test(test_options_checked),
		cmocka_unit_test(test_written_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
