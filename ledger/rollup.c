/* rollup.c: the per UTC day rollups of runs (see rollup.h).
 *
 * An open-addressing hash table from a group's key to its five sums.  A
 * key is its fields one after another, each ended by a NUL byte: day,
 * backend, model ('' for none), and for a tag's group its name and value.
 */
#include "ledger/rollup.h"

#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"

enum {
	SLOTS = 1 << 15,          /* hash table size, a power of two */
	FULL = SLOTS / 2,         /* groups gathered before a flush (about 2 MiB of keys) */
	NSUMS = 5                 /* runs, exec_ms, computed_nanos, input and output tokens */
};

/* One group: its key and sums. */
typedef struct group {
	char *key;                /* the fields, each NUL-ended; NULL: an empty slot */
	size_t len;               /* bytes of key, NULs included */
	size_t nfields;           /* 3 (a day) or 5 (a tag) */
	int64_t sums[NSUMS];
} group;

/* A prepared upsert and the positions of its parameters: field f at
 * at[f], sum k at at[SUM_AT + k]. */
enum { SUM_AT = 5 };
typedef struct upsert_stmt {
	sqlite3_stmt *st;
	int at[SUM_AT + NSUMS];
} upsert_stmt;

struct sb_rollup {
	sb_db *db;
	upsert_stmt day;          /* sql/queries/rollup_day_add.sql (3 fields) */
	upsert_stmt tag;          /* sql/queries/rollup_tag_add.sql (5 fields) */
	group *slots;             /* SLOTS of them */
	size_t used;              /* slots holding a group */
	char *buf;                /* the key being built */
	size_t buf_cap;
};

/* The parameters of rollup_tag_add.sql; rollup_day_add.sql has the
 * first three fields only. */
static const char *const field_params[] = {":day", ":backend", ":model", ":name", ":value"};
static const char *const sum_params[NSUMS] = {":runs", ":exec_ms", ":computed_nanos",
                                              ":input_tokens", ":output_tokens"};

/* Prepare u from sql/queries/NAME.sql and resolve its nfields field
 * parameters and its sums. */
static int prepare(sb_db *db, const char *name, size_t nfields, upsert_stmt *u, sb_err *e)
{
	if ((u->st = sb_db_stmt(db, name, e)) == NULL)
		return e->code;
	for (size_t f = 0; f < nfields; f++)
		if ((u->at[f] = sb_db_param(db, u->st, field_params[f], e)) == 0)
			return e->code;
	for (size_t k = 0; k < NSUMS; k++)
		if ((u->at[SUM_AT + k] = sb_db_param(db, u->st, sum_params[k], e)) == 0)
			return e->code;
	return SB_OK;
}

int sb_rollup_new(sb_db *db, sb_rollup **out, sb_err *e)
{
	sb_rollup *r = calloc(1, sizeof *r);

	*out = NULL;
	if (r == NULL || (r->slots = calloc(SLOTS, sizeof *r->slots)) == NULL) {
		free(r);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	r->db = db;
	if (prepare(db, "rollup_day_add", 3, &r->day, e) != SB_OK ||
	    prepare(db, "rollup_tag_add", 5, &r->tag, e) != SB_OK) {
		sb_rollup_free(r);
		return e->code;
	}
	*out = r;
	return SB_OK;
}

/* Upsert group g into its table. */
static int upsert(sb_rollup *r, const group *g, sb_err *e)
{
	const upsert_stmt *u = g->nfields == 3 ? &r->day : &r->tag;
	const char *p = g->key;

	for (size_t f = 0; f < g->nfields; f++) {
		sb_bindi_text(r->db, u->st, u->at[f], p);
		p += strlen(p) + 1;
	}
	for (size_t k = 0; k < NSUMS; k++)
		sb_bindi_i64(r->db, u->st, u->at[SUM_AT + k], g->sums[k]);
	return sb_db_run(r->db, u->st, e);
}

/* Forget every group. */
static void clear(sb_rollup *r)
{
	for (size_t i = 0; i < SLOTS && r->used > 0; i++) {
		if (r->slots[i].key != NULL) {
			free(r->slots[i].key);
			r->slots[i].key = NULL;
			r->used--;
		}
	}
}

void sb_rollup_free(sb_rollup *r)
{
	if (r == NULL)
		return;
	clear(r);
	free(r->slots);
	free(r->buf);
	free(r);
}

/* FNV-1a of the n bytes at p. */
static uint64_t hash(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037u;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211u;
	}
	return h;
}

