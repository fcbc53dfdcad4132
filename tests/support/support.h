/* support.h: helpers shared by the cmocka tests (linked into every test).
 *
 * Domain asserts that print what went wrong (the sb_err message, the
 * SQLite error) before failing at the caller's line, a ledger in memory
 * or in a temporary directory, and one-value SQL queries for checking
 * what a call stored.  Every helper fails the running test on error, so a
 * test reads as a list of steps.
 */
#ifndef SB_TEST_SUPPORT_H
#define SB_TEST_SUPPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>

#include "ledger/db.h"
#include "ledger/db_sqlite.h"
#include "ledger/err.h"

/* Fail at file:line unless rc is SB_OK and e holds no error; prints the
 * code and message of e. */
void support_assert_ok(int rc, const sb_err *e, const char *file, int line);
#define assert_sb_ok(e, rc) support_assert_ok((rc), (e), __FILE__, __LINE__)

/* Fail at file:line unless rc and e->code are both want and e's message
 * contains `part` (NULL: any message). */
void support_assert_fails(int rc, const sb_err *e, int want, const char *part,
                          const char *file, int line);
#define assert_sb_fails(e, rc, want, part) \
	support_assert_fails((rc), (e), (want), (part), __FILE__, __LINE__)

/* Fail at file:line unless rc is SQLITE_OK (or SQLITE_DONE); prints
 * sqlite3_errmsg of the connection. */
void support_assert_sqlite_ok(sqlite3 *conn, int rc, const char *file, int line);
#define assert_sqlite_ok(conn, rc) support_assert_sqlite_ok((conn), (rc), __FILE__, __LINE__)

/* A fresh in-memory ledger with the schema applied and seeded
 * (sb_db_open(NULL, SB_DB_MEMORY, 1000, ...)); with SBLEDGER_TEST_PG_DIR
 * set (a cluster of tools/pg_cluster.sh: make pg-tests), a fresh
 * PostgreSQL ledger instead, so that a test of the storage's callers runs
 * on both engines.  The caller closes it. */
sb_db *support_memory_ledger(void);

/* Run literal SQL (any number of statements) on db's connection; fail the
 * test when it does not succeed. */
void support_exec(sb_db *db, const char *sql);

/* Fail the test unless every check of sql/checks/ lists nothing, each as
 * db's engine reads it (sql/pg/checks/NAME.sql instead on PostgreSQL
 * when there is one); a check that lists something is printed. */
void support_assert_checks_pass(sb_db *db);
#define assert_checks_pass(db) support_assert_checks_pass(db)

/* A fresh, empty database name in the PostgreSQL cluster of
 * tools/pg_cluster.sh at dir (made again when it exists); its URL in url.
 * The test fails when it cannot be made. */
void support_pg_db(const char *dir, const char *name, char *url, size_t cap);

/* Make the day rollups (sql/schema/005_rollup.sql, 010_scale.sql) again from run and
 * run_tag, after a test changed those with support_exec: the last part of
 * 010_scale.sql, its one SQLite-only join spelled as CROSS JOIN, so that it
 * runs on a PostgreSQL ledger as well. */
void support_rollup_rebuild(sb_db *db);

/* Undo what sql/schema/010_scale.sql did to db
 * (tests/cli/fixtures/undo_010.sql, read from the repository's root, where
 * the unit tests run): for tests that take a ledger back to an earlier
 * schema version, before they undo the earlier migrations. */
void support_undo_010(sb_db *db);

/* The integer in the first column of the first row of sql (formatted by
 * sqlite3_mprintf: %q and %Q quote),
 * failing the test when there is no row.  NULL reads as 0; use
 * support_is_null to tell them apart. */
int64_t support_i64(sb_db *db, const char *fmt, ...);

/* True when the first column of the first row of sql is NULL. */
bool support_is_null(sb_db *db, const char *fmt, ...);

/* The text of the first column of the first row of sql, allocated (the
 * caller frees it), or NULL when the value is NULL. */
char *support_text(sb_db *db, const char *fmt, ...);

/* Store the run records of jsonl (one JSON object per line, no blank
 * lines) in db as one complete batch, through the parser and the writer
 * the importer uses, priced with the cards now in db.  Every record must
 * be stored as new; returns the batch id. */
int64_t support_add_runs(sb_db *db, const char *jsonl);

/* A new empty directory under $TMPDIR (or /tmp), allocated; remove it and
 * everything in it with support_rmtree. */
char *support_tmpdir(void);

/* Remove dir and its contents (one level: the tests make no subdirectories),
 * then free dir. */
void support_rmtree(char *dir);

/* dir/name, allocated. */
char *support_path(const char *dir, const char *name);

/* Write text to path (created or truncated); fail the test on error. */
void support_write_file(const char *path, const char *text);

#endif
