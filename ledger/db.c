/* db.c: the ledger's storage, whatever engine holds it (see db.h).
 *
 * What is the same on every engine lives here: the ledger's name, the
 * clock, the statements by name (prepared once per connection), the binds
 * by name with their pending error, the steps.  What an engine does its
 * own way is behind struct sb_engine (ledger/db_engine.h):
 * ledger/db_sqlite.c and ledger/db_pg.c.
 */
#include "ledger/db_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/quote.h"
#include "ledger/sqlfiles.h"

const char *sb_sql(const char *name)
{
	for (const struct sb_sqlfile *f = sb_sqlfiles; f->name != NULL; f++)
		if (strcmp(f->name, name) == 0)
			return f->text;
	return NULL;
}

/* The file of sb_sqlfiles named name, or NULL. */
static const struct sb_sqlfile *sql_file(const char *name)
{
	for (const struct sb_sqlfile *f = sb_sqlfiles; f->name != NULL; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

const char *sb_db_sql_for(const sb_db *db, const char *name, const char **full)
{
	const struct sb_sqlfile *f = NULL;

	if (db->eng == &sb_engine_pg) {
		char pg[160];
		snprintf(pg, sizeof pg, "pg/%s", name);
		f = sql_file(pg);
	}
	if (f == NULL)
		f = sql_file(name);
	if (full != NULL)
		*full = f != NULL ? f->name : name;
	return f != NULL ? f->text : NULL;
}

const char *sb_db_sql(const sb_db *db, const char *name)
{
	return sb_db_sql_for(db, name, NULL);
}

const char *sb_sql_title(const char *text, size_t *len)
{
	const char *what = text + (strncmp(text, "-- ", 3) == 0 ? 3 : 0);

	*len = strcspn(what, "\n");
	return what;
}

int sb_db_schema_latest_of(const char *prefix)
{
	size_t len = strlen(prefix);
	int n = 0;

	for (const struct sb_sqlfile *f = sb_sqlfiles; f->name != NULL; f++)
		if (strncmp(f->name, prefix, len) == 0 && atoi(f->name + len) > n)
			n = atoi(f->name + len);
	return n;
}

int sb_db_schema_latest(void)
{
	return sb_db_schema_latest_of("schema/");
}

bool sb_db_is_url(const char *path)
{
	return path != NULL && (strncmp(path, "postgresql://", 13) == 0 || strncmp(path, "postgres://", 11) == 0);
}

const char *sb_db_engine(const sb_db *db)
{
	return db->eng->name;
}

const char *sb_db_shown(const sb_db *db)
{
	return db->shown;
}

void sb_db_set_clock(sb_db *db, sb_clock c)
{
	db->clock = c;
}

int64_t sb_db_now_ms(const sb_db *db)
{
	return sb_clock_now(&db->clock);
}

/* path quoted for messages (malloc'd), or NULL when out of memory. */
static char *quote_path(const char *path)
{
	size_t cap = SB_QUOTE_SIZE(strlen(path));
	char *buf = malloc(cap);

	return buf != NULL ? (char *)sb_quote(path, SB_QUOTE_IF_NEEDED, buf, cap) : NULL;
}

int sb_db_open(const char *path, int flags, int busy_ms, sb_db **out, sb_err *e)
{
	sb_db *db = calloc(1, sizeof *db);

	bool url = !(flags & SB_DB_MEMORY) && sb_db_is_url(path);

	*out = NULL;
	if (db == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	/* a URL as libpq reads it, password-free, is what connects and what
	 * every message shows */
	if (url && sb_db_url_read(path, &db->path, e) != SB_OK) {
		free(db);
		return e->code;
	}
	if ((!url && (db->path = strdup(flags & SB_DB_MEMORY ? ":memory:" : path)) == NULL) ||
	    (db->shown = quote_path(db->path)) == NULL) {
		free(db->path);
		free(db);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	db->eng = url ? &sb_engine_pg : &sb_engine_sqlite;
	db->busy_ms = busy_ms;
	if (db->eng->open(db, flags, e) != SB_OK) {
		sb_db_close(db);
		return e->code;
	}
	*out = db;
	return SB_OK;
}

void sb_db_close(sb_db *db)
{
	if (db == NULL)
		return;
	for (size_t i = 0; i < db->n_stmts; i++)
		db->eng->finalize(db->stmts[i].st);
	db->eng->close(db);
	free(db->path);
	free(db->shown);
	free(db);
}

bool sb_db_created(const sb_db *db)
{
	return db->created;
}

sb_stmt *sb_db_stmt(sb_db *db, const char *name, sb_err *e)
{
	char full[128], *dot = NULL;
	const char *text, *file, *tail;
	sb_stmt *st = NULL;

	for (size_t i = 0; i < db->n_stmts; i++) {
		if (strcmp(db->stmts[i].name, name) == 0) {
			db->eng->reset(db->stmts[i].st);
			db->eng->clear(db->stmts[i].st);
			return db->stmts[i].st;
		}
	}
	snprintf(full, sizeof full, "queries/%s", name);
	if ((text = sb_db_sql_for(db, full, &file)) == NULL && (dot = strchr(full, '.')) != NULL) {
		/* a case with no text of its own: the query's */
		*dot = '\0';
		text = sb_db_sql_for(db, full, &file);
	}
	if (text == NULL) {
		sb_fail(e, SB_EINTERNAL, "no SQL file sql/%s.sql in this binary", full);
		return NULL;
	}
	if (db->n_stmts == SB_DB_MAX_STMTS) {
		sb_fail(e, SB_EINTERNAL, "too many prepared statements");
		return NULL;
	}
	if (db->eng->prepare(db, text, &tail, file, &st, e) != SB_OK)
		return NULL;
	if (st == NULL) {
		sb_fail(e, SB_EINTERNAL, "sql/%s.sql holds no statement", file);
		return NULL;
	}
	/* the name kept is the file's own (static storage), or the case's */
	db->stmts[db->n_stmts].name = dot != NULL ? name : strchr(strstr(file, "queries/"), '/') + 1;
	db->stmts[db->n_stmts++].st = st;
	return st;
}

int sb_db_prepare(sb_db *db, const char **sql, const char *what, sb_stmt **out, sb_err *e)
{
	*out = NULL;
	return db->eng->prepare(db, *sql, sql, what, out, e);
}

void sb_stmt_finalize(sb_stmt *st)
{
	if (st != NULL)
		st->db->eng->finalize(st);
}

void sb_stmt_reset(sb_stmt *st)
{
	st->db->eng->reset(st);
}

bool sb_stmt_has_param(sb_stmt *st, const char *name)
{
	return st->db->eng->param(st, name) > 0;
}

int64_t sb_db_last_id(sb_db *db)
{
	return db->eng->last_id(db);
}

int64_t sb_db_changes(sb_db *db)
{
	return db->eng->changes(db);
}

int sb_db_exec(sb_db *db, const char *sql, sb_err *e)
{
	return db->eng->exec(db, sql, e);
}

int sb_db_exec_file(sb_db *db, const char *name, sb_err *e)
{
	const char *text = sb_db_sql_for(db, name, NULL);

	if (text == NULL)
		return sb_fail(e, SB_EINTERNAL, "no SQL file sql/%s.sql in this binary", name);
	return sb_db_exec(db, text, e);
}

int sb_db_run_each(sb_db *db, const char *name, const char *param, int64_t v, sb_err *e)
{
	const char *file, *sql = sb_db_sql_for(db, name, &file);

	if (sql == NULL)
		return sb_fail(e, SB_EINTERNAL, "no SQL file sql/%s.sql in this binary", name);
	while (e->code == SB_OK && *sql != '\0') {
		sb_stmt *st = NULL;
		if (sb_db_prepare(db, &sql, file, &st, e) != SB_OK || st == NULL)
			break;
		if (sb_stmt_has_param(st, param))
			sb_bind_i64(db, st, param, v);
		sb_db_run(db, st, e);
		sb_stmt_finalize(st);
	}
	return e->code;
}

int sb_db_schema_version(sb_db *db)
{
	return db->eng->schema_version(db);
}

int sb_db_indexes_present(sb_db *db, bool *all, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "indexes_present", e);
	int rc;

	*all = false;
	if (st == NULL)
		return e->code;
	if ((rc = sb_db_step(db, st, e)) == SB_ROW)
		*all = sb_col_i64(st, 0) == sb_col_i64(st, 1);
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

int sb_db_indexes_drop(sb_db *db, sb_err *e)
{
	return sb_db_exec_file(db, "indexes/drop", e);
}

int sb_db_indexes_create(sb_db *db, sb_err *e)
{
	return sb_db_exec_file(db, "indexes/create", e);
}

bool sb_db_value_error(const sb_db *db)
{
	return db->value_error;
}

void sb_db_value_error_clear(sb_db *db)
{
	db->value_error = false;
}

const char *sb_db_check_note(sb_db *db)
{
	return db->eng->check_note(db);
}

bool sb_db_readers_shut_out(sb_db *db)
{
	return db->eng->readers_shut_out(db);
}

void sb_db_readers_let_in(sb_db *db)
{
	db->eng->readers_let_in(db);
}

int sb_db_foreign_keys(sb_db *db, bool on, sb_err *e)
{
	if (db->eng->in_tx(db))
		return sb_fail(e, SB_EINTERNAL, "foreign keys switched inside a transaction");
	return db->eng->foreign_keys(db, on, e);
}

int sb_db_begin(sb_db *db, sb_err *e)
{
	return db->eng->begin(db, e);
}

int sb_db_commit(sb_db *db, sb_err *e)
{
	return sb_db_exec(db, "COMMIT", e);
}

void sb_db_rollback(sb_db *db)
{
	if (db != NULL && db->conn != NULL && db->eng->in_tx(db))
		db->eng->rollback(db);
}

/* Record a bind error (the first since the last step) as pending:
 * "binding NAME: WHY", or with no_param "statement has no parameter
 * NAME: SQL". */
static void pend(sb_db *db, bool no_param, const char *name, const char *detail)
{
	if (db->pending)
		return;
	db->pending = true;
	if (no_param)
		snprintf(db->pending_msg, sizeof db->pending_msg, "statement has no parameter %s: %s", name, detail);
	else
		snprintf(db->pending_msg, sizeof db->pending_msg, "binding %s: %s", name != NULL ? name : "?", detail);
}

/* The index of parameter name in st, or 0 with a pending error. */
static int param(sb_db *db, sb_stmt *st, const char *name)
{
	int i = db->eng->param(st, name);

	if (i == 0)
		pend(db, true, name, db->eng->sql(st));
	return i;
}

/* Record a failing bind (rc nonzero, why its reason) as pending. */
static void bound(sb_db *db, sb_stmt *st, int i, int rc, const char *why)
{
	if (rc != 0)
		pend(db, false, db->eng->param_name(st, i), why != NULL ? why : "failed");
}

void sb_bind_i64(sb_db *db, sb_stmt *st, const char *name, int64_t v)
{
	int i = param(db, st, name);

	if (i > 0)
		sb_bindi_i64(db, st, i, v);
}

void sb_bind_text(sb_db *db, sb_stmt *st, const char *name, const char *v)
{
	sb_bind_textn(db, st, name, v, strlen(v));
}

void sb_bind_textn(sb_db *db, sb_stmt *st, const char *name, const char *v, size_t len)
{
	const char *why = NULL;
	int i = param(db, st, name);

	if (i > 0)
		bound(db, st, i, db->eng->bind_text(st, i, v, len, true, &why), why);
}

void sb_bind_blob(sb_db *db, sb_stmt *st, const char *name, const void *v, size_t len)
{
	int i = param(db, st, name);

	if (i > 0)
		sb_bindi_blob(db, st, i, v, len);
}

void sb_bind_null(sb_db *db, sb_stmt *st, const char *name)
{
	const char *why = NULL;
	int i = param(db, st, name);

	if (i > 0)
		bound(db, st, i, db->eng->bind_null(st, i, &why), why);
}

void sb_bind_i64_opt(sb_db *db, sb_stmt *st, const char *name, bool has, int64_t v)
{
	if (has)
		sb_bind_i64(db, st, name, v);
	else
		sb_bind_null(db, st, name);
}

void sb_bind_text_opt(sb_db *db, sb_stmt *st, const char *name, const char *v)
{
	if (v != NULL)
		sb_bind_text(db, st, name, v);
	else
		sb_bind_null(db, st, name);
}

int sb_db_param(sb_db *db, sb_stmt *st, const char *name, sb_err *e)
{
	int i = db->eng->param(st, name);

	if (i == 0)
		sb_fail(e, SB_EINTERNAL, "statement has no parameter %s: %s", name, db->eng->sql(st));
	return i;
}

void sb_bindi_i64(sb_db *db, sb_stmt *st, int i, int64_t v)
{
	const char *why = NULL;

	bound(db, st, i, db->eng->bind_i64(st, i, v, &why), why);
}

void sb_bindi_i64_opt(sb_db *db, sb_stmt *st, int i, bool has, int64_t v)
{
	const char *why = NULL;

	bound(db, st, i, has ? db->eng->bind_i64(st, i, v, &why) : db->eng->bind_null(st, i, &why), why);
}

void sb_bindi_text(sb_db *db, sb_stmt *st, int i, const char *v)
{
	if (v != NULL)
		sb_bindi_textn(db, st, i, v, strlen(v));
	else
		sb_bindi_textn(db, st, i, NULL, 0);
}

void sb_bindi_textn(sb_db *db, sb_stmt *st, int i, const char *v, size_t len)
{
	const char *why = NULL;

	bound(db, st, i, v != NULL ? db->eng->bind_text(st, i, v, len, false, &why) : db->eng->bind_null(st, i, &why),
	      why);
}

void sb_bindi_blob(sb_db *db, sb_stmt *st, int i, const void *v, size_t len)
{
	const char *why = NULL;

	bound(db, st, i, db->eng->bind_blob(st, i, v, len, &why), why);
}

int sb_db_step(sb_db *db, sb_stmt *st, sb_err *e)
{
	if (db->pending) {
		sb_fail(e, SB_EINTERNAL, "%s", db->pending_msg);
		db->pending = false;
		db->eng->reset(st);
		return -1;
	}
	return db->eng->step(st, e);
}

int sb_db_one_i64(sb_db *db, const char *name, int64_t *out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, name, e);
	int rc;

	if (st == NULL)
		return e->code;
	if ((rc = sb_db_step(db, st, e)) == SB_ROW)
		*out = sb_col_i64(st, 0);
	sb_stmt_reset(st);
	if (rc != SB_ROW)
		return rc < 0 ? e->code : sb_fail(e, SB_EINTERNAL, "sql/queries/%s.sql returned no row", name);
	return SB_OK;
}

int sb_db_step_past(sb_db *db, sb_stmt *st, sb_err *e)
{
	if (db->pending || db->eng->step_past == NULL)
		return sb_db_step(db, st, e);
	return db->eng->step_past(st, e);
}

int sb_db_flush(sb_db *db, sb_err *e)
{
	return db->eng->flush != NULL ? db->eng->flush(db, e) : SB_OK;
}

int sb_db_run(sb_db *db, sb_stmt *st, sb_err *e)
{
	int rc;

	while ((rc = sb_db_step(db, st, e)) == SB_ROW)
		;
	db->eng->reset(st);
	return rc == SB_DONE ? SB_OK : e->code;
}

int sb_db_run_later(sb_db *db, sb_stmt *st, sb_err *e)
{
	if (db->pending || db->eng->run_later == NULL)
		return sb_db_run(db, st, e);
	return db->eng->run_later(st, e);
}

int sb_col_count(sb_stmt *st)
{
	return st->db->eng->col_count(st);
}

int sb_db_analyze(sb_db *db, const char *table, sb_err *e)
{
	return db->eng->analyze != NULL ? db->eng->analyze(db, table, e) : SB_OK;
}

const char *sb_col_name(sb_stmt *st, int col)
{
	return st->db->eng->col_name(st, col);
}

/* Append to buf (cap bytes, *o used) the n names, comma separated, each
 * after before ("" or ":"). */
static void put_names(char *buf, size_t cap, size_t *o, const char *const *names, int n, const char *before)
{
	for (int c = 0; c < n && *o < cap; c++)
		*o += (size_t)snprintf(buf + *o, cap - *o, "%s%s%s", c > 0 ? ", " : "", before, names[c]);
}

int sb_db_load_sql(sb_db *db, const char *table, const char *const *cols, int n, char *buf, size_t cap,
                   sb_err *e)
{
	size_t o = (size_t)snprintf(buf, cap, "%s %s (", db->eng->copy_loads ? "COPY" : "INSERT INTO", table);

	/* COPY t (a, b) FROM STDIN (the engine's COPY statement: its
	 * parameters are the columns), or INSERT INTO t (a, b) VALUES (:a, :b) */
	put_names(buf, cap, &o, cols, n, "");
	if (o < cap)
		o += (size_t)snprintf(buf + o, cap - o, db->eng->copy_loads ? ") FROM STDIN" : ") VALUES (");
	if (!db->eng->copy_loads) {
		put_names(buf, cap, &o, cols, n, ":");
		if (o < cap)
			o += (size_t)snprintf(buf + o, cap - o, ")");
	}
	if (o >= cap)
		return sb_fail(e, SB_EINTERNAL, "the statement storing rows of %s is too long", table);
	return SB_OK;
}

sb_col_kind_t sb_col_kind(sb_stmt *st, int col)
{
	return st->db->eng->col_kind(st, col);
}

int64_t sb_col_i64(sb_stmt *st, int col)
{
	return st->db->eng->col_i64(st, col);
}

int sb_col_int(sb_stmt *st, int col)
{
	return (int)st->db->eng->col_i64(st, col);
}

const char *sb_col_text(sb_stmt *st, int col)
{
	return st->db->eng->col_text(st, col);
}

size_t sb_col_bytes(sb_stmt *st, int col)
{
	return st->db->eng->col_bytes(st, col);
}

const void *sb_col_blob(sb_stmt *st, int col, size_t *len)
{
	return st->db->eng->col_blob(st, col, len);
}

bool sb_col_is_null(sb_stmt *st, int col)
{
	return st->db->eng->col_kind(st, col) == SB_COL_NULL;
}
