/* summary.c: report summary (see summary.h). */
#include "reconcile/summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/timefmt.h"

bool sb_summary_by_valid(const char *by)
{
	return strcmp(by, "backend") == 0 || strcmp(by, "day") == 0 || strcmp(by, "model") == 0 ||
	       strcmp(by, "session") == 0 || (strncmp(by, "tag:", 4) == 0 && by[4] != '\0');
}

void sb_summary_free(sb_summary *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n_rows; i++)
		free(s->rows[i].key);
	for (size_t i = 0; i < s->n_unpriced; i++)
		free(s->unpriced[i]);
	for (size_t i = 0; i < s->n_no_model_named; i++)
		free(s->no_model_named[i]);
	free(s->rows);
	free(s->unpriced);
	free(s->no_card);
	free(s);
}

/* Remember that model has runs but no price (once). */
static bool note_unpriced(sb_summary *s, const char *model)
{
	char **list;

	for (size_t i = 0; i < s->n_unpriced; i++)
		if (strcmp(s->unpriced[i], model) == 0)
			return true;
	list = realloc(s->unpriced, (s->n_unpriced + 1) * sizeof *list);
	if (list == NULL)
		return false;
	s->unpriced = list;
	if ((list[s->n_unpriced] = strdup(model)) == NULL)
		return false;
	s->n_unpriced++;
	return true;
}

/* The token cost x 10^6 of a (group, model) row into u: price x tokens,
 * or null when the model has no price. */
static int token_cost(sb_db *db, sb_summary *s, const char *model, int64_t in_tokens,
                      int64_t out_tokens, sb_usage *u, sb_err *e)
{
	sb_stmt *st;
	int rc;

	u->has_token = true;
	u->token_raw = 0;
	if (model == NULL) {
		if (in_tokens == 0 && out_tokens == 0)
			return SB_OK;
		s->unpriced_no_model = true;
		u->has_token = false;
		return SB_OK;
	}
	if ((st = sb_db_stmt(db, "model_price_get", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":model", model);
	rc = sb_db_step(db, st, e);
	if (rc == SB_ROW) {
		u->token_raw = (__int128)in_tokens * sb_col_i64(st, 0) +
		               (__int128)out_tokens * sb_col_i64(st, 1);
	} else if (rc == SB_DONE) {
		u->has_token = false;
		if (!note_unpriced(s, model))
			sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	sb_stmt_reset(st);
	return e->code;
}

/* Count the runs of the period with tokens but no model into s, and name
 * the first SB_SUMMARY_NAMED of them by run_id. */
static int name_no_model_runs(sb_db *db, sb_summary *s, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "summary_no_model", e);
	int rc;

	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":from_ms", s->period.from_ms);
	sb_bind_i64(db, st, ":to_ms", s->period.to_ms);
	sb_bind_i64(db, st, ":limit", SB_SUMMARY_NAMED);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW && s->n_no_model_named < SB_SUMMARY_NAMED) {
		char *id = strdup(sb_col_text(st, 0));
		if (id == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			break;
		}
		s->no_model_named[s->n_no_model_named++] = id;
		s->no_model_runs = sb_col_i64(st, 1);
	}
	sb_stmt_reset(st);
	return e->code;
}

/* Append a row for key to s. */
static sb_summary_row *add_row(sb_summary *s, const char *key, size_t *cap)
{
	sb_summary_row *row;

	if (s->n_rows == *cap) {
		size_t ncap = *cap ? 2 * *cap : 16;
		sb_summary_row *rows = realloc(s->rows, ncap * sizeof *rows);
		if (rows == NULL)
			return NULL;
		s->rows = rows;
		*cap = ncap;
	}
	row = &s->rows[s->n_rows];
	if ((row->key = strdup(key)) == NULL)
		return NULL;
	sb_usage_zero(&row->u);
	s->n_rows++;
	return row;
}

/* Bind the period to st (summary_rollup.sql, summary_tag_rollup.sql): the
 * whole UTC days within it, read from the day rollups, and the parts
 * before and after them, read from run.  A period holding no whole day is
 * all "before" (head_end_ms = to_ms) and reads no rollup. */
static void bind_days(sb_db *db, sb_stmt *st, const sb_period *p)
{
	int64_t first = sb_day_start(p->from_ms) == p->from_ms ? p->from_ms
	                                                         : sb_day_start(p->from_ms) + SB_MS_PER_DAY;
	int64_t end = sb_day_start(p->to_ms);
	char from_day[SB_TIME_BUFSZ], to_day[SB_TIME_BUFSZ];

	if (first >= end)
		first = end = p->to_ms;
	sb_date_format(first, from_day);
	memcpy(to_day, from_day, sizeof to_day);
	if (end != first)
		sb_date_format(end, to_day);
	sb_bind_text(db, st, ":from_day", from_day);
	sb_bind_text(db, st, ":to_day", to_day);
	sb_bind_i64(db, st, ":head_end_ms", first);
	sb_bind_i64(db, st, ":tail_start_ms", end);
}

