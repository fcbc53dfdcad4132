/* lines_out.c: the billing lines rendered (see lines_out.h). */
#include "report/lines_out.h"

#include <stdint.h>

/* Every column, for CSV and JSON. */
static const sb_col cols[] = {
	{"batch_id", COL_INT, 0}, {"line", COL_INT, 0}, {"format", COL_TEXT, 0},
	{"line_key", COL_TEXT, 0}, {"backend", COL_TEXT, 0}, {"session_id", COL_TEXT, 0},
	{"start", COL_TIME, 0}, {"end", COL_TIME, 0}, {"kind", COL_TEXT, 0},
	{"amount", COL_MONEY, 0}, {"currency", COL_TEXT, 0}, {"category", COL_TEXT, 0},
	{"correction", COL_BOOL, 0}, {"quantity", COL_NUMBER, 0}, {"unit", COL_TEXT, 0},
	{"vcpu_ms", COL_INT, 0}, {"memory_mb_ms", COL_INT, 0}, {"list_cost", COL_MONEY, 0},
	{"effective_cost", COL_MONEY, 0}, {"invoice_id", COL_TEXT, 0}, {"tags", COL_TEXT, 0},
	{"extra", COL_TEXT, 0}, {"status", COL_TEXT, 0}, {"superseded_by", COL_INT, 0},
};

/* The table's columns. */
static const sb_col table_cols[] = {
	{"batch", COL_INT, 0}, {"format", COL_TEXT, 0}, {"backend", COL_TEXT, 0},
	{"session_id", COL_TEXT, 24}, {"start", COL_TIME, 0}, {"end", COL_TIME, 0},
	{"kind", COL_TEXT, 0}, {"amount", COL_MONEY, 0}, {"currency", COL_TEXT, 0},
	{"category", COL_TEXT, 0}, {"vcpu_s", COL_NUMBER, 0}, {"mb_s", COL_NUMBER, 0},
	{"status", COL_TEXT, 0},
};

sb_out *sb_lines_out_new(FILE *f, sb_format fmt, bool csv_raw)
{
	if (fmt == FMT_TABLE)
		return sb_out_new(f, fmt, csv_raw, table_cols, sizeof table_cols / sizeof table_cols[0]);
	return sb_out_new(f, fmt, csv_raw, cols, sizeof cols / sizeof cols[0]);
}

/* An integer cell, or null when unknown. */
static void opt_int(sb_out *o, bool has, int64_t v)
{
	if (has)
		sb_out_int(o, v);
	else
		sb_out_null(o);
}

/* A money cell, or null when unknown. */
static void opt_money(sb_out *o, bool has, int64_t nanos)
{
	if (has)
		sb_out_money(o, nanos);
	else
		sb_out_null(o);
}

/* Milliseconds as seconds with 3 decimals (exact: an integer split), or
 * null when unknown. */
static void opt_seconds(sb_out *o, bool has, int64_t ms)
{
	char secs[32];

	if (!has) {
		sb_out_null(o);
		return;
	}
	snprintf(secs, sizeof secs, "%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
	sb_out_text(o, secs);
}

void sb_lines_out_row(sb_out *o, sb_format fmt, const sb_line_row *r)
{
	if (fmt == FMT_TABLE) {
		char status[48];
		sb_out_int(o, r->batch_id);
		sb_out_text(o, r->format);
		sb_out_text(o, r->backend);
		sb_out_text(o, r->session_id);
		sb_out_time(o, r->start_ms);
		sb_out_time(o, r->end_ms);
		sb_out_text(o, r->kind);
		opt_money(o, r->has_amount, r->amount_nanos);
		sb_out_text(o, r->currency);
		sb_out_text(o, r->category);
		opt_seconds(o, r->has_vcpu_ms, r->vcpu_ms);
		opt_seconds(o, r->has_memory_mb_ms, r->memory_mb_ms);
		if (r->superseded)
			snprintf(status, sizeof status, "superseded by %lld", (long long)r->superseded_by);
		else
			snprintf(status, sizeof status, "live");
		sb_out_text(o, status);
		sb_out_row(o);
		return;
	}
	sb_out_int(o, r->batch_id);
	sb_out_int(o, r->line_no);
	sb_out_text(o, r->format);
	sb_out_text(o, r->line_key);
	sb_out_text(o, r->backend);
	sb_out_text(o, r->session_id);
	sb_out_time(o, r->start_ms);
	sb_out_time(o, r->end_ms);
	sb_out_text(o, r->kind);
	opt_money(o, r->has_amount, r->amount_nanos);
	sb_out_text(o, r->currency);
	sb_out_text(o, r->category);
	sb_out_bool(o, r->correction);
	sb_out_text(o, r->quantity);
	sb_out_text(o, r->unit);
	opt_int(o, r->has_vcpu_ms, r->vcpu_ms);
	opt_int(o, r->has_memory_mb_ms, r->memory_mb_ms);
	opt_money(o, r->has_list_cost, r->list_cost_nanos);
	opt_money(o, r->has_effective_cost, r->effective_cost_nanos);
	sb_out_text(o, r->invoice_id);
	sb_out_text(o, r->tags);
	sb_out_text(o, r->extra);
	sb_out_text(o, r->superseded ? "superseded" : "live");
	opt_int(o, r->superseded, r->superseded_by);
	sb_out_row(o);
}
