/* billing_modal.c: --format modal, the output of `modal billing report`
 * with --json (an array of objects) or --csv (a header row of the display
 * names, "Object ID,Description,Environment,Interval Start,Cost", matched
 * folded: any case, spaces or underscores), docs/formats-billing.md:
 *
 *   {"object_id": "mod-83b5", "description": "...", "environment": "main",
 *    "interval_start": "2026-11-04T00:00:00", "resource": "CPU",
 *    "cost": "1.019045", "tags": {}}
 *
 * One billed line per row: session = object_id, charge start =
 * interval_start (UTC; Modal writes it without an offset), end = start +
 * the report's interval (--interval d, a day, or h, an hour), amount =
 * cost (decimal text, parsed exactly), USD.  description, environment,
 * resource and unknown fields go to extra.  No line id: the key is the
 * SHA-256 of the line.  tags is an object, or a string holding one (as
 * --tag-names writes it, in JSON and CSV).  The charge identity is the
 * resource (--show-resources); a row without one is the object's total
 * for its interval, the same charge as each of its resources.
 */
#include "importers/billing.h"

#include "ledger/timefmt.h"

static const char *const modal_required[] = {"object_id", "interval_start", "cost", NULL};

/* The fields with a place of their own in a line. */
static const char *const modal_known[] = {"object_id", "interval_start", "cost", "tags", NULL};

/* tags as JSON text: an object (NULL when empty), or a string holding
 * one (a CSV cell, or a JSON string as --tag-names writes); a string that
 * is not a JSON object is kept as a JSON string. */
static int modal_tags(sb_bill_parser *p, const sb_scope *s, const char **out, sb_err *why)
{
	sb_field f;
	json_t *v;

	*out = NULL;
	sb_field_get(s, "tags", &f);
	if (f.null)
		return SB_OK;
	if (f.json != NULL && json_is_object(f.json)) {
		if (json_object_size(f.json) > 0)
			*out = sb_bill_dump(p, f.json);
		return SB_OK;
	}
	if (f.text == NULL)
		return sb_fail(why, SB_EDATA, "tags must be an object or a string holding one");
	v = json_loadb(f.text, f.len, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(v)) {
		json_decref(v);
		v = json_stringn(f.text, f.len);
	}
	if (!json_is_object(v) || json_object_size(v) > 0)
		*out = sb_bill_dump(p, v);
	json_decref(v);
	return SB_OK;
}

/* One row to one billed line (see sb_bill_parse_fn). */
static int parse_modal(sb_bill_parser *p, const sb_scope *s, sb_err *why)
{
	int64_t interval = sb_bill_opts_of(p)->interval_ms;
	const char *object_id = NULL, *tag_text = NULL, *resource = NULL;
	bool has_start = false, has_cost = false;
	int64_t start = 0, cost = 0;
	sb_bill_line *line;
	json_t *extra;

	if (interval <= 0)
		interval = SB_MS_PER_DAY;
	if (sb_field_string(s, "object_id", true, 256, &object_id, why) != SB_OK ||
	    sb_field_time(s, "interval_start", true, SB_TIME_NAIVE_UTC, &has_start, &start, why) != SB_OK ||
	    sb_field_money(s, "cost", true, true, &has_cost, &cost, why) != SB_OK ||
	    sb_field_string(s, "resource", false, 256, &resource, why) != SB_OK ||
	    modal_tags(p, s, &tag_text, why) != SB_OK)
		return why->code;
	if (start % interval != 0) {
		if (interval == SB_MS_PER_DAY)
			return sb_fail_hint(why, SB_EDATA, SB_HINT_INTERVAL, "interval_start is not at midnight UTC, so not the start of a day " SB_WORDS_INTERVAL);
		return sb_fail(why, SB_EDATA, "interval_start is not at the start of an hour");
	}
	if ((line = sb_bill_emit(p)) == NULL)
		return sb_fail(why, SB_EINTERNAL, "out of memory");
	line->backend = "modal";
	line->session_id = object_id;
	line->start_ms = start;
	line->end_ms = start + interval;
	line->has_amount = true;
	line->amount_nanos = cost;
	line->tags = tag_text;
	line->identity = resource;
	extra = sb_bill_extra(s, modal_known, NULL);
	line->extra = sb_bill_dump(p, extra);
	json_decref(extra);
	return SB_OK;
}

const sb_bill_format sb_bill_modal = {
	"modal", SB_REC_JSON_ARRAY | SB_REC_JSON_VALUES | SB_REC_CSV, NULL, SB_CSV_FOLD,
	modal_required, NULL, parse_modal, true,
};
