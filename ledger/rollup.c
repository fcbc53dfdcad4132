/* rollup.c: the per UTC day rollups of runs (see rollup.h).
 *
 * An open-addressing hash table from a group's key to its sums and its
 * maximum memory.  A key is its fields one after another, each ended by a
 * NUL byte: day, backend, model ('' for none), and for an untagged group a
 * tag name, for a tag's group its name and value.
 */
#include "ledger/rollup.h"

#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"

enum {
	SLOTS = 1 << 15,          /* hash table size, a power of two */
	FULL = SLOTS / 2,         /* groups gathered before a flush (about 3 MiB of keys and sums) */
	NSUMS = 13,               /* the summed figures, in the order of sum_params */
	NFIELDS = 5,              /* key fields at most */
	MEM_AT = NFIELDS + NSUMS  /* memory_peak_mb's place in upsert_stmt.at */
};

/* The kinds of groups, by their number of key fields. */
enum { DAY_FIELDS = 3, UNTAGGED_FIELDS = 4, TAG_FIELDS = 5 };

/* One group: its key, sums and maximum memory. */
typedef struct group {
	char *key;                /* the fields, each NUL-ended; NULL: an empty slot */
	size_t len;               /* bytes of key, NULs included */
	size_t nfields;           /* DAY_FIELDS, UNTAGGED_FIELDS or TAG_FIELDS */
	int64_t sums[NSUMS];
	int64_t memory_peak_mb;   /* the largest of its runs' */
} group;

/* A prepared upsert and the positions of its parameters: field f at
 * at[f], sum k at at[NFIELDS + k], the memory at at[MEM_AT]. */
typedef struct upsert_stmt {
	sb_stmt *st;
	int at[MEM_AT + 1];
} upsert_stmt;

struct sb_rollup {
	sb_db *db;
	upsert_stmt day;          /* sql/queries/rollup_day_add.sql */
	upsert_stmt untagged;     /* sql/queries/rollup_untagged_add.sql */
	upsert_stmt tag;          /* sql/queries/rollup_tag_add.sql */
	group *slots;             /* SLOTS of them */
	size_t used;              /* slots holding a group */
	char *buf;                /* the key being built */
	size_t buf_cap;
	char *tracked[SB_ROLLUP_TRACKED_NAMES]; /* run_tag_name, n_tracked of them */
	size_t n_tracked;
	bool removed;             /* a run was taken out since the last flush */
};

/* The field parameters of the upserts: the day's three, then the tag name
 * (untagged and tag groups), then its value (tag groups). */
static const char *const field_params[NFIELDS] = {":day", ":backend", ":model", ":name", ":value"};
static const char *const sum_params[NSUMS] = {
	":runs", ":exec_ms", ":computed_nanos", ":input_tokens", ":output_tokens", ":exec_count",
	":cpu_ms", ":bytes_read", ":bytes_written", ":billed_nanos", ":billed_runs", ":card_nanos",
	":card_runs"};

/* Prepare u from sql/queries/NAME.sql and resolve its nfields field
 * parameters, its sums and its memory. */
static int prepare(sb_db *db, const char *name, size_t nfields, upsert_stmt *u, sb_err *e)
{
	if ((u->st = sb_db_stmt(db, name, e)) == NULL)
		return e->code;
	for (size_t f = 0; f < nfields; f++)
		if ((u->at[f] = sb_db_param(db, u->st, field_params[f], e)) == 0)
			return e->code;
	for (size_t k = 0; k < NSUMS; k++)
		if ((u->at[NFIELDS + k] = sb_db_param(db, u->st, sum_params[k], e)) == 0)
			return e->code;
	if ((u->at[MEM_AT] = sb_db_param(db, u->st, ":memory_peak_mb", e)) == 0)
		return e->code;
	return SB_OK;
}

/* Read the tracked tag names (run_tag_name) into r. */
static int load_tracked(sb_rollup *r, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(r->db, "rollup_tag_names", e);
	int rc;

	if (st == NULL)
		return e->code;
	while ((rc = sb_db_step(r->db, st, e)) == SB_ROW && r->n_tracked < SB_ROLLUP_TRACKED_NAMES) {
		if ((r->tracked[r->n_tracked] = strdup(sb_col_text(st, 0))) == NULL) {
			sb_stmt_reset(st);
			return sb_fail(e, SB_EINTERNAL, "out of memory");
		}
		r->n_tracked++;
	}
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
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
	if (prepare(db, "rollup_day_add", DAY_FIELDS, &r->day, e) != SB_OK ||
	    prepare(db, "rollup_untagged_add", UNTAGGED_FIELDS, &r->untagged, e) != SB_OK ||
	    prepare(db, "rollup_tag_add", TAG_FIELDS, &r->tag, e) != SB_OK ||
	    load_tracked(r, e) != SB_OK) {
		sb_rollup_free(r);
		return e->code;
	}
	*out = r;
	return SB_OK;
}

