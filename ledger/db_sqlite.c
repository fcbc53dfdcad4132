/* db_sqlite.c: the SQLite engine of the ledger (see db.h, db_engine.h).
 *
 * A ledger is one SQLite file in WAL mode with foreign keys on and a busy
 * timeout; PRAGMA user_version holds how many migrations were applied,
 * PRAGMA application_id marks the file as a ledger.  The file's writers
 * take turns through an flock on FILE-lock beside it.  Longer than 600
 * lines on purpose: the opener (the file's checks, its lock, the
 * migrations) and the engine's table of calls read and write one
 * struct lite, private to this file; each call is a few lines.
 */
#include "ledger/db_engine.h"

#include "ledger/db_sqlite.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ledger/quote.h"
#include "ledger/sqlfiles.h"
#include "ledger/timefmt.h"

enum { MAX_STMTS = 128 };

/* The page cache of a connection that writes: 16 MiB (the default is
 * 2), and a checkpoint when the WAL passes 64 MiB rather than 4: a large
 * import's commits rewrite the same index pages, which are then copied
 * back into the ledger once per checkpoint instead of after every commit. */
#define WRITE_CACHE_PRAGMA "PRAGMA cache_size = -16384"
#define WRITE_CHECKPOINT_PRAGMA "PRAGMA wal_autocheckpoint = 16384"

/* The memory map of a connection that does not take the write lock (the
 * reports): up to 2 GiB of the file. */
#define READ_MMAP_PRAGMA "PRAGMA mmap_size = 2147418112"

/* A connection's own state (LITE(db)->conn). */
struct lite {
	sqlite3 *conn;                         /* the connection */
	char *file;                            /* the file it is: path resolved (no link) */
	int lock_fd;                           /* PATH-lock when holding the write lock, else -1 */
	int reader_fd;                         /* PATH-lock holding the reader's lock (a reader), else -1 */
	bool readers_out;                      /* a writer keeps readers out (sb_db_readers_shut_out) */
};

/* A statement. */
struct lite_stmt {
	struct sb_stmt base;
	sqlite3_stmt *st;
};

#define LITE(db) ((struct lite *)(db)->conn)
#define ST(s) (((struct lite_stmt *)(s))->st)

int sb_db_sqlite_error(sb_db *db, int rc, const char *what, sb_err *e)
{
	const char *msg = db != NULL && db->conn != NULL && LITE(db)->conn != NULL ? sqlite3_errmsg(LITE(db)->conn) : sqlite3_errstr(rc);
	const char *path = db != NULL && db->shown != NULL ? db->shown : "ledger";

	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return sb_fail_hint(e, SB_ETEMP, SB_HINT_BUSY, "%s: the ledger is busy (another sbledger is writing) and stayed so past the busy timeout of %d ms while %s; " SB_WORDS_BUSY,
		                    path, db != NULL ? db->busy_ms : 0, what);
	case SQLITE_FULL:
		return sb_fail(e, SB_EIO, "%s: disk full while %s", path, what);
	case SQLITE_IOERR:
	case SQLITE_CANTOPEN:
		return sb_fail(e, SB_EIO, "%s: I/O error while %s: %s", path, what, msg);
	case SQLITE_READONLY:
		return sb_fail(e, SB_EIO, "%s: the ledger is read-only (%s) while %s", path, msg, what);
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return sb_fail(e, SB_EDATA, "%s: not an sbledger ledger, or damaged: %s", path, msg);
	case SQLITE_NOMEM:
		return sb_fail(e, SB_EINTERNAL, "out of memory while %s", what);
	default:
		if (strstr(msg, "integer overflow") != NULL)
			return sb_fail(e, SB_EDATA, "%s: a sum overflows 64-bit nanodollars while %s", path, what);
		return sb_fail(e, SB_EINTERNAL, "%s: SQLite error while %s: %s", path, what, msg);
	}
}

