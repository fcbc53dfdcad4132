/* db.h: the ledger's storage: open, migrations, named statements, binds,
 * rows, transactions and locks, the same whatever engine holds the ledger.
 *
 * A ledger is a SQLite file (ledger/db_sqlite.c: WAL mode, foreign keys
 * on, a busy timeout) or a PostgreSQL database (ledger/db_pg.c: a
 * postgresql:// or postgres:// URL, no password in it).  Its schema is
 * sql/schema/NNN_*.sql (sql/pg/schema/ on PostgreSQL), applied in order
 * inside one transaction when the ledger is opened; the ledger keeps how
 * many were applied and a mark that it is a ledger.  Statements are
 * sql/queries/NAME.sql (sql/pg/queries/NAME.sql instead on PostgreSQL
 * when there is one), prepared once per connection and reused.
 * Parameters are bound by name; a name the statement does not have is an
 * internal error, never silently ignored.  No engine's own type or name
 * appears in this interface, nor outside ledger/db*.c.
 */
#ifndef SB_DB_H
#define SB_DB_H

#include <stdbool.h>
#include <stdint.h>

#include <stddef.h>

#include "ledger/clock.h"
#include "ledger/err.h"

/* "SBLG": the application_id of a ledger file. */
#define SB_APPLICATION_ID 0x53424c47

typedef struct sb_db sb_db;

/* A prepared statement of a ledger (borrowed from its sb_db when it came
 * from sb_db_stmt). */
typedef struct sb_stmt sb_stmt;

/* What sb_db_step returns besides -1. */
enum { SB_ROW = 100, SB_DONE = 101 };

/* What a column of the current row holds (sb_col_kind). */
typedef enum { SB_COL_NULL, SB_COL_INT, SB_COL_REAL, SB_COL_TEXT, SB_COL_BLOB } sb_col_kind_t;

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

/* The engine's name for messages: "SQLite" or "PostgreSQL". */
const char *sb_db_engine(const sb_db *db);

/* The ledger's name for messages (quoted when it needs it). */
const char *sb_db_shown(const sb_db *db);

/* True when path names a PostgreSQL ledger (postgresql:// or
 * postgres://) rather than a SQLite file. */
bool sb_db_is_url(const char *path);

/* Read a ledger's URL as libpq reads it (PQconninfoParse), before
 * anything connects or prints it.  Refused (SB_EUSAGE, the message
 * holding neither the URL nor a value of a secret option): a URL libpq
 * cannot parse, an option it does not know (named), a password under
 * any spelling (user:pw@, password= in the query, a percent-encoded key
 * such as pass%77ord=, sslpassword=), a value libpq would refuse only
 * when connecting or never (sslmode and the other lists of values, a
 * port not 1..65535, connect_timeout and the other counts not digits;
 * named with the value).  Else *out (malloc'd, the caller frees) is the
 * URL as libpq read it, password-free, written back the one way:
 * postgresql://[user@][host[:port]]/[dbname][?option=value&...], a host
 * that is a socket directory, a list or an IPv6 address (and its port)
 * in the query, the query's options in libpq's order, bytes outside
 * letters, digits and - . _ ~ percent-encoded (and / : , in values).
 * libpq reads *out to the same options. */
int sb_db_url_read(const char *url, char **out, sb_err *e);

/* True when init created the file just now (so seeding happened). */
bool sb_db_created(const sb_db *db);

/* The statement of sql/queries/NAME.sql, prepared on first use and reset
 * with its bindings cleared on every later call.  Borrowed: it belongs to
 * db.  NULL with an internal error in e when the file is missing or does
 * not prepare.
 *
 * A name NAME.CASE (name in static storage) is one case of the query NAME
 * that the caller tells apart, such as which of its parameters are NULL:
 * an engine's own text for that case (sql/pg/queries/NAME.CASE.sql) where
 * it has one, for a query it can search an index for only once the case
 * is known, else NAME's text, the same for every case. */
sb_stmt *sb_db_stmt(sb_db *db, const char *name, sb_err *e);

