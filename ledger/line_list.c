/* line_list.c: the billing lines read back by name (see line_list.h). */
#include "ledger/line_list.h"

#include <string.h>

/* The columns of sql/queries/billing_line_list.sql, in its order. */
enum {
	C_BATCH_ID, C_LINE_NO, C_FORMAT, C_LINE_KEY, C_BACKEND, C_SESSION_ID, C_START_MS, C_END_MS,
	C_KIND, C_AMOUNT, C_CURRENCY, C_CATEGORY, C_CORRECTION, C_QUANTITY, C_UNIT, C_VCPU_MS,
	C_MEMORY_MB_MS, C_LIST_COST, C_EFFECTIVE_COST, C_INVOICE_ID, C_TAGS, C_EXTRA, C_SUPERSEDED_BY,
	N_COLUMNS
};

sb_stmt *sb_line_list_open(sb_db *db, const sb_line_filter *f, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "billing_line_list", e);

	if (st == NULL)
		return NULL;
	sb_bind_i64(db, st, ":from_ms", f->period.from_ms);
	sb_bind_i64(db, st, ":to_ms", f->period.to_ms);
	sb_bind_text_opt(db, st, ":backend", f->backend);
	sb_bind_text_opt(db, st, ":session_id", f->session_id);
	sb_bind_i64_opt(db, st, ":batch_id", f->has_batch, f->batch_id);
	return st;
}

/* An integer column that may be NULL. */
static bool opt_i64(sb_stmt *st, int c, int64_t *v)
{
	bool has = !sb_col_is_null(st, c);

	*v = has ? sb_col_i64(st, c) : 0;
	return has;
}

int sb_line_list_next(sb_db *db, sb_stmt *st, sb_line_row *row, sb_err *e)
{
	int rc = sb_db_step(db, st, e);

	if (rc != SB_ROW) {
		sb_stmt_reset(st);
		return rc < 0 ? -1 : 0;
	}
	if (sb_col_count(st) != N_COLUMNS) {
		sb_stmt_reset(st);
		sb_fail(e, SB_EINTERNAL, "billing_line_list.sql has %d columns, not %d", sb_col_count(st),
		        N_COLUMNS);
		return -1;
	}
	memset(row, 0, sizeof *row);
	row->batch_id = sb_col_i64(st, C_BATCH_ID);
	row->line_no = sb_col_i64(st, C_LINE_NO);
	row->format = sb_col_text(st, C_FORMAT);
	row->line_key = sb_col_text(st, C_LINE_KEY);
	row->backend = sb_col_text(st, C_BACKEND);
	row->session_id = sb_col_text(st, C_SESSION_ID);
	row->start_ms = sb_col_i64(st, C_START_MS);
	row->end_ms = sb_col_i64(st, C_END_MS);
	row->kind = sb_col_text(st, C_KIND);
	row->has_amount = opt_i64(st, C_AMOUNT, &row->amount_nanos);
	row->currency = sb_col_text(st, C_CURRENCY);
	row->category = sb_col_text(st, C_CATEGORY);
	row->correction = sb_col_i64(st, C_CORRECTION) != 0;
	row->quantity = sb_col_text(st, C_QUANTITY);
	row->unit = sb_col_text(st, C_UNIT);
	row->has_vcpu_ms = opt_i64(st, C_VCPU_MS, &row->vcpu_ms);
	row->has_memory_mb_ms = opt_i64(st, C_MEMORY_MB_MS, &row->memory_mb_ms);
	row->has_list_cost = opt_i64(st, C_LIST_COST, &row->list_cost_nanos);
	row->has_effective_cost = opt_i64(st, C_EFFECTIVE_COST, &row->effective_cost_nanos);
	row->invoice_id = sb_col_text(st, C_INVOICE_ID);
	row->tags = sb_col_text(st, C_TAGS);
	row->extra = sb_col_text(st, C_EXTRA);
	row->superseded = opt_i64(st, C_SUPERSEDED_BY, &row->superseded_by);
	return 1;
}
