/* db_pg.c: the PostgreSQL engine of the ledger (see db.h, db_engine.h).
 *
 * A ledger is the tables of one database (in the connection's schema,
 * search_path as libpq's URL or environment sets it), named by a
 * postgresql:// or postgres:// URL that sb_db_url_read has read with
 * libpq's parser and written back password-free before anything
 * connects (a password in it, an option libpq does not know or a value
 * it would refuse is a usage error; libpq's PGPASSWORD and ~/.pgpass
 * serve), so that no password reaches ps, messages or batch sources.
 *
 * The table sbledger_meta holds the ledger's mark and its schema
 * version; sql/pg/schema/NNN_*.sql are its migrations, applied inside one
 * transaction under an advisory lock.  Writers take turns as on a SQLite
 * file: a connection that writes (SB_DB_WRITE) holds the ledger's
 * advisory lock for its life, and every write transaction of any other
 * takes it for the transaction; a lock waits lock_timeout = the busy
 * timeout, then "the ledger is busy" (SB_ETEMP).  Readers never wait.
 *
 * Statements: ":name" parameters are rewritten to $1..$n (outside quotes
 * and comments), prepared on the server on first use with the types of
 * that run's binds (an integer bigint, a text text, a blob bytea; a NULL
 * left for the server to infer from where it stands), and sent as text
 * (blobs as binary bytea).  Rows come back as text: integers
 * are parsed exactly (a sum past 64 bits is a REAL column, as on SQLite,
 * which the callers refuse), booleans read 1 and 0.  A statement's rows
 * come one at a time as it is stepped (libpq's single-row mode), so that
 * a report's memory does not grow with its rows; when another statement
 * needs the connection meanwhile, the rows not yet stepped to are read
 * ahead for it first (unstream).  A file holding "COPY table (col, ...)
 * FROM STDIN" is a COPY statement: each run of it is a row, held and sent
 * with the others in one COPY before the next statement (copy_row).
 * Longer than 600 lines on
 * purpose: the connection, the rewrite of parameters, the binds, the
 * rows and the engine's table of calls read and write one struct pg.
 */
#include "ledger/db_engine.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#include "ledger/quote.h"
#include "ledger/sqlfiles.h"

/* Type OIDs of the server's catalogue (pg_type.dat; fixed since 7.x). */
enum {
	OID_BOOL = 16, OID_BYTEA = 17, OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23, OID_TEXT = 25,
	OID_FLOAT4 = 700, OID_FLOAT8 = 701, OID_NUMERIC = 1700
};

/* Statements sent without waiting (sb_db_run_later) before their results
 * are read: a bound on what the connection keeps queued. */
enum { MAX_PENDING = 512 };

/* The bytes of COPY rows held before they are sent (copy_flush). */
enum { COPY_HOLD = 4 << 20 };

/* The advisory lock of the ledger's writers: "SBLG" and 1. */
#define WRITE_LOCK "1396853831, 1"

/* A connection's own state (db->conn). */
struct pg {
	PGconn *conn;
	bool holds_write_lock;     /* SB_DB_WRITE: the writers' lock, for the session */
	int64_t changes;           /* rows the last command changed */
	bool returned_id;          /* the last INSERT returned its row's id (RETURNING) */
	int64_t last_id;           /* that id */
	unsigned next_name;        /* the next server-side statement's number */
	struct pg_stmt *stream;    /* the statement whose rows are still coming, or NULL */
	int pending;               /* statements sent in pipeline mode, results not read */
	const char *pending_what[MAX_PENDING]; /* their files, for messages */
	struct pg_stmt *copies;    /* the COPY statements holding rows not yet sent, in the
	                              order of their first row (copy_flush) */
	size_t copy_bytes;         /* the bytes of those rows */
	sb_err copy_late;          /* an error sending them when a statement holding rows was
	                              finalized: told at the next statement (copy_flush) */
};

/* One parameter of a statement. */
struct param {
	char *name;                /* ":from" */
	const char *value;         /* bound value (text, or bytes for a blob); NULL: NULL */
	int len;                   /* its length */
	bool blob;                 /* sent as binary bytea */
	unsigned type;             /* its type as bound: bigint, text, bytea; 0 (NULL) unknown */
	char *own;                 /* storage of a copied value */
	size_t own_cap;
	char num[24];              /* storage of an integer's decimal text */
};

/* A statement. */
struct pg_stmt {
	struct sb_stmt base;
	char *text;                /* the statement as written (":name") */
	const char *what;          /* the file it is from, for messages (static storage) */
	char *sql;                 /* rewritten ($n) */
	char server_name[24];      /* its name on the server once prepared, else "" */
	int n_params;
	struct param *params;
	PGresult *res;             /* rows of the current run, or (streamed) the current row */
	int row;                   /* the current row in res (-1 before the first) */
	bool ran;                  /* run since the last reset */
	bool done;                 /* stepped to its end */
	bool streamed;             /* its rows come one at a time (libpq's single-row mode) */
	PGresult *first;           /* streamed: the first row, read by run, not yet stepped to */
	PGresult **rest;           /* streamed: the rows read ahead for another statement, or NULL */
	size_t n_rest, rest_at, rest_cap;
	int64_t rows;              /* streamed: rows stepped to */
	int64_t first_id;          /* streamed: the first row's first column (an INSERT's RETURNING) */
	sb_err late;               /* streamed: an error met while its rows were read ahead */
	void **blobs;              /* decoded bytea of the current row, by column */
	size_t *blob_lens;
	int n_blobs;
	bool copy;                 /* a COPY ... FROM STDIN: each run a row (copy_row) */
	char *copy_rows;           /* COPY: the rows not yet sent, in COPY's text format */
	size_t copy_len, copy_cap;
	struct pg_stmt *next_copy; /* COPY: the next in the connection's copies */
};

#define PG(db) ((struct pg *)(db)->conn)
#define PS(s) ((struct pg_stmt *)(s))

static void no_notices(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* The connection's last message, its first line (libpq ends it with a
 * newline), in buf. */
static const char *conn_message(PGconn *conn, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s", PQerrorMessage(conn));
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* Map the error of res (or of the connection, res NULL) into e: a lock
 * not had within the busy timeout, a deadlock or a serialization failure
 * SB_ETEMP ("the ledger is busy"), a lost connection SB_ETEMP, disk full
 * or I/O SB_EIO, a read-only server or a role refused SB_EIO, a value
 * out of range (a sum
 * past 64 bits) SB_EDATA, anything else SB_EINTERNAL; the message says
 * what was being done (what). */
static int pg_error(sb_db *db, const PGresult *res, const char *what, sb_err *e)
{
	const char *state = res != NULL ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res != NULL ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	char buf[512];

	if (msg == NULL) {
		msg = conn_message(PG(db)->conn, buf, sizeof buf);
	}
	if (state == NULL)
		state = "";
	if (PQstatus(PG(db)->conn) == CONNECTION_BAD || strncmp(state, "08", 2) == 0 || strncmp(state, "57P", 3) == 0)
		return sb_fail(e, SB_ETEMP, "%s: the connection to the ledger's server was lost while %s: %s; try again later",
		               db->shown, what, msg);
	if (strcmp(state, "55P03") == 0 || strcmp(state, "40P01") == 0 || strcmp(state, "40001") == 0)
		return sb_fail_hint(e, SB_ETEMP, SB_HINT_BUSY, "%s: the ledger is busy (another sbledger is writing) and stayed so past the busy timeout of %d ms while %s; " SB_WORDS_BUSY,
		                    db->shown, db->busy_ms, what);
	if (strcmp(state, "53100") == 0)
		return sb_fail(e, SB_EIO, "%s: disk full while %s", db->shown, what);
	if (strncmp(state, "53", 2) == 0 || strncmp(state, "58", 2) == 0 || strcmp(state, "XX001") == 0)
		return sb_fail(e, SB_EIO, "%s: I/O error while %s: %s", db->shown, what, msg);
	if (strcmp(state, "25006") == 0)
		return sb_fail(e, SB_EIO, "%s: the ledger is read-only (%s) while %s", db->shown, msg, what);
	if (strcmp(state, "42501") == 0)
		return sb_fail(e, SB_EIO, "%s: the server does not let this role do it (%s) while %s; grant the role what docs/postgresql.md names",
		               db->shown, msg, what);
	if (strcmp(state, "22003") == 0)
		return sb_fail(e, SB_EDATA, "%s: a sum overflows 64-bit nanodollars while %s", db->shown, what);
	if (strcmp(state, "22P02") == 0 || strcmp(state, "22018") == 0) {
		db->value_error = true;
		return sb_fail(e, SB_EDATA, "%s: the ledger holds a value its schema does not allow (%s) while %s",
		               db->shown, msg, what);
	}
	return sb_fail(e, SB_EINTERNAL, "%s: PostgreSQL error while %s: %s", db->shown, what, msg);
}

/* The error of res while running the statement of file (sql/FILE.sql):
 * as pg_error says, with "running a query" as SQLite words it; an
 * internal error, or a value the query could not read, names the file
 * too. */
static int run_error(sb_db *db, const PGresult *res, const char *file, sb_err *e)
{
	char msg[sizeof e->msg];
	int code = pg_error(db, res, "running a query", e);

	if (code == SB_EINTERNAL || (code == SB_EDATA && db->value_error)) {
		snprintf(msg, sizeof msg, "%s", e->msg);
		sb_err_clear(e);
		sb_fail(e, code, "%s (sql/%s.sql)", msg, file);
	}
	return e->code;
}

struct pg_stmt;
static int collect(sb_db *db, struct pg_stmt *st, sb_err *e);
static void unstream(sb_db *db);
static int copy_flush(sb_db *db, sb_err *e);

/* Run sql (no parameters; several statements allowed), its rows dropped;
 * first the results of what was sent without waiting. */
static int pg_exec(sb_db *db, const char *sql, sb_err *e)
{
	PGresult *res;
	ExecStatusType s;
	int rc = SB_OK;

	if (copy_flush(db, e) != SB_OK || collect(db, NULL, e) != SB_OK)
		return e->code;
	unstream(db);
	res = PQexec(PG(db)->conn, sql);
	s = PQresultStatus(res);

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK)
		rc = pg_error(db, res, sql, e);
	else
		PG(db)->changes = strtoll(PQcmdTuples(res), NULL, 10);
	PQclear(res);
	return rc;
}

