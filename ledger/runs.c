/* runs.c: the run writer (see runs.h). */
#include "ledger/runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/timefmt.h"

struct sb_run_writer {
	sb_db *db;                 /* the ledger */
	const sb_rates *rates;     /* cards for the card cost */
	int64_t batch_id;          /* the batch being imported */
	sqlite3_stmt *run_insert;  /* sql/queries/run_insert.sql */
	sqlite3_stmt *exec_insert; /* sql/queries/execution_insert.sql */
	sqlite3_stmt *tag_insert;  /* sql/queries/run_tag_insert.sql */
};

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
	if ((w->run_insert = sb_db_stmt(db, "run_insert", e)) == NULL ||
	    (w->exec_insert = sb_db_stmt(db, "execution_insert", e)) == NULL ||
	    (w->tag_insert = sb_db_stmt(db, "run_tag_insert", e)) == NULL) {
		free(w);
		return e->code;
	}
	*out = w;
	return SB_OK;
}

void sb_run_writer_free(sb_run_writer *w)
{
	free(w);
}

bool sb_run_card_cost(const sb_run *run, const sb_card *card, int64_t *nanos)
{
	int64_t sum = 0, part = 0;

	if (run->n_execs == 0)
		return sb_card_cost_for_ms(card, run->total_duration_ms, nanos) == SB_MONEY_OK;
	for (size_t i = 0; i < run->n_execs; i++)
		if (sb_card_cost_for_ms(card, run->execs[i].duration_ms, &part) != SB_MONEY_OK ||
		    sb_money_add(sum, part, &sum) != SB_MONEY_OK)
			return false;
	*nanos = sum;
	return true;
}

/* Insert run as a new row; *inserted is false when its run_id exists. */
static int insert_run(sb_run_writer *w, const sb_run *run, int64_t line_no,
                      bool *inserted, sb_err *e)
{
	sb_db *db = w->db;
	sqlite3_stmt *st = w->run_insert;
	const sb_card *card = sb_rates_find(w->rates, run->backend, run->plan, run->started_ms);
	int64_t card_nanos = 0, lifetime_nanos = 0;
	char day[SB_TIME_BUFSZ];
	bool priced = card != NULL && sb_run_card_cost(run, card, &card_nanos);
	bool lifetime_priced = card != NULL && run->has_ended &&
	                       sb_card_cost_for_ms(card, run->ended_ms - run->started_ms,
	                                           &lifetime_nanos) == SB_MONEY_OK;

	sb_bind_text(db, st, ":run_id", run->run_id);
	sb_bind_i64(db, st, ":batch_id", w->batch_id);
	sb_bind_i64(db, st, ":line_no", line_no);
	sb_bind_text(db, st, ":backend", run->backend);
	sb_bind_text_opt(db, st, ":session_id", run->session_id);
	sb_bind_text_opt(db, st, ":plan", run->plan);
	sb_bind_i64(db, st, ":started_ms", run->started_ms);
	sb_bind_text(db, st, ":started_day", sb_date_format(run->started_ms, day));
	sb_bind_i64_opt(db, st, ":ended_ms", run->has_ended, run->ended_ms);
	sb_bind_text_opt(db, st, ":model", run->model);
	sb_bind_i64(db, st, ":input_tokens", run->input_tokens);
	sb_bind_i64(db, st, ":output_tokens", run->output_tokens);
	sb_bind_i64_opt(db, st, ":budget_nanos", run->has_budget, run->budget_nanos);
	sb_bind_i64(db, st, ":exec_count", run->exec_count);
	sb_bind_i64(db, st, ":total_duration_ms", run->total_duration_ms);
	sb_bind_i64(db, st, ":cpu_ms", run->cpu_ms);
	sb_bind_i64(db, st, ":memory_peak_mb", run->memory_peak_mb);
	sb_bind_i64(db, st, ":bytes_read", run->bytes_read);
	sb_bind_i64(db, st, ":bytes_written", run->bytes_written);
	sb_bind_i64(db, st, ":computed_nanos", run->computed_nanos);
	sb_bind_i64_opt(db, st, ":billed_nanos", run->has_billed, run->billed_nanos);
	sb_bind_i64_opt(db, st, ":card_nanos", priced, card_nanos);
	sb_bind_i64_opt(db, st, ":lifetime_nanos", lifetime_priced, lifetime_nanos);
	sb_bind_i64(db, st, ":has_executions", run->n_execs > 0);
	sb_bind_text(db, st, ":fingerprint", run->fingerprint);
	sb_bind_text_opt(db, st, ":tags", run->tags_json);
	sb_bind_text_opt(db, st, ":extra", run->extra);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	*inserted = sqlite3_changes(sb_db_handle(db)) == 1;
	return SB_OK;
}