/* Prepare the first statement of the SQL text *sql (what names it in
 * messages), moving *sql past it; *out is NULL when only comments or
 * white space were left.  The caller owns *out (sb_stmt_finalize). */
int sb_db_prepare(sb_db *db, const char **sql, const char *what, sb_stmt **out, sb_err *e);
void sb_stmt_finalize(sb_stmt *st);

/* Reset st so that it runs again from its start (bindings kept). */
void sb_stmt_reset(sb_stmt *st);

/* True when st has the parameter name (":batch_id"). */
bool sb_stmt_has_param(sb_stmt *st, const char *name);

/* The rowid / identity the last INSERT of db made, and how many rows the
 * last INSERT, UPDATE or DELETE changed. */
int64_t sb_db_last_id(sb_db *db);
int64_t sb_db_changes(sb_db *db);

/* The text of sql/NAME.sql ("checks/00_integrity") as db's engine reads
 * it: sql/pg/NAME.sql on PostgreSQL when there is one; NULL when there
 * is no such file. */
const char *sb_db_sql(const sb_db *db, const char *name);

/* What a check's or a fingerprint's file is (its first line after "-- ",
 * up to the newline): where it starts in text, and its length. */
const char *sb_sql_title(const char *text, size_t *len);

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

/* Run every statement of sql/NAME.sql in turn, each with the parameter
 * param bound to v where it has one. */
int sb_db_run_each(sb_db *db, const char *name, const char *param, int64_t v, sb_err *e);

/* Binding by name (":from").  A name the statement lacks, or a failing
 * bind, is recorded in the db's pending error, which the next sb_db_step
 * reports; so a run of binds needs no checks of its own. */
void sb_bind_i64(sb_db *db, sb_stmt *st, const char *name, int64_t v);
void sb_bind_text(sb_db *db, sb_stmt *st, const char *name, const char *v);
void sb_bind_textn(sb_db *db, sb_stmt *st, const char *name, const char *v, size_t len);
void sb_bind_blob(sb_db *db, sb_stmt *st, const char *name, const void *v, size_t len);
void sb_bind_null(sb_db *db, sb_stmt *st, const char *name);
/* Bind v, or NULL when has is false. */
void sb_bind_i64_opt(sb_db *db, sb_stmt *st, const char *name, bool has, int64_t v);
/* Bind the string v, or NULL when v is NULL. */
void sb_bind_text_opt(sb_db *db, sb_stmt *st, const char *name, const char *v);

/* Binding by position, for a statement bound row after row in a hot loop
 * (the run writer): sb_db_param resolves a name once, a name the
 * statement lacks being SB_EINTERNAL in e (returns 0); the sb_bindi_*
 * calls then skip the lookup by name.  Errors are kept as with the named
 * binds.  Text is bound without a copy: v must stay valid until the
 * statement has been stepped and reset.  A NULL v binds NULL. */
int sb_db_param(sb_db *db, sb_stmt *st, const char *name, sb_err *e);
void sb_bindi_i64(sb_db *db, sb_stmt *st, int i, int64_t v);
void sb_bindi_i64_opt(sb_db *db, sb_stmt *st, int i, bool has, int64_t v);
void sb_bindi_text(sb_db *db, sb_stmt *st, int i, const char *v);
void sb_bindi_textn(sb_db *db, sb_stmt *st, int i, const char *v, size_t len);
void sb_bindi_blob(sb_db *db, sb_stmt *st, int i, const void *v, size_t len);

/* Step st: SB_ROW or SB_DONE, or -1 with e filled (a pending bind error,
 * or the engine's error mapped as sb_db_error says). */
int sb_db_step(sb_db *db, sb_stmt *st, sb_err *e);

/* Step a statement that returns no rows, to completion, and reset it. */
int sb_db_run(sb_db *db, sb_stmt *st, sb_err *e);

/* As sb_db_run, for a statement whose outcome the caller does not read
 * (no changes, no id): an engine may send it without waiting for it
 * (PostgreSQL's pipeline: one round trip for many) and report its error
 * at the next statement that waits, commit or rollback.  Its binds are
 * taken as they are at the call. */
