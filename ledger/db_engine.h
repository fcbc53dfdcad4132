/* db_engine.h: what a storage engine gives ledger/db.c (internal to
 * ledger/db*.c).
 *
 * ledger/db.c owns what is the same on every engine: the ledger's name,
 * the clock, the statements by name, the binds by name with their pending
 * error.  An engine (ledger/db_sqlite.c, ledger/db_pg.c) owns its
 * connection, its locks, its migrations and its rows, behind the table
 * of functions below.  Every engine statement begins with a struct
 * sb_stmt.
 */
#ifndef SB_DB_ENGINE_H
#define SB_DB_ENGINE_H

#include "ledger/db.h"

enum { SB_DB_MAX_STMTS = 128 };

struct sb_stmt {
	sb_db *db;              /* the ledger it was prepared on */
};

struct sb_db_cached {
	const char *name;       /* query name (static storage from sb_sqlfiles) */
	sb_stmt *st;            /* prepared statement */
};

struct sb_engine {
	const char *name;       /* "SQLite", "PostgreSQL" */
	/* Connect to db->path, lock, check and migrate (sb_db_open's rules). */
	int (*open)(sb_db *db, int flags, sb_err *e);
	void (*close)(sb_db *db);
	/* Prepare the first statement of sql; *tail past it; *out NULL when
	 * nothing but comments was left.  Errors: SB_EINTERNAL naming what. */
	int (*prepare)(sb_db *db, const char *sql, const char **tail, const char *what, sb_stmt **out, sb_err *e);
	void (*finalize)(sb_stmt *st);
	void (*reset)(sb_stmt *st);
	void (*clear)(sb_stmt *st);
	const char *(*sql)(sb_stmt *st);
	/* Binds: index 1.. of parameter name, 0 when st has none of it; the
	 * bind calls return 0, or nonzero with the reason in *why. */
	int (*param)(sb_stmt *st, const char *name);
	const char *(*param_name)(sb_stmt *st, int i);
	int (*bind_i64)(sb_stmt *st, int i, int64_t v, const char **why);
	int (*bind_text)(sb_stmt *st, int i, const char *v, size_t len, bool copy, const char **why);
	int (*bind_blob)(sb_stmt *st, int i, const void *v, size_t len, const char **why);
	int (*bind_null)(sb_stmt *st, int i, const char **why);
	/* SB_ROW, SB_DONE, or -1 with e filled and st reset. */
	int (*step)(sb_stmt *st, sb_err *e);
	/* Run st (no rows) without waiting for its outcome where the engine
	 * can (sb_db_run_later); NULL: as sb_db_run. */
	int (*run_later)(sb_stmt *st, sb_err *e);
	/* sb_db_step_past and sb_db_flush (NULL: step; nothing to send) */
	int (*step_past)(sb_stmt *st, sb_err *e);
	int (*flush)(sb_db *db, sb_err *e);
	int (*col_count)(sb_stmt *st);
	const char *(*col_name)(sb_stmt *st, int c);
	sb_col_kind_t (*col_kind)(sb_stmt *st, int c);
	int64_t (*col_i64)(sb_stmt *st, int c);
	const char *(*col_text)(sb_stmt *st, int c);
	size_t (*col_bytes)(sb_stmt *st, int c);
	const void *(*col_blob)(sb_stmt *st, int c, size_t *len);
	/* sb_db_analyze (NULL: nothing to do) */
	int (*analyze)(sb_db *db, const char *table, sb_err *e);
	/* sb_db_load_sql's statement: rows of one COPY (true) or an INSERT of
	 * one row per run (false) */
	bool copy_loads;
	/* Statements without parameters or rows, several in one text. */
	int (*exec)(sb_db *db, const char *sql, sb_err *e);
	int (*begin)(sb_db *db, sb_err *e);
	void (*rollback)(sb_db *db);
	bool (*in_tx)(sb_db *db);
	int64_t (*last_id)(sb_db *db);
	int64_t (*changes)(sb_db *db);
	int (*schema_version)(sb_db *db);
	int (*foreign_keys)(sb_db *db, bool on, sb_err *e);
	/* what 'check' could not look at on this ledger, or NULL */
	const char *(*check_note)(sb_db *db);
	bool (*readers_shut_out)(sb_db *db);
	void (*readers_let_in)(sb_db *db);
};

struct sb_db {
	const struct sb_engine *eng;           /* the engine that holds the ledger */
	void *conn;                            /* the engine's own state */
	char *path;                            /* ledger path as given, or URL as libpq read it (sb_db_url_read) */
	char *shown;                           /* path quoted for messages (ledger/quote.h) */
	int busy_ms;                           /* busy timeout */
	sb_clock clock;                        /* what "now" is (sb_db_set_clock) */
	bool created;                          /* init created the ledger just now */
	bool pending;                          /* a bind failed since the last step */
	bool value_error;                      /* an error since sb_db_value_error_clear was a
	                                          stored value the schema does not allow */
	char pending_msg[256];                 /* its description */
	size_t n_stmts;                        /* entries used in stmts */
	struct sb_db_cached stmts[SB_DB_MAX_STMTS];   /* prepared queries by name */
};

extern const struct sb_engine sb_engine_sqlite;
extern const struct sb_engine sb_engine_pg;

/* The text of NAME ("queries/run_insert") for db's engine: sql/pg/NAME
 * on PostgreSQL when there is one, else sql/NAME; NULL when neither.
 * *full gets the name of the file it is. */
const char *sb_db_sql_for(const sb_db *db, const char *name, const char **full);

/* The newest schema version among the files of prefix ("schema/",
 * "pg/schema/"). */
int sb_db_schema_latest_of(const char *prefix);

#endif
