/* json_in.h: the one way JSON is read, as events (YAJL underneath).
 *
 * A document is parsed in one call and handed to the caller as events in
 * document order: scalars, keys, the start and end of objects and arrays.
 * A number comes as its text, exactly as written ("12345678.123456789"),
 * so that money, counts and times are read from their digits and never
 * through a double.  Strings and keys come decoded (escapes undone), as
 * UTF-8 that the parser has checked, never with a NUL byte in them.
 *
 * What the parser refuses itself, as SB_EDATA with a message "not valid
 * JSON: WHAT near 'TEXT' (column N)" (N counted in bytes from 1; "(line
 * L, column N)" when the text has more than one line): bad syntax, invalid
 * UTF-8 (strictly: no overlong forms, no encoded surrogates), a lone
 * UTF-16 surrogate escape, \u0000 and NUL bytes (as jansson did), a key
 * twice in one object (the key named), nesting deeper than
 * SB_JSON_MAX_DEPTH, \v and \f (which YAJL takes for white space), and
 * anything after the value but white space (YAJL lets a cut token pass).
 *
 * Out of memory anywhere, inside YAJL or in a callback that says so
 * (sb_json_in_oom), ends the parse with SB_EINTERNAL "out of memory
 * (reading JSON)": YAJL does not check its own allocations, so its
 * allocator here leaves the parse by longjmp when malloc fails, and every
 * block it handed out is freed (no crash, no leak).
 *
 * Ownership: sb_json_in_new allocates a reader, sb_json_in_free frees it;
 * one reader belongs to one thread at a time and may parse any number of
 * documents.  The texts handed to callbacks are borrowed for the call.
 * Nothing here prints.
 */
#ifndef SB_JSON_IN_H
#define SB_JSON_IN_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "ledger/err.h"

/* Objects and arrays nested deeper than this are refused (the bound
 * jansson had, so that no document read before is refused now). */
#define SB_JSON_MAX_DEPTH 2048

typedef struct sb_json_in sb_json_in;

/* The caller's events; each returns true to go on, false to stop the
 * parse (the callback has filled the error it was given through ctx,
 * or called sb_json_in_oom).  A NULL member ignores its event. */
typedef struct sb_json_events {
	bool (*null)(void *ctx);
	bool (*boolean)(void *ctx, bool value);
	bool (*number)(void *ctx, const char *text, size_t len);   /* its text */
	bool (*string)(void *ctx, const char *s, size_t len);      /* decoded */
	bool (*key)(void *ctx, const char *s, size_t len);         /* decoded */
	bool (*start_map)(void *ctx);
	bool (*end_map)(void *ctx);
	bool (*start_array)(void *ctx);
	bool (*end_array)(void *ctx);
} sb_json_events;

/* A reader; NULL when out of memory. */
sb_json_in *sb_json_in_new(void);

/* Free j; NULL is allowed. */
void sb_json_in_free(sb_json_in *j);

/* Parse the one JSON value text[0..len) (any type at the top), calling
 * ev's members with ctx.  SB_OK when the whole text was one valid value
 * and no callback stopped; SB_EDATA with the reason in e for invalid
 * JSON; SB_EINTERNAL when out of memory; when a callback stopped, the
 * code it left in e (SB_EDATA if it left none). */
int sb_json_in_parse(sb_json_in *j, const char *text, size_t len, const sb_json_events *ev,
                     void *ctx, sb_err *e);

/* Called by a callback that ran out of memory, before it returns false:
 * the parse ends with SB_EINTERNAL, as for YAJL's own allocations. */
void sb_json_in_oom(sb_json_in *j);

/* Parse the one JSON document text[0..len) into a jansson tree at *root
 * (a new reference; jansson's allocator makes it, see importers/arena.h),
 * refusing what sb_json_in_parse refuses.  Each number keeps the text it
 * was written with: sb_json_in_number_text gives it, until the next parse
 * with j.  Same return codes as sb_json_in_parse; *root is NULL unless
 * SB_OK. */
int sb_json_in_tree(sb_json_in *j, const char *text, size_t len, json_t **root, sb_err *e);

/* The text of number v of the tree sb_json_in_tree made last, into
 * *len; NULL when v is not one of its numbers.  Borrowed from j. */
const char *sb_json_in_number_text(const sb_json_in *j, const json_t *v, size_t *len);

/* The jansson value of the JSON number s[0..len) as jansson's own parser
 * made it (an integer literal by strtoll, any other by strtod: for
 * values stored back as JSON text, never for money), or NULL: with the
 * error in e when jansson cannot hold it (an integer past 64 bits, a
 * number past a double), alone when out of memory. */
json_t *sb_json_in_number(sb_json_in *j, const char *s, size_t len, sb_err *e);

/* The byte offset in the text just past the last token the parser read
 * (within a callback: the token of that event). */
size_t sb_json_in_offset(const sb_json_in *j);

#endif