/* The one integer sql returns into *out (0 for no row or NULL). */
static int pg_one(sb_db *db, const char *sql, int64_t *out, sb_err *e)
{
	PGresult *res;
	int rc = SB_OK;

	*out = 0;
	if (copy_flush(db, e) != SB_OK || collect(db, NULL, e) != SB_OK)
		return e->code;
	unstream(db);
	res = PQexec(PG(db)->conn, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = pg_error(db, res, "reading the ledger's header", e);
	else if (PQntuples(res) > 0 && !PQgetisnull(res, 0, 0))
		*out = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	return rc;
}

/* The values libpq takes for the options whose values it does not check
 * when it parses a URL (only when it connects, or never): one of a list,
 * a non-negative integer, a list of ports.  An option not here (host,
 * user, dbname, application_name, a file's path, ...) is free text. */
enum url_kind { URL_ONE_OF, URL_INTEGER, URL_PORTS };
static const struct url_rule {
	const char *keyword;       /* libpq's name of the option */
	enum url_kind kind;
	const char *values;        /* URL_ONE_OF: the values, ", " between them */
} url_rules[] = {
	{"channel_binding", URL_ONE_OF, "disable, prefer, require"},
	{"connect_timeout", URL_INTEGER, NULL},
	{"gssencmode", URL_ONE_OF, "disable, prefer, require"},
	{"keepalives", URL_INTEGER, NULL},
	{"keepalives_count", URL_INTEGER, NULL},
	{"keepalives_idle", URL_INTEGER, NULL},
	{"keepalives_interval", URL_INTEGER, NULL},
	{"load_balance_hosts", URL_ONE_OF, "disable, random"},
	{"port", URL_PORTS, NULL},
	{"ssl_max_protocol_version", URL_ONE_OF, "TLSv1, TLSv1.1, TLSv1.2, TLSv1.3"},
	{"ssl_min_protocol_version", URL_ONE_OF, "TLSv1, TLSv1.1, TLSv1.2, TLSv1.3"},
	{"sslcompression", URL_ONE_OF, "0, 1"},
	{"sslmode", URL_ONE_OF, "disable, allow, prefer, require, verify-ca, verify-full"},
	{"sslnegotiation", URL_ONE_OF, "postgres, direct"},
	{"sslsni", URL_ONE_OF, "0, 1"},
	{"target_session_attrs", URL_ONE_OF, "any, read-write, read-only, primary, standby, prefer-standby"},
	{"tcp_user_timeout", URL_INTEGER, NULL},
};

/* Whether v (n bytes) is one of the ", "-separated values. */
static bool one_of(const char *v, size_t n, const char *values)
{
	for (const char *p = values; *p != '\0';) {
		size_t len = strcspn(p, ",");
		if (len == n && memcmp(p, v, n) == 0)
			return true;
		p += len;
		p += strspn(p, ", ");
	}
	return false;
}

/* Whether the n bytes at v are decimal digits (at least one) of a number
 * no greater than max. */
static bool number_upto(const char *v, size_t n, long max)
{
	long x = 0;

	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return false;
		x = x * 10 + (v[i] - '0');
		if (x > max)
			return false;
	}
	return true;
}

/* Check the value of one option libpq read against url_rules: SB_OK, or
 * SB_EUSAGE naming the option and its value (never a password's: those
 * are refused before). */
static int check_url_value(const char *keyword, const char *val, sb_err *e)
{
	char shown[SB_QUOTE_BUFSZ];

	for (size_t i = 0; i < sizeof url_rules / sizeof url_rules[0]; i++) {
		const struct url_rule *r = &url_rules[i];
		bool ok = true;
		if (strcmp(r->keyword, keyword) != 0)
			continue;
		if (r->kind == URL_ONE_OF) {
			ok = one_of(val, strlen(val), r->values);
		} else if (r->kind == URL_INTEGER) {
			ok = number_upto(val, strlen(val), 2147483647L);
		} else {
			/* host lists pair with port lists; an empty one is the
			 * default port (5432) */
			for (const char *p = val;; p++) {
				size_t len = strcspn(p, ",");
				if (len > 0 && (!number_upto(p, len, 65535) || number_upto(p, len, 0)))
					ok = false;
				p += len;
				if (*p == '\0')
					break;
			}
		}
		if (ok)
			return SB_OK;
		sb_quote(val, SB_QUOTE_ALWAYS, shown, sizeof shown);
		if (r->kind == URL_ONE_OF)
			return sb_fail(e, SB_EUSAGE, "the ledger's URL: %s is %s, not one of %s", keyword, shown, r->values);
		if (r->kind == URL_INTEGER)
			return sb_fail(e, SB_EUSAGE, "the ledger's URL: %s is %s, not a whole number (digits only)", keyword, shown);
		return sb_fail(e, SB_EUSAGE, "the ledger's URL: port is %s, not a port number (1 to 65535; a list of them separated by ',')", shown);
	}
	return SB_OK;
}

/* What libpq said of a URL it could not parse, in e (SB_EUSAGE), without
 * the URL or a token of it: its messages quote the whole URL or the
 * token they stopped at, which may be a password; an unknown option's
 * name (a key, never a value) is kept. */
static int url_unreadable(const char *why, sb_err *e)
{
	static const char unknown[] = "invalid URI query parameter: \"";
	char kind[160], key[SB_QUOTE_BUFSZ], name[128];

	if (why == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory (reading the ledger's URL)");
	if (strncmp(why, unknown, sizeof unknown - 1) == 0) {
		const char *k = why + sizeof unknown - 1;
		size_t len = strcspn(k, "\n");
		if (len > 0 && k[len - 1] == '"')
			len--;
		snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), k);
		sb_quote(name, SB_QUOTE_ALWAYS, key, sizeof key);
		return sb_fail(e, SB_EUSAGE, "the ledger's URL has an option libpq does not know, %s: refused (docs/postgresql.md lists the URL's options)", key);
	}
	snprintf(kind, sizeof kind, "%.*s", (int)strcspn(why, ":\n"), why);
	return sb_fail(e, SB_EUSAGE, "the ledger's URL cannot be read by libpq (%s): refused", kind);
}