/* How the summary by tag:NAME reads its groups (summary_tag_tracked.sql):
 * *tracked 1 from the rollups with the untagged ones of NAME, 0 from the
 * rollups with every run untagged (no run has NAME), -1 from the runs. */
static int tag_tracked(sb_db *db, const char *tag, int *tracked, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "summary_tag_tracked", e);
	int rc;

	*tracked = -1;
	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":tag", tag);
	if ((rc = sb_db_step(db, st, e)) == SB_ROW)
		*tracked = sb_col_int(st, 0);
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}

int sb_summary_build(sb_db *db, const sb_period *period, const char *by,
                     sb_summary **out, sb_err *e)
{
	sb_summary *s = calloc(1, sizeof *s);
	sb_stmt *st = NULL;
	sb_summary_row *row = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	if (s == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	s->period = *period;
	snprintf(s->by, sizeof s->by, "%s", by);
	sb_usage_zero(&s->total);
	/* the whole days of the period from the day rollups, but for a
	 * session (too many groups to roll up) or a tag that is not tracked */
	if (strncmp(by, "tag:", 4) == 0) {
		int tracked;
		if (tag_tracked(db, by + 4, &tracked, e) != SB_OK ||
		    (st = sb_db_stmt(db, tracked >= 0 ? "summary_tag_rollup" : "summary_tag", e)) == NULL)
			goto fail;
		sb_bind_text(db, st, ":tag", by + 4);
		if (tracked >= 0) {
			sb_bind_i64(db, st, ":tracked", tracked);
			bind_days(db, st, period);
		}
	} else if (strcmp(by, "session") == 0) {
		if ((st = sb_db_stmt(db, "summary", e)) == NULL)
			goto fail;
		sb_bind_text(db, st, ":by", by);
	} else {
		if ((st = sb_db_stmt(db, "summary_rollup", e)) == NULL)
			goto fail;
		sb_bind_text(db, st, ":by", by);
		bind_days(db, st, period);
	}
	sb_bind_i64(db, st, ":from_ms", period->from_ms);
	sb_bind_i64(db, st, ":to_ms", period->to_ms);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		const char *key = sb_col_text(st, 0);
		sb_usage u;
		/* a rollup whose sum passed 64 bits holds a REAL
		 * (sql/schema/005_rollup.sql), and so does a sum over it */
		for (int col = 2; col <= 14; col++)
			if (sb_col_kind(st, col) == SB_COL_REAL) {
				sb_fail(e, SB_EDATA, "a sum of the summary overflows 64 bits");
				goto fail;
			}
		if (row == NULL || strcmp(row->key, key) != 0) {
			if ((row = add_row(s, key, &cap)) == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				goto fail;
			}
		}
		sb_usage_zero(&u);
		u.runs = sb_col_i64(st, 2);
		u.exec_count = sb_col_i64(st, 3);
		u.total_duration_ms = sb_col_i64(st, 4);
		u.cpu_ms = sb_col_i64(st, 5);
		u.memory_peak_mb = sb_col_i64(st, 6);
		u.bytes_read = sb_col_i64(st, 7);
		u.bytes_written = sb_col_i64(st, 8);
		u.computed_nanos = sb_col_i64(st, 9);
		u.has_billed = !sb_col_is_null(st, 10);
		u.billed_nanos = sb_col_i64(st, 10);
		u.has_card = sb_col_i64(st, 12) == u.runs;
		u.card_nanos = sb_col_i64(st, 11);
		if (token_cost(db, s, sb_col_text(st, 1), sb_col_i64(st, 13),
		               sb_col_i64(st, 14), &u, e) != SB_OK)
			goto fail;
		if (!sb_usage_add(&row->u, &u) || !sb_usage_add(&s->total, &u)) {
			sb_fail(e, SB_EDATA, "a sum of the summary overflows 64 bits");
			goto fail;
		}
	}
	if (rc < 0)
		goto fail;
	sb_stmt_reset(st);
	st = NULL;
	if (s->unpriced_no_model && name_no_model_runs(db, s, e) != SB_OK)
		goto fail;
	/* which backends' runs no card priced (read only when some were) */
	if (!s->total.has_card &&
	    sb_rates_no_card(db, period->from_ms, period->to_ms, &s->no_card, &s->n_no_card, e) != SB_OK)
		goto fail;
	*out = s;
	return SB_OK;
fail:
	if (st != NULL)
		sb_stmt_reset(st);
	sb_summary_free(s);
	return e->code;
}
