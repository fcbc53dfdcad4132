/* db.h: the ledger file: open, pragmas, migrations, named statements.
 *
 * A ledger is one SQLite file in WAL mode with foreign keys on and a busy
 * timeout.  Its schema is sql/schema/NNN_*.sql, applied in order inside one
 * transaction when the ledger is opened; PRAGMA user_version holds how many
 * were applied, and PRAGMA application_id marks the file as a ledger.
 * Statements are sql/queries/NAME.sql, prepared once per connection and
 * reused.  Parameters are bound by name; a name the statement does not
 * have is an internal error, never silently ignored.
 */
#ifndef SB_DB_H
#define SB_DB_H

#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "ledger/clock.h"
#include "ledger/err.h"

/* "SBLG": the application_id of a ledger file. */
#define SB_APPLICATION_ID 0x53424c47

typedef struct sb_db sb_db;

/* Flags for sb_db_open. */
enum {
	SB_DB_CREATE = 1,    /* init: create the file (mode 0600) when missing */
	SB_DB_WRITE = 2,     /* the command writes: take the ledger's write lock */
	SB_DB_MEMORY = 4     /* path is ignored: a private in-memory ledger (tests) */
};

/* Open the ledger at path.  Without SB_DB_CREATE a missing file is
 * SB_ENOINPUT with a message naming 'sbledger init'.  A file that is not
 * SQLite, or a SQLite file of another program, is refused (SB_EDATA); one
 * whose schema is newer than this binary is refused (SB_EDATA) and left
 * untouched.  A ledger is the file path resolves to: its write lock
 * (FILE-lock beside the resolved FILE, flock) and the SQLite connection
 * are that file's, whatever link led there.  A file with more than one
 * hard link is refused (SB_EDATA) before anything is made beside it; an
 * empty file is not a ledger (SB_ENOINPUT naming 'sbledger init'; with
 * SB_DB_CREATE it is made a ledger, mode 0600).  Pending migrations are
 * applied.  With SB_DB_WRITE the write lock is taken, waiting up to
 * busy_ms, then SB_ETEMP.  The caller owns *out and closes it with sb_db_close. */
int sb_db_open(const char *path, int flags, int busy_ms, sb_db **out, sb_err *e);

/* Finalize every statement, close the connection, release the lock.
 * NULL is allowed. */
void sb_db_close(sb_db *db);

/* The connection (borrowed), for code that must reach SQLite directly. */
sqlite3 *sb_db_handle(sb_db *db);

/* True when init created the file just now (so seeding happened). */
bool sb_db_created(const sb_db *db);

/* The statement of sql/queries/NAME.sql, prepared on first use and reset
 * with its bindings cleared on every later call.  Borrowed: it belongs to
 * db.  NULL with an internal error in e when the file is missing or does
 * not prepare. */
sqlite3_stmt *sb_db_stmt(sb_db *db, const char *name, sb_err *e);

/* Run every statement of sql/NAME.sql (no parameters, no rows kept). */
int sb_db_exec_file(sb_db *db, const char *name, sb_err *e);

/* Run one literal SQL statement with no parameters (BEGIN, COMMIT, ...). */
int sb_db_exec(sb_db *db, const char *sql, sb_err *e);

/* The secondary indexes of the run tables (sql/indexes/create.sql: runs
 * by start and by session, tags by value).  An import into a ledger much
 * smaller than its input drops them (sql/indexes/drop.sql: all but the
 * recent part of the session index, which it leaves empty) and builds them
 * again at its end
 * (ledger/runs.h, sb_run_writer_bulk), with readers kept out meanwhile; a
 * ledger left without them (that import killed) gets them back when it is
 * next opened, before anything reads it (sb_db_open: under the write lock,
 * which a reader takes for the while).  Present: *all when every one is
 * there.  Drop and create (those missing): inside the caller's
 * transaction. */
int sb_db_indexes_present(sb_db *db, bool *all, sb_err *e);
int sb_db_indexes_drop(sb_db *db, sb_err *e);
int sb_db_indexes_create(sb_db *db, sb_err *e);

/* A writer (SB_DB_WRITE) keeps readers out: true when no reader has the
 * ledger open; then none opens it (sb_db_open waits, up to the busy
 * timeout, then SB_ETEMP) until sb_db_readers_let_in, sb_db_close or the
 * end of the process.  False (nothing changed) when a reader has it open. */