/* Append the n bytes at s to *o, each byte that is not unreserved in a
 * URL (letters, digits, - . _ ~) nor one of keep written %XX. */
static void url_put(char **o, const char *s, size_t n, const char *keep)
{
	static const char hex[] = "0123456789ABCDEF";

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~' || (c != '\0' && strchr(keep, c) != NULL)) {
			*(*o)++ = (char)c;
		} else {
			*(*o)++ = '%';
			*(*o)++ = hex[c >> 4];
			*(*o)++ = hex[c & 15];
		}
	}
}

/* Whether host (libpq's value) is one name or IPv4 address that the
 * URL's authority can hold as it is (not a socket directory, a list or an
 * IPv6 address). */
static bool plain_host(const char *host)
{
	if (host[0] == '\0')
		return false;
	for (const char *p = host; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '.'))
			return false;
	return true;
}

int sb_db_url_read(const char *url, char **out, sb_err *e)
{
	char *why = NULL, *o;
	PQconninfoOption *opts = PQconninfoParse(url, &why);
	const char *host = NULL, *port = NULL, *user = NULL, *dbname = NULL;
	bool host_up, port_up, first = true;
	size_t cap = 32;
	int rc = SB_OK;

	*out = NULL;
	if (opts == NULL) {
		rc = url_unreadable(why, e);
		PQfreemem(why);
		return rc;
	}
	for (PQconninfoOption *opt = opts; opt->keyword != NULL; opt++) {
		if (opt->val == NULL)
			continue;
		/* libpq marks its secret options '*': password, sslpassword */
		if (opt->dispchar != NULL && opt->dispchar[0] == '*') {
			if (strcmp(opt->keyword, "password") == 0)
				rc = sb_fail(e, SB_EUSAGE, "the ledger's URL holds a password (libpq's option password), which would show in ps, in messages and in batch sources: refused; give it in ~/.pgpass or PGPASSWORD instead");
			else
				rc = sb_fail(e, SB_EUSAGE, "the ledger's URL holds a password (libpq's option %s), which would show in ps, in messages and in batch sources: refused; give it in a service file (PGSERVICEFILE) instead",
				        opt->keyword);
			goto done;
		}
		if ((rc = check_url_value(opt->keyword, opt->val, e)) != SB_OK)
			goto done;
		if (strcmp(opt->keyword, "host") == 0)
			host = opt->val;
		else if (strcmp(opt->keyword, "port") == 0)
			port = opt->val;
		else if (strcmp(opt->keyword, "user") == 0)
			user = opt->val;
		else if (strcmp(opt->keyword, "dbname") == 0)
			dbname = opt->val;
		cap += strlen(opt->keyword) + 2 + 3 * strlen(opt->val);
	}
	if ((*out = o = malloc(cap)) == NULL) {
		rc = sb_fail(e, SB_EINTERNAL, "out of memory (reading the ledger's URL)");
		goto done;
	}
	/* postgresql://[user@][host[:port]]/[dbname][?option=value&...]: a
	 * host the authority cannot hold as it is, and its port, go to the
	 * query; the query's options in libpq's order */
	host_up = host != NULL && plain_host(host);
	port_up = host_up && port != NULL && strchr(port, ',') == NULL && port[0] != '\0';
	o += sprintf(o, "postgresql://");
	if (user != NULL) {
		url_put(&o, user, strlen(user), "");
		*o++ = '@';
	}
	if (host_up)
		url_put(&o, host, strlen(host), "");
	if (port_up) {
		*o++ = ':';
		url_put(&o, port, strlen(port), "");
	}
	*o++ = '/';
	if (dbname != NULL)
		url_put(&o, dbname, strlen(dbname), "");
	for (PQconninfoOption *opt = opts; opt->keyword != NULL; opt++) {
		if (opt->val == NULL || opt->val == user || opt->val == dbname ||
		    (opt->val == host && host_up) || (opt->val == port && port_up))
			continue;
		*o++ = first ? '?' : '&';
		first = false;
		url_put(&o, opt->keyword, strlen(opt->keyword), "");
		*o++ = '=';
		url_put(&o, opt->val, strlen(opt->val), "/:,");
	}
	*o = '\0';
done:
	PQconninfoFree(opts);
	if (rc != SB_OK) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

/* The version of the ledger in the database: 0 and *is_ledger false when
 * it holds no sbledger_meta; a database whose schema holds other tables
 * and no ledger is another program's, refused. */
static int read_identity(sb_db *db, bool *is_ledger, int *version, sb_err *e)
{
	int64_t has = 0, tables = 0, app = 0, v = 0;

	*is_ledger = false;
	*version = 0;
	if (pg_one(db, "SELECT CAST(to_regclass('sbledger_meta') IS NOT NULL AS INT)", &has, e) != SB_OK)
		return e->code;
	if (!has) {
		if (pg_one(db, "SELECT COUNT(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()", &tables, e) != SB_OK)
			return e->code;
		if (tables > 0)
			return sb_fail(e, SB_EDATA, "%s: the database's schema holds tables of another program and no sbledger ledger; left untouched (give the ledger a database or schema of its own)",
			               db->shown);
		return SB_OK;
	}
	if (pg_one(db, "SELECT application_id FROM sbledger_meta", &app, e) != SB_OK ||
	    pg_one(db, "SELECT schema_version FROM sbledger_meta", &v, e) != SB_OK)
		return e->code;
	if (app != SB_APPLICATION_ID)
		return sb_fail(e, SB_EDATA, "%s: a table sbledger_meta of another program, not an sbledger ledger; left untouched", db->shown);
	*is_ledger = true;
	*version = (int)v;
	return SB_OK;
}

static int pg_begin(sb_db *db, sb_err *e);
static void pg_rollback(sb_db *db);

/* Apply the migrations of sql/pg/schema newer than the ledger, in one
 * transaction under the writers' lock (another process may have applied
 * them while this one waited: read again under it). */
static int migrate(sb_db *db, int flags, sb_err *e)
{
	int latest = sb_db_schema_latest_of("pg/schema/"), version = 0;
	bool is_ledger = false;
	char sql[160];
	const struct sb_sqlfile *f;

	if (read_identity(db, &is_ledger, &version, e) != SB_OK)
		return e->code;
	if (!is_ledger && !(flags & SB_DB_CREATE))
		return sb_fail_hint(e, SB_ENOINPUT, SB_HINT_INIT_MISSING, "%s: no ledger here; " SB_WORDS_INIT_MISSING,
		                    db->shown, db->shown);
	if (version > latest)
		return sb_fail(e, SB_EDATA, "%s: the ledger has schema version %d, newer than this sbledger knows (%d); upgrade sbledger; the ledger was left untouched",
		               db->shown, version, latest);
	if (is_ledger && version == latest)
		return SB_OK;
	if (pg_begin(db, e) != SB_OK)
		return e->code;
	if (read_identity(db, &is_ledger, &version, e) != SB_OK)
		goto fail;
	if (!is_ledger) {
		if (pg_exec(db, "CREATE TABLE sbledger_meta ("
		                " application_id BIGINT NOT NULL,"
		                " schema_version BIGINT NOT NULL)", e) != SB_OK)
			goto fail;
		snprintf(sql, sizeof sql, "INSERT INTO sbledger_meta VALUES (%d, 0)", SB_APPLICATION_ID);
		if (pg_exec(db, sql, e) != SB_OK)
			goto fail;
		db->created = true;
		/* amcheck for 'check', where this role may install it: a
		 * refusal is no failure (check then says what it did not read) */
		if (pg_exec(db, "SAVEPOINT amcheck", e) != SB_OK)
			goto fail;
		if (pg_exec(db, "CREATE EXTENSION IF NOT EXISTS amcheck", e) != SB_OK) {
			sb_err_clear(e);
			if (pg_exec(db, "ROLLBACK TO SAVEPOINT amcheck", e) != SB_OK)
				goto fail;
		}
		if (pg_exec(db, "RELEASE SAVEPOINT amcheck", e) != SB_OK)
			goto fail;
	}
	for (f = sb_sqlfiles; f->name != NULL; f++) {
		if (strncmp(f->name, "pg/schema/", 10) != 0 || atoi(f->name + 10) <= version)
			continue;
		if (pg_exec(db, f->text, e) != SB_OK) {
			sb_err_prefix(e, "sql/%s.sql", f->name);
			goto fail;
		}
	}
	snprintf(sql, sizeof sql, "UPDATE sbledger_meta SET schema_version = %d", latest);
	if (pg_exec(db, sql, e) != SB_OK || pg_exec(db, "COMMIT", e) != SB_OK)
		goto fail;
	return SB_OK;
fail:
	pg_rollback(db);
	return e->code;
}

static int pg_open(sb_db *db, int flags, sb_err *e)
{
	struct pg *p = calloc(1, sizeof *p);
	char sql[160];

	if ((db->conn = p) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	p->conn = PQconnectdb(db->path);
	if (p->conn == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	if (PQstatus(p->conn) != CONNECTION_OK) {
		char buf[512];
		const char *msg = conn_message(p->conn, buf, sizeof buf);
		/* a server that is not there (yet) may be there later; a
		 * refusal of the role or database is the ledger missing */
		if (strstr(msg, "does not exist") != NULL || strstr(msg, "authentication") != NULL ||
		    strstr(msg, "password") != NULL || strstr(msg, "permission") != NULL)
			return sb_fail(e, SB_ENOINPUT, "%s: cannot open the ledger: %s", db->shown, msg);
		return sb_fail(e, SB_ETEMP, "%s: cannot reach the ledger's server: %s; try again later", db->shown, msg);
	}
	PQsetNoticeProcessor(p->conn, no_notices, NULL);
	/* times are UTC ms integers everywhere; what the server's own
	 * settings say about zones and messages must not matter; no JIT:
	 * compiling a query costs the server up to a second (a check of a
	 * small ledger: 3.0 s with it, 1.2 s without), which the ledger's
	 * queries, an index search or one pass over the tables, never win
	 * back */
	snprintf(sql, sizeof sql, "SET lock_timeout = %d; SET TIME ZONE 'UTC'; SET client_min_messages = warning; SET jit = off",
	         db->busy_ms > 0 ? db->busy_ms : 1);
	if (pg_exec(db, sql, e) != SB_OK)
		return e->code;
	if ((flags & SB_DB_WRITE) && pg_exec(db, "SELECT pg_advisory_lock(" WRITE_LOCK ")", e) != SB_OK)
		return e->code;
	p->holds_write_lock = (flags & SB_DB_WRITE) != 0;
	return migrate(db, flags, e);
}

static void pg_close(sb_db *db)
{
	struct pg *p = PG(db);

	if (p == NULL)
		return;
	PQfinish(p->conn);   /* the session's locks go with it */
	free(p);
	db->conn = NULL;
}

/* Whether c may start a parameter's name. */
static bool name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9');
}

/* The end of the quote ('...', "...", a doubled quote inside) or comment
 * (-- to the line's end, slash-star to star-slash) that starts at p, or NULL when none
 * starts there. */
static const char *skip_quoted(const char *p)
{
	if (*p == '\'' || *p == '"') {
		char q = *p++;
		while (*p != '\0' && !(*p == q && p[1] != q))
			p += *p == q ? 2 : 1;
		return *p != '\0' ? p + 1 : p;
	}
	if (p[0] == '-' && p[1] == '-')
		return p + strcspn(p, "\n");
	if (p[0] == '/' && p[1] == '*') {
		const char *end = strstr(p + 2, "*/");
		return end != NULL ? end + 2 : p + strlen(p);
	}
	return NULL;
}

/* The length of the first statement of sql (up to its ';' or the end),
 * quotes and comments skipped. */
static size_t statement_len(const char *sql)
{
	const char *p = sql, *end;

	while (*p != '\0' && *p != ';')
		p = (end = skip_quoted(p)) != NULL ? end : p + 1;
	return (size_t)(p - sql);
}

/* The index of the parameter name (":from", n bytes) in st, adding it
 * when add; 0 when absent. */
static int find_param(struct pg_stmt *st, const char *name, size_t n, bool add)
{
	struct param *grown;

	for (int i = 0; i < st->n_params; i++)
		if (strlen(st->params[i].name) == n && memcmp(st->params[i].name, name, n) == 0)
			return i + 1;
	if (!add || (grown = realloc(st->params, (size_t)(st->n_params + 1) * sizeof *grown)) == NULL)
		return 0;
	st->params = grown;
	memset(&st->params[st->n_params], 0, sizeof *grown);
	if ((st->params[st->n_params].name = strndup(name, n)) == NULL)
		return 0;
	return ++st->n_params;
}

/* st->sql from st->text: each ":name" outside quotes and comments
 * becomes "$n" (a "::" cast is left alone). */
static int rewrite(struct pg_stmt *st)
{
	const char *p = st->text;
	size_t cap = strlen(p) * 2 + 16, o = 0;
	char *out = malloc(cap);

	if (out == NULL)
		return -1;
	while (*p != '\0') {
		const char *end = skip_quoted(p);
		size_t n = 1;
		if (end != NULL) {
			n = (size_t)(end - p);   /* a quote or comment: copied as it is */
		} else if (*p == ':' && p[1] == ':') {
			n = 2;
		} else if (*p == ':' && name_start(p[1])) {
			size_t len = 1;
			int i;
			while (name_char(p[len]))
				len++;
			if ((i = find_param(st, p, len, true)) == 0) {
				free(out);
				return -1;
			}
			o += (size_t)snprintf(out + o, cap - o, "$%d", i);
			p += len;
			continue;
		}
		memcpy(out + o, p, n);
		o += n;
		p += n;
	}
	out[o] = '\0';
	st->sql = out;
	return 0;
}

/* Whether text is a COPY statement (see copy_row). */
static bool is_copy(const char *text)
{
	return strncasecmp(text, "COPY", 4) == 0 && strchr(" \t\r\n", text[4]) != NULL && text[4] != '\0';
}

/* A COPY statement's parameters from its column list, "COPY t (a, b)
 * FROM STDIN": ":a", ":b"; its text sent as it is.  -1 when it lists none
 * (or out of memory). */
static int copy_columns(struct pg_stmt *st)
{
	const char *p = strchr(st->text, '('), *end = p != NULL ? strchr(p, ')') : NULL;

	if (end == NULL || (st->sql = strdup(st->text)) == NULL)
		return -1;
	st->copy = true;
	for (p++; p < end;) {
		char name[80];
		size_t n;
		p += strspn(p, " \t\r\n,");
		n = strcspn(p, " \t\r\n,)");
		if (n == 0)
			break;
		if (n + 2 > sizeof name)
			return -1;
		name[0] = ':';
		memcpy(name + 1, p, n);
		if (find_param(st, name, n + 1, true) == 0)
			return -1;
		p += n;
	}
	return st->n_params > 0 ? 0 : -1;
}

static int pg_prepare(sb_db *db, const char *sql, const char **tail, const char *what, sb_stmt **out, sb_err *e)
{
	struct pg_stmt *st;
	const char *p = sql;
	size_t len;

	*out = NULL;
	/* white space and comments before the statement */
	for (const char *end;; p = end) {
		p += strspn(p, " \t\r\n");
		if (*p == '\'' || *p == '"' || (end = skip_quoted(p)) == NULL)
			break;
	}
	len = statement_len(p);
	*tail = p + len + (p[len] == ';');
	if (len == 0)
		return *p == '\0' ? SB_OK : pg_prepare(db, *tail, tail, what, out, e);
	if ((st = calloc(1, sizeof *st)) == NULL || (st->text = strndup(p, len)) == NULL ||
	    (is_copy(st->text) ? copy_columns(st) : rewrite(st)) != 0) {
		bool bad = st != NULL && st->text != NULL && is_copy(st->text);
		if (st != NULL) {
			for (int i = 0; i < st->n_params; i++)
				free(st->params[i].name);
			free(st->params);
			free(st->text);
			free(st);
		}
		if (bad)
			return sb_fail(e, SB_EINTERNAL, "sql/%s.sql: a COPY names its columns, (col, ...) FROM STDIN", what);
		return sb_fail(e, SB_EINTERNAL, "out of memory preparing sql/%s.sql", what);
	}
	st->base.db = db;
	st->what = what;
	st->row = -1;
	*out = &st->base;
	return SB_OK;
}

static void drop_blobs(struct pg_stmt *st)
{
	for (int i = 0; i < st->n_blobs; i++) {
		PQfreemem(st->blobs[i]);
		st->blobs[i] = NULL;
	}
}

static void pg_reset(sb_stmt *s)
{
	struct pg_stmt *st = PS(s);
	struct pg *p = PG(st->base.db);
	PGresult *res;

	drop_blobs(st);
	/* rows still coming: read and dropped, so that the connection is free */
	if (p != NULL && p->stream == st) {
		while ((res = PQgetResult(p->conn)) != NULL)
			PQclear(res);
		p->stream = NULL;
	}
	PQclear(st->res);
	PQclear(st->first);
	for (size_t i = st->rest_at; i < st->n_rest; i++)
		PQclear(st->rest[i]);
	free(st->rest);
	st->res = st->first = NULL;
	st->rest = NULL;
	st->n_rest = st->rest_at = st->rest_cap = 0;
	st->row = -1;
	st->rows = 0;
	st->ran = st->done = st->streamed = false;
	sb_err_clear(&st->late);
}

static void pg_clear(sb_stmt *s)
{
	struct pg_stmt *st = PS(s);

	for (int i = 0; i < st->n_params; i++) {
		st->params[i].value = NULL;
		st->params[i].len = 0;
	}
}

static void pg_finalize(sb_stmt *s)
{
	struct pg_stmt *st = PS(s);
	struct pg *p = PG(st->base.db);

	pg_reset(s);
	/* rows not sent yet go now, with the others held (in their order);
	 * an error is told at the next statement */
	if (p != NULL && st->copy_len > 0 && p->copy_late.code == SB_OK)
		copy_flush(st->base.db, &p->copy_late);
	for (struct pg_stmt **at = p != NULL ? &p->copies : NULL; at != NULL && *at != NULL; at = &(*at)->next_copy)
		if (*at == st) {
			p->copy_bytes -= st->copy_len;
			*at = st->next_copy;
			break;
		}
	free(st->copy_rows);
	for (int i = 0; i < st->n_params; i++) {
		free(st->params[i].name);
		free(st->params[i].own);
	}
	free(st->params);
	free(st->blobs);
	free(st->blob_lens);
	free(st->text);
	free(st->sql);
	free(st);
}

static const char *pg_sql(sb_stmt *s)
{
	return PS(s)->text;
}

static int pg_param(sb_stmt *s, const char *name)
{
	return find_param(PS(s), name, strlen(name), false);
}

static const char *pg_param_name(sb_stmt *s, int i)
{
	return i >= 1 && i <= PS(s)->n_params ? PS(s)->params[i - 1].name : NULL;
}

/* Parameter i of st, or NULL with *why. */
static struct param *param_at(sb_stmt *s, int i, const char **why)
{
	if (i < 1 || i > PS(s)->n_params) {
		*why = "no such parameter";
		return NULL;
	}
	return &PS(s)->params[i - 1];
}

static int pg_bind_i64(sb_stmt *s, int i, int64_t v, const char **why)
{
	struct param *p = param_at(s, i, why);

	if (p == NULL)
		return 1;
	p->len = snprintf(p->num, sizeof p->num, "%" PRId64, v);
	p->value = p->num;
	p->blob = false;
	p->type = OID_INT8;
	return 0;
}

/* Keep a copy of v (len bytes, and a NUL) in p's own storage. */
static int keep(struct param *p, const void *v, size_t len, const char **why)
{
	if (len > (size_t)INT32_MAX - 1) {
		*why = "value too large";
		return 1;
	}
	if (p->own_cap < len + 1) {
		char *grown = realloc(p->own, len + 1);
		if (grown == NULL) {
			*why = "out of memory";
			return 1;
		}
		p->own = grown;
		p->own_cap = len + 1;
	}
	memcpy(p->own, v, len);
	p->own[len] = '\0';
	p->value = p->own;
	p->len = (int)len;
	return 0;
}

static int pg_bind_text(sb_stmt *s, int i, const char *v, size_t len, bool copy, const char **why)
{
	struct param *p = param_at(s, i, why);

	if (p == NULL)
		return 1;
	(void)copy;   /* libpq reads a text parameter up to a NUL: always copied */
	p->blob = false;
	p->type = OID_TEXT;
	return keep(p, v, len, why);
}

static int pg_bind_blob(sb_stmt *s, int i, const void *v, size_t len, const char **why)
{
	struct param *p = param_at(s, i, why);

	if (p == NULL)
		return 1;
	p->blob = true;
	p->type = OID_BYTEA;
	return keep(p, v, len, why);
}

static int pg_bind_null(sb_stmt *s, int i, const char **why)
{
	struct param *p = param_at(s, i, why);

	if (p == NULL)
		return 1;
	p->value = NULL;
	p->len = 0;
	return 0;
}

/* The end of st's streamed rows: res is the result after the last row
 * (its status and counts: the rows an INSERT ... RETURNING made, its id)
 * or an error, recorded in e; the connection is read to its end. */
static int end_stream(struct pg_stmt *st, PGresult *res, sb_err *e)
{
	sb_db *db = st->base.db;
	struct pg *p = PG(db);
	ExecStatusType s = PQresultStatus(res);
	PGresult *more;
	int rc = SB_OK;

	if (s == PGRES_TUPLES_OK || s == PGRES_COMMAND_OK) {
		p->changes = strtoll(PQcmdTuples(res), NULL, 10);
		if (strncmp(PQcmdStatus(res), "INSERT", 6) == 0) {
			p->returned_id = st->rows + (st->first != NULL) + (int64_t)(st->n_rest - st->rest_at) == 1;
			p->last_id = st->first_id;
		}
	} else {
		rc = run_error(db, res, st->what, e);
	}
	PQclear(res);
	while ((more = PQgetResult(p->conn)) != NULL)
		PQclear(more);
	p->stream = NULL;
	return rc;
}

/* Another statement needs the connection while st's rows are coming: the
 * rows not yet stepped to are read ahead into st->rest (an error among
 * them kept for st's next step). */
static void unstream(sb_db *db)
{
	struct pg *p = PG(db);
	struct pg_stmt *st = p->stream;
	PGresult *res;

	if (st == NULL)
		return;
	while ((res = PQgetResult(p->conn)) != NULL && PQresultStatus(res) == PGRES_SINGLE_TUPLE) {
		if (st->n_rest == st->rest_cap) {
			size_t cap = st->rest_cap > 0 ? 2 * st->rest_cap : 64;
			PGresult **grown = realloc(st->rest, cap * sizeof *grown);
			if (grown == NULL) {
				PQclear(res);
				sb_fail(&st->late, SB_EINTERNAL, "out of memory reading the rows of sql/%s.sql", st->what);
				while ((res = PQgetResult(p->conn)) != NULL)
					PQclear(res);
				p->stream = NULL;
				return;
			}
			st->rest = grown;
			st->rest_cap = cap;
		}
		st->rest[st->n_rest++] = res;
	}
	if (res != NULL)
		end_stream(st, res, &st->late);
	p->stream = NULL;
	if (st->rest == NULL)
		st->rest = calloc(1, sizeof *st->rest);   /* read ahead, none left */
}

/* Prepare st on the server (its first run on this connection). */
static int server_prepare(struct pg_stmt *st, sb_err *e)
{
	sb_db *db = st->base.db;
	Oid types[st->n_params > 0 ? st->n_params : 1];
	PGresult *res;
	int rc = SB_OK;

	/* (COPY rows held stay held: they are not on the wire) */
	if (collect(db, NULL, e) != SB_OK)
		return e->code;
	unstream(db);
	for (int i = 0; i < st->n_params; i++)
		types[i] = st->params[i].value != NULL ? st->params[i].type : 0;
	snprintf(st->server_name, sizeof st->server_name, "sb%u", PG(db)->next_name++);
	res = PQprepare(PG(db)->conn, st->server_name, st->sql, st->n_params, types);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		const char *msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
		/* a lost connection or a full disk is what it is; anything
		 * else is this statement's fault, named by its file */
		if (PQstatus(PG(db)->conn) == CONNECTION_BAD)
			rc = pg_error(db, res, "preparing a query", e);
		else
			rc = sb_fail(e, SB_EINTERNAL, "sql/%s.sql does not prepare on PostgreSQL: %s", st->what,
			             msg != NULL ? msg : "no message");
		st->server_name[0] = '\0';
	}
	PQclear(res);
	return rc;
}

/* Room for the decoded bytea of cols columns. */
static int size_blobs(struct pg_stmt *st, int cols, sb_err *e)
{
	void **b;
	size_t *l;

	if (st->n_blobs >= cols)
		return SB_OK;
	if ((b = realloc(st->blobs, (size_t)cols * sizeof *b)) != NULL)
		st->blobs = b;
	if (b == NULL || (l = realloc(st->blob_lens, (size_t)cols * sizeof *l)) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	st->blob_lens = l;
	for (int i = st->n_blobs; i < cols; i++)
		st->blobs[i] = NULL;
	st->n_blobs = cols;
	return SB_OK;
}

/* Send st, prepared on the server, with its binds (text, blobs binary),
 * without reading its result; false when libpq could not. */
static bool send(struct pg_stmt *st)
{
	int n = st->n_params > 0 ? st->n_params : 1;
	const char *values[n];
	int lens[n], formats[n];

	for (int i = 0; i < st->n_params; i++) {
		values[i] = st->params[i].value;
		lens[i] = st->params[i].len;
		formats[i] = st->params[i].blob ? 1 : 0;
	}
	return PQsendQueryPrepared(PG(st->base.db)->conn, st->server_name, st->n_params, values, lens, formats, 0) == 1;
}

/* Run st with its binds: its rows streamed (st->first, then one at a
 * time), or its whole result in st->res (no rows; behind a pipeline);
 * the COPY rows held sent first unless past (sb_db_step_past). */
static int run(struct pg_stmt *st, bool past, sb_err *e)
{
	sb_db *db = st->base.db;
	ExecStatusType s;

	if ((st->server_name[0] == '\0' && server_prepare(st, e) != SB_OK) ||
	    (!past && copy_flush(db, e) != SB_OK))
		return e->code;
	if (PG(db)->pending > 0) {
		/* behind what was sent without waiting: in the same pipeline,
		 * its result read after theirs, in one round trip */
		if (!send(st) || PQpipelineSync(PG(db)->conn) != 1)
			return pg_error(db, NULL, "sending a query", e);
		if (collect(db, st, e) != SB_OK)
			return e->code;
	} else {
		/* its rows one at a time (single-row mode): the first read now,
		 * to know whether it has any and whether it failed */
		PGresult *res, *more;
		unstream(db);
		if (!send(st))
			return pg_error(db, NULL, "sending a query", e);
		PQsetSingleRowMode(PG(db)->conn);
		res = PQgetResult(PG(db)->conn);
		if (PQresultStatus(res) == PGRES_SINGLE_TUPLE) {
			st->streamed = true;
			st->first = res;
			st->first_id = PQnfields(res) >= 1 ? strtoll(PQgetvalue(res, 0, 0), NULL, 10) : 0;
			PG(db)->stream = st;
			return size_blobs(st, PQnfields(res), e);
		}
		/* no rows, or an error: the whole result is this one */
		while ((more = PQgetResult(PG(db)->conn)) != NULL)
			PQclear(more);
		st->res = res;
	}
	s = PQresultStatus(st->res);
	if (s != PGRES_TUPLES_OK && s != PGRES_COMMAND_OK) {
		run_error(db, st->res, st->what, e);
		PQclear(st->res);
		st->res = NULL;
		return e->code;
	}
	PG(db)->changes = strtoll(PQcmdTuples(st->res), NULL, 10);
	/* an INSERT ... RETURNING id: its id, which lastval() would not know
	 * when the statement gave it (MAX + 1) */
	if (strncmp(PQcmdStatus(st->res), "INSERT", 6) == 0) {
		PG(db)->returned_id = PQntuples(st->res) == 1 && PQnfields(st->res) >= 1;
		if (PG(db)->returned_id)
			PG(db)->last_id = strtoll(PQgetvalue(st->res, 0, 0), NULL, 10);
	}
	return size_blobs(st, PQnfields(st->res), e);
}

static bool whole(const char *v, int64_t *out);
#define db_of(st) ((st)->base.db)

/* Read the results of the statements sent without waiting, in order, then
 * (st not NULL: it was sent last, before the sync) st's into st->res,
 * then the sync, and leave pipeline mode.  The first error is reported
 * (a statement after a failed one is aborted by the server, unreported). */
static int collect(sb_db *db, struct pg_stmt *st, sb_err *e)
{
	struct pg *p = PG(db);
	PGresult *res;
	int rc = SB_OK;

	if (p->pending == 0 && st == NULL)
		return SB_OK;
	if (st == NULL && PQpipelineSync(p->conn) != 1)
		rc = pg_error(db, NULL, "sending queries", e);
	for (int i = 0; i < p->pending && rc == SB_OK; i++) {
		while ((res = PQgetResult(p->conn)) != NULL) {
			if (PQresultStatus(res) == PGRES_FATAL_ERROR && rc == SB_OK)
				rc = run_error(db, res, p->pending_what[i], e);
			PQclear(res);
		}
	}
	if (st != NULL) {
		/* its first result is its rows; libpq ends each with NULL */
		st->res = PQgetResult(p->conn);
		while ((res = PQgetResult(p->conn)) != NULL)
			PQclear(res);
		if (rc != SB_OK) {
			PQclear(st->res);
			st->res = NULL;
		}
	}
	/* the rest, up to the sync (aborted ones after an error) */
	while ((res = PQgetResult(p->conn)) != NULL) {
		ExecStatusType s = PQresultStatus(res);
		PQclear(res);
		if (s == PGRES_PIPELINE_SYNC)
			break;
	}
	p->pending = 0;
	if (PQexitPipelineMode(p->conn) != 1 && rc == SB_OK)
		rc = pg_error(db, NULL, "ending a pipeline", e);
	return rc;
}

/* COPY statements (a file holding "COPY table (col, ...) FROM STDIN"):
 * their parameters are the columns, ":col", and each run of one
 * (sb_db_run_later, or a step) is a row, kept in COPY's text format.  The
 * rows of every COPY statement are sent by copy_flush, in the order their
 * statements got their first row since the last flush (so the caller gives
 * a table's rows before those of tables whose foreign keys point at it):
 * before any other statement is sent (a commit too) but one stepped past
 * them (sb_db_step_past), at sb_db_flush, and once they hold COPY_HOLD
 * bytes.  Their errors are reported
 * there, as a pipeline's are at the next statement that waits; a rollback
 * drops the rows not sent.  One COPY of a chunk's rows costs the server
 * what one INSERT of one row does, and a round trip. */

/* Append st's binds to its rows as one row of COPY's text format: tab
 * between columns, \N for NULL, a text's backslash, tab, newline and
 * carriage return escaped (the text up to a NUL, as libpq sends a text
 * parameter), a blob as bytea's hex \x...; then send them all when they
 * have grown to COPY_HOLD. */
static int copy_row(struct pg_stmt *st, sb_err *e)
{
	sb_db *db = st->base.db;
	struct pg *p = PG(db);
	size_t need = 1, start = st->copy_len;
	char *o;

	for (int i = 0; i < st->n_params; i++) {
		const struct param *q = &st->params[i];
		need += 1 + (q->value == NULL ? 2 : q->blob ? 3 + 2 * (size_t)q->len : 2 * (size_t)q->len);
	}
	if (st->copy_cap - st->copy_len < need) {
		size_t cap = st->copy_cap > 0 ? st->copy_cap : 64 << 10;
		char *grown;
		while (cap - st->copy_len < need)
			cap *= 2;
		if ((grown = realloc(st->copy_rows, cap)) == NULL)
			return sb_fail(e, SB_EINTERNAL, "out of memory holding the rows of sql/%s.sql", st->what);
		st->copy_rows = grown;
		st->copy_cap = cap;
	}
	o = st->copy_rows + st->copy_len;
	for (int i = 0; i < st->n_params; i++) {
		const struct param *q = &st->params[i];
		if (i > 0)
			*o++ = '\t';
		if (q->value == NULL) {
			memcpy(o, "\\N", 2);
			o += 2;
		} else if (q->blob) {
			memcpy(o, "\\\\x", 3);
			o += 3;
			for (int k = 0; k < q->len; k++) {
				unsigned char c = (unsigned char)q->value[k];
				*o++ = "0123456789abcdef"[c >> 4];
				*o++ = "0123456789abcdef"[c & 15];
			}
		} else {
			for (int k = 0; k < q->len && q->value[k] != '\0'; k++) {
				char c = q->value[k];
				const char *esc = c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : NULL;
				if (esc != NULL) {
					memcpy(o, esc, 2);
					o += 2;
				} else {
					*o++ = c;
				}
			}
		}
	}
	*o++ = '\n';
	st->copy_len = (size_t)(o - st->copy_rows);
	p->changes = 1;
	/* first row since the last flush: behind the statements that have rows */
	if (start == 0) {
		struct pg_stmt **at = &p->copies;
		while (*at != NULL)
			at = &(*at)->next_copy;
		*at = st;
		st->next_copy = NULL;
	}
	p->copy_bytes += st->copy_len - start;
	return p->copy_bytes >= COPY_HOLD ? copy_flush(db, e) : SB_OK;
}

/* Send st's rows as one COPY. */
static int copy_send(struct pg_stmt *st, sb_err *e)
{
	sb_db *db = st->base.db;
	PGconn *c = PG(db)->conn;
	PGresult *res = PQexec(c, st->sql);
	int rc = SB_OK;

	if (PQresultStatus(res) != PGRES_COPY_IN) {
		rc = run_error(db, res, st->what, e);
		PQclear(res);
		while ((res = PQgetResult(c)) != NULL)
			PQclear(res);
		return rc;
	}
	PQclear(res);
	/* in pieces: libpq counts a piece's bytes in an int */
	for (size_t at = 0; at < st->copy_len && rc == SB_OK;) {
		size_t n = st->copy_len - at < (1 << 20) ? st->copy_len - at : (1 << 20);
		if (PQputCopyData(c, st->copy_rows + at, (int)n) != 1)
			rc = pg_error(db, NULL, "sending rows", e);
		at += n;
	}
	if (PQputCopyEnd(c, rc == SB_OK ? NULL : "the rows could not be sent") != 1 && rc == SB_OK)
		rc = pg_error(db, NULL, "sending rows", e);
	while ((res = PQgetResult(c)) != NULL) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK && rc == SB_OK)
			rc = run_error(db, res, st->what, e);
		PQclear(res);
	}
	return rc;
}

