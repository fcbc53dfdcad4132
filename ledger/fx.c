/* fx.c: currencies and exchange rates (see fx.h). */
#include "ledger/fx.h"

#include <string.h>

#include "ledger/changes.h"

/* The active ISO 4217 codes (alphabetic), sorted, three letters each. */
static const char codes[] =
	"AED" "AFN" "ALL" "AMD" "ANG" "AOA" "ARS" "AUD" "AWG" "AZN" "BAM" "BBD" "BDT" "BGN" "BHD"
	"BIF" "BMD" "BND" "BOB" "BOV" "BRL" "BSD" "BTN" "BWP" "BYN" "BZD" "CAD" "CDF" "CHE" "CHF"
	"CHW" "CLF" "CLP" "CNY" "COP" "COU" "CRC" "CUC" "CUP" "CVE" "CZK" "DJF" "DKK" "DOP" "DZD"
	"EGP" "ERN" "ETB" "EUR" "FJD" "FKP" "GBP" "GEL" "GHS" "GIP" "GMD" "GNF" "GTQ" "GYD" "HKD"
	"HNL" "HTG" "HUF" "IDR" "ILS" "INR" "IQD" "IRR" "ISK" "JMD" "JOD" "JPY" "KES" "KGS" "KHR"
	"KMF" "KPW" "KRW" "KWD" "KYD" "KZT" "LAK" "LBP" "LKR" "LRD" "LSL" "LYD" "MAD" "MDL" "MGA"
	"MKD" "MMK" "MNT" "MOP" "MRU" "MUR" "MVR" "MWK" "MXN" "MXV" "MYR" "MZN" "NAD" "NGN" "NIO"
	"NOK" "NPR" "NZD" "OMR" "PAB" "PEN" "PGK" "PHP" "PKR" "PLN" "PYG" "QAR" "RON" "RSD" "RUB"
	"RWF" "SAR" "SBD" "SCR" "SDG" "SEK" "SGD" "SHP" "SLE" "SOS" "SRD" "SSP" "STN" "SVC" "SYP"
	"SZL" "THB" "TJS" "TMT" "TND" "TOP" "TRY" "TTD" "TWD" "TZS" "UAH" "UGX" "USD" "USN" "UYI"
	"UYU" "UYW" "UZS" "VED" "VES" "VND" "VUV" "WST" "XAF" "XAG" "XAU" "XBA" "XBB" "XBC" "XBD"
	"XCD" "XCG" "XDR" "XOF" "XPD" "XPF" "XPT" "XSU" "XUA" "YER" "ZAR" "ZMW" "ZWG";

bool sb_currency_known(const char *code)
{
	size_t lo = 0, hi = (sizeof codes - 1) / 3;

	if (strlen(code) != 3)
		return false;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = memcmp(codes + 3 * mid, code, 3);
		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

int sb_fx_set(sb_db *db, const char *currency, int64_t usd_nanos, int64_t effective_ms,
              sb_err *e)
{
	sb_stmt *st;

	if (!sb_currency_known(currency))
		return sb_fail(e, SB_EDATA, "'%s' is not an ISO 4217 currency code", currency);
	if (strcmp(currency, "USD") == 0)
		return sb_fail(e, SB_EDATA, "USD needs no rate: amounts are reconciled in USD");
	if (usd_nanos <= 0)
		return sb_fail(e, SB_EDATA, "the rate of %s must be more than 0", currency);
	if ((st = sb_db_stmt(db, "fx_rate_set", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":currency", currency);
	sb_bind_i64(db, st, ":effective_ms", effective_ms);
	sb_bind_i64(db, st, ":usd_nanos", usd_nanos);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	/* every backend's lines in that currency from then on */
	return sb_change_setting(db, "fx", NULL, effective_ms, SB_CHANGE_FOREVER, e);
}

int sb_fx_rate_at(sb_db *db, const char *currency, int64_t at_ms, bool *found,
                  int64_t *usd_nanos, sb_err *e)
{
	sb_stmt *st;
	int rc;

	*found = false;
	*usd_nanos = 0;
	if (strcmp(currency, "USD") == 0) {
		*found = true;
		*usd_nanos = 1000000000;
		return SB_OK;
	}
	if ((st = sb_db_stmt(db, "fx_rate_at", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":currency", currency);
	sb_bind_i64(db, st, ":at_ms", at_ms);
	rc = sb_db_step(db, st, e);
	if (rc == SB_ROW) {
		*found = true;
		*usd_nanos = sb_col_i64(st, 0);
	}
	sb_stmt_reset(st);
	return rc < 0 ? e->code : SB_OK;
}