bool sb_db_readers_shut_out(sb_db *db);
void sb_db_readers_let_in(sb_db *db);

/* Foreign keys checked by SQLite on this connection (on by default), or
 * left to the caller, which stores only references it has just made, and
 * to 'sbledger check' (the run import's connection).  Outside a
 * transaction only (SQLite ignores the change inside one: SB_EINTERNAL). */
int sb_db_foreign_keys(sb_db *db, bool on, sb_err *e);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK.  Rollback never fails loudly: it
 * is what error paths call. */
int sb_db_begin(sb_db *db, sb_err *e);
int sb_db_commit(sb_db *db, sb_err *e);
void sb_db_rollback(sb_db *db);

/* Binding by name (":from").  A name the statement lacks, or a failing
 * bind, is recorded in the db's pending error, which the next sb_db_step
 * reports; so a run of binds needs no checks of its own. */
void sb_bind_i64(sb_db *db, sqlite3_stmt *st, const char *name, int64_t v);
void sb_bind_text(sb_db *db, sqlite3_stmt *st, const char *name, const char *v);
void sb_bind_textn(sb_db *db, sqlite3_stmt *st, const char *name, const char *v, size_t len);
void sb_bind_blob(sb_db *db, sqlite3_stmt *st, const char *name, const void *v, size_t len);
void sb_bind_null(sb_db *db, sqlite3_stmt *st, const char *name);
/* Bind v, or NULL when has is false. */
void sb_bind_i64_opt(sb_db *db, sqlite3_stmt *st, const char *name, bool has, int64_t v);
/* Bind the string v, or NULL when v is NULL. */
void sb_bind_text_opt(sb_db *db, sqlite3_stmt *st, const char *name, const char *v);

/* Binding by position, for a statement bound row after row in a hot loop
 * (the run writer): sb_db_param resolves a name once, a name the
 * statement lacks being SB_EINTERNAL in e (returns 0); the sb_bindi_*
 * calls then skip the lookup by name.  Errors are kept as with the named
 * binds.  Text is bound SQLITE_STATIC: v must stay valid until the
 * statement has been stepped and reset.  A NULL v binds NULL. */
int sb_db_param(sb_db *db, sqlite3_stmt *st, const char *name, sb_err *e);
void sb_bindi_i64(sb_db *db, sqlite3_stmt *st, int i, int64_t v);
void sb_bindi_i64_opt(sb_db *db, sqlite3_stmt *st, int i, bool has, int64_t v);
void sb_bindi_text(sb_db *db, sqlite3_stmt *st, int i, const char *v);
void sb_bindi_textn(sb_db *db, sqlite3_stmt *st, int i, const char *v, size_t len);

/* Step st: SQLITE_ROW or SQLITE_DONE, or -1 with e filled (a pending bind
 * error, or the SQLite error mapped by sb_db_error). */
int sb_db_step(sb_db *db, sqlite3_stmt *st, sb_err *e);

/* Step a statement that returns no rows, to completion, and reset it. */
int sb_db_run(sb_db *db, sqlite3_stmt *st, sb_err *e);

/* Record the connection's current SQLite error in e, as the exit code it
 * deserves: busy or locked past the timeout SB_ETEMP ("the ledger is busy"),
 * disk full or I/O SB_EIO, a read-only file SB_EIO, anything else
 * SB_EINTERNAL; the message says what was being done (what). */
int sb_db_error(sb_db *db, int rc, const char *what, sb_err *e);

/* Column helpers: NULL text comes back as NULL. */
const char *sb_col_text(sqlite3_stmt *st, int col);
bool sb_col_is_null(sqlite3_stmt *st, int col);

/* The ledger's schema version (PRAGMA user_version) and the newest this
 * binary knows. */
int sb_db_schema_version(sb_db *db);
int sb_db_schema_latest(void);

/* Give db the clock every "now" of the library reads (ledger/clock.h);
 * a ledger opened without one reads the system clock.  c is copied; its
 * context must outlive db. */
void sb_db_set_clock(sb_db *db, sb_clock c);

/* What db's clock says now, in UTC ms. */
int64_t sb_db_now_ms(const sb_db *db);

#endif