/* Drop the rows of every COPY statement, unsent. */
static void copy_drop(sb_db *db)
{
	struct pg *p = PG(db);
	struct pg_stmt *st;

	while ((st = p->copies) != NULL) {
		p->copies = st->next_copy;
		st->next_copy = NULL;
		st->copy_len = 0;
	}
	p->copy_bytes = 0;
}

/* Send the rows of every COPY statement (see copy_row); the first error
 * is reported and the rest dropped. */
static int copy_flush(sb_db *db, sb_err *e)
{
	struct pg *p = PG(db);
	int rc = SB_OK;

	if (p->copy_late.code != SB_OK) {
		*e = p->copy_late;
		sb_err_clear(&p->copy_late);
		copy_drop(db);
		return e->code;
	}
	if (p->copies == NULL)
		return SB_OK;
	if (collect(db, NULL, e) != SB_OK) {
		copy_drop(db);
		return e->code;
	}
	unstream(db);
	while (p->copies != NULL && rc == SB_OK) {
		struct pg_stmt *st = p->copies;
		rc = copy_send(st, e);
		p->copies = st->next_copy;
		st->next_copy = NULL;
		st->copy_len = 0;
	}
	copy_drop(db);
	return rc;
}

/* Send st without waiting for its result (sb_db_run_later): in pipeline
 * mode, behind the others; their results are read at the next statement
 * that waits, or when MAX_PENDING are in flight. */
