/* rates_json.h: 'rates import FILE': a JSON array of rate cards, each with
 * the fields of 'rates set' (backend, plan, usd_per_minute or free,
 * usd_per_cpu_second, usd_per_gb_second, from) or of 'rates --format json'
 * (effective_from): what one prints, the other reads back.
 */
#ifndef SB_RATES_JSON_H
#define SB_RATES_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/rates.h"

/* Fill card from the text values of one card (any may be NULL but
 * backend, and one of per_minute or free).  from is a date or timestamp
 * (as --period starts), NULL for now_ms.  SB_EDATA with the reason in e. */
int sb_card_from_text(sb_card *card, const char *backend, const char *plan,
                      const char *per_minute, bool free, const char *per_cpu_second,
                      const char *per_gb_second, const char *from, int64_t now_ms, sb_err *e);

/* Read the cards of path and store them all in one transaction, or none
 * when any is wrong (SB_EDATA, the message naming the entry, [0] the
 * first, and the field; a key that is no field of a card is wrong).
 * *count gets how many were stored, *priced how many stored runs they
 * price (sb_rates_store_counted; a run counts once per card). */
int sb_rates_import_file(sb_db *db, const char *path, size_t *count, int64_t *priced, sb_err *e);

#endif