/* Take an exclusive flock on FILE-lock, FILE the resolved ledger file
 * (so that every name of it takes the same lock), retrying until busy_ms
 * passes. */
static int take_lock(sb_db *db, sb_err *e)
{
	size_t len = strlen(LITE(db)->file) + sizeof "-lock";
	char *lock_path = malloc(len);
	char shown[SB_QUOTE_BUFSZ];
	int waited = 0;

	if (lock_path == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	snprintf(lock_path, len, "%s-lock", LITE(db)->file);
	LITE(db)->lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (LITE(db)->lock_fd < 0)
		sb_fail(e, SB_EIO, "%s: cannot open the lock file %s: %s", db->shown,
		        sb_quote(lock_path, SB_QUOTE_IF_NEEDED, shown, sizeof shown), strerror(errno));
	while (LITE(db)->lock_fd >= 0 && flock(LITE(db)->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			sb_fail(e, SB_EIO, "%s: cannot lock %s: %s", db->shown,
			        sb_quote(lock_path, SB_QUOTE_IF_NEEDED, shown, sizeof shown), strerror(errno));
			break;
		}
		if (waited >= db->busy_ms) {
			sb_fail_hint(e, SB_ETEMP, SB_HINT_BUSY, "%s: the ledger is busy: another sbledger has held its write lock for more than %d ms; " SB_WORDS_BUSY,
			             db->shown, db->busy_ms);
			break;
		}
		usleep(20 * 1000);
		waited += 20;
	}
	free(lock_path);
	return e->code;
}

/* Set (type F_RDLCK or F_WRLCK) or clear (F_UNLCK) the open file
 * description lock on the first byte of fd (PATH-lock): the readers' lock,
 * apart from the writers' flock on the same file (the two kinds do not
 * meet), and from SQLite's own locks (which are on other files).  An open
 * file description's lock is its own: closing another descriptor of the
 * file in the same process does not release it.  False when another holds
 * a lock in the way (or on an error). */
static bool ofd_lock(int fd, short type)
{
	struct flock fl;

	memset(&fl, 0, sizeof fl);
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = 0;
	fl.l_len = 1;
	return fcntl(fd, F_OFD_SETLK, &fl) == 0;
}

/* A reader's lock: shared with other readers, kept out while a writer
 * has the ledger without its secondary indexes (sb_db_readers_shut_out),
 * waiting up to busy_ms, then SB_ETEMP.  A lock file that cannot be
 * opened (a read-only directory, where no import can run either) is no
 * lock. */
static int take_reader_lock(sb_db *db, sb_err *e)
{
	char lock_path[4096];
	int waited = 0;

	snprintf(lock_path, sizeof lock_path, "%s-lock", LITE(db)->file);
	LITE(db)->reader_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (LITE(db)->reader_fd < 0)
		return SB_OK;
	for (;;) {
		if (ofd_lock(LITE(db)->reader_fd, F_RDLCK))
			return SB_OK;
		if (errno != EAGAIN && errno != EACCES && errno != EINTR) {
			close(LITE(db)->reader_fd);
			LITE(db)->reader_fd = -1;
			return SB_OK;
		}
		if (waited >= db->busy_ms)
			return sb_fail(e, SB_ETEMP, "%s: the ledger is busy: a large import has it without its indexes until it ends (it builds them then), past the busy timeout of %d ms; try again later or raise --busy-timeout",
			               db->path, db->busy_ms);
		usleep(20 * 1000);
		waited += 20;
	}
}

static bool lite_readers_shut_out(sb_db *db)
{
	if (LITE(db)->lock_fd < 0 || !ofd_lock(LITE(db)->lock_fd, F_WRLCK))
		return false;
	LITE(db)->readers_out = true;
	return true;
}

static void lite_readers_let_in(sb_db *db)
{
	if (LITE(db)->readers_out && ofd_lock(LITE(db)->lock_fd, F_UNLCK))
		LITE(db)->readers_out = false;
}

/* A ledger left without its secondary indexes (an import that dropped
 * them was killed before it built them again) gets them back before
 * anything reads it: under the write lock (taken for the while by a
 * reader), in one transaction. */
static int repair_indexes(sb_db *db, int flags, sb_err *e)
{
	bool all = false;

	if (sb_db_indexes_present(db, &all, e) != SB_OK || all)
		return e->code;
	if (((flags & SB_DB_WRITE) || take_lock(db, e) == SB_OK) && sb_db_begin(db, e) == SB_OK &&
	    (sb_db_indexes_create(db, e) != SB_OK || sb_db_commit(db, e) != SB_OK))
		sb_db_rollback(db);
	/* a reader held the write lock for the while only */
	if (!(flags & SB_DB_WRITE) && LITE(db)->lock_fd >= 0) {
		close(LITE(db)->lock_fd);
		LITE(db)->lock_fd = -1;
	}
	return e->code;
}

static int lite_exec(sb_db *db, const char *sql, sb_err *e)
{
	int rc = sqlite3_exec(LITE(db)->conn, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? SB_OK : sb_db_sqlite_error(db, rc, sql, e);
}

/* Read a one-integer PRAGMA into *out. */
static int pragma_int(sb_db *db, const char *sql, int *out, sb_err *e)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(LITE(db)->conn, sql, -1, &st, NULL);

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? SB_OK : sb_db_sqlite_error(db, rc, "reading the ledger header", e);
}

static int lite_schema_version(sb_db *db)
{
	sb_err e;
	int v = -1;

	sb_err_clear(&e);
	pragma_int(db, "PRAGMA user_version", &v, &e);
	return v;
}

/* Refuse a file that is SQLite but not a ledger, or a ledger newer than
 * this binary, reading only (nothing is written before this passes).
 * *version gets the ledger's schema version. */
static int check_identity(sb_db *db, int *version, sb_err *e)
{
	int app_id = 0, tables = 0, rc;
	int latest = sb_db_schema_latest();

	if ((rc = pragma_int(db, "PRAGMA application_id", &app_id, e)) != SB_OK)
		return rc;
	if ((rc = pragma_int(db, "PRAGMA user_version", version, e)) != SB_OK)
		return rc;
	if ((rc = pragma_int(db, "SELECT COUNT(*) FROM sqlite_schema", &tables, e)) != SB_OK)
		return rc;
	if (app_id != SB_APPLICATION_ID && (app_id != 0 || *version != 0 || tables != 0))
		return sb_fail(e, SB_EDATA, "%s: a SQLite database of another program, not an sbledger ledger; left untouched", db->shown);
	if (*version > latest)
		return sb_fail(e, SB_EDATA, "%s: the ledger has schema version %d, newer than this sbledger knows (%d); upgrade sbledger; the ledger was left untouched",
		               db->shown, *version, latest);
	return SB_OK;
}

/* Check the ledger (check_identity); apply pending migrations in one
 * transaction. */
static int migrate(sb_db *db, sb_err *e)
{
	int version = 0, rc;
	int latest = sb_db_schema_latest();
	char sql[64];

	if ((rc = check_identity(db, &version, e)) != SB_OK)
		return rc;
	if (version == latest)
		return SB_OK;

	if ((rc = sb_db_begin(db, e)) != SB_OK)
		return rc;
	/* another process may have migrated while this one waited */
	if ((rc = pragma_int(db, "PRAGMA user_version", &version, e)) != SB_OK)
		goto fail;
	for (const struct sb_sqlfile *f = sb_sqlfiles; f->name != NULL; f++) {
		int n;
		if (strncmp(f->name, "schema/", 7) != 0)
			continue;
		n = atoi(f->name + 7);
		if (n <= version)
			continue;
		rc = sqlite3_exec(LITE(db)->conn, f->text, NULL, NULL, NULL);
		if (rc != SQLITE_OK) {
			sb_db_sqlite_error(db, rc, f->name, e);
			goto fail;
		}
	}
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", latest);
	if ((rc = sb_db_exec(db, sql, e)) != SB_OK)
		goto fail;
	snprintf(sql, sizeof sql, "PRAGMA application_id = %d", SB_APPLICATION_ID);
	if ((rc = sb_db_exec(db, sql, e)) != SB_OK)
		goto fail;
	return sb_db_commit(db, e);
fail:
	sb_db_rollback(db);
	return e->code;
}

/* Create path as an empty file with mode 0600 unless it exists. */
static int create_file(const char *path, bool *created, sb_err *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	char shown[SB_QUOTE_BUFSZ];

	*created = false;
	if (fd >= 0) {
		*created = true;
		close(fd);
		return SB_OK;
	}
	if (errno == EEXIST)
		return SB_OK;
	return sb_fail(e, SB_EIO, "%s: cannot create the ledger: %s",
	               sb_quote(path, SB_QUOTE_IF_NEEDED, shown, sizeof shown), strerror(errno));
}

/* The file path names, resolved (malloc'd): realpath of the file, or for
 * a file not there yet, of its directory with its name appended. */
static char *resolve(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *real, *out;
	size_t len;

	if ((real = realpath(path, NULL)) != NULL || errno != ENOENT)
		return real;
	if (slash == NULL)
		dir = realpath(".", NULL);
	else if (slash == path)
		dir = strdup("/");
	else {
		char *head = strndup(path, (size_t)(slash - path));
		dir = head != NULL ? realpath(head, NULL) : NULL;
		free(head);
	}
	if (dir == NULL)
		return NULL;
	len = strlen(dir) + strlen(slash != NULL ? slash + 1 : path) + 2;
	if ((out = malloc(len)) != NULL)
		snprintf(out, len, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/",
		         slash != NULL ? slash + 1 : path);
	free(dir);
	return out;
}

/* The ledger file's own refusals, on what it is (st): a file with more
 * than one hard link (SQLite keeps the journal beside the name it opened,
 * so two names would be two ledgers to it), and an empty file, which is
 * not a ledger (init makes one of it). */
static int check_file(sb_db *db, const struct stat *st, int flags, sb_err *e)
{
	char arg[SB_QUOTE_BUFSZ], word[SB_QUOTE_BUFSZ];

	/* a path the sqlite3 shell would take for an option goes as ./PATH */
	snprintf(arg, sizeof arg, "%s%s", sb_quote_is_option(db->path) ? "./" : "", db->path);
	if (st->st_nlink > 1)
		return sb_fail(e, SB_EDATA, "%s: the ledger file has %ju hard links; SQLite keeps a ledger's journal beside the name it was opened by, so two names would be two ledgers: refused, the file left as it is. To copy a ledger use sqlite3 %s \".backup COPY\", then remove the other links",
		               db->shown, (uintmax_t)st->st_nlink, sb_quote(arg, SB_QUOTE_IF_NEEDED, word, sizeof word));
	if (st->st_size == 0 && !(flags & SB_DB_CREATE))
		return sb_fail_hint(e, SB_ENOINPUT, SB_HINT_INIT_EMPTY, "%s: an empty file, not a ledger; " SB_WORDS_INIT_EMPTY,
		                    db->shown, db->shown);
	return SB_OK;
}

static int lite_open(sb_db *db, int flags, sb_err *e)
{
	const char *path = db->path;
	struct lite *l = calloc(1, sizeof *l);
	struct stat st;
	bool exists = false;
	int rc;

	if ((db->conn = l) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	l->lock_fd = -1;
	l->reader_fd = -1;
	if (!(flags & SB_DB_MEMORY)) {
		if (stat(path, &st) != 0) {
			if (errno != ENOENT || !(flags & SB_DB_CREATE)) {
				if (errno == ENOENT)
					sb_fail_hint(e, SB_ENOINPUT, SB_HINT_INIT_MISSING,
					             "%s: no ledger here; " SB_WORDS_INIT_MISSING, db->shown, db->shown);
				else
					sb_fail(e, SB_ENOINPUT, "%s: cannot open the ledger: %s", db->shown, strerror(errno));
				goto fail;
			}
		} else if (!S_ISREG(st.st_mode)) {
			sb_fail(e, SB_ENOINPUT, "%s: not a ledger file", db->shown);
			goto fail;
		} else {
			exists = true;
		}
		/* refused before anything is made beside it (its lock file) */
		if (exists && st.st_nlink > 1 && check_file(db, &st, flags, e) != SB_OK)
			goto fail;
		if ((LITE(db)->file = resolve(path)) == NULL) {
			sb_fail(e, SB_ENOINPUT, "%s: cannot open the ledger: %s", db->shown, strerror(errno));
			goto fail;
		}
		if ((flags & SB_DB_WRITE) && take_lock(db, e) != SB_OK)
			goto fail;
		/* again under the lock, on the resolved file: an init that was
		 * making the file has finished by now */
		if (stat(LITE(db)->file, &st) == 0) {
			if (check_file(db, &st, flags, e) != SB_OK)
				goto fail;
			if (st.st_size == 0) {
				/* init of an empty file: a ledger is made of it, 0600 */
				if (chmod(LITE(db)->file, 0600) != 0) {
					sb_fail(e, SB_EIO, "%s: cannot make the file mode 0600: %s", db->shown, strerror(errno));
					goto fail;
				}
				db->created = true;
			}
		} else if (errno != ENOENT || !(flags & SB_DB_CREATE)) {
			sb_fail(e, SB_ENOINPUT, "%s: cannot open the ledger: %s", db->shown, strerror(errno));
			goto fail;
		}
		if ((flags & SB_DB_CREATE) && !db->created && create_file(LITE(db)->file, &db->created, e) != SB_OK)
			goto fail;
	}
	rc = sqlite3_open_v2(LITE(db)->file != NULL ? LITE(db)->file : db->path, &LITE(db)->conn,
	                     SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		sb_db_sqlite_error(db, rc, "opening the ledger", e);
		goto fail;
	}
	sqlite3_extended_result_codes(LITE(db)->conn, 1);
	sqlite3_busy_timeout(LITE(db)->conn, db->busy_ms);
	if (sb_db_exec(db, "PRAGMA foreign_keys = ON", e) != SB_OK)
		goto fail;
	if (!(flags & SB_DB_MEMORY)) {
		int version = 0;
		/* before WAL changes the file: a non-database file, another
		 * program's database or a newer ledger is left untouched */
		if (check_identity(db, &version, e) != SB_OK)
			goto fail;
		if (sb_db_exec(db, "PRAGMA journal_mode = WAL", e) != SB_OK ||
		    sb_db_exec(db, "PRAGMA synchronous = NORMAL", e) != SB_OK)
			goto fail;
		/* a writer's page cache: fewer index pages read back and written
		 * twice during a large import, within its memory budget */
		if ((flags & SB_DB_WRITE) && (sb_db_exec(db, WRITE_CACHE_PRAGMA, e) != SB_OK ||
		                              sb_db_exec(db, WRITE_CHECKPOINT_PRAGMA, e) != SB_OK))
			goto fail;
		/* reports read the ledger through memory maps: a month of runs
		 * found through an index is pages in random order, each a
		 * pread() of 4 KiB and a copy otherwise */
		if (!(flags & SB_DB_WRITE) && sb_db_exec(db, READ_MMAP_PRAGMA, e) != SB_OK)
			goto fail;
		/* a reader is kept out while an import has the ledger without
		 * its secondary indexes */
		if (!(flags & SB_DB_WRITE) && take_reader_lock(db, e) != SB_OK)
			goto fail;
	}
	if (migrate(db, e) != SB_OK)
		goto fail;
	if (!(flags & SB_DB_MEMORY) && repair_indexes(db, flags, e) != SB_OK)
		goto fail;
	return SB_OK;
fail:
	return e->code;
}


static void lite_close(sb_db *db)
{
	struct lite *l = LITE(db);

	if (l == NULL)
		return;
	sqlite3_close(l->conn);
	if (l->lock_fd >= 0)
		close(l->lock_fd);
	if (l->reader_fd >= 0)
		close(l->reader_fd);
	free(l->file);
	free(l);
	db->conn = NULL;
}

static int lite_prepare(sb_db *db, const char *sql, const char **tail, const char *what, sb_stmt **out,
                        sb_err *e)
{
	sqlite3_stmt *st = NULL;
	struct lite_stmt *ls;
	/* the statements of sql/queries are kept for the connection's life */
	unsigned pflags = strncmp(what, "queries/", 8) == 0 ? SQLITE_PREPARE_PERSISTENT : 0;
	int rc = sqlite3_prepare_v3(LITE(db)->conn, sql, -1, pflags, &st, tail);

	*out = NULL;
	if (rc != SQLITE_OK) {
		sb_fail(e, SB_EINTERNAL, "sql/%s.sql does not prepare: %s", what, sqlite3_errmsg(LITE(db)->conn));
		sqlite3_finalize(st);
		return e->code;
	}
	if (st == NULL)
		return SB_OK;
	if ((ls = malloc(sizeof *ls)) == NULL) {
		sqlite3_finalize(st);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	ls->base.db = db;
	ls->st = st;
	*out = &ls->base;
	return SB_OK;
}

static void lite_finalize(sb_stmt *st)
{
	sqlite3_finalize(ST(st));
	free(st);
}

static void lite_reset(sb_stmt *st)
{
	sqlite3_reset(ST(st));
}

static void lite_clear(sb_stmt *st)
{
	sqlite3_clear_bindings(ST(st));
}

static const char *lite_sql(sb_stmt *st)
{
	return sqlite3_sql(ST(st));
}

static int lite_param(sb_stmt *st, const char *name)
{
	return sqlite3_bind_parameter_index(ST(st), name);
}

static const char *lite_param_name(sb_stmt *st, int i)
{
	return sqlite3_bind_parameter_name(ST(st), i);
}

/* A bind's result: 0, or nonzero with SQLite's reason in *why. */
static int bound(int rc, const char **why)
{
	if (rc == SQLITE_OK)
		return 0;
	*why = sqlite3_errstr(rc);
	return rc;
}

static int lite_bind_i64(sb_stmt *st, int i, int64_t v, const char **why)
{
	return bound(sqlite3_bind_int64(ST(st), i, v), why);
}

static int lite_bind_text(sb_stmt *st, int i, const char *v, size_t len, bool copy, const char **why)
{
	return bound(sqlite3_bind_text64(ST(st), i, v, len, copy ? SQLITE_TRANSIENT : SQLITE_STATIC, SQLITE_UTF8),
	             why);
}

static int lite_bind_blob(sb_stmt *st, int i, const void *v, size_t len, const char **why)
{
	return bound(sqlite3_bind_blob64(ST(st), i, v, len, SQLITE_TRANSIENT), why);
}

static int lite_bind_null(sb_stmt *st, int i, const char **why)
{
	return bound(sqlite3_bind_null(ST(st), i), why);
}

static int lite_step(sb_stmt *st, sb_err *e)
{
	int rc = sqlite3_step(ST(st));

	if (rc == SQLITE_ROW)
		return SB_ROW;
	if (rc == SQLITE_DONE)
		return SB_DONE;
	sb_db_sqlite_error(st->db, rc, "running a query", e);
	sqlite3_reset(ST(st));
	return -1;
}

static int lite_col_count(sb_stmt *st)
{
	return sqlite3_column_count(ST(st));
}

static const char *lite_col_name(sb_stmt *st, int c)
{
	return sqlite3_column_name(ST(st), c);
}

static sb_col_kind_t lite_col_kind(sb_stmt *st, int c)
{
	switch (sqlite3_column_type(ST(st), c)) {
	case SQLITE_INTEGER: return SB_COL_INT;
	case SQLITE_FLOAT: return SB_COL_REAL;
	case SQLITE_TEXT: return SB_COL_TEXT;
	case SQLITE_BLOB: return SB_COL_BLOB;
	default: return SB_COL_NULL;
	}
}

static int64_t lite_col_i64(sb_stmt *st, int c)
{
	return sqlite3_column_int64(ST(st), c);
}

static const char *lite_col_text(sb_stmt *st, int c)
{
	return (const char *)sqlite3_column_text(ST(st), c);
}

static size_t lite_col_bytes(sb_stmt *st, int c)
{
	return (size_t)sqlite3_column_bytes(ST(st), c);
}

static const void *lite_col_blob(sb_stmt *st, int c, size_t *len)
{
	const void *p = sqlite3_column_blob(ST(st), c);

	*len = (size_t)sqlite3_column_bytes(ST(st), c);
	return p;
}

static int lite_begin(sb_db *db, sb_err *e)
{
	return lite_exec(db, "BEGIN IMMEDIATE", e);
}

static void lite_rollback(sb_db *db)
{
	sqlite3_exec(LITE(db)->conn, "ROLLBACK", NULL, NULL, NULL);
}

static bool lite_in_tx(sb_db *db)
{
	return LITE(db)->conn != NULL && !sqlite3_get_autocommit(LITE(db)->conn);
}

static int64_t lite_last_id(sb_db *db)
{
	return sqlite3_last_insert_rowid(LITE(db)->conn);
}

static int64_t lite_changes(sb_db *db)
{
	return sqlite3_changes64(LITE(db)->conn);
}

/* integrity_check reads every page: nothing left out. */
static const char *lite_check_note(sb_db *db)
{
	(void)db;
	return NULL;
}

static int lite_foreign_keys(sb_db *db, bool on, sb_err *e)
{
	return lite_exec(db, on ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF", e);
}

const struct sb_engine sb_engine_sqlite = {
	.name = "SQLite",
	.open = lite_open,
	.close = lite_close,
	.prepare = lite_prepare,
	.finalize = lite_finalize,
	.reset = lite_reset,
	.clear = lite_clear,
	.sql = lite_sql,
	.param = lite_param,
	.param_name = lite_param_name,
	.bind_i64 = lite_bind_i64,
	.bind_text = lite_bind_text,
	.bind_blob = lite_bind_blob,
	.bind_null = lite_bind_null,
	.step = lite_step,
	.col_count = lite_col_count,
	.col_name = lite_col_name,
	.col_kind = lite_col_kind,
	.col_i64 = lite_col_i64,
	.col_text = lite_col_text,
	.col_bytes = lite_col_bytes,
	.col_blob = lite_col_blob,
	.exec = lite_exec,
	.begin = lite_begin,
	.rollback = lite_rollback,
	.in_tx = lite_in_tx,
	.last_id = lite_last_id,
	.changes = lite_changes,
	.schema_version = lite_schema_version,
	.foreign_keys = lite_foreign_keys,
	.check_note = lite_check_note,
	.readers_shut_out = lite_readers_shut_out,
	.readers_let_in = lite_readers_let_in,
};

sqlite3 *sb_db_sqlite(sb_db *db)
{
	return db->eng == &sb_engine_sqlite ? LITE(db)->conn : NULL;
}

sqlite3_stmt *sb_stmt_sqlite(sb_stmt *st)
{
	return ST(st);
}