static int pg_run_later(sb_stmt *s, sb_err *e)
{
	struct pg_stmt *st = PS(s);
	sb_db *db = st->base.db;
	struct pg *p = PG(db);

	if (st->copy)
		return copy_row(st, e);
	if ((st->server_name[0] == '\0' && server_prepare(st, e) != SB_OK) || copy_flush(db, e) != SB_OK ||
	    (p->pending == MAX_PENDING && collect(db, NULL, e) != SB_OK))
		return e->code;
	unstream(db);
	if (PQpipelineStatus(p->conn) == PQ_PIPELINE_OFF && PQenterPipelineMode(p->conn) != 1)
		return pg_error(db, NULL, "starting a pipeline", e);
	if (!send(st))
		return pg_error(db, NULL, "sending a query", e);
	p->pending_what[p->pending++] = st->what;
	return SB_OK;
}

/* pg_step and pg_step_past: past, the COPY rows held stay held. */
static int step(sb_stmt *s, bool past, sb_err *e)
{
	struct pg_stmt *st = PS(s);

	/* a COPY's run is a row (copy_row) */
	if (st->copy)
		return copy_row(st, e) == SB_OK ? SB_DONE : -1;
	/* a statement stepped past its end runs again, as SQLite's does */
	if (st->ran && (st->done || (!st->streamed && st->res == NULL)))
		pg_reset(s);
	if (!st->ran) {
		st->ran = true;
		if (run(st, past, e) != SB_OK) {
			pg_reset(s);
			return -1;
		}
	}
	drop_blobs(st);
	if (st->streamed) {
		/* the next row: the first, read by run; one read ahead; or the
		 * next from the connection, up to the result after the last */
		PQclear(st->res);
		st->res = NULL;
		st->row = 0;
		if (st->first != NULL) {
			st->res = st->first;
			st->first = NULL;
		} else if (st->rest != NULL) {
			if (st->rest_at < st->n_rest)
				st->res = st->rest[st->rest_at++];
		} else if (PG(db_of(st))->stream == st) {
			PGresult *res = PQgetResult(PG(db_of(st))->conn);
			if (res != NULL && PQresultStatus(res) == PGRES_SINGLE_TUPLE)
				st->res = res;
			else if (res != NULL)
				end_stream(st, res, &st->late);   /* an error: told below */
		}
		if (st->res == NULL) {
			if (st->late.code != SB_OK) {
				*e = st->late;
				pg_reset(s);
				return -1;
			}
			st->done = true;
			return SB_DONE;
		}
		st->rows++;
	} else if (++st->row >= PQntuples(st->res)) {
		st->done = true;
		return SB_DONE;
	}
	/* a sum past 64 bits ends the statement, as SQLite's SUM does with
	 * "integer overflow": PostgreSQL's SUM of a bigint is a numeric
	 * that never overflows (the program checks it here, on every row) */
	for (int c = 0; c < PQnfields(st->res); c++) {
		int64_t n;
		if (PQftype(st->res, c) == OID_NUMERIC && !PQgetisnull(st->res, st->row, c) &&
		    !whole(PQgetvalue(st->res, st->row, c), &n)) {
			sb_fail(e, SB_EDATA, "%s: a sum overflows 64-bit nanodollars while running a query", db_of(st)->shown);
			pg_reset(s);
			return -1;
		}
	}
	return SB_ROW;
}

