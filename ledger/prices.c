/* prices.c: the model price table (see prices.h). */
#include "ledger/prices.h"

#include <stdint.h>

#include "ledger/changes.h"

int sb_price_set(sb_db *db, const char *model, int64_t input_per_m_nanos, int64_t output_per_m_nanos,
                 int64_t updated_ms, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "model_price_set", e);

	if (st == NULL)
		return e->code;
	sb_bind_text(db, st, ":model", model);
	sb_bind_i64(db, st, ":input_per_m_nanos", input_per_m_nanos);
	sb_bind_i64(db, st, ":output_per_m_nanos", output_per_m_nanos);
	sb_bind_i64(db, st, ":updated_ms", updated_ms);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	/* a price replaced prices every run of the model, whenever it ran */
	return sb_change_setting(db, "price", NULL, INT64_MIN, SB_CHANGE_FOREVER, e);
}

sb_stmt *sb_prices_list(sb_db *db, sb_err *e)
{
	return sb_db_stmt(db, "model_price_list", e);
}
