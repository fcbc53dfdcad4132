/* db.c: the ledger file (see db.h).
 *
 * Longer than 600 lines on purpose: the opener (the file's checks, its
 * lock, the migrations), the statement cache, the binds with their
 * pending error and the steps all read and write one sb_db, whose fields
 * stay private to this file; each bind is a few lines.
 */
#include "ledger/db.h"

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

struct cached_stmt {
	const char *name;    /* query name (static storage from sb_sqlfiles) */
	sqlite3_stmt *st;    /* prepared statement */
};

struct sb_db {
	sqlite3 *conn;                         /* the connection */
	char *path;                            /* ledger path as given */
	char *shown;                           /* path quoted for messages (ledger/quote.h) */
	char *file;                            /* the file it is: path resolved (no link) */
	int lock_fd;                           /* PATH-lock when holding the write lock, else -1 */
	int reader_fd;                         /* PATH-lock holding the reader's lock (a reader), else -1 */
	bool readers_out;                      /* a writer keeps readers out (sb_db_readers_shut_out) */
	int busy_ms;                           /* busy timeout */
	sb_clock clock;                        /* what "now" is (sb_db_set_clock) */
	bool created;                          /* init created the file */
	int pending;                           /* first bind error since the last step */
	char pending_msg[256];                 /* its description */
	size_t n_stmts;                        /* entries used in stmts */
	struct cached_stmt stmts[MAX_STMTS];   /* prepared queries by name */
};

const char *sb_sql(const char *name)
{
	for (const struct sb_sqlfile *f = sb_sqlfiles; f->name != NULL; f++)
		if (strcmp(f->name, name) == 0)
			return f->text;
	return NULL;
}

int sb_db_schema_latest(void)
{
	int n = 0;

	for (const struct sb_sqlfile *f = sb_sqlfiles; f->name != NULL; f++)
		if (strncmp(f->name, "schema/", 7) == 0)
			n++;
	return n;
}

void sb_db_set_clock(sb_db *db, sb_clock c)
{
	db->clock = c;
}

int64_t sb_db_now_ms(const sb_db *db)
{
	return sb_clock_now(&db->clock);
}

