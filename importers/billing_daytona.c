/* billing_daytona.c: --format daytona, the Daytona usage API's array of
 * per-sandbox usage (docs/formats-billing.md):
 *
 *   {"sandboxId": "day-3c4a", "firstStart": "...Z", "lastEnd": "...Z",
 *    "totalCPUSeconds": 579.028, "totalRAMGBSeconds": 1158.056,
 *    "totalDiskGBSeconds": 0, "totalGPUSeconds": 0, "totalPrice": 0.386019}
 *
 * Every field of the API's model is optional.  One billed line per row:
 * session = sandboxId (none: an account-level line), charge period
 * firstStart..lastEnd, amount = totalPrice (USD, a JSON number converted
 * once).  Where the row lacks a time, the period the import was given
 * (--period; a fetch's own) fills it in: no times, the whole period; a
 * firstStart and no lastEnd (still running), firstStart to the period's
 * end; a lastEnd and no firstStart, the period's start to lastEnd.  Without
 * a period such a row is rejected naming --period.  A row with usage and
 * no totalPrice is rejected; a row with neither is skipped (nothing to
 * charge).  The usage totals (numbers, checked) and unknown fields go to
 * extra.  No line id: the key is the SHA-256 of the line.
 */
#include "importers/billing.h"

/* The fields with a place of their own in a line. */
static const char *const daytona_known[] = {"sandboxId", "firstStart", "lastEnd", "totalPrice", NULL};

/* The usage totals, kept in extra. */
static const char *const daytona_totals[] = {
	"totalCPUSeconds", "totalRAMGBSeconds", "totalDiskGBSeconds", "totalGPUSeconds", NULL};

/* Check the usage totals of s (non-negative numbers); *usage gets the
 * first one above zero, or NULL. */
static int totals(sb_bill_parser *p, const sb_scope *s, const char **usage, sb_err *why)
{
	*usage = NULL;
	for (const char *const *t = daytona_totals; *t != NULL; t++) {
		const char *total = NULL;
		sb_field f;
		sb_field_get(s, *t, &f);
		if (!f.null && !json_is_number(f.json))
			return sb_fail(why, SB_EDATA, "%s must be a number", *t);
		if (sb_field_number_text(p, s, *t, &total, why) != SB_OK)
			return why->code;
		if (total != NULL && total[0] == '-')
			return sb_fail(why, SB_EDATA, "%s is negative", *t);
		if (total != NULL && *usage == NULL && json_number_value(f.json) > 0)
			*usage = *t;
	}
	return SB_OK;
}

/* One sandbox to one billed line, or none (see sb_bill_parse_fn). */
static int parse_daytona(sb_bill_parser *p, const sb_scope *s, sb_err *why)
{
	const sb_bill_opts *o = sb_bill_opts_of(p);
	const char *sandbox = NULL, *usage = NULL;
	bool has_start = false, has_end = false, has_price = false;
	int64_t start = 0, end = 0, price = 0;
	sb_bill_line *line;
	json_t *extra;

	if (sb_field_string(s, "sandboxId", false, 256, &sandbox, why) != SB_OK ||
	    sb_field_time(s, "firstStart", false, 0, &has_start, &start, why) != SB_OK ||
	    sb_field_time(s, "lastEnd", false, 0, &has_end, &end, why) != SB_OK ||
	    sb_field_money(s, "totalPrice", false, false, &has_price, &price, why) != SB_OK ||
	    totals(p, s, &usage, why) != SB_OK)
		return why->code;
	if (!has_price) {
		if (usage != NULL)
			return sb_fail(why, SB_EDATA, "totalPrice is missing, and the row has usage (%s): the charge is unknown",
			               usage);
		return SB_OK;   /* nothing to charge */
	}
	if ((!has_start || !has_end) && !o->has_period)
		return sb_fail_hint(why, SB_EDATA, SB_HINT_PERIOD_USAGE, "%s: " SB_WORDS_PERIOD_USAGE,
		                    !has_start && !has_end ? "firstStart and lastEnd are missing" :
		                    !has_end ? "lastEnd is missing (the sandbox is still running)" :
		                               "firstStart is missing");
	if (!has_start)
		start = o->period_from_ms;
	if (!has_end) {
		end = o->period_to_ms;
		if (has_start && start >= end)
			return sb_fail_hint(why, SB_EDATA, SB_HINT_PERIOD_END, "firstStart is not before " SB_WORDS_PERIOD_END ", so the running sandbox has no charge period in it");
	}
	if (has_end && !has_start && end < start)
		return sb_fail_hint(why, SB_EDATA, SB_HINT_PERIOD_START, "lastEnd precedes " SB_WORDS_PERIOD_START);
	if (sb_bill_check_period(s, "firstStart", "lastEnd", start, end, why) != SB_OK)
		return why->code;
	if ((line = sb_bill_emit(p)) == NULL)
		return sb_fail(why, SB_EINTERNAL, "out of memory");
	line->backend = "daytona";
	line->session_id = sandbox;
	line->start_ms = start;
	line->end_ms = end;
	line->has_amount = true;
	line->amount_nanos = price;
	extra = sb_bill_extra(s, daytona_known, NULL);
	line->extra = sb_bill_dump(p, extra);
	json_decref(extra);
	return SB_OK;
}

const sb_bill_format sb_bill_daytona = {
	"daytona", SB_REC_JSON_ARRAY | SB_REC_JSON_VALUES, NULL, 0, NULL, NULL, parse_daytona, false,
};
