/* fx.h: currencies and exchange rates (docs/rules.md).
 *
 * Every billing line carries an ISO 4217 code.  Reconciliation is in USD:
 * a line in another currency is converted with the rate in force at its
 * charge start, a rate being USD per unit of the currency from an
 * effective instant until a newer rate of the same currency.
 * Nothing here allocates.
 */
#ifndef SB_FX_H
#define SB_FX_H

#include <stdbool.h>
#include <stdint.h>

#include "ledger/db.h"

/* True when code is an active ISO 4217 code (three upper-case letters
 * from the standard's list; the test code XTS and the no-currency XXX are
 * not). */
bool sb_currency_known(const char *code);

/* Store the rate of currency (a known code other than USD): usd_nanos USD
 * x 10^9 per unit (> 0), in force from effective_ms; a rate of the same
 * currency and instant is replaced.  Inside or outside a transaction. */
int sb_fx_set(sb_db *db, const char *currency, int64_t usd_nanos, int64_t effective_ms,
              sb_err *e);

/* The rate of currency in force at at_ms into *usd_nanos (1 USD for USD
 * itself); *found false when there is none. */
int sb_fx_rate_at(sb_db *db, const char *currency, int64_t at_ms, bool *found,
                  int64_t *usd_nanos, sb_err *e);

#endif
