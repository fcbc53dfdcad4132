/* summary_out.c: report summary rendered (see summary_out.h). */
#include "report/summary_out.h"

#include "ledger/money.h"
#include "ledger/timefmt.h"
#include "report/html.h"
#include "report/json.h"

/* The columns of a summary row. */
static const sb_col summary_cols[] = {
	{"key", COL_TEXT, 40}, {"runs", COL_INT, 0}, {"exec_count", COL_INT, 0},
	{"total_duration_ms", COL_INT, 0}, {"cpu_ms", COL_INT, 0}, {"memory_peak_mb", COL_INT, 0},
	{"bytes_read", COL_COUNT, 0}, {"bytes_written", COL_COUNT, 0},
	{"computed_cost_usd", COL_MONEY, 0}, {"billed_cost_usd", COL_MONEY, 0},
	{"card_cost_usd", COL_MONEY, 0}, {"token_cost_usd", COL_MONEY, 0},
};

/* One summary row into a listing (table or csv). */
static void out_usage(sb_out *o, const char *key, const sb_usage *u)
{
	int64_t token = 0;

	sb_out_text(o, key);
	sb_out_int(o, u->runs);
	sb_out_int(o, u->exec_count);
	sb_out_int(o, u->total_duration_ms);
	sb_out_int(o, u->cpu_ms);
	sb_out_int(o, u->memory_peak_mb);
	sb_out_int(o, u->bytes_read);
	sb_out_int(o, u->bytes_written);
	sb_out_money(o, u->computed_nanos);
	if (u->has_billed)
		sb_out_money(o, u->billed_nanos);
	else
		sb_out_null(o);
	if (u->has_card)
		sb_out_money(o, u->card_nanos);
	else
		sb_out_unknown(o);  /* a run had no card in force: never 0 */
	if (sb_usage_token_nanos(u, &token))
		sb_out_money(o, token);
	else
		sb_out_null(o);
	sb_out_row(o);
}

/* A money member: a decimal string with 9 decimals, or null. */
static json_t *json_money(bool has, int64_t nanos)
{
	char buf[SB_MONEY_BUFSZ];

	return has ? json_string(sb_money_format(nanos, 9, buf)) : json_null();
}

/* One summary row as a JSON object (key omitted when NULL). */
static json_t *json_usage(const char *key, const sb_usage *u, bool *ok)
{
	json_t *o = json_object();
	int64_t token = 0;
	bool has_token = sb_usage_token_nanos(u, &token);

	if (key != NULL)
		sb_json_put(o, "key", json_string(key), ok);
	sb_json_put(o, "runs", json_integer(u->runs), ok);
	sb_json_put(o, "exec_count", json_integer(u->exec_count), ok);
	sb_json_put(o, "total_duration_ms", json_integer(u->total_duration_ms), ok);
	sb_json_put(o, "cpu_ms", json_integer(u->cpu_ms), ok);
	sb_json_put(o, "memory_peak_mb", json_integer(u->memory_peak_mb), ok);
	sb_json_put(o, "bytes_read", json_integer(u->bytes_read), ok);
	sb_json_put(o, "bytes_written", json_integer(u->bytes_written), ok);
	sb_json_put(o, "computed_cost_usd", json_money(true, u->computed_nanos), ok);
	sb_json_put(o, "billed_cost_usd", json_money(u->has_billed, u->billed_nanos), ok);
	sb_json_put(o, "card_cost_usd", json_money(u->has_card, u->card_nanos), ok);
	sb_json_put(o, "token_cost_usd", json_money(has_token, token), ok);
	return o;
}

/* The period as {"from": ..., "to": ...}. */
static json_t *json_period(const sb_period *p)
{
	char from[SB_TIME_BUFSZ], to[SB_TIME_BUFSZ];

	return json_pack("{s:s, s:s}", "from", sb_time_format(p->from_ms, from), "to",
	                 sb_time_format(p->to_ms, to));
}

json_t *sb_summary_json(const sb_summary *s)
{
	json_t *root = json_object(), *rows = json_array();
	bool ok = true;

	sb_json_put(root, "period", json_period(&s->period), &ok);
	sb_json_put(root, "by", json_string(s->by), &ok);
	for (size_t i = 0; i < s->n_rows; i++)
		sb_json_append(rows, json_usage(s->rows[i].key, &s->rows[i].u, &ok), &ok);
	sb_json_put(root, "rows", rows, &ok);
	sb_json_put(root, "total", json_usage(NULL, &s->total, &ok), &ok);
	if (!ok) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int sb_report_summary(FILE *f, sb_format fmt, bool csv_raw, const sb_summary *s, int64_t made_ms, sb_err *e)
{
	sb_out *o;

	if (fmt == FMT_JSON)
		return sb_json_print(f, sb_summary_json(s), JSON_INDENT(1), e);
	if (fmt == FMT_HTML)
		return sb_html_summary(f, s, made_ms, e);
	o = sb_out_new(f, fmt, csv_raw, summary_cols, sizeof summary_cols / sizeof summary_cols[0]);
	for (size_t i = 0; i < s->n_rows; i++)
		out_usage(o, s->rows[i].key, &s->rows[i].u);
	if (fmt == FMT_TABLE)
		out_usage(o, "total", &s->total);
	return sb_out_end(o, e);
}
