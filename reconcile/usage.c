/* usage.c: the SandboxUsage addition rule (see usage.h). */
#include "reconcile/usage.h"

#include <string.h>

#include "ledger/money.h"

void sb_usage_zero(sb_usage *u)
{
	memset(u, 0, sizeof *u);
	u->has_card = true;
	u->has_token = true;
}

bool sb_usage_add(sb_usage *acc, const sb_usage *x)
{
	if (__builtin_add_overflow(acc->runs, x->runs, &acc->runs) ||
	    __builtin_add_overflow(acc->exec_count, x->exec_count, &acc->exec_count) ||
	    __builtin_add_overflow(acc->total_duration_ms, x->total_duration_ms, &acc->total_duration_ms) ||
	    __builtin_add_overflow(acc->cpu_ms, x->cpu_ms, &acc->cpu_ms) ||
	    __builtin_add_overflow(acc->bytes_read, x->bytes_read, &acc->bytes_read) ||
	    __builtin_add_overflow(acc->bytes_written, x->bytes_written, &acc->bytes_written) ||
	    __builtin_add_overflow(acc->computed_nanos, x->computed_nanos, &acc->computed_nanos))
		return false;
	if (x->memory_peak_mb > acc->memory_peak_mb)
		acc->memory_peak_mb = x->memory_peak_mb;
	if (x->has_billed) {
		if (__builtin_add_overflow(acc->billed_nanos, x->billed_nanos, &acc->billed_nanos))
			return false;
		acc->has_billed = true;
	}
	acc->has_card = acc->has_card && x->has_card;
	if (acc->has_card && __builtin_add_overflow(acc->card_nanos, x->card_nanos, &acc->card_nanos))
		return false;
	acc->has_token = acc->has_token && x->has_token;
	acc->token_raw += x->token_raw;
	return true;
}

bool sb_usage_token_nanos(const sb_usage *u, int64_t *nanos)
{
	return u->has_token && sb_div_round_even(u->token_raw, 1000000, nanos) == SB_MONEY_OK;
}
