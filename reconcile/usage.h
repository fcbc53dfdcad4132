/* usage.h: SandboxUsage aggregates and the SDK's addition rule.
 *
 * SandboxUsage.__add__: counters (exec_count, total_duration_ms, cpu_ms,
 * bytes_read, bytes_written, computed_cost_usd) sum; memory_peak_mb is the
 * maximum; billed_cost_usd is null when every operand is null, else the sum
 * with null as 0.  Here the same rule holds for the ledger's own figures
 * too, with one difference stated where it applies: a card or token cost
 * is null when any operand is (an unpriced run must not pass for free).
 */
#ifndef SB_USAGE_H
#define SB_USAGE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct sb_usage {
	int64_t runs;               /* how many runs */
	int64_t exec_count;         /* counters: sums */
	int64_t total_duration_ms;
	int64_t cpu_ms;
	int64_t memory_peak_mb;     /* maximum */
	int64_t bytes_read;
	int64_t bytes_written;
	int64_t computed_nanos;     /* computed_cost_usd: sum */
	bool has_billed;            /* billed_cost_usd: null when every operand is */
	int64_t billed_nanos;
	bool has_card;              /* card_cost_usd: null when any operand is */
	int64_t card_nanos;
	bool has_token;             /* token_cost_usd: null when any operand is */
	__int128 token_raw;         /* token cost x 10^6 before the group's one rounding */
} sb_usage;

/* The empty aggregate: zero counters, billed null, card and token cost 0. */
void sb_usage_zero(sb_usage *u);

/* acc += x by the addition rule.  False on overflow (acc then undefined). */
bool sb_usage_add(sb_usage *acc, const sb_usage *x);

/* The token cost of u in nanodollars: token_raw / 10^6, rounded half to
 * even once.  False when u has none (null) or it does not fit. */
bool sb_usage_token_nanos(const sb_usage *u, int64_t *nanos);

#endif