int sb_db_run_later(sb_db *db, sb_stmt *st, sb_err *e);

/* The integer the query sql/queries/NAME.sql (no parameters) gives in its
 * one row's first column, into *out (the next row id of a table: MAX + 1).
 * SB_EINTERNAL when it gives no row. */
int sb_db_one_i64(sb_db *db, const char *name, int64_t *out, sb_err *e);

/* As sb_db_step, without first sending the rows a COPY statement holds
 * (sb_db_run_later of one, on PostgreSQL; see ledger/db_pg.c): for a
 * statement the caller knows reads none of those rows, so that a COPY
 * can carry the rows of many look-ups apart.  They are sent at the next
 * statement stepped otherwise (and any commit), at sb_db_flush, or when
 * their bytes grow past the engine's limit. */
int sb_db_step_past(sb_db *db, sb_stmt *st, sb_err *e);

/* Send the rows COPY statements hold now (see sb_db_step_past); an error
 * of theirs is reported here.  SB_OK at once on an engine that holds none. */
int sb_db_flush(sb_db *db, sb_err *e);

/* The columns of st's current row.  NULL text comes back as NULL, a NULL
 * integer as 0.  sb_col_text's text stays valid until the next step or
 * reset of st. */
int sb_col_count(sb_stmt *st);
sb_col_kind_t sb_col_kind(sb_stmt *st, int col);
int64_t sb_col_i64(sb_stmt *st, int col);
int sb_col_int(sb_stmt *st, int col);
const char *sb_col_text(sb_stmt *st, int col);
size_t sb_col_bytes(sb_stmt *st, int col);
const void *sb_col_blob(sb_stmt *st, int col, size_t *len);
bool sb_col_is_null(sb_stmt *st, int col);
/* Tell db's planner how table (a name the caller checked) has grown, for a
 * writer that has stored many rows into it in its transaction: on
 * PostgreSQL an ANALYZE of it (which counts the transaction's own rows),
 * so that the plans the connection keeps for its statements are made again
 * for the table as it now is: a plan made while the table was nearly empty
 * reads the whole table for each row looked up.  Nothing on SQLite, whose
 * planner keeps no statistics of the ledger's tables. */
int sb_db_analyze(sb_db *db, const char *table, sb_err *e);

/* The name of column col of st's rows (once st has run), or NULL. */
const char *sb_col_name(sb_stmt *st, int col);

/* Into buf (cap bytes): the statement storing one row of table's columns
 * cols[0..n) each time it is run with sb_db_run_later, its parameter
 * ":COL" the column COL: an INSERT on SQLite, the rows of one COPY on
 * PostgreSQL (sent before the next statement that waits).  table and cols
 * are names the caller has checked.  SB_EINTERNAL when it does not fit. */
int sb_db_load_sql(sb_db *db, const char *table, const char *const *cols, int n, char *buf, size_t cap,
                   sb_err *e);

/* What the storage's integrity check could not look at on db, said for
 * 'sbledger check' (static text), or NULL when it looked at everything:
 * on PostgreSQL, the indexes page by page when amcheck is not installed
 * in the database or the role may not run it. */
const char *sb_db_check_note(sb_db *db);

/* Whether an error of db since sb_db_value_error_clear was a stored value
 * its schema does not allow, which a query could not read (PostgreSQL
 * refuses to cast an edited execution's "1.5" to an integer; SQLite reads
 * what it can): the ledger's data, not the program or the storage. */
bool sb_db_value_error(const sb_db *db);
void sb_db_value_error_clear(sb_db *db);

/* The ledger's schema version and the newest this binary knows. */
int sb_db_schema_version(sb_db *db);
int sb_db_schema_latest(void);

/* Give db the clock every "now" of the library reads (ledger/clock.h);
 * a ledger opened without one reads the system clock.  c is copied; its
 * context must outlive db. */
void sb_db_set_clock(sb_db *db, sb_clock c);

/* What db's clock says now, in UTC ms. */
int64_t sb_db_now_ms(const sb_db *db);

#endif