static int pg_step(sb_stmt *s, sb_err *e)
{
	return step(s, false, e);
}

static int pg_step_past(sb_stmt *s, sb_err *e)
{
	return step(s, true, e);
}

static int pg_flush(sb_db *db, sb_err *e)
{
	return copy_flush(db, e);
}

static int pg_col_count(sb_stmt *s)
{
	return PS(s)->res != NULL ? PQnfields(PS(s)->res) : 0;
}

static const char *pg_col_name(sb_stmt *s, int c)
{
	return PS(s)->res != NULL && c >= 0 && c < PQnfields(PS(s)->res) ? PQfname(PS(s)->res, c) : NULL;
}

/* ANALYZE table (sb_db_analyze). */
static int pg_analyze(sb_db *db, const char *table, sb_err *e)
{
	char sql[96];

	if (snprintf(sql, sizeof sql, "ANALYZE %s", table) >= (int)sizeof sql)
		return sb_fail(e, SB_EINTERNAL, "table name %s too long", table);
	return pg_exec(db, sql, e);
}

/* Whether st has a current row with column c. */
static bool has_col(const struct pg_stmt *st, int c)
{
	return st->res != NULL && st->row >= 0 && st->row < PQntuples(st->res) && c >= 0 && c < PQnfields(st->res);
}

