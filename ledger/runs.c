/* runs.c: the run writer (see runs.h). */
#include "ledger/runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/quote.h"
#include "ledger/rollup.h"
#include "ledger/timefmt.h"

/* The parameters of sql/queries/run_insert.sql, in the order of the
 * RUN_* positions below. */
static const char *const run_params[] = {
	":run_id", ":batch_id", ":line_no", ":backend", ":session_id", ":plan", ":started_ms",
	":started_day", ":ended_ms", ":model", ":input_tokens", ":output_tokens", ":budget_nanos",
	":exec_count", ":total_duration_ms", ":cpu_ms", ":memory_peak_mb", ":bytes_read",
	":bytes_written", ":computed_nanos", ":billed_nanos", ":card_nanos", ":lifetime_nanos",
	":has_executions", ":fingerprint", ":tags", ":extra", ":recent"};
enum {
	RUN_RUN_ID, RUN_BATCH_ID, RUN_LINE_NO, RUN_BACKEND, RUN_SESSION_ID, RUN_PLAN,
	RUN_STARTED_MS, RUN_STARTED_DAY, RUN_ENDED_MS, RUN_MODEL, RUN_INPUT_TOKENS,
	RUN_OUTPUT_TOKENS, RUN_BUDGET_NANOS, RUN_EXEC_COUNT, RUN_TOTAL_DURATION_MS, RUN_CPU_MS,
	RUN_MEMORY_PEAK_MB, RUN_BYTES_READ, RUN_BYTES_WRITTEN, RUN_COMPUTED_NANOS,
	RUN_BILLED_NANOS, RUN_CARD_NANOS, RUN_LIFETIME_NANOS, RUN_HAS_EXECUTIONS,
	RUN_FINGERPRINT, RUN_TAGS, RUN_EXTRA, RUN_RECENT, RUN_NPARAMS
};

/* The parameters of sql/queries/run_execs_insert.sql (EXECS_* positions). */
static const char *const execs_params[] = {":rid", ":execs"};
enum { EXECS_RID, EXECS_TEXT, EXECS_NPARAMS };

/* The parameters of sql/queries/run_tag_insert.sql (TAG_* positions). */
static const char *const tag_params[] = {":rid", ":name", ":value"};
enum { TAG_RID, TAG_NAME, TAG_VALUE, TAG_NPARAMS };

/* What sb_run_writer_expect found of one run_id. */
enum known { KNOWN_ABSENT, KNOWN_LEDGER, KNOWN_STORED };

/* One run_id of the runs expected (sb_run_writer_expect), in an open
 * addressing table. */
typedef struct expected {
	const char *run_id;        /* the expected run's (borrowed), NULL: a free slot */
	enum known state;          /* absent; in the ledger; stored since by this writer */
	char fingerprint[65];      /* the stored version's, unless absent */
	int64_t batch_id, line_no; /* where the stored version came from */
} expected;

struct sb_run_writer {
	sb_db *db;                 /* the ledger */
	const sb_rates *rates;     /* cards for the card cost */
	int64_t batch_id;          /* the batch being imported */
	sb_stmt *run_insert;  /* sql/queries/run_insert.sql */
	sb_stmt *run_load;    /* sql/queries/run_load.sql */
	int load_at[RUN_NPARAMS];  /* positions of run_params in run_load */
	int load_rid;              /* and of its :rid */
	expected *known;           /* the runs expected, or NULL (see sb_run_store) */
	size_t known_cap;          /* slots, a power of two */
	bool expecting;            /* known holds the runs expected next */
	int64_t next_rid;          /* then: the row id of the next run stored */
	char *ids;                 /* their run_ids as a JSON array (run_prefetch.sql) */
	size_t ids_cap;
	sb_stmt *execs_insert; /* sql/queries/run_execs_insert.sql */
	sb_stmt *tag_insert;  /* sql/queries/run_tag_insert.sql */
	int run_at[RUN_NPARAMS];   /* positions of run_params in run_insert */
	int execs_at[EXECS_NPARAMS]; /* positions of execs_params in execs_insert */
	int tag_at[TAG_NPARAMS];   /* positions of tag_params in tag_insert */
	sb_rollup *rollup;         /* the day rollups of the runs stored */
	char *buf;                 /* the executions' text of a run whose parser made none */
	size_t buf_cap;            /* bytes allocated */
	bool bulk;                 /* sb_run_writer_bulk dropped the indexes, readers kept out */
	bool settled;              /* sb_run_writer_bulk found the input much larger than the
	                              ledger: runs go to the settled part of the session index */
};

