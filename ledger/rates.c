/* rates.c: rate cards and card cost (see rates.h). */
#include "ledger/rates.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/changes.h"
#include "ledger/money.h"
#include "ledger/quote.h"
#include "ledger/timefmt.h"

struct sb_rates {
	sb_card *cards;   /* by backend, plan, newest first */
	size_t n;         /* how many */
};

void sb_rates_free(sb_rates *rates)
{
	if (rates == NULL)
		return;
	free(rates->cards);
	free(rates);
}

int sb_rates_load(sb_db *db, sb_rates **out, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "rate_card_all", e);
	sb_rates *rates = calloc(1, sizeof *rates);
	size_t cap = 0;
	int rc;

	*out = NULL;
	if (rates == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	if (st == NULL)
		goto fail;
	while ((rc = sb_db_step(db, st, e)) == SB_ROW) {
		sb_card *c;
		if (rates->n == cap) {
			size_t ncap = cap ? 2 * cap : 32;
			sb_card *cards = realloc(rates->cards, ncap * sizeof *cards);
			if (cards == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				goto fail;
			}
			rates->cards = cards;
			cap = ncap;
		}
		c = &rates->cards[rates->n++];
		memset(c, 0, sizeof *c);
		snprintf(c->backend, sizeof c->backend, "%s", sb_col_text(st, 0));
		snprintf(c->plan, sizeof c->plan, "%s", sb_col_text(st, 1));
		c->effective_ms = sb_col_i64(st, 2);
		c->per_minute_nanos = sb_col_i64(st, 3);
		c->has_per_cpu_second = !sb_col_is_null(st, 4);
		c->per_cpu_second_nanos = sb_col_i64(st, 4);
		c->has_per_gb_second = !sb_col_is_null(st, 5);
		c->per_gb_second_nanos = sb_col_i64(st, 5);
		c->free = sb_col_int(st, 6) != 0;
	}
	sb_stmt_reset(st);
	if (rc < 0)
		goto fail;
	*out = rates;
	return SB_OK;
fail:
	sb_rates_free(rates);
	return e->code;
}

/* The newest card of backend/plan (plan exact) in force at at_ms. */
static const sb_card *find_exact(const sb_rates *rates, const char *backend,
                                 const char *plan, int64_t at_ms)
{
	for (size_t i = 0; i < rates->n; i++) {
		const sb_card *c = &rates->cards[i];
		if (strcmp(c->backend, backend) == 0 && strcmp(c->plan, plan) == 0 &&
		    c->effective_ms <= at_ms)
			return c;
	}
	return NULL;
}

const sb_card *sb_rates_find(const sb_rates *rates, const char *backend,
                             const char *plan, int64_t at_ms)
{
	const sb_card *c = NULL;

	if (plan != NULL && plan[0] != '\0')
		c = find_exact(rates, backend, plan, at_ms);
	return c != NULL ? c : find_exact(rates, backend, "", at_ms);
}

int64_t sb_card_rate_key(const sb_card *card)
{
	return card->free ? 0 : card->per_minute_nanos;
}

int sb_card_cost_for_ms(const sb_card *card, int64_t ms, int64_t *nanos)
{
	if (card->free || ms <= 0) {
		*nanos = 0;
		return SB_MONEY_OK;
	}
	return sb_div_round_even((__int128)card->per_minute_nanos * ms, 60000, nanos);
}

/* Recompute the card cost of the backend's runs started at or after
 * from_ms; when priced is not NULL, count in it the runs whose card is now
 * the one of plan and effective_ms (the card just stored). */
static int reprice(sb_db *db, const char *backend, int64_t from_ms, const sb_card *stored,
                   int64_t *priced, sb_err *e);

int sb_rates_store(sb_db *db, const sb_card *card, const char *source, sb_err *e)
{
	return sb_rates_store_counted(db, card, source, NULL, e);
}

