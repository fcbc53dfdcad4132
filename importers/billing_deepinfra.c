/* billing_deepinfra.c: --format deepinfra-usage, the response of DeepInfra's
 * GET /payment/usage (docs/formats-billing.md):
 *
 *   {"initial_month": "2026-01",
 *    "months": [{"period": "2026-11", "total_cost": 41877}]}
 *
 * The records are the elements of "months" (read as a stream; other
 * members are skipped; several such objects may follow one another).
 * A period is YYYY-MM, or YYYY.MM as clients document it.  One billed, account-level line per month:
 * backend deepinfra, no session, charge period the UTC month (its first
 * day to the first day of the next), amount = total_cost, which is in
 * CENTS (41877 is 418.77 USD).  No line id: the key is the SHA-256 of the
 * line, so a month whose total grew is a new line (import such a reissue
 * with --supersede).
 */
#include "importers/billing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/money.h"
#include "ledger/timefmt.h"

/* The fields with a place of their own in a line. */
static const char *const month_known[] = {"period", "total_cost", NULL};

/* total_cost (cents, a whole number >= 0) into nanodollars. */
static int cents(const sb_scope *s, int64_t *nanos, sb_err *why)
{
	sb_field f;

	sb_field_get(s, "total_cost", &f);
	if (f.null)
		return sb_field_missing(s, "total_cost", why);
	if (f.num != NULL) {
		/* the cents as written, with the exponent lowered by 2: dollars,
		 * read digit by digit (one rounding, half to even, at 10^-9) */
		const char *x = memchr(f.num, 'e', f.num_len);
		size_t mant = f.num_len;
		long long exp10 = 0;
		char *usd;
		int rc;
		if (x == NULL)
			x = memchr(f.num, 'E', f.num_len);
		if (x != NULL) {
			size_t i = (size_t)(x - f.num) + 1;
			bool neg = i < f.num_len && f.num[i] == '-';
			mant = (size_t)(x - f.num);
			if (i < f.num_len && (f.num[i] == '-' || f.num[i] == '+'))
				i++;
			for (; i < f.num_len; i++)
				if (exp10 < 1000000)
					exp10 = exp10 * 10 + (f.num[i] - '0');
			if (neg)
				exp10 = -exp10;
		}
		if ((usd = malloc(mant + 32)) == NULL)
			return sb_fail(why, SB_EINTERNAL, "out of memory");
		snprintf(usd, mant + 32, "%.*sE%lld", (int)mant, f.num, exp10 - 2);
		rc = sb_money_parse(usd, strlen(usd), nanos);
		free(usd);
		if ((rc == SB_MONEY_OK && *nanos < 0) || (rc != SB_MONEY_OK && f.num[0] == '-'))
			return sb_fail(why, SB_EDATA, "total_cost is negative");
		if (rc != SB_MONEY_OK)
			return sb_fail(why, SB_EDATA, "total_cost is too large");
		return SB_OK;
	}
	return sb_fail(why, SB_EDATA, "total_cost must be a number of cents, not %s",
	               f.text != NULL ? "a string" : "that");
}

/* One month to one billed line (see sb_bill_parse_fn). */
static int parse_month(sb_bill_parser *p, const sb_scope *s, sb_err *why)
{
	const char *period = NULL;
	int64_t amount = 0;
	int year = 0, month = 0;
	sb_bill_line *line;
	json_t *extra;

	if (sb_field_string(s, "period", true, 64, &period, why) != SB_OK ||
	    cents(s, &amount, why) != SB_OK)
		return why->code;
	/* exactly YYYY-MM or YYYY.MM (sscanf's %u would take a sign or spaces:
	 * "-026-10") */
	if (strlen(period) == 7 && (period[4] == '-' || period[4] == '.') &&
	    strspn(period, "0123456789") == 4 && strspn(period + 5, "0123456789") == 2) {
		year = atoi(period);
		month = atoi(period + 5);
	}
	if (month < 1 || month > 12 || year < 1970)
		return sb_fail(why, SB_EDATA, "period '%.40s' is not a month (YYYY-MM or YYYY.MM)", period);
	if ((line = sb_bill_emit(p)) == NULL)
		return sb_fail(why, SB_EINTERNAL, "out of memory");
	line->backend = "deepinfra";
	line->start_ms = sb_days_from_civil_ms(year, month, 1);
	line->end_ms = month == 12 ? sb_days_from_civil_ms(year + 1, 1, 1) :
	               sb_days_from_civil_ms(year, month + 1, 1);
	line->has_amount = true;
	line->amount_nanos = amount;
	extra = sb_bill_extra(s, month_known, NULL);
	line->extra = sb_bill_dump(p, extra);
	json_decref(extra);
	return SB_OK;
}

const sb_bill_format sb_bill_deepinfra_usage = {
	"deepinfra-usage", SB_REC_JSON_ARRAY, "months", 0, NULL, NULL, parse_month, false,
};
