/* copy.c: fingerprints of a ledger and copies between ledgers (see
 * copy.h).
 *
 * The copy reads each table whole with "SELECT * FROM TABLE" and stores
 * each row with the statement the destination's engine gives for its
 * columns (sb_db_load_sql: an INSERT on SQLite, COPY rows on PostgreSQL):
 * the only SQL of the program not written in sql/, because its table
 * names come from sql/queries/copy_tables.sql (checked to be plain names
 * here), its column names from the source's rows (checked too) and its
 * values are bound.
 */
#include "ledger/copy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "ledger/sqlfiles.h"

enum { MAX_TABLES = 64, MAX_COLUMNS = 64, MAX_NAME = 64 };

/* A 256-bit sum, as four 64-bit words, most significant first. */
typedef struct sum256 {
	uint64_t w[4];
} sum256;

/* Add the 32 bytes md (big-endian) to s, modulo 2^256. */
static void sum_add(sum256 *s, const unsigned char md[32])
{
	unsigned carry = 0;

	for (int i = 3; i >= 0; i--) {
		uint64_t v = 0, before;
		for (int b = 0; b < 8; b++)
			v = v << 8 | md[i * 8 + b];
		before = s->w[i];
		s->w[i] = before + v + carry;
		carry = s->w[i] < before || (carry && s->w[i] == before);
	}
}

/* Hash one column of st's row into ctx (the bytes of copy.h). */
static void hash_column(EVP_MD_CTX *ctx, sb_stmt *st, int c)
{
	unsigned char len_be[8];
	const void *v;
	size_t len;

	if (sb_col_is_null(st, c)) {
		EVP_DigestUpdate(ctx, "N", 1);
		return;
	}
	/* the bytes of the column whatever its type: a blob's (bytea
	 * decoded), a text's, an integer's decimal digits */
	v = sb_col_blob(st, c, &len);
	for (int b = 0; b < 8; b++)
		len_be[b] = (unsigned char)((uint64_t)len >> (56 - 8 * b));
	EVP_DigestUpdate(ctx, "V", 1);
	EVP_DigestUpdate(ctx, len_be, 8);
	EVP_DigestUpdate(ctx, v, len);
}

/* The fingerprint of the query sql (named name): *rows and hex. */
static int fingerprint_one(sb_db *db, const char *name, const char *sql, int64_t *rows, char hex[65], sb_err *e)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	sum256 sum = {{0, 0, 0, 0}};
	sb_stmt *st = NULL;
	int rc = -1;

	*rows = 0;
	if (ctx == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	if (sb_db_prepare(db, &sql, name, &st, e) == SB_OK && st == NULL)
		sb_fail(e, SB_EINTERNAL, "sql/%s.sql holds no statement", name);
	while (st != NULL && (rc = sb_db_step(db, st, e)) == SB_ROW) {
		unsigned char md[EVP_MAX_MD_SIZE];
		unsigned md_len = 0;
		EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
		for (int c = 0; c < sb_col_count(st); c++)
			hash_column(ctx, st, c);
		EVP_DigestFinal_ex(ctx, md, &md_len);
		sum_add(&sum, md);
		(*rows)++;
	}
	sb_stmt_finalize(st);
	EVP_MD_CTX_free(ctx);
	if (rc != SB_DONE)
		return e->code;
	for (int i = 0; i < 4; i++)
		snprintf(hex + 16 * i, 17, "%016llx", (unsigned long long)sum.w[i]);
	return SB_OK;
}

int sb_ledger_fingerprint(sb_db *db, sb_fingerprint_fn each, void *ctx, sb_err *e)
{
	for (const struct sb_sqlfile *f = sb_sqlfiles; f->name != NULL; f++) {
		const char *sql, *what;
		size_t what_len;
		char hex[65];
		int64_t rows;
		if (strncmp(f->name, "fingerprint/", 12) != 0)
			continue;
		sql = sb_db_sql(db, f->name);
		what = sb_sql_title(sql, &what_len);
		if (fingerprint_one(db, f->name, sql, &rows, hex, e) != SB_OK)
			return e->code;
		each(ctx, f->name, what, what_len, rows, hex);
	}
	return SB_OK;
}

/* A table of copy_tables.sql. */
struct table {
	char name[64];
	bool in_order;    /* read in the order stored (rowid) */
};

/* The tables to copy, from sql/queries/copy_tables.sql. */
static int read_tables(sb_db *db, struct table *t, size_t *n, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "copy_tables", e);
	int rc;

	*n = 0;
	if (st == NULL)
		return e->code;
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		const char *name = sb_col_text(st, 1);
		if (*n == MAX_TABLES || name == NULL || name[0] == '\0' || strlen(name) >= sizeof t->name ||
		    strspn(name, "abcdefghijklmnopqrstuvwxyz_") != strlen(name)) {
			sb_stmt_reset(st);
			return sb_fail(e, SB_EINTERNAL, "copy_tables.sql names a table that is not a plain name");
		}
		snprintf(t[*n].name, sizeof t[*n].name, "%s", name);
		t[(*n)++].in_order = sb_col_i64(st, 2) != 0;
	}
	sb_stmt_reset(st);
	return rc == SB_DONE ? SB_OK : e->code;
}

