/* billing_daytona.c: --format daytona, the Daytona usage API's array of
 * per-sandbox usage (docs/formats-billing.md):
 *
 *   {"sandboxId": "day-3c4a", "firstStart": "...Z", "lastEnd": "...Z",
 *    "totalCPUSeconds": 579.028, "totalRAMGBSeconds": 1158.056,
 *    "totalDiskGBSeconds": 0, "totalGPUSeconds": 0, "totalPrice": 0.386019}
 *
 * One billed line per sandbox: session = sandboxId, charge period
 * firstStart..lastEnd, amount = totalPrice (USD, a JSON number converted
 * once).  The usage totals (numbers, checked) and unknown fields go to
 * extra.  No line id: the key is the SHA-256 of the line.
 */
#include "importers/billing.h"

/* The fields with a place of their own in a line. */
static const char *const daytona_known[] = {"sandboxId", "firstStart", "lastEnd", "totalPrice", NULL};

/* The usage totals, kept in extra. */
static const char *const daytona_totals[] = {
	"totalCPUSeconds", "totalRAMGBSeconds", "totalDiskGBSeconds", "totalGPUSeconds", NULL};

/* One sandbox to one billed line (see sb_bill_parse_fn). */
static int parse_daytona(sb_bill_parser *p, const sb_scope *s, sb_err *why)
{
	const char *sandbox = NULL, *total = NULL;
	bool has_start = false, has_end = false, has_price = false;
	int64_t start = 0, end = 0, price = 0;
	sb_bill_line *line;
	json_t *extra;

	if (sb_field_string(s, "sandboxId", true, 256, &sandbox, why) != SB_OK ||
	    sb_field_time(s, "firstStart", true, 0, &has_start, &start, why) != SB_OK ||
	    sb_field_time(s, "lastEnd", true, 0, &has_end, &end, why) != SB_OK ||
	    sb_bill_check_period(s, "firstStart", "lastEnd", start, end, why) != SB_OK ||
	    sb_field_money(s, "totalPrice", true, false, &has_price, &price, why) != SB_OK)
		return why->code;
	for (const char *const *t = daytona_totals; *t != NULL; t++) {
		sb_field f;
		sb_field_get(s, *t, &f);
		if (!f.null && !json_is_number(f.json))
			return sb_fail(why, SB_EDATA, "%s must be a number", *t);
		if (sb_field_number_text(p, s, *t, &total, why) != SB_OK)
			return why->code;
		if (total != NULL && total[0] == '-')
			return sb_fail(why, SB_EDATA, "%s is negative", *t);
	}
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
	"daytona", SB_REC_JSON_ARRAY, NULL, 0, NULL, NULL, parse_daytona,
};
