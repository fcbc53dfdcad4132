/* recon_json.h: a reconciliation (reconcile/reconcile.h) as the JSON of
 * docs/reconcile.md: what 'reconcile --format json' prints, nightly writes
 * to reconcile.json, and the ledger stores with the result.
 */
#ifndef SB_RECON_JSON_H
#define SB_RECON_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "reconcile/reconcile.h"

/* The result as the JSON of docs/reconcile.md.  New reference, or NULL
 * when memory ran out (never a document with members missing). */
json_t *sb_recon_json(const sb_recon *r);

/* The result as JSON text (json_dump flags: JSON_COMPACT,
 * JSON_INDENT(n)), whole or NULL when memory ran out: never a text with a
 * part missing.  The caller frees it. */
char *sb_recon_json_text(const sb_recon *r, size_t flags);

#endif
