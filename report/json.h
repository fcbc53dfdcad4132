/* json.h: how every JSON sbledger prints or stores is built and written.
 *
 * Building: sb_json_put and sb_json_append add a member or an element and
 * record in *ok when that failed (out of memory: jansson then leaves the
 * member out and says so only through its return value), so that a
 * document is never printed or stored with a member missing.
 *
 * Writing: jansson 2.14 does not check every write of its own dump (a
 * failed write of an object's key is ignored, and the text comes out cut
 * with no error), so every document is dumped through one writer that
 * keeps a failed write: the text is whole, or there is none.
 */
#ifndef SB_REPORT_JSON_H
#define SB_REPORT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "ledger/err.h"

/* Set member key of o to v, a new reference that is consumed; *ok becomes
 * false when v or o is NULL or the member cannot be added (out of
 * memory).  *ok is never set back to true. */
void sb_json_put(json_t *o, const char *key, json_t *v, bool *ok);

/* Append v (consumed) to the array list, as sb_json_put does. */
void sb_json_append(json_t *list, json_t *v, bool *ok);

/* json dumped with json_dump flags (JSON_COMPACT, JSON_INDENT(n), ...)
 * as text, whole, or NULL when json is NULL or memory ran out (never a
 * text with a part missing).  The caller frees it. */
char *sb_json_text(const json_t *json, size_t flags);

/* Write json (a new reference, consumed; NULL when building it failed)
 * to f as sb_json_text makes it, then a newline.  SB_EINTERNAL ("out of
 * memory while writing the result") when there is no whole text: nothing
 * is written then.  Whether f took the bytes is for its owner to check
 * (ferror): stdout is checked once, at exit. */
int sb_json_print(FILE *f, json_t *json, size_t flags, sb_err *e);

#endif