/* Upsert group g into its table. */
static int upsert(sb_rollup *r, const group *g, sb_err *e)
{
	const upsert_stmt *u = g->nfields == DAY_FIELDS ? &r->day :
	                       g->nfields == UNTAGGED_FIELDS ? &r->untagged : &r->tag;
	const char *p = g->key;

	for (size_t f = 0; f < g->nfields; f++) {
		sb_bindi_text(r->db, u->st, u->at[f], p);
		p += strlen(p) + 1;
	}
	for (size_t k = 0; k < NSUMS; k++)
		sb_bindi_i64(r->db, u->st, u->at[NFIELDS + k], g->sums[k]);
	sb_bindi_i64(r->db, u->st, u->at[MEM_AT], g->memory_peak_mb);
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
	for (size_t i = 0; i < r->n_tracked; i++)
		free(r->tracked[i]);
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
	size_t lens[NFIELDS], len = 0, at = 0;

	for (size_t i = 0; i < n; i++)
		len += (lens[i] = strlen(fields[i]) + 1);
	if (len > r->buf_cap) {
		char *buf = realloc(r->buf, len);
		if (buf == NULL)
			return 0;
		r->buf = buf;
		r->buf_cap = len;
	}
	for (size_t i = 0; i < n; i++) {
		memcpy(r->buf + at, fields[i], lens[i]);
		at += lens[i];
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

/* Add sums and memory to the group of fields[0..n), flushing first when
 * the table is full. */
static int add(sb_rollup *r, const char *const *fields, size_t n, const int64_t *sums,
               int64_t memory, sb_err *e)
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
		g->memory_peak_mb = 0;
		r->used++;
	}
	if (!fits(g, sums)) {
		/* write what the group holds and start it again: the sum in
		 * the ledger then passes 64 bits and becomes a REAL there,
		 * which the invoice and the summary refuse as they refuse any
		 * sum past 64 bits */
		if (upsert(r, g, e) != SB_OK)
			return e->code;
		memset(g->sums, 0, sizeof g->sums);
	}
	for (size_t k = 0; k < NSUMS; k++)
		g->sums[k] += sums[k];
	if (memory > g->memory_peak_mb)
		g->memory_peak_mb = memory;
	return SB_OK;
}

/* Whether name is one of the tracked names. */
static bool is_tracked(const sb_rollup *r, const char *name)
{
	for (size_t i = 0; i < r->n_tracked; i++)
		if (strcmp(r->tracked[i], name) == 0)
			return true;
	return false;
}

/* Whether run has a tag named name. */
static bool has_tag(const sb_run *run, const char *name)
{
	for (size_t t = 0; t < run->n_tags; t++)
		if (strcmp(run->tags[t].name, name) == 0)
			return true;
	return false;
}

/* Track name, which no stored run has had (it is not tracked while fewer
 * than SB_ROLLUP_TRACKED_NAMES are: names are tracked as they come): every
 * run stored so far lacks it, so its untagged rollup starts as run_day,
 * once what was gathered is written. */
static int track(sb_rollup *r, const char *name, sb_err *e)
{
	sb_stmt *st;
	char *copy = strdup(name);

	if (copy == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	if (sb_rollup_flush(r, e) != SB_OK) {
		free(copy);
		return e->code;
	}
	for (size_t q = 0; q < 2; q++) {
		static const char *const queries[] = {"rollup_tag_track", "rollup_tag_name_insert"};
		if ((st = sb_db_stmt(r->db, queries[q], e)) == NULL) {
			free(copy);
			return e->code;
		}
		sb_bind_text(r->db, st, ":name", name);
		if (sb_db_run(r->db, st, e) != SB_OK) {
			free(copy);
			return e->code;
		}
	}
	r->tracked[r->n_tracked++] = copy;
	return SB_OK;
}

int sb_rollup_add(sb_rollup *r, const sb_run *run, const char *day, bool has_card,
                  int64_t card_nanos, sb_err *e)
{
	const char *model = run->model != NULL ? run->model : "";
	const char *fields[NFIELDS] = {day, run->backend, model, NULL, NULL};
	int64_t sums[NSUMS] = {1, run->total_duration_ms, run->computed_nanos, run->input_tokens,
	                       run->output_tokens, run->exec_count, run->cpu_ms, run->bytes_read,
	                       run->bytes_written, run->has_billed ? run->billed_nanos : 0,
	                       run->has_billed ? 1 : 0, has_card ? card_nanos : 0, has_card ? 1 : 0};

	for (size_t t = 0; t < run->n_tags; t++)
		if (r->n_tracked < SB_ROLLUP_TRACKED_NAMES && !is_tracked(r, run->tags[t].name) &&
		    track(r, run->tags[t].name, e) != SB_OK)
			return e->code;
	if (add(r, fields, DAY_FIELDS, sums, run->memory_peak_mb, e) != SB_OK)
		return e->code;
	for (size_t t = 0; t < run->n_tags; t++) {
		fields[3] = run->tags[t].name;
		fields[4] = run->tags[t].value;
		if (add(r, fields, TAG_FIELDS, sums, run->memory_peak_mb, e) != SB_OK)
			return e->code;
	}
	for (size_t i = 0; i < r->n_tracked; i++) {
		if (has_tag(run, r->tracked[i]))
			continue;
		fields[3] = r->tracked[i];
		if (add(r, fields, UNTAGGED_FIELDS, sums, run->memory_peak_mb, e) != SB_OK)
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
	if (r->removed) {
		if (sb_db_exec_file(r->db, "queries/rollup_fix_max", e) != SB_OK)
			return e->code;
		r->removed = false;
	}
	return SB_OK;
}

int sb_rollup_remove(sb_rollup *r, int64_t rid, sb_err *e)
{
	static const char *const queries[] = {"rollup_day_remove", "rollup_tag_remove",
	                                      "rollup_untagged_remove"};

	for (size_t q = 0; q < 3; q++) {
		sb_stmt *st = sb_db_stmt(r->db, queries[q], e);
		if (st == NULL)
			return e->code;
		sb_bind_i64(r->db, st, ":rid", rid);
		if (sb_db_run(r->db, st, e) != SB_OK)
			return e->code;
	}
	r->removed = true;
	return SB_OK;
}