/* Refuse a destination that holds batches, reconciliations or invoices. */
static int check_empty(sb_db *to, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(to, "copy_target_used", e);
	int64_t batches = 0, recons = 0, invoices = 0;
	int rc;

	if (st == NULL)
		return e->code;
	if ((rc = sb_db_step(to, st, e)) == SB_ROW) {
		batches = sb_col_i64(st, 0);
		recons = sb_col_i64(st, 1);
		invoices = sb_col_i64(st, 2);
	}
	sb_stmt_reset(st);
	if (rc < 0)
		return e->code;
	if (batches + recons + invoices > 0)
		return sb_fail(e, SB_EDATA, "%s: the ledger copied into is not empty (batches: %lld, reconciliations: %lld, invoices: %lld): refused, nothing written; copy into a ledger just made by init",
		               sb_db_shown(to), (long long)batches, (long long)recons, (long long)invoices);
	return SB_OK;
}

/* Run one literal statement (built from a checked table name). */
static int run_sql(sb_db *db, const char *sql, sb_err *e)
{
	sb_stmt *st = NULL;

	if (sb_db_prepare(db, &sql, "queries/copy_tables", &st, e) != SB_OK)
		return e->code;
	sb_db_run(db, st, e);
	sb_stmt_finalize(st);
	return e->code;
}