/* Resolve the n parameter names of st into at[]; SB_EINTERNAL when one
 * is missing. */
static int resolve(sb_db *db, sb_stmt *st, const char *const *names, int *at, size_t n,
                   sb_err *e)
{
	for (size_t i = 0; i < n; i++)
		if ((at[i] = sb_db_param(db, st, names[i], e)) == 0)
			return e->code;
	return SB_OK;
}

int sb_run_writer_new(sb_db *db, const sb_rates *rates, int64_t batch_id,
                      sb_run_writer **out, sb_err *e)
{
	sb_run_writer *w = calloc(1, sizeof *w);

	*out = NULL;
	if (w == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	w->db = db;
	w->rates = rates;
	w->batch_id = batch_id;
	if (sb_rollup_new(db, &w->rollup, e) != SB_OK) {
		free(w);
		return e->code;
	}
	if ((w->run_insert = sb_db_stmt(db, "run_insert", e)) == NULL ||
	    (w->execs_insert = sb_db_stmt(db, "run_execs_insert", e)) == NULL ||
	    (w->tag_insert = sb_db_stmt(db, "run_tag_insert", e)) == NULL ||
	    (w->run_load = sb_db_stmt(db, "run_load", e)) == NULL ||
	    resolve(db, w->run_insert, run_params, w->run_at, RUN_NPARAMS, e) != SB_OK ||
	    resolve(db, w->run_load, run_params, w->load_at, RUN_NPARAMS, e) != SB_OK ||
	    (w->load_rid = sb_db_param(db, w->run_load, ":rid", e)) == 0 ||
	    resolve(db, w->execs_insert, execs_params, w->execs_at, EXECS_NPARAMS, e) != SB_OK ||
	    resolve(db, w->tag_insert, tag_params, w->tag_at, TAG_NPARAMS, e) != SB_OK) {
		sb_rollup_free(w->rollup);
		free(w);
		return e->code;
	}
	*out = w;
	return SB_OK;
}

void sb_run_writer_free(sb_run_writer *w)
{
	if (w != NULL) {
		sb_rollup_free(w->rollup);
		free(w->buf);
		free(w->known);
		free(w->ids);
	}
	free(w);
}

int sb_run_writer_bulk(sb_run_writer *w, int64_t input_bytes, int64_t min_bytes, bool *dropped,
                       sb_err *e)
{
	sb_stmt *st;
	int64_t ledger_bytes = 0;
	int rc;

	*dropped = false;
	if (input_bytes < min_bytes || (st = sb_db_stmt(w->db, "ledger_bytes", e)) == NULL)
		return e->code;
	if ((rc = sb_db_step(w->db, st, e)) == SB_ROW)
		ledger_bytes = sb_col_i64(st, 0);
	sb_stmt_reset(st);
	if (rc < 0)
		return e->code;
	if (input_bytes / 2 < ledger_bytes)
		return SB_OK;
	/* most of the runs will be new: into the settled part of the session
	 * index at once, rather than into the recent part and merged at the
	 * end (an UPDATE of every row) */
	w->settled = true;
	if (!sb_db_readers_shut_out(w->db))
		return SB_OK;
	if (sb_db_indexes_drop(w->db, e) != SB_OK) {
		sb_db_readers_let_in(w->db);
		return e->code;
	}
	w->bulk = *dropped = true;
	return SB_OK;
}

int sb_run_writer_finish(sb_run_writer *w, sb_err *e)
{
	sb_stmt *st;
	int64_t recent = 0, runs = 0;
	int rc;

	if (w->bulk)
		return sb_db_indexes_create(w->db, e);
	/* the recent part of the session index merged into the settled part
	 * once it holds more than an eighth of the runs */
	if ((st = sb_db_stmt(w->db, "run_session_recent", e)) == NULL)
		return e->code;
	if ((rc = sb_db_step(w->db, st, e)) == SB_ROW) {
		recent = sb_col_i64(st, 0);
		runs = sb_col_i64(st, 1);
	}
	sb_stmt_reset(st);
	if (rc < 0)
		return e->code;
	if (recent == 0 || recent <= runs / 8)
		return SB_OK;
	return (st = sb_db_stmt(w->db, "run_session_merge", e)) == NULL ? e->code : sb_db_run(w->db, st, e);
}

int sb_run_writer_done(sb_run_writer *w, sb_err *e)
{
	bool all = true;

	if (w == NULL || !w->bulk)
		return SB_OK;
	if (sb_db_indexes_present(w->db, &all, e) == SB_OK && !all && sb_db_begin(w->db, e) == SB_OK &&
	    (sb_db_indexes_create(w->db, e) != SB_OK || sb_db_commit(w->db, e) != SB_OK))
		sb_db_rollback(w->db);
	/* without them (this failed too) readers are not let in here: the
	 * next sb_db_open builds them first, and readers wait for it */
	if (e->code == SB_OK) {
		sb_db_readers_let_in(w->db);
		w->bulk = false;
	}
	return e->code;
}

int sb_run_writer_flush(sb_run_writer *w, sb_err *e)
{
	/* what the expected runs found holds until a commit: another
	 * process may write between two transactions */
	w->expecting = false;
	return sb_rollup_flush(w->rollup, e);
}

/* Bytes of an integer's decimal text at most ("-9223372036854775808"). */
enum { I64_TEXT_MAX = 20 };

size_t sb_execs_json_max(const sb_exec *execs, size_t n)
{
	/* the brackets, and per execution its brackets, eight commas and one
	 * between executions, seven integers (or null), and two strings of
	 * at most six bytes per byte (\u00XX) and their quotes (or null) */
	size_t max = 2 + n * (11 + 7 * I64_TEXT_MAX + 2 * 4);

	for (size_t i = 0; i < n; i++) {
		max += 6 * execs[i].command_len;
		if (execs[i].extra != NULL)
			max += 6 * strlen(execs[i].extra);
	}
	return max;
}

/* Write v in decimal at p; the byte after it. */
static char *put_i64(char *p, int64_t v)
{
	char digits[I64_TEXT_MAX];
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n = 0;

	do {
		digits[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	if (v < 0)
		*p++ = '-';
	while (n > 0)
		*p++ = digits[--n];
	return p;
}

/* Write v, or null when has is false, at p; the byte after it. */
static char *put_i64_opt(char *p, bool has, int64_t v)
{
	if (has)
		return put_i64(p, v);
	memcpy(p, "null", 4);
	return p + 4;
}

/* Write s[0..len) as a JSON string at p, escaped as SQLite's json_quote
 * does (a backslash before " and \, \b \t \n \f \r, \u00XX in lower
 * case for the other bytes below 0x20, every other byte as it is), or null
 * when s is NULL; the byte after it. */
static char *put_str(char *p, const char *s, size_t len)
{
	static const char special[32] = {
		0, 0, 0, 0, 0, 0, 0, 0, 'b', 't', 'n', 0, 'f', 'r', 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

	if (s == NULL) {
		memcpy(p, "null", 4);
		return p + 4;
	}
	*p++ = '"';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			*p++ = '\\';
		} else if (c < 0x20) {
			*p++ = '\\';
			if (special[c] != 0) {
				c = (unsigned char)special[c];
			} else {
				memcpy(p, "u00", 3);
				p += 3;
				*p++ = (char)('0' + (c >> 4));
				c = (unsigned char)"0123456789abcdef"[c & 15];
			}
		}
		*p++ = (char)c;
	}
	*p++ = '"';
	return p;
}

size_t sb_execs_json(const sb_exec *execs, size_t n, char *buf)
{
	char *p = buf;

	*p++ = '[';
	for (size_t i = 0; i < n; i++) {
		const sb_exec *x = &execs[i];
		if (i > 0)
			*p++ = ',';
		*p++ = '[';
		p = put_str(p, x->command, x->command_len);
		*p++ = ',';
		p = put_i64_opt(p, x->has_exit_code, x->exit_code);
		*p++ = ',';
		p = put_i64(p, x->duration_ms);
		*p++ = ',';
		p = put_i64(p, x->cpu_ms);
		*p++ = ',';
		p = put_i64(p, x->memory_peak_mb);
		*p++ = ',';
		p = put_i64(p, x->bytes_read);
		*p++ = ',';
		p = put_i64(p, x->bytes_written);
		*p++ = ',';
		p = put_i64_opt(p, x->has_cost, x->cost_nanos);
		*p++ = ',';
		p = put_str(p, x->extra, x->extra != NULL ? strlen(x->extra) : 0);
		*p++ = ']';
	}
	*p++ = ']';
	*p = '\0';
	return (size_t)(p - buf);
}

bool sb_run_card_cost(const sb_run *run, const sb_card *card, int64_t *nanos)
{
	int64_t sum = 0, part = 0, listed_ms = 0, rest_ms;

	for (size_t i = 0; i < run->n_execs; i++)
		if (sb_card_cost_for_ms(card, run->execs[i].duration_ms, &part) != SB_MONEY_OK ||
		    sb_money_add(sum, part, &sum) != SB_MONEY_OK ||
		    __builtin_add_overflow(listed_ms, run->execs[i].duration_ms, &listed_ms))
			return false;
	/* what the listed executions leave of total_duration_ms: all of it
	 * for a summary-only record, 0 for a fully detailed one */
	if (__builtin_sub_overflow(run->total_duration_ms, listed_ms, &rest_ms) ||
	    sb_card_cost_for_ms(card, rest_ms, &part) != SB_MONEY_OK ||
	    sb_money_add(sum, part, &sum) != SB_MONEY_OK)
		return false;
	*nanos = sum;
	return true;
}

/* The card cost of a run, as the writer stores it. */
typedef struct priced {
	bool card;                 /* card_nanos is known */
	int64_t card_nanos;
	bool lifetime;             /* lifetime_nanos is known */
	int64_t lifetime_nanos;
	char day[SB_TIME_BUFSZ];   /* started_day */
} priced;

/* Bind run (line line_no), priced as pr says, to st, whose run_params
 * are at at[] (run_insert.sql, run_load.sql). */
static void bind_run(sb_run_writer *w, sb_stmt *st, const int *at, const sb_run *run,
                     int64_t line_no, priced *pr)
{
	sb_db *db = w->db;
	const sb_card *card = sb_rates_find(w->rates, run->backend, run->plan, run->started_ms);

	pr->card_nanos = pr->lifetime_nanos = 0;
	pr->card = card != NULL && sb_run_card_cost(run, card, &pr->card_nanos);
	pr->lifetime = card != NULL && run->has_ended &&
	               sb_card_cost_for_ms(card, run->ended_ms - run->started_ms, &pr->lifetime_nanos) == SB_MONEY_OK;

	sb_bindi_text(db, st, at[RUN_RUN_ID], run->run_id);
	sb_bindi_i64(db, st, at[RUN_BATCH_ID], w->batch_id);
	sb_bindi_i64(db, st, at[RUN_LINE_NO], line_no);
	sb_bindi_text(db, st, at[RUN_BACKEND], run->backend);
	sb_bindi_text(db, st, at[RUN_SESSION_ID], run->session_id);
	sb_bindi_text(db, st, at[RUN_PLAN], run->plan);
	sb_bindi_i64(db, st, at[RUN_STARTED_MS], run->started_ms);
	sb_bindi_text(db, st, at[RUN_STARTED_DAY], sb_date_format(run->started_ms, pr->day));
	sb_bindi_i64_opt(db, st, at[RUN_ENDED_MS], run->has_ended, run->ended_ms);
	sb_bindi_text(db, st, at[RUN_MODEL], run->model);
	sb_bindi_i64(db, st, at[RUN_INPUT_TOKENS], run->input_tokens);
	sb_bindi_i64(db, st, at[RUN_OUTPUT_TOKENS], run->output_tokens);
	sb_bindi_i64_opt(db, st, at[RUN_BUDGET_NANOS], run->has_budget, run->budget_nanos);
	sb_bindi_i64(db, st, at[RUN_EXEC_COUNT], run->exec_count);
	sb_bindi_i64(db, st, at[RUN_TOTAL_DURATION_MS], run->total_duration_ms);
	sb_bindi_i64(db, st, at[RUN_CPU_MS], run->cpu_ms);
	sb_bindi_i64(db, st, at[RUN_MEMORY_PEAK_MB], run->memory_peak_mb);
	sb_bindi_i64(db, st, at[RUN_BYTES_READ], run->bytes_read);
	sb_bindi_i64(db, st, at[RUN_BYTES_WRITTEN], run->bytes_written);
	sb_bindi_i64(db, st, at[RUN_COMPUTED_NANOS], run->computed_nanos);
	sb_bindi_i64_opt(db, st, at[RUN_BILLED_NANOS], run->has_billed, run->billed_nanos);
	sb_bindi_i64_opt(db, st, at[RUN_CARD_NANOS], pr->card, pr->card_nanos);
	sb_bindi_i64_opt(db, st, at[RUN_LIFETIME_NANOS], pr->lifetime, pr->lifetime_nanos);
	sb_bindi_i64(db, st, at[RUN_HAS_EXECUTIONS], run->n_execs > 0);
	sb_bindi_text(db, st, at[RUN_FINGERPRINT], run->fingerprint);
	sb_bindi_text(db, st, at[RUN_TAGS], run->tags_json);
	sb_bindi_text(db, st, at[RUN_EXTRA], run->extra);
	/* the recent part of the session index, but for an import much larger
	 * than the ledger (sb_run_writer_bulk) */
	sb_bindi_i64(db, st, at[RUN_RECENT], w->settled ? 0 : 1);
}

/* Insert run as a new row, *rid; *inserted is false when its run_id
 * exists.  (The row id is read before the rollups, whose statements may
 * insert rows of their own.) */
static int insert_run(sb_run_writer *w, const sb_run *run, int64_t line_no,
                      bool *inserted, int64_t *rid, sb_err *e)
{
	priced pr;

	bind_run(w, w->run_insert, w->run_at, run, line_no, &pr);
	if (sb_db_run(w->db, w->run_insert, e) != SB_OK)
		return e->code;
	*inserted = sb_db_changes(w->db) == 1;
	if (!*inserted)
		return SB_OK;
	*rid = sb_db_last_id(w->db);
	return sb_rollup_add(w->rollup, run, pr.day, pr.card, pr.card_nanos, e);
}

/* Insert the executions and tags of the run just inserted as rid (their
 * outcome is read at the next statement that waits: sb_db_run_later). */
static int insert_children(sb_run_writer *w, const sb_run *run, int64_t rid, sb_err *e)
{
	sb_db *db = w->db;
	sb_stmt *st;
	const int *at;
	const char *execs = run->execs_json;
	size_t execs_len = run->execs_json_len;

	/* the executions as one row of their own */
	if (run->n_execs > 0) {
		if (execs == NULL) {
			size_t max = sb_execs_json_max(run->execs, run->n_execs) + 1;
			if (max > w->buf_cap) {
				char *buf = realloc(w->buf, max);
				if (buf == NULL)
					return sb_fail(e, SB_EINTERNAL, "out of memory");
				w->buf = buf;
				w->buf_cap = max;
			}
			execs_len = sb_execs_json(run->execs, run->n_execs, w->buf);
			execs = w->buf;
		}
		st = w->execs_insert;
		sb_bindi_i64(db, st, w->execs_at[EXECS_RID], rid);
		sb_bindi_textn(db, st, w->execs_at[EXECS_TEXT], execs, execs_len);
		if (sb_db_run_later(db, st, e) != SB_OK)
			return e->code;
	}
	st = w->tag_insert;
	at = w->tag_at;
	for (size_t t = 0; t < run->n_tags; t++) {
		sb_bindi_i64(db, st, at[TAG_RID], rid);
		sb_bindi_text(db, st, at[TAG_NAME], run->tags[t].name);
		sb_bindi_text(db, st, at[TAG_VALUE], run->tags[t].value);
		if (sb_db_run_later(db, st, e) != SB_OK)
			return e->code;
	}
	return SB_OK;
}

/* FNV-1a of s. */
static size_t hash_id(const char *s)
{
	uint64_t h = 14695981039346656037u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return (size_t)h;
}

/* The entry of run_id in w->known, or the free slot it would take (the
 * table is never more than half full). */
static expected *known_slot(sb_run_writer *w, const char *run_id)
{
	size_t mask = w->known_cap - 1;

	for (size_t i = hash_id(run_id) & mask;; i = (i + 1) & mask)
		if (w->known[i].run_id == NULL || strcmp(w->known[i].run_id, run_id) == 0)
			return &w->known[i];
}

/* Room for n run_ids in w->known (emptied) and for ids_max bytes of
 * their JSON array in w->ids. */
static int known_room(sb_run_writer *w, size_t n, size_t ids_max, sb_err *e)
{
	size_t cap = 16;

	while (cap < 2 * n)
		cap *= 2;
	if (cap > w->known_cap) {
		expected *grown = realloc(w->known, cap * sizeof *grown);
		if (grown == NULL)
			return sb_fail(e, SB_EINTERNAL, "out of memory");
		w->known = grown;
		w->known_cap = cap;
	}
	memset(w->known, 0, w->known_cap * sizeof *w->known);
	if (ids_max > w->ids_cap) {
		char *grown = realloc(w->ids, ids_max);
		if (grown == NULL)
			return sb_fail(e, SB_EINTERNAL, "out of memory");
		w->ids = grown;
		w->ids_cap = ids_max;
	}
	return SB_OK;
}

int sb_run_writer_expect(sb_run_writer *w, const sb_run *const *runs, size_t n, sb_err *e)
{
	sb_db *db = w->db;
	size_t ids_max = 3;
	char *p;
	sb_stmt *st;
	int rc;
	/* the next row id is still known when the runs stored since the last
	 * expect were all expected ones, in this transaction */
	bool rid_known = w->expecting;

	w->expecting = false;
	if (n == 0)
		return SB_OK;
	for (size_t i = 0; i < n; i++)
		ids_max += 6 * strlen(runs[i]->run_id) + 3;
	if (known_room(w, n, ids_max, e) != SB_OK)
		return e->code;
	/* each run_id once, as absent until the ledger says otherwise */
	p = w->ids;
	*p++ = '[';
	for (size_t i = 0; i < n; i++) {
		expected *ex = known_slot(w, runs[i]->run_id);
		if (ex->run_id != NULL)
			continue;
		ex->run_id = runs[i]->run_id;
		ex->state = KNOWN_ABSENT;
		if (p > w->ids + 1)
			*p++ = ',';
		p = put_str(p, runs[i]->run_id, strlen(runs[i]->run_id));
	}
	*p++ = ']';
	if ((st = sb_db_stmt(db, "run_prefetch", e)) == NULL)
		return e->code;
	sb_bind_textn(db, st, ":ids", w->ids, (size_t)(p - w->ids));
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		const char *run_id = sb_col_text(st, 0), *fingerprint = sb_col_text(st, 2);
		expected *ex = run_id != NULL ? known_slot(w, run_id) : NULL;
		if (ex == NULL || ex->run_id == NULL || fingerprint == NULL ||
		    strlen(fingerprint) >= sizeof ex->fingerprint) {
			sb_stmt_reset(st);
			return sb_fail(e, SB_EINTERNAL, "sql/queries/run_prefetch.sql returned a run that was not asked for");
		}
		ex->state = KNOWN_LEDGER;
		memcpy(ex->fingerprint, fingerprint, strlen(fingerprint) + 1);
		ex->batch_id = sb_col_i64(st, 3);
		ex->line_no = sb_col_i64(st, 4);
	}
	sb_stmt_reset(st);
	if (rc < 0)
		return e->code;
	if (!rid_known && sb_db_one_i64(db, "run_rid_next", &w->next_rid, e) != SB_OK)
		return e->code;
	w->expecting = true;
	return SB_OK;
}

/* Store run, which sb_run_writer_expect found absent (ex), under the
 * next row id, without waiting for the ledger's answer. */
static int load_run(sb_run_writer *w, const sb_run *run, int64_t line_no, expected *ex, sb_err *e)
{
	priced pr;
	int64_t rid = w->next_rid;

	bind_run(w, w->run_load, w->load_at, run, line_no, &pr);
	sb_bindi_i64(w->db, w->run_load, w->load_rid, rid);
	if (sb_db_run_later(w->db, w->run_load, e) != SB_OK || insert_children(w, run, rid, e) != SB_OK ||
	    sb_rollup_add(w->rollup, run, pr.day, pr.card, pr.card_nanos, e) != SB_OK)
		return e->code;
	w->next_rid++;
	ex->state = KNOWN_STORED;
	memcpy(ex->fingerprint, run->fingerprint, sizeof ex->fingerprint);
	ex->batch_id = w->batch_id;
	ex->line_no = line_no;
	return SB_OK;
}

/* Why run conflicts with the version stored from batch, line. */
static void conflict(const sb_run *run, int64_t batch, int64_t line, char *why, size_t why_len)
{
	char id[SB_QUOTE_BUFSZ];

	snprintf(why, why_len, "run_id %s is already in the ledger with different content (batch %lld, line %lld); " SB_WORDS_REPLACE,
	         sb_quote(run->run_id, SB_QUOTE_ALWAYS, id, sizeof id), (long long)batch, (long long)line);
}

/* Move the stored version rid to run_history and delete it. */
static int move_to_history(sb_run_writer *w, int64_t rid, sb_err *e)
{
	sb_db *db = w->db;
	sb_stmt *st;
	int64_t hid;

	if ((st = sb_db_stmt(db, "run_to_history", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":replaced_ms", sb_db_now_ms(db));
	sb_bind_i64(db, st, ":replaced_by_batch", w->batch_id);
	sb_bind_i64(db, st, ":rid", rid);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	hid = sb_db_last_id(db);
	if (sb_rollup_remove(w->rollup, rid, e) != SB_OK)
		return e->code;
	if ((st = sb_db_stmt(db, "execution_to_history", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":hid", hid);
	sb_bind_i64(db, st, ":rid", rid);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	/* its executions and tags explicitly: the import's connection may
	 * run without foreign keys, so without their cascade */
	for (size_t q = 0; q < 3; q++) {
		static const char *const deletes[] = {"run_execs_delete", "run_tag_delete", "run_delete"};
		if ((st = sb_db_stmt(db, deletes[q], e)) == NULL)
			return e->code;
		sb_bind_i64(db, st, ":rid", rid);
		if (sb_db_run(db, st, e) != SB_OK)
			return e->code;
	}
	return SB_OK;
}

int sb_run_store(sb_run_writer *w, const sb_run *run, int64_t line_no, bool replace,
                 enum sb_store *result, char *why, size_t why_len, sb_err *e)
{
	sb_db *db = w->db;
	sb_stmt *st;
	bool inserted = false, same;
	int64_t rid, old_batch, old_line;
	int rc;

	/* an expected run: what the ledger holds of it is known */
	if (w->expecting) {
		expected *ex = known_slot(w, run->run_id);
		if (ex->run_id != NULL && ex->state == KNOWN_ABSENT) {
			*result = SB_STORED;
			return load_run(w, run, line_no, ex, e);
		}
		if (ex->run_id != NULL && strcmp(ex->fingerprint, run->fingerprint) == 0) {
			*result = SB_DUPLICATE;
			return SB_OK;
		}
		if (ex->run_id != NULL && !replace) {
			*result = SB_CONFLICT;
			conflict(run, ex->batch_id, ex->line_no, why, why_len);
			return SB_OK;
		}
		/* any other: asked of the ledger, one statement after another */
		w->expecting = false;
	}
	if (insert_run(w, run, line_no, &inserted, &rid, e) != SB_OK)
		return e->code;
	if (inserted) {
		*result = SB_STORED;
		return insert_children(w, run, rid, e);
	}
	if ((st = sb_db_stmt(db, "run_lookup", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":run_id", run->run_id);
	if ((rc = sb_db_step(db, st, e)) != SB_ROW) {
		sb_stmt_reset(st);
		return rc < 0 ? e->code : sb_fail(e, SB_EINTERNAL, "run %s vanished while importing", run->run_id);
	}
	rid = sb_col_i64(st, 0);
	same = strcmp(sb_col_text(st, 1), run->fingerprint) == 0;
	old_batch = sb_col_i64(st, 2);
	old_line = sb_col_i64(st, 3);
	sb_stmt_reset(st);
	if (same) {
		*result = SB_DUPLICATE;
		return SB_OK;
	}
	if (!replace) {
		*result = SB_CONFLICT;
		conflict(run, old_batch, old_line, why, why_len);
		return SB_OK;
	}
	if (move_to_history(w, rid, e) != SB_OK || insert_run(w, run, line_no, &inserted, &rid, e) != SB_OK)
		return e->code;
	if (!inserted)
		return sb_fail(e, SB_EINTERNAL, "run %s could not be replaced", run->run_id);
	*result = SB_REPLACED;
	return insert_children(w, run, rid, e);
}