/* Parse the integer text v exactly into *out: false when it is not a
 * whole number or does not fit 64 bits ("12.000" is 12). */
static bool whole(const char *v, int64_t *out)
{
	char *end;
	int64_t n;

	errno = 0;
	n = strtoll(v, &end, 10);
	if (errno == ERANGE || end == v)
		return false;
	if (*end == '.') {
		for (end++; *end == '0'; end++)
			;
	}
	if (*end != '\0')
		return false;
	*out = n;
	return true;
}

static sb_col_kind_t pg_col_kind(sb_stmt *s, int c)
{
	struct pg_stmt *st = PS(s);
	int64_t n;

	if (!has_col(st, c) || PQgetisnull(st->res, st->row, c))
		return SB_COL_NULL;
	switch (PQftype(st->res, c)) {
	case OID_BOOL:
	case OID_INT2:
	case OID_INT4:
	case OID_INT8:
		return SB_COL_INT;
	case OID_NUMERIC:
		/* a sum past 64 bits is no integer, as on SQLite */
		return whole(PQgetvalue(st->res, st->row, c), &n) ? SB_COL_INT : SB_COL_REAL;
	case OID_FLOAT4:
	case OID_FLOAT8:
		return SB_COL_REAL;
	case OID_BYTEA:
		return SB_COL_BLOB;
	default:
		return SB_COL_TEXT;
	}
}

