/* billing_focus.c: --format focus, FinOps FOCUS 1.x cost and usage rows,
 * as CSV with a header (columns in any order, ',' or ';' separated) or as
 * JSON values with the same names (docs/formats-billing.md).
 *
 * One billed line per row, keyed by the SHA-256 of the normalized line.
 * Read: BilledCost, BillingCurrency, ChargePeriodStart, ChargePeriodEnd
 * (required; times UTC when they have no offset, as the FOCUS sample
 * writes them: 2024-09-18 22:00:00); ServiceProviderName, else
 * ProviderName (the backend, case and spaces folded); ResourceId (the
 * session; empty: account-level); ChargeCategory; ChargeClass
 * (Correction); ListCost; EffectiveCost; ConsumedQuantity and
 * ConsumedUnit; InvoiceId; Tags.  Other columns go to extra, except x_
 * columns, which are ignored.  An empty cell, or an unquoted NULL, is
 * NULL, never 0.  A cell that sbledger's CSV output guarded with a
 * leading ' loses it again.  A row of sbledger's own export whose
 * x_BilledBasis is computed is an estimate: skipped.  The charge identity
 * is ServiceName, SkuId, ChargeDescription, PricingCategory,
 * CommitmentDiscountId, RegionId and InvoiceId, as a JSON array.
 */
#include "importers/billing.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ledger/timefmt.h"

static const char *const focus_required[] = {
	"BilledCost", "BillingCurrency", "ChargePeriodStart", "ChargePeriodEnd", NULL};
static const char *const focus_provider[] = {"ServiceProviderName", "ProviderName", NULL};

/* The columns with a place of their own in a line. */
static const char *const focus_known[] = {
	"BilledCost", "BillingCurrency", "ChargePeriodStart", "ChargePeriodEnd",
	"ServiceProviderName", "ProviderName", "ResourceId", "ChargeCategory", "ChargeClass",
	"ListCost", "EffectiveCost", "ConsumedQuantity", "ConsumedUnit", "InvoiceId", "Tags", NULL};

/* FOCUS 1.x ChargeCategory values. */
static const char *const categories[] = {"Usage", "Purchase", "Tax", "Credit", "Adjustment", NULL};

/* ChargeCategory in its canonical spelling into *out (NULL when empty). */
static int category(const sb_scope *s, const char **out, sb_err *why)
{
	const char *text = NULL;

	*out = NULL;
	if (sb_field_string(s, "ChargeCategory", false, 64, &text, why) != SB_OK || text == NULL)
		return why->code;
	for (const char *const *c = categories; *c != NULL; c++) {
		if (strcasecmp(text, *c) == 0) {
			*out = *c;
			return SB_OK;
		}
	}
	return sb_fail(why, SB_EDATA, "ChargeCategory '%.40s' is not one of Usage, Purchase, Tax, Credit, Adjustment",
	               text);
}

/* ChargeClass: Correction or empty. */
static int charge_class(const sb_scope *s, bool *correction, sb_err *why)
{
	const char *text = NULL;

	*correction = false;
	if (sb_field_string(s, "ChargeClass", false, 64, &text, why) != SB_OK || text == NULL)
		return why->code;
	if (strcasecmp(text, "Correction") != 0)
		return sb_fail(why, SB_EDATA, "ChargeClass '%.40s' is not Correction (or empty)", text);
	*correction = true;
	return SB_OK;
}

/* Tags as compact JSON text with sorted keys: a JSON object, in a CSV cell
 * or a string, or an object member of a JSON record. */
static int tags(sb_bill_parser *p, const sb_scope *s, const char **out, sb_err *why)
{
	sb_field f;
	json_t *obj;

	*out = NULL;
	sb_field_get(s, "Tags", &f);
	if (f.null)
		return SB_OK;
	if (f.json != NULL && json_is_object(f.json)) {
		if (json_object_size(f.json) > 0)
			*out = sb_bill_dump(p, f.json);
		return SB_OK;
	}
	if (f.text == NULL)
		return sb_fail(why, SB_EDATA, "Tags must be a JSON object");
	obj = json_loadb(f.text, f.len, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(obj)) {
		json_decref(obj);
		return sb_fail(why, SB_EDATA, "Tags '%.40s' is not a JSON object", f.text);
	}
	if (json_object_size(obj) > 0)
		*out = sb_bill_dump(p, obj);
	json_decref(obj);
	return SB_OK;
}

/* The columns naming the charge (its identity), in this order. */
static const char *const identity_columns[] = {
	"ServiceName", "SkuId", "ChargeDescription", "PricingCategory", "CommitmentDiscountId",
	"RegionId", "InvoiceId", NULL};

/* The charge identity as a compact JSON array of texts (null where a
 * column is empty or absent; a JSON number as its text), kept by p.  NULL
 * when out of memory. */