int sb_db_error(sb_db *db, int rc, const char *what, sb_err *e)
{
	const char *msg = db != NULL && db->conn != NULL ? sqlite3_errmsg(db->conn) : sqlite3_errstr(rc);
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
	size_t len = strlen(db->file) + sizeof "-lock";
	char *lock_path = malloc(len);
	char shown[SB_QUOTE_BUFSZ];
	int waited = 0;

	if (lock_path == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	snprintf(lock_path, len, "%s-lock", db->file);
	db->lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (db->lock_fd < 0)
		sb_fail(e, SB_EIO, "%s: cannot open the lock file %s: %s", db->shown,
		        sb_quote(lock_path, SB_QUOTE_IF_NEEDED, shown, sizeof shown), strerror(errno));
	while (db->lock_fd >= 0 && flock(db->lock_fd, LOCK_EX | LOCK_NB) != 0) {
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

	snprintf(lock_path, sizeof lock_path, "%s-lock", db->file);
	db->reader_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (db->reader_fd < 0)
		return SB_OK;
	for (;;) {
		if (ofd_lock(db->reader_fd, F_RDLCK))
			return SB_OK;
		if (errno != EAGAIN && errno != EACCES && errno != EINTR) {
			close(db->reader_fd);
			db->reader_fd = -1;
			return SB_OK;
		}
		if (waited >= db->busy_ms)
			return sb_fail(e, SB_ETEMP, "%s: the ledger is busy: a large import has it without its indexes until it ends (it builds them then), past the busy timeout of %d ms; try again later or raise --busy-timeout",
			               db->path, db->busy_ms);
		usleep(20 * 1000);
		waited += 20;
	}
}

bool sb_db_readers_shut_out(sb_db *db)
{
	if (db->lock_fd < 0 || !ofd_lock(db->lock_fd, F_WRLCK))
		return false;
	db->readers_out = true;
	return true;
}

void sb_db_readers_let_in(sb_db *db)
{
	if (db->readers_out && ofd_lock(db->lock_fd, F_UNLCK))
		db->readers_out = false;
}

int sb_db_indexes_present(sb_db *db, bool *all, sb_err *e)
{
	sqlite3_stmt *st = sb_db_stmt(db, "indexes_present", e);
	int rc;

	*all = false;
	if (st == NULL)
		return e->code;
	if ((rc = sb_db_step(db, st, e)) == SQLITE_ROW)
		*all = sqlite3_column_int(st, 0) == sqlite3_column_int(st, 1);
	sqlite3_reset(st);
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
	if (!(flags & SB_DB_WRITE) && db->lock_fd >= 0) {
		close(db->lock_fd);
		db->lock_fd = -1;
	}
	return e->code;
}

int sb_db_exec(sb_db *db, const char *sql, sb_err *e)
{
	int rc = sqlite3_exec(db->conn, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? SB_OK : sb_db_error(db, rc, sql, e);
}

/* Read a one-integer PRAGMA into *out. */
static int pragma_int(sb_db *db, const char *sql, int *out, sb_err *e)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL);

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? SB_OK : sb_db_error(db, rc, "reading the ledger header", e);
}

int sb_db_schema_version(sb_db *db)
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
		rc = sqlite3_exec(db->conn, f->text, NULL, NULL, NULL);
		if (rc != SQLITE_OK) {
			sb_db_error(db, rc, f->name, e);
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

/* path quoted for messages (malloc'd), or NULL when out of memory. */
static char *quote_path(const char *path)
{
	size_t cap = SB_QUOTE_SIZE(strlen(path));
	char *buf = malloc(cap);

	return buf != NULL ? (char *)sb_quote(path, SB_QUOTE_IF_NEEDED, buf, cap) : NULL;
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

int sb_db_open(const char *path, int flags, int busy_ms, sb_db **out, sb_err *e)
{
	sb_db *db = calloc(1, sizeof *db);
	struct stat st;
	bool exists = false;
	int rc;

	*out = NULL;
	if (db == NULL || (db->path = strdup(flags & SB_DB_MEMORY ? ":memory:" : path)) == NULL ||
	    (db->shown = quote_path(db->path)) == NULL) {
		if (db != NULL)
			free(db->path);
		free(db);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	db->lock_fd = -1;
	db->reader_fd = -1;
	db->busy_ms = busy_ms;
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
		if ((db->file = resolve(path)) == NULL) {
			sb_fail(e, SB_ENOINPUT, "%s: cannot open the ledger: %s", db->shown, strerror(errno));
			goto fail;
		}
		if ((flags & SB_DB_WRITE) && take_lock(db, e) != SB_OK)
			goto fail;
		/* again under the lock, on the resolved file: an init that was
		 * making the file has finished by now */
		if (stat(db->file, &st) == 0) {
			if (check_file(db, &st, flags, e) != SB_OK)
				goto fail;
			if (st.st_size == 0) {
				/* init of an empty file: a ledger is made of it, 0600 */
				if (chmod(db->file, 0600) != 0) {
					sb_fail(e, SB_EIO, "%s: cannot make the file mode 0600: %s", db->shown, strerror(errno));
					goto fail;
				}
				db->created = true;
			}
		} else if (errno != ENOENT || !(flags & SB_DB_CREATE)) {
			sb_fail(e, SB_ENOINPUT, "%s: cannot open the ledger: %s", db->shown, strerror(errno));
			goto fail;
		}
		if ((flags & SB_DB_CREATE) && !db->created && create_file(db->file, &db->created, e) != SB_OK)
			goto fail;
	}
	rc = sqlite3_open_v2(db->file != NULL ? db->file : db->path, &db->conn,
	                     SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		sb_db_error(db, rc, "opening the ledger", e);
		goto fail;
	}
	sqlite3_extended_result_codes(db->conn, 1);
	sqlite3_busy_timeout(db->conn, busy_ms);
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
	*out = db;
	return SB_OK;
fail:
	sb_db_close(db);
	return e->code;
}

void sb_db_close(sb_db *db)
{
	if (db == NULL)
		return;
	for (size_t i = 0; i < db->n_stmts; i++)
		sqlite3_finalize(db->stmts[i].st);
	sqlite3_close(db->conn);
	if (db->lock_fd >= 0)
		close(db->lock_fd);
	if (db->reader_fd >= 0)
		close(db->reader_fd);
	free(db->path);
	free(db->shown);
	free(db->file);
	free(db);
}

sqlite3 *sb_db_handle(sb_db *db)
{
	return db->conn;
}

bool sb_db_created(const sb_db *db)
{
	return db->created;
}

sqlite3_stmt *sb_db_stmt(sb_db *db, const char *name, sb_err *e)
{
	char full[128];
	const char *text;
	sqlite3_stmt *st = NULL;
	int rc;

	for (size_t i = 0; i < db->n_stmts; i++) {
		if (strcmp(db->stmts[i].name, name) == 0) {
			sqlite3_reset(db->stmts[i].st);
			sqlite3_clear_bindings(db->stmts[i].st);
			return db->stmts[i].st;
		}
	}
	snprintf(full, sizeof full, "queries/%s", name);
	text = sb_sql(full);
	if (text == NULL) {
		sb_fail(e, SB_EINTERNAL, "no SQL file sql/%s.sql in this binary", full);
		return NULL;
	}
	if (db->n_stmts == MAX_STMTS) {
		sb_fail(e, SB_EINTERNAL, "too many prepared statements");
		return NULL;
	}
	rc = sqlite3_prepare_v3(db->conn, text, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL);
	if (rc != SQLITE_OK) {
		sb_fail(e, SB_EINTERNAL, "sql/%s.sql does not prepare: %s", full, sqlite3_errmsg(db->conn));
		sqlite3_finalize(st);
		return NULL;
	}
	for (const struct sb_sqlfile *f = sb_sqlfiles; f->name != NULL; f++)
		if (strcmp(f->name, full) == 0)
			db->stmts[db->n_stmts].name = f->name + 8;
	db->stmts[db->n_stmts++].st = st;
	return st;
}

int sb_db_exec_file(sb_db *db, const char *name, sb_err *e)
{
	const char *text = sb_sql(name);

	if (text == NULL)
		return sb_fail(e, SB_EINTERNAL, "no SQL file sql/%s.sql in this binary", name);
	return sb_db_exec(db, text, e);
}

int sb_db_foreign_keys(sb_db *db, bool on, sb_err *e)
{
	if (!sqlite3_get_autocommit(db->conn))
		return sb_fail(e, SB_EINTERNAL, "foreign keys switched inside a transaction");
	return sb_db_exec(db, on ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF", e);
}

int sb_db_begin(sb_db *db, sb_err *e)
{
	return sb_db_exec(db, "BEGIN IMMEDIATE", e);
}

int sb_db_commit(sb_db *db, sb_err *e)
{
	return sb_db_exec(db, "COMMIT", e);
}

void sb_db_rollback(sb_db *db)
{
	if (db != NULL && db->conn != NULL && !sqlite3_get_autocommit(db->conn))
		sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
}

/* The index of parameter name in st, or 0 with a pending error. */
static int param(sb_db *db, sqlite3_stmt *st, const char *name)
{
	int i = sqlite3_bind_parameter_index(st, name);

	if (i == 0 && db->pending == SQLITE_OK) {
		db->pending = SQLITE_RANGE;
		snprintf(db->pending_msg, sizeof db->pending_msg, "statement has no parameter %s: %s",
		         name, sqlite3_sql(st));
	}
	return i;
}

/* Record a failing bind as the pending error. */
static void bound(sb_db *db, int rc, const char *name)
{
	if (rc != SQLITE_OK && db->pending == SQLITE_OK) {
		db->pending = rc;
		snprintf(db->pending_msg, sizeof db->pending_msg, "binding %s: %s", name, sqlite3_errstr(rc));
	}
}

void sb_bind_i64(sb_db *db, sqlite3_stmt *st, const char *name, int64_t v)
{
	int i = param(db, st, name);
	if (i > 0)
		bound(db, sqlite3_bind_int64(st, i, v), name);
}

void sb_bind_text(sb_db *db, sqlite3_stmt *st, const char *name, const char *v)
{
	int i = param(db, st, name);
	if (i > 0)
		bound(db, sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT), name);
}

void sb_bind_textn(sb_db *db, sqlite3_stmt *st, const char *name, const char *v, size_t len)
{
	int i = param(db, st, name);
	if (i > 0)
		bound(db, sqlite3_bind_text64(st, i, v, len, SQLITE_TRANSIENT, SQLITE_UTF8), name);
}

void sb_bind_blob(sb_db *db, sqlite3_stmt *st, const char *name, const void *v, size_t len)
{
	int i = param(db, st, name);
	if (i > 0)
		bound(db, sqlite3_bind_blob64(st, i, v, len, SQLITE_TRANSIENT), name);
}

void sb_bind_null(sb_db *db, sqlite3_stmt *st, const char *name)
{
	int i = param(db, st, name);
	if (i > 0)
		bound(db, sqlite3_bind_null(st, i), name);
}

void sb_bind_i64_opt(sb_db *db, sqlite3_stmt *st, const char *name, bool has, int64_t v)
{
	if (has)
		sb_bind_i64(db, st, name, v);
	else
		sb_bind_null(db, st, name);
}

void sb_bind_text_opt(sb_db *db, sqlite3_stmt *st, const char *name, const char *v)
{
	if (v != NULL)
		sb_bind_text(db, st, name, v);
	else
		sb_bind_null(db, st, name);
}

int sb_db_param(sb_db *db, sqlite3_stmt *st, const char *name, sb_err *e)
{
	int i = sqlite3_bind_parameter_index(st, name);

	(void)db;
	if (i == 0)
		sb_fail(e, SB_EINTERNAL, "statement has no parameter %s: %s", name, sqlite3_sql(st));
	return i;
}

void sb_bindi_i64(sb_db *db, sqlite3_stmt *st, int i, int64_t v)
{
	int rc = sqlite3_bind_int64(st, i, v);

	if (rc != SQLITE_OK)
		bound(db, rc, sqlite3_bind_parameter_name(st, i));
}

void sb_bindi_i64_opt(sb_db *db, sqlite3_stmt *st, int i, bool has, int64_t v)
{
	int rc = has ? sqlite3_bind_int64(st, i, v) : sqlite3_bind_null(st, i);

	if (rc != SQLITE_OK)
		bound(db, rc, sqlite3_bind_parameter_name(st, i));
}

void sb_bindi_text(sb_db *db, sqlite3_stmt *st, int i, const char *v)
{
	int rc = v != NULL ? sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);

	if (rc != SQLITE_OK)
		bound(db, rc, sqlite3_bind_parameter_name(st, i));
}

void sb_bindi_textn(sb_db *db, sqlite3_stmt *st, int i, const char *v, size_t len)
{
	int rc = v != NULL ? sqlite3_bind_text64(st, i, v, len, SQLITE_STATIC, SQLITE_UTF8)
	                   : sqlite3_bind_null(st, i);

	if (rc != SQLITE_OK)
		bound(db, rc, sqlite3_bind_parameter_name(st, i));
}

int sb_db_step(sb_db *db, sqlite3_stmt *st, sb_err *e)
{
	int rc;

	if (db->pending != SQLITE_OK) {
		sb_fail(e, SB_EINTERNAL, "%s", db->pending_msg);
		db->pending = SQLITE_OK;
		sqlite3_reset(st);
		return -1;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc;
	sb_db_error(db, rc, "running a query", e);
	sqlite3_reset(st);
	return -1;
}

int sb_db_run(sb_db *db, sqlite3_stmt *st, sb_err *e)
{
	int rc;

	while ((rc = sb_db_step(db, st, e)) == SQLITE_ROW)
		;
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SB_OK : e->code;
}

const char *sb_col_text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

bool sb_col_is_null(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL;
}