static int64_t pg_col_i64(sb_stmt *s, int c)
{
	struct pg_stmt *st = PS(s);
	const char *v;
	int64_t n = 0;

	if (!has_col(st, c) || PQgetisnull(st->res, st->row, c))
		return 0;
	v = PQgetvalue(st->res, st->row, c);
	if (PQftype(st->res, c) == OID_BOOL)
		return v[0] == 't';
	if (!whole(v, &n)) {
		/* as SQLite reads a REAL or a text: its integer part, clamped */
		errno = 0;
		n = strtoll(v, NULL, 10);
	}
	return n;
}

static const char *pg_col_text(sb_stmt *s, int c)
{
	struct pg_stmt *st = PS(s);

	if (!has_col(st, c) || PQgetisnull(st->res, st->row, c))
		return NULL;
	if (PQftype(st->res, c) == OID_BOOL)
		return PQgetvalue(st->res, st->row, c)[0] == 't' ? "1" : "0";
	return PQgetvalue(st->res, st->row, c);
}

static size_t pg_col_bytes(sb_stmt *s, int c)
{
	const char *t = pg_col_text(s, c);

	return t != NULL ? strlen(t) : 0;
}

static const void *pg_col_blob(sb_stmt *s, int c, size_t *len)
{
	struct pg_stmt *st = PS(s);

	*len = 0;
	if (!has_col(st, c) || PQgetisnull(st->res, st->row, c))
		return NULL;
	if (PQftype(st->res, c) != OID_BYTEA) {
		*len = (size_t)PQgetlength(st->res, st->row, c);
		return PQgetvalue(st->res, st->row, c);
	}
	if (st->blobs[c] == NULL)
		st->blobs[c] = PQunescapeBytea((const unsigned char *)PQgetvalue(st->res, st->row, c), &st->blob_lens[c]);
	*len = st->blobs[c] != NULL ? st->blob_lens[c] : 0;
	return st->blobs[c];
}

/* A write transaction: the writers' lock for its while, unless the
 * connection holds it already. */
static int pg_begin(sb_db *db, sb_err *e)
{
	if (pg_exec(db, "BEGIN", e) != SB_OK)
		return e->code;
	if (!PG(db)->holds_write_lock && pg_exec(db, "SELECT pg_advisory_xact_lock(" WRITE_LOCK ")", e) != SB_OK) {
		PQclear(PQexec(PG(db)->conn, "ROLLBACK"));
		return e->code;
	}
	return SB_OK;
}

static void pg_rollback(sb_db *db)
{
	sb_err e;

	sb_err_clear(&e);
	copy_drop(db);           /* rows not sent: nothing to roll back */
	sb_err_clear(&PG(db)->copy_late);
	collect(db, NULL, &e);   /* an error of theirs is what is being rolled back */
	unstream(db);
	PQclear(PQexec(PG(db)->conn, "ROLLBACK"));
}

static bool pg_in_tx(sb_db *db)
{
	return PG(db)->conn != NULL && PQtransactionStatus(PG(db)->conn) != PQTRANS_IDLE;
}

static int64_t pg_last_id(sb_db *db)
{
	sb_err e;
	int64_t id = 0;

	if (PG(db)->returned_id)
		return PG(db)->last_id;
	sb_err_clear(&e);
	pg_one(db, "SELECT lastval()", &id, &e);
	return id;
}

static int64_t pg_changes(sb_db *db)
{
	return PG(db)->changes;
}

static int pg_schema_version(sb_db *db)
{
	sb_err e;
	int64_t v = -1;

	sb_err_clear(&e);
	return pg_one(db, "SELECT schema_version FROM sbledger_meta", &v, &e) == SB_OK ? (int)v : -1;
}

/* PostgreSQL checks every foreign key always (turning them off is the
 * superuser's session_replication_role, which would silence the
 * triggers too): asked to leave them to the caller, it checks them
 * still. */
static int pg_foreign_keys(sb_db *db, bool on, sb_err *e)
{
	(void)db;
	(void)on;
	(void)e;
	return SB_OK;
}

static const char *pg_check_note(sb_db *db)
{
	sb_err e;
	int64_t why = 0;

	sb_err_clear(&e);
	if (pg_one(db, "SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'amcheck') THEN 1"
	               " WHEN NOT has_function_privilege('bt_index_check(regclass, boolean)', 'EXECUTE') THEN 2"
	               " ELSE 0 END", &why, &e) != SB_OK)
		return "the indexes were not read against their tables: amcheck could not be asked for";
	if (why == 1)
		return "the indexes were not read against their tables: amcheck is not installed in this database (a superuser can: CREATE EXTENSION amcheck)";
	if (why == 2)
		return "the indexes were not read against their tables: this role may not run amcheck's bt_index_check (a superuser can GRANT EXECUTE on it)";
	return NULL;
}

/* A bulk import never drops the indexes of a shared server's ledger:
 * readers are never shut out. */
static bool pg_readers_shut_out(sb_db *db)
{
	(void)db;
	return false;
}

static void pg_readers_let_in(sb_db *db)
{
	(void)db;
}

const struct sb_engine sb_engine_pg = {
	.name = "PostgreSQL",
	.open = pg_open,
	.close = pg_close,
	.prepare = pg_prepare,
	.finalize = pg_finalize,
	.reset = pg_reset,
	.clear = pg_clear,
	.sql = pg_sql,
	.param = pg_param,
	.param_name = pg_param_name,
	.bind_i64 = pg_bind_i64,
	.bind_text = pg_bind_text,
	.bind_blob = pg_bind_blob,
	.bind_null = pg_bind_null,
	.step = pg_step,
	.run_later = pg_run_later,
	.step_past = pg_step_past,
	.flush = pg_flush,
	.col_count = pg_col_count,
	.col_name = pg_col_name,
	.copy_loads = true,
	.analyze = pg_analyze,
	.col_kind = pg_col_kind,
	.col_i64 = pg_col_i64,
	.col_text = pg_col_text,
	.col_bytes = pg_col_bytes,
	.col_blob = pg_col_blob,
	.exec = pg_exec,
	.begin = pg_begin,
	.rollback = pg_rollback,
	.in_tx = pg_in_tx,
	.last_id = pg_last_id,
	.changes = pg_changes,
	.schema_version = pg_schema_version,
	.foreign_keys = pg_foreign_keys,
	.check_note = pg_check_note,
	.readers_shut_out = pg_readers_shut_out,
	.readers_let_in = pg_readers_let_in,
};