static const char *identity(sb_bill_parser *p, const sb_scope *s)
{
	json_t *arr = json_array();
	const char *out;

	for (const char *const *c = identity_columns; *c != NULL && arr != NULL; c++) {
		sb_field f;
		json_t *v;
		sb_field_get(s, *c, &f);
		if (f.null) {
			v = json_null();
		} else if (f.text != NULL) {
			v = json_stringn(f.text, f.len);
		} else {
			char *text = json_dumps(f.json, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY |
			                                    JSON_REAL_PRECISION(17));
			v = text != NULL ? json_string(text) : NULL;
			free(text);
		}
		if (v == NULL || json_array_append_new(arr, v) != 0) {
			json_decref(arr);
			arr = NULL;
		}
	}
	if (arr == NULL) {
		sb_bill_keep(p, NULL);   /* records the out of memory */
		return NULL;
	}
	out = sb_bill_dump(p, arr);
	json_decref(arr);
	return out;
}

/* True when the row is an estimate of sbledger's own export focus:
 * x_BilledBasis computed. */
static bool estimate(const sb_scope *s)
{
	sb_field f;

	sb_field_get(s, "x_BilledBasis", &f);
	return f.text != NULL && f.len == 8 && strncasecmp(f.text, "computed", 8) == 0;
}

/* One row to one billed line, none for an estimate (see sb_bill_parse_fn). */
static int parse_focus(sb_bill_parser *p, const sb_scope *s, sb_err *why)
{
	const char *currency = NULL, *provider = NULL, *backend = NULL, *session = NULL;
	const char *cat = NULL, *quantity = NULL, *unit = NULL, *invoice = NULL, *tag_text = NULL;
	const char *provider_field = "ServiceProviderName";
	bool has_cost = false, has_start = false, has_end = false, correction = false;
	bool has_list = false, has_effective = false;
	int64_t cost = 0, start = 0, end = 0, list = 0, effective = 0;
	sb_bill_line *line;
	json_t *extra;

	if (estimate(s))
		return SB_OK;
	if (sb_field_money(s, "BilledCost", true, true, &has_cost, &cost, why) != SB_OK ||
	    sb_field_currency(p, s, "BillingCurrency", true, &currency, why) != SB_OK ||
	    sb_field_time(s, "ChargePeriodStart", true, SB_TIME_NAIVE_UTC, &has_start, &start, why) != SB_OK ||
	    sb_field_time(s, "ChargePeriodEnd", true, SB_TIME_NAIVE_UTC, &has_end, &end, why) != SB_OK ||
	    sb_bill_check_period(s, "ChargePeriodStart", "ChargePeriodEnd", start, end, why) != SB_OK ||
	    sb_field_string(s, "ServiceProviderName", false, 256, &provider, why) != SB_OK)
		return why->code;
	if (provider == NULL) {
		provider_field = "ProviderName";
		if (sb_field_string(s, "ProviderName", false, 256, &provider, why) != SB_OK)
			return why->code;
		if (provider == NULL)
			return sb_fail(why, SB_EDATA, "ServiceProviderName and ProviderName are both empty (one of them names the backend)");
	}
	if (sb_bill_backend(p, provider_field, provider, &backend, why) != SB_OK ||
	    sb_field_string(s, "ResourceId", false, 1024, &session, why) != SB_OK ||
	    category(s, &cat, why) != SB_OK || charge_class(s, &correction, why) != SB_OK ||
	    sb_field_money(s, "ListCost", false, true, &has_list, &list, why) != SB_OK ||
	    sb_field_money(s, "EffectiveCost", false, true, &has_effective, &effective, why) != SB_OK ||
	    sb_field_number_text(p, s, "ConsumedQuantity", &quantity, why) != SB_OK ||
	    sb_field_string(s, "ConsumedUnit", false, 128, &unit, why) != SB_OK ||
	    sb_field_string(s, "InvoiceId", false, 256, &invoice, why) != SB_OK ||
	    tags(p, s, &tag_text, why) != SB_OK)
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
	line->category = cat;
	line->correction = correction;
	line->quantity = quantity;
	line->unit = unit;
	line->has_list_cost = has_list;
	line->list_cost_nanos = list;
	line->has_effective_cost = has_effective;
	line->effective_cost_nanos = effective;
	line->invoice_id = invoice;
	line->tags = tag_text;
	line->identity = identity(p, s);
	extra = sb_bill_extra(s, focus_known, "x_");
	line->extra = sb_bill_dump(p, extra);
	json_decref(extra);
	return SB_OK;
}

const sb_bill_format sb_bill_focus = {
	"focus", SB_REC_CSV | SB_REC_JSON_VALUES, NULL, SB_CSV_NULL_WORD | SB_CSV_UNGUARD,
	focus_required, focus_provider, parse_focus, false,
};
