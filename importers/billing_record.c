/* billing_record.c: --format record, the agent SDK's SandboxBillingRecord
 * as JSON Lines, plus where it belongs (docs/formats-billing.md):
 *
 *   {"backend": "cloudflare", "session_id": "clo-1", "cost_usd": 0.0649,
 *    "currency": "USD", "unit": "compute-seconds", "raw": {...},
 *    "period_start": "...Z", "period_end": "...Z", "line_id": "cf-clo-1"}
 *
 * One billed line per record, keyed by line_id (the SHA-256 of the line
 * without one).  raw and unknown fields are kept in extra.  The charge
 * identity is the unit.  Records are JSON values: one per line, or
 * pretty-printed one after another.
 */
#include "importers/billing.h"

#include "ledger/timefmt.h"

/* The fields with a column of their own. */
static const char *const record_keys[] = {
	"backend", "session_id", "cost_usd", "currency", "unit", "period_start", "period_end",
	"line_id", NULL};

/* One record to one billed line (see sb_bill_parse_fn). */
static int parse_record(sb_bill_parser *p, const sb_scope *s, sb_err *why)
{
	const char *backend_text = NULL, *backend = NULL, *session = NULL, *currency = NULL;
	const char *unit = NULL, *line_id = NULL;
	bool has_cost = false, has_start = false, has_end = false;
	int64_t cost = 0, start = 0, end = 0;
	sb_bill_line *line;
	json_t *extra;

	if (sb_field_string(s, "backend", true, 256, &backend_text, why) != SB_OK ||
	    sb_bill_backend(p, "backend", backend_text, &backend, why) != SB_OK ||
	    sb_field_string(s, "session_id", false, 256, &session, why) != SB_OK ||
	    sb_field_money(s, "cost_usd", true, false, &has_cost, &cost, why) != SB_OK ||
	    sb_field_currency(p, s, "currency", false, &currency, why) != SB_OK ||
	    sb_field_string(s, "unit", false, 128, &unit, why) != SB_OK ||
	    sb_field_time(s, "period_start", true, 0, &has_start, &start, why) != SB_OK ||
	    sb_field_time(s, "period_end", true, 0, &has_end, &end, why) != SB_OK ||
	    sb_bill_check_period(s, "period_start", "period_end", start, end, why) != SB_OK ||
	    sb_field_string(s, "line_id", false, 256, &line_id, why) != SB_OK)
		return why->code;
	if ((line = sb_bill_emit(p)) == NULL)
		return sb_fail(why, SB_EINTERNAL, "out of memory");
	line->backend = backend;
	line->session_id = session;
	line->start_ms = start;
	line->end_ms = end;
	line->has_amount = true;
	line->amount_nanos = cost;
	line->currency = currency;
	line->unit = unit;
	line->line_key = line_id;
	line->identity = unit;
	extra = sb_bill_extra(s, record_keys, NULL);
	line->extra = sb_bill_dump(p, extra);
	json_decref(extra);
	return SB_OK;
}

const sb_bill_format sb_bill_record = {
	"record", SB_REC_JSON_VALUES, NULL, 0, NULL, NULL, parse_record, false,
};