/* Whether name is a plain lower-case name ([a-z_][a-z0-9_]*). */
static bool plain_name(const char *name)
{
	if (name == NULL || !((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_'))
		return false;
	for (; *name != '\0'; name++)
		if (!((*name >= 'a' && *name <= 'z') || (*name >= '0' && *name <= '9') || *name == '_'))
			return false;
	return true;
}

/* How many columns table t has in db (*n), and their names (names[c], up
 * to MAX_COLUMNS of them, when names is not NULL). */
static int columns_of(sb_db *db, const struct table *t, int *n, char (*names)[MAX_NAME], sb_err *e)
{
	char sql[160];
	const char *p = sql;
	sb_stmt *st = NULL;

	*n = 0;
	if (snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE 1 = 0", t->name) >= (int)sizeof sql)
		return sb_fail(e, SB_EINTERNAL, "table name %s too long to copy", t->name);
	if (sb_db_prepare(db, &p, "queries/copy_tables", &st, e) != SB_OK)
		return e->code;
	if (sb_db_step(db, st, e) == SB_DONE)
		*n = sb_col_count(st);
	for (int c = 0; names != NULL && c < *n && c < MAX_COLUMNS && e->code == SB_OK; c++) {
		const char *name = sb_col_name(st, c);
		if (!plain_name(name) || strlen(name) >= MAX_NAME)
			sb_fail(e, SB_EINTERNAL, "table %s: column %d has no plain name to copy", t->name, c + 1);
		else
			memcpy(names[c], name, strlen(name) + 1);
	}
	sb_stmt_finalize(st);
	return e->code;
}

/* Bind column c of src's row to parameter i of dst. */
static void bind_column(sb_db *to, sb_stmt *dst, int i, sb_stmt *src, int c)
{
	const void *v;
	size_t len;

	switch (sb_col_kind(src, c)) {
	case SB_COL_NULL:
		sb_bindi_text(to, dst, i, NULL);
		break;
	case SB_COL_INT:
		sb_bindi_i64(to, dst, i, sb_col_i64(src, c));
		break;
	case SB_COL_BLOB:
		v = sb_col_blob(src, c, &len);
		sb_bindi_blob(to, dst, i, v, len);
		break;
	default:
		/* text, and a REAL (a SQLite rollup past 64 bits) as its text,
		 * which a PostgreSQL bigint refuses as out of range */
		sb_bindi_textn(to, dst, i, sb_col_text(src, c), sb_col_bytes(src, c));
		break;
	}
}

/* Copy every row of table t from from into to; *rows counts them. */
static int copy_table(sb_db *from, sb_db *to, const struct table *t, int64_t *rows, sb_err *e)
{
	char select[160], insert[64 + 2 * (MAX_NAME + 4) * MAX_COLUMNS];
	char names[MAX_COLUMNS][MAX_NAME];
	const char *cols[MAX_COLUMNS];
	const char *p;
	sb_stmt *src = NULL, *dst = NULL;
	int n_from = 0, n_to = 0, n, at[MAX_COLUMNS], rc = -1;

	if (columns_of(from, t, &n_from, names, e) != SB_OK || columns_of(to, t, &n_to, NULL, e) != SB_OK)
		return e->code;
	/* a column one engine keeps and the other has not (PostgreSQL's
	 * reject.rowid, SQLite's implicit one) is the last: the columns
	 * both have are copied, the other's default fills the rest */
	n = n_from < n_to ? n_from : n_to;
	if (n == 0 || n > MAX_COLUMNS)
		return sb_fail(e, SB_EINTERNAL, "table %s has %d columns to copy", t->name, n);
	if (snprintf(select, sizeof select, "SELECT * FROM %s%s", t->name, t->in_order ? " ORDER BY rowid" : "") >=
	    (int)sizeof select)
		return sb_fail(e, SB_EINTERNAL, "table name %s too long to copy", t->name);
	for (int c = 0; c < n; c++)
		cols[c] = names[c];
	if (sb_db_load_sql(to, t->name, cols, n, insert, sizeof insert, e) != SB_OK)
		return e->code;
	p = select;
	if (sb_db_prepare(from, &p, "queries/copy_tables", &src, e) != SB_OK)
		return e->code;
	p = insert;
	if (sb_db_prepare(to, &p, "queries/copy_tables", &dst, e) != SB_OK)
		goto done;
	for (int c = 0; c < n; c++) {
		char name[MAX_NAME + 1] = ":";
		memcpy(name + 1, names[c], strnlen(names[c], MAX_NAME - 1) + 1);
		if ((at[c] = sb_db_param(to, dst, name, e)) == 0)
			goto done;
	}
	while ((rc = sb_db_step(from, src, e)) == SB_ROW) {
		for (int c = 0; c < n; c++)
			bind_column(to, dst, at[c], src, c);
		/* its outcome told at the next statement that waits (COPY rows
		 * on PostgreSQL): the copy is one transaction */
		if (sb_db_run_later(to, dst, e) != SB_OK) {
			sb_err_prefix(e, "copying table %s", t->name);
			goto done;
		}
		(*rows)++;
	}
	if (rc != SB_DONE)
		sb_err_prefix(e, "reading table %s", t->name);
done:
	sb_stmt_finalize(src);
	sb_stmt_finalize(dst);
	return e->code;
}

/* The fingerprints of one ledger, kept to compare with the other's. */
struct prints {
	size_t n;
	struct {
		const char *name;
		int64_t rows;
		char hex[65];
	} f[MAX_TABLES];
	size_t differ;        /* on the second pass: how many differ */
	const char *first;    /* the first that differs */
	bool second;
};

static void keep_print(void *ctx, const char *name, const char *what, size_t what_len, int64_t rows,
                       const char hex[65])
{
	struct prints *p = ctx;

	(void)what;
	(void)what_len;
	if (!p->second) {
		if (p->n < MAX_TABLES) {
			p->f[p->n].name = name;
			p->f[p->n].rows = rows;
			memcpy(p->f[p->n].hex, hex, 65);
			p->n++;
		}
		return;
	}
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->f[i].name, name) == 0 && (p->f[i].rows != rows || strcmp(p->f[i].hex, hex) != 0)) {
			if (p->differ++ == 0)
				p->first = p->f[i].name;
		}
}

int sb_ledger_copy(sb_db *from, sb_db *to, sb_copy_counts *out, sb_err *e)
{
	struct table t[MAX_TABLES];
	struct prints prints;
	const char *after;
	size_t n = 0;

	memset(out, 0, sizeof *out);
	memset(&prints, 0, sizeof prints);
	if (read_tables(from, t, &n, e) != SB_OK || check_empty(to, e) != SB_OK)
		return e->code;
	if (sb_ledger_fingerprint(from, keep_print, &prints, e) != SB_OK)
		return e->code;
	if (sb_db_begin(to, e) != SB_OK)
		return e->code;
	/* what init seeded goes; the rows of from come in its place */
	for (size_t i = n; i-- > 0;) {
		char sql[96];
		if (snprintf(sql, sizeof sql, "DELETE FROM %s", t[i].name) >= (int)sizeof sql) {
			sb_fail(e, SB_EINTERNAL, "table name %s too long to copy", t[i].name);
			goto fail;
		}
		if (run_sql(to, sql, e) != SB_OK)
			goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		if (copy_table(from, to, &t[i], &out->rows, e) != SB_OK)
			goto fail;
		out->tables++;
	}
	if ((after = sb_db_sql(to, "copy/after")) != NULL && sb_db_exec(to, after, e) != SB_OK)
		goto fail;
	prints.second = true;
	if (sb_ledger_fingerprint(to, keep_print, &prints, e) != SB_OK)
		goto fail;
	if (prints.differ > 0) {
		sb_fail(e, SB_EINTERNAL, "%s: after the copy, %zu fingerprints differ from %s's (the first: sql/%s.sql); nothing was written",
		        sb_db_shown(to), prints.differ, sb_db_shown(from), prints.first);
		goto fail;
	}
	out->checked = (int64_t)prints.n;
	return sb_db_commit(to, e);
fail:
	sb_db_rollback(to);
	return e->code;
}