int sb_rates_store_counted(sb_db *db, const sb_card *card, const char *source, int64_t *priced,
                           sb_err *e)
{
	sb_stmt *st;

	if ((st = sb_db_stmt(db, "rate_card_delete", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":backend", card->backend);
	sb_bind_text(db, st, ":plan", card->plan);
	sb_bind_i64(db, st, ":effective_ms", card->effective_ms);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	if ((st = sb_db_stmt(db, "rate_card_insert", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":backend", card->backend);
	sb_bind_text(db, st, ":plan", card->plan);
	sb_bind_i64(db, st, ":effective_ms", card->effective_ms);
	sb_bind_i64(db, st, ":usd_per_minute_nanos", card->free ? 0 : card->per_minute_nanos);
	sb_bind_i64_opt(db, st, ":usd_per_cpu_second_nanos", card->has_per_cpu_second,
	                card->per_cpu_second_nanos);
	sb_bind_i64_opt(db, st, ":usd_per_gb_second_nanos", card->has_per_gb_second,
	                card->per_gb_second_nanos);
	sb_bind_i64(db, st, ":free", card->free ? 1 : 0);
	sb_bind_text(db, st, ":source", source);
	if (sb_db_run(db, st, e) != SB_OK)
		return e->code;
	if ((st = sb_db_stmt(db, "backend_add", e)) == NULL)
		return e->code;
	sb_bind_text(db, st, ":backend", card->backend);
	if (sb_db_run(db, st, e) != SB_OK ||
	    sb_change_setting(db, "rate", card->backend, card->effective_ms, SB_CHANGE_FOREVER, e) != SB_OK)
		return e->code;
	return reprice(db, card->backend, card->effective_ms, card, priced, e);
}

/* A run being repriced. */
typedef struct repriced {
	int64_t rid;             /* the run */
	const sb_card *card;     /* the card in force at its start, NULL for none */
	bool ok;                 /* no overflow so far */
	int64_t card_nanos;      /* card cost so far */
	bool has_ended;          /* its end is known */
	int64_t lifetime_ms;     /* ended - started */
	int64_t rest_ms;         /* total_duration_ms less the listed executions' so far */
} repriced;

/* Store the card cost and lifetime cost of run r (NULL where no card):
 * its listed executions' cost, plus cost_for_ms of the part of
 * total_duration_ms they leave (as sb_run_card_cost). */
static int set_card(sb_db *db, repriced *r, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "run_set_card", e);
	int64_t lifetime = 0, part = 0;
	bool priced;

	if (r->card != NULL && (sb_card_cost_for_ms(r->card, r->rest_ms, &part) != SB_MONEY_OK ||
	                        sb_money_add(r->card_nanos, part, &r->card_nanos) != SB_MONEY_OK))
		r->ok = false;
	priced = r->card != NULL && r->ok;
	bool lifetime_priced = r->card != NULL && r->has_ended &&
	                       sb_card_cost_for_ms(r->card, r->lifetime_ms, &lifetime) == SB_MONEY_OK;

	if (st == NULL)
		return e->code;
	sb_bind_i64_opt(db, st, ":card_nanos", priced, r->card_nanos);
	sb_bind_i64_opt(db, st, ":lifetime_nanos", lifetime_priced, lifetime);
	sb_bind_i64(db, st, ":rid", r->rid);
	return sb_db_run(db, st, e);
}

/* The card cost of the day rollups of backend's runs from the UTC day of
 * from_ms on, summed again from the runs just repriced (by day, by tag,
 * untagged: sql/queries/rollup_*_card.sql). */
static int refresh_rollup_cards(sb_db *db, const char *backend, int64_t from_ms, sb_err *e)
{
	static const char *const queries[] = {"rollup_day_card", "rollup_tag_card", "rollup_untagged_card"};

	for (size_t q = 0; q < 3; q++) {
		sb_stmt *st = sb_db_stmt(db, queries[q], e);
		if (st == NULL)
			return e->code;
		sb_bind_text(db, st, ":backend", backend);
		sb_bind_i64(db, st, ":from_ms", sb_day_start(from_ms));
		if (sb_db_run(db, st, e) != SB_OK)
			return e->code;
	}
	return SB_OK;
}

static int reprice(sb_db *db, const char *backend, int64_t from_ms, const sb_card *stored,
                   int64_t *priced, sb_err *e)
{
	sb_rates *rates = NULL;
	sb_stmt *list;
	repriced r = {-1, NULL, true, 0, false, 0, 0};
	int64_t part = 0;
	int rc;

	if (sb_rates_load(db, &rates, e) != SB_OK)
		return e->code;
	if ((list = sb_db_stmt(db, "run_reprice_list", e)) == NULL)
		goto done;
	sb_bind_text(db, list, ":backend", backend);
	sb_bind_i64(db, list, ":from_ms", from_ms);
	while ((rc = sb_db_step(db, list, e)) == SB_ROW) {
		int64_t rid = sb_col_i64(list, 0);
		int64_t started_ms = sb_col_i64(list, 2);
		bool has_execs = sb_col_int(list, 3) != 0;
		int64_t ms = sb_col_i64(list, 5);
		if (rid != r.rid) {
			if (r.rid >= 0 && set_card(db, &r, e) != SB_OK)
				goto done;
			r.rid = rid;
			r.card = sb_rates_find(rates, backend, sb_col_text(list, 1), started_ms);
			if (priced != NULL && r.card != NULL && strcmp(r.card->plan, stored->plan) == 0 &&
			    r.card->effective_ms == stored->effective_ms)
				(*priced)++;
			r.card_nanos = 0;
			r.ok = true;
			r.has_ended = !sb_col_is_null(list, 6);
			r.lifetime_ms = sb_col_i64(list, 6) - started_ms;
			r.rest_ms = sb_col_i64(list, 4);
		}
		if (!has_execs)
			continue;   /* summary-only: one row, priced by rest_ms */
		if (__builtin_sub_overflow(r.rest_ms, ms, &r.rest_ms) ||
		    (r.card != NULL && (sb_card_cost_for_ms(r.card, ms, &part) != SB_MONEY_OK ||
		                        sb_money_add(r.card_nanos, part, &r.card_nanos) != SB_MONEY_OK)))
			r.ok = false;
	}
	if (rc >= 0 && r.rid >= 0)
		set_card(db, &r, e);
	if (e->code == SB_OK)
		refresh_rollup_cards(db, backend, from_ms, e);
done:
	if (list != NULL)
		sb_stmt_reset(list);
	sb_rates_free(rates);
	return e->code;
}

sb_stmt *sb_rates_list(sb_db *db, bool all, int64_t at_ms, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "rate_card_list", e);

	if (st == NULL)
		return NULL;
	sb_bind_i64(db, st, ":all", all);
	sb_bind_i64(db, st, ":at_ms", at_ms);
	return st;
}

sb_stmt *sb_backends_list(sb_db *db, const sb_backend_need *need, sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "backend_list", e);

	if (st == NULL)
		return NULL;
	sb_bind_i64(db, st, ":at_ms", need->at_ms);
	sb_bind_i64(db, st, ":network", need->network);
	sb_bind_i64(db, st, ":persistent", need->persistent);
	sb_bind_i64_opt(db, st, ":min_cpu", need->has_min_cpu, need->min_cpu);
	sb_bind_i64_opt(db, st, ":min_memory_mb", need->has_min_memory_mb, need->min_memory_mb);
	sb_bind_text_opt(db, st, ":region", need->region);
	return st;
}

sb_no_card *sb_no_card_push(sb_no_card **list, size_t *n, const char *backend, int64_t runs,
                            int64_t first_ms)
{
	sb_no_card *more = realloc(*list, (*n + 1) * sizeof *more), *nc;

	if (more == NULL)
		return NULL;
	*list = more;
	nc = &more[(*n)++];
	memset(nc, 0, sizeof *nc);
	snprintf(nc->backend, sizeof nc->backend, "%s", backend);
	nc->runs = runs;
	nc->first_ms = first_ms;
	return nc;
}

int sb_rates_no_card(sb_db *db, int64_t from_ms, int64_t to_ms, sb_no_card **out, size_t *n,
                     sb_err *e)
{
	sb_stmt *st = sb_db_stmt(db, "run_no_card", e);
	int rc;

	*out = NULL;
	*n = 0;
	if (st == NULL)
		return e->code;
	sb_bind_i64(db, st, ":from_ms", from_ms);
	sb_bind_i64(db, st, ":to_ms", to_ms);
	while ((rc = sb_db_step(db, st, e)) == SB_ROW)
		if (sb_no_card_push(out, n, sb_col_text(st, 0), sb_col_i64(st, 1), sb_col_i64(st, 2)) == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			break;
		}
	sb_stmt_reset(st);
	if (e->code != SB_OK) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return e->code;
}

const char *sb_rates_fix_text(const char *backend, int64_t first_ms, char *buf, size_t cap)
{
	char word[SB_QUOTE_BUFSZ], day[SB_TIME_BUFSZ];
	bool dash = sb_quote_is_option(backend);
	const char *lead = dash ? "" : word, *sp = dash ? "" : " ", *tail = dash ? " -- " : "";

	sb_quote(backend, SB_QUOTE_IF_NEEDED, word, sizeof word);
	sb_date_format(sb_day_start(first_ms), day);
	snprintf(buf, cap,
	         "set its price per minute of session life (sbledger rates set %s%s--usd-per-minute X --from %s%s%s), "
	         "or, for a self-hosted backend that costs nothing, make it free (sbledger rates set %s%s--free "
	         "--from %s%s%s)",
	         lead, sp, day, tail, dash ? word : "", lead, sp, day, tail, dash ? word : "");
	return buf;
}
