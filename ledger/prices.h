/* prices.h: the model price table: what a million input and a million
 * output tokens of a model cost (docs/rules.md), set by 'prices set' and
 * read by the token costs of summaries and invoices.
 */
#ifndef SB_LEDGER_PRICES_H
#define SB_LEDGER_PRICES_H

#include <stdint.h>

#include "ledger/db.h"

/* Set model's prices per million tokens (nanodollars), replacing those it
 * had; updated_ms is when (the caller's clock).  SB_OK or the ledger's
 * error in e. */
int sb_price_set(sb_db *db, const char *model, int64_t input_per_m_nanos, int64_t output_per_m_nanos,
                 int64_t updated_ms, sb_err *e);

/* Every model price, by model: model, input_per_m_nanos,
 * output_per_m_nanos, updated_ms (sql/queries/model_price_list.sql).  A
 * statement of db for the caller to step and reset; NULL with the error
 * in e. */
sb_stmt *sb_prices_list(sb_db *db, sb_err *e);

#endif