/* Build the key of fields[0..n) into r->buf; its length, or 0 when out
 * of memory. */
static size_t build_key(sb_rollup *r, const char *const *fields, size_t n)
{
	size_t len = 0, at = 0;

	for (size_t i = 0; i < n; i++)
		len += strlen(fields[i]) + 1;
	if (len > r->buf_cap) {
		char *buf = realloc(r->buf, len);
		if (buf == NULL)
			return 0;
		r->buf = buf;
		r->buf_cap = len;
	}
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(fields[i]) + 1;
		memcpy(r->buf + at, fields[i], l);
		at += l;
	}
	return len;
}

/* Whether sums can be added to g's without passing 64 bits. */
static bool fits(const group *g, const int64_t *sums)
{
	int64_t out;

	for (size_t k = 0; k < NSUMS; k++)
		if (sb_money_add(g->sums[k], sums[k], &out) != SB_MONEY_OK)
			return false;
	return true;
}

/* Add sums to the group of fields[0..n), flushing first when the table
 * is full. */
static int add(sb_rollup *r, const char *const *fields, size_t n, const int64_t *sums, sb_err *e)
{
	size_t len = build_key(r, fields, n), i;
	group *g;

	if (len == 0)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	for (;;) {
		i = (size_t)hash(r->buf, len) & (SLOTS - 1);
		while (r->slots[i].key != NULL &&
		       (r->slots[i].len != len || memcmp(r->slots[i].key, r->buf, len) != 0))
			i = (i + 1) & (SLOTS - 1);
		if (r->slots[i].key != NULL || r->used < FULL)
			break;
		if (sb_rollup_flush(r, e) != SB_OK)
			return e->code;
	}
	g = &r->slots[i];
	if (g->key == NULL) {
		if ((g->key = malloc(len)) == NULL)
			return sb_fail(e, SB_EINTERNAL, "out of memory");
		memcpy(g->key, r->buf, len);
		g->len = len;
		g->nfields = n;
		memset(g->sums, 0, sizeof g->sums);
		r->used++;
	}
	if (!fits(g, sums)) {
		/* write what the group holds and start it again: the sum in
		 * the ledger then passes 64 bits and becomes a REAL there,
		 * which the invoice refuses as it refuses any sum past 64 bits */
		if (upsert(r, g, e) != SB_OK)
			return e->code;
		memset(g->sums, 0, sizeof g->sums);
	}
	for (size_t k = 0; k < NSUMS; k++)
		g->sums[k] += sums[k];
	return SB_OK;
}

int sb_rollup_add(sb_rollup *r, const sb_run *run, const char *day, sb_err *e)
{
	const char *model = run->model != NULL ? run->model : "";
	const char *fields[5] = {day, run->backend, model, NULL, NULL};
	int64_t sums[NSUMS] = {1, run->total_duration_ms, run->computed_nanos, run->input_tokens,
	                       run->output_tokens};

	if (add(r, fields, 3, sums, e) != SB_OK)
		return e->code;
	for (size_t t = 0; t < run->n_tags; t++) {
		fields[3] = run->tags[t].name;
		fields[4] = run->tags[t].value;
		if (add(r, fields, 5, sums, e) != SB_OK)
			return e->code;
	}
	return SB_OK;
}

int sb_rollup_flush(sb_rollup *r, sb_err *e)
{
	for (size_t i = 0; i < SLOTS && r->used > 0; i++)
		if (r->slots[i].key != NULL && upsert(r, &r->slots[i], e) != SB_OK)
			return e->code;
	clear(r);
	return SB_OK;
}

int sb_rollup_remove(sb_rollup *r, int64_t rid, sb_err *e)
{
	static const char *const queries[] = {"rollup_day_remove", "rollup_tag_remove"};

	for (size_t q = 0; q < 2; q++) {
		sqlite3_stmt *st = sb_db_stmt(r->db, queries[q], e);
		if (st == NULL)
			return e->code;
		sb_bind_i64(r->db, st, ":rid", rid);
		if (sb_db_run(r->db, st, e) != SB_OK)
			return e->code;
	}
	return SB_OK;
}