/* Insert the executions and tags of the run just inserted as rid. */
static int insert_children(sb_run_writer *w, const sb_run *run, int64_t rid, sb_err *e)
{
	sb_db *db = w->db;
	sqlite3_stmt *st = w->exec_insert;

	for (size_t i = 0; i < run->n_execs; i++) {
		const sb_exec *x = &run->execs[i];
		sb_bind_i64(db, st, ":rid", rid);
		sb_bind_i64(db, st, ":seq", (int64_t)i);
		if (x->command != NULL)
			sb_bind_textn(db, st, ":command", x->command, x->command_len);
		else
			sb_bind_null(db, st, ":command");
		sb_bind_i64_opt(db, st, ":exit_code", x->has_exit_code, x->exit_code);
		sb_bind_i64(db, st, ":duration_ms", x->duration_ms);
		sb_bind_i64(db, st, ":cpu_ms", x->cpu_ms);
		sb_bind_i64(db, st, ":memory_peak_mb", x->memory_peak_mb);
		sb_bind_i64(db, st, ":bytes_read", x->bytes_read);
		sb_bind_i64(db, st, ":bytes_written", x->bytes_written);
		sb_bind_i64_opt(db, st, ":cost_nanos", x->has_cost, x->cost_nanos);
		sb_bind_text_opt(db, st, ":extra", x->extra);
		if (sb_db_run(db, st, e) != SB_OK)
			return e->code;
	}
	st = w->tag_insert;
	for (size_t i = 0; i < run->n_tags; i++) {
		sb_bind_i64(db, st, ":rid", rid);
		sb_bind_text(db, st, ":name", run->tags[i].name);
		sb_bind_text(db, st, ":value", run->tags[i].value);
		if (sb_db_run(db, st, e) != SB_OK)
			return e->code;
	}
	return SB_OK;
}

/* Move the stored version rid to run_history and delete it. */
static int move_to_history(sb_run_writer *w, int64_t rid, sb_err *e)
{
	sb_db *db = w->db;
	sqlite3_stmt *st;
	int64_t hid;

	if ((st = sb_db_stmt(db, "run_to_history", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":replaced_ms", sb_now_ms());
	sb_bind_i64(db, st, ":replaced_by_batch", w->batch_id);
	sb_bind_i64(db, st, ":rid", rid);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	hid = sqlite3_last_insert_rowid(sb_db_handle(db));
	if ((st = sb_db_stmt(db, "execution_to_history", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":hid", hid);
	sb_bind_i64(db, st, ":rid", rid);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	if ((st = sb_db_stmt(db, "run_delete", e)) == NULL)
		return e->code;
	sb_bind_i64(db, st, ":rid", rid);
	return sb_db_run(db, st, e);
}

int sb_run_store(sb_run_writer *w, const sb_run *run, int64_t line_no, bool replace,
                 enum sb_store *result, char *why, size_t why_len, sb_err *e)
{
	sb_db *db = w->db;
	sqlite3_stmt *st;
	bool inserted = false, same;
	int64_t rid, old_batch, old_line;
	int rc;

	if (insert_run(w, run, line_no, &inserted, e) != SB_OK)
		return e->code;
	if (inserted) {
		*result = SB_STORED;
		return insert_children(w, run, sqlite3_last_insert_rowid(sb_db_handle(db)), e);
	}
	if ((st = sb_db_stmt(db, "run_lookup", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":run_id", run->run_id);
	if ((rc = sb_db_step(db, st, e)) != SQLITE_ROW) {
		sqlite3_reset(st);
		return rc < 0 ? e->code : sb_fail(e, SB_EINTERNAL, "run %s vanished while importing", run->run_id);
	}
	rid = sqlite3_column_int64(st, 0);
	same = strcmp(sb_col_text(st, 1), run->fingerprint) == 0;
	old_batch = sqlite3_column_int64(st, 2);
	old_line = sqlite3_column_int64(st, 3);
	sqlite3_reset(st);
	if (same) {
		*result = SB_DUPLICATE;
		return SB_OK;
	}
	if (!replace) {
		*result = SB_CONFLICT;
		snprintf(why, why_len, "run_id '%s' is already in the ledger with different content (batch %lld, line %lld); import it again with --replace --force to keep this version",
		         run->run_id, (long long)old_batch, (long long)old_line);
		return SB_OK;
	}
	if (move_to_history(w, rid, e) != SB_OK || insert_run(w, run, line_no, &inserted, e) != SB_OK)
		return e->code;
	if (!inserted)
		return sb_fail(e, SB_EINTERNAL, "run %s could not be replaced", run->run_id);
	*result = SB_REPLACED;
	return insert_children(w, run, sqlite3_last_insert_rowid(sb_db_handle(db)), e);
}
