/* rates.h: rate cards (docs/rules.md) and the card cost of runs.
 *
 * A card prices one backend (and optionally one plan) from its effective
 * instant until a newer card of the same backend and plan.  The card in
 * force at an instant is the newest whose effective_ms is not after it,
 * of the run's plan when the run names one and such a card is in force,
 * else of the backend's default (plan-less) card.
 */
#ifndef SB_RATES_H
#define SB_RATES_H

#include <stdbool.h>
#include <stdint.h>

#include "ledger/db.h"

typedef struct sb_card {
	char backend[65];            /* backend id */
	char plan[129];              /* plan name, "" for the default card */
	int64_t effective_ms;        /* in force from */
	int64_t per_minute_nanos;    /* usd_per_minute in nanodollars (0 when free) */
	bool has_per_cpu_second;     /* per_cpu_second_nanos is known */
	int64_t per_cpu_second_nanos;/* usd_per_cpu_second in nanodollars */
	bool has_per_gb_second;      /* per_gb_second_nanos is known */
	int64_t per_gb_second_nanos; /* usd_per_gb_second in nanodollars */
	bool free;                   /* the backend costs nothing */
} sb_card;

typedef struct sb_rates sb_rates;

/* Load every card of the ledger.  The caller owns *out (sb_rates_free). */
int sb_rates_load(sb_db *db, sb_rates **out, sb_err *e);

/* Free rates; NULL is allowed. */
void sb_rates_free(sb_rates *rates);

/* The card in force for backend/plan (plan NULL or "" for none) at at_ms,
 * or NULL when none is.  Borrowed from rates. */
const sb_card *sb_rates_find(const sb_rates *rates, const char *backend,
                             const char *plan, int64_t at_ms);

/* rate_key: 0 for a free card, else its usd_per_minute in nanodollars. */
int64_t sb_card_rate_key(const sb_card *card);

/* cost_for_ms: 0 for a free card, else per_minute * max(0, ms) / 60000
 * in nanodollars, rounded half to even.  SB_MONEY_RANGE on overflow. */
int sb_card_cost_for_ms(const sb_card *card, int64_t ms, int64_t *nanos);

/* Store card (replacing a card of the same backend, plan and effective
 * instant), add the backend to the capability table when it is new, and
 * reprice the card cost of the backend's runs started since the card's
 * effective instant.  source says where the card came from ('set',
 * 'import FILE', ...).  Inside the caller's transaction. */
int sb_rates_store(sb_db *db, const sb_card *card, const char *source, sb_err *e);

/* sb_rates_store, adding to *priced how many stored runs the card prices
 * once stored: runs of its backend started since it took effect and
 * before a newer card, of its plan (a card without a plan: of any plan
 * that has no card of its own then). */
int sb_rates_store_counted(sb_db *db, const sb_card *card, const char *source, int64_t *priced,
                           sb_err *e);

/* The rate cards for 'rates': those in force at at_ms (one per backend
 * and plan), or every card when all; by backend, plan and effective
 * instant (sql/queries/rate_card_list.sql).  A statement of db, its
 * parameters bound, for the caller to step and reset; NULL with the error
 * in e. */
sb_stmt *sb_rates_list(sb_db *db, bool all, int64_t at_ms, sb_err *e);

/* Runs of one backend with no card in force at their start (card_nanos
 * NULL): their card cost is unknown, never 0 (docs/rules.md). */
typedef struct sb_no_card {
	char backend[65];            /* backend id */
	int64_t runs;                /* how many such runs */
	int64_t first_ms;            /* the earliest one's started_at */
} sb_no_card;

/* Append {backend, runs, first_ms} to the list *list of *n entries
 * (grown by one; the caller frees it).  The new entry, or NULL when out of
 * memory (the list is then as it was). */
sb_no_card *sb_no_card_push(sb_no_card **list, size_t *n, const char *backend, int64_t runs,
                            int64_t first_ms);

/* The backends with runs started in [from_ms, to_ms) that no card priced,
 * by backend (sql/queries/run_no_card.sql).  The caller frees *out (NULL
 * when *n is 0). */
int sb_rates_no_card(sb_db *db, int64_t from_ms, int64_t to_ms, sb_no_card **out, size_t *n,
                     sb_err *e);

/* The two ways out for runs of backend with no card in force, the
 * earliest started at first_ms, as one clause: "set its price per minute
 * (sbledger rates set B --usd-per-minute X --from DAY), or, for a
 * self-hosted backend that costs nothing, make it free (sbledger rates
 * set B --free --from DAY)"; B one shell word (after the options and "--"
 * when it would be taken for one), DAY the UTC day of first_ms, so that
 * the card covers the run.  Into buf (cut at cap); returns buf. */
const char *sb_rates_fix_text(const char *backend, int64_t first_ms, char *buf, size_t cap);

/* What a backend must offer, for 'backends'. */
typedef struct sb_backend_need {
	int64_t at_ms;               /* the default card in force then prices it */
	bool network;                /* it must have network access */
	bool persistent;             /* it must keep its disk */
	bool has_min_cpu;            /* min_cpu is given */
	int64_t min_cpu;             /* at least this many CPUs */
	bool has_min_memory_mb;      /* min_memory_mb is given */
	int64_t min_memory_mb;       /* at least this much memory */
	const char *region;          /* it must run there; NULL for any */
} sb_backend_need;

/* The backends that satisfy need, cheapest first by rate key (free 0,
 * else the per-minute price of the default card in force at need->at_ms;
 * unknown last), ties by name (sql/queries/backend_list.sql).  A
 * statement of db, bound, for the caller to step and reset; NULL with the
 * error in e. */
sb_stmt *sb_backends_list(sb_db *db, const sb_backend_need *need, sb_err *e);

#endif
