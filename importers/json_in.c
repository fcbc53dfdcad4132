/* json_in.c: JSON read as events through YAJL (see json_in.h).
 *
 * YAJL's event parser gives every number's text (yajl_number), checks the
 * syntax and, loosely, UTF-8.  What it leaves to its caller is done here:
 * duplicate keys (one hash set per document, keyed by the object's serial
 * number and the key), the nesting bound, the strict UTF-8 rules (no
 * overlong forms, no encoded surrogates, nothing past U+10FFFF) and lone
 * surrogate escapes, which YAJL turns into '?'.
 *
 * YAJL calls its allocator without checking for NULL.  The allocator here
 * chains every block it hands out into a list; when malloc fails it
 * longjmps back to sb_json_in_parse, which frees every block on the list
 * (the handle, its lexer, its buffers) instead of calling yajl_free on a
 * handle that may be half made.  Nothing of YAJL's state is used again.
 */
#include "importers/json_in.h"

#include <errno.h>
#include <setjmp.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl_parse.h>

#include "ledger/quote.h"

/* The header of a block YAJL was given: the live blocks form a list. */
typedef struct block {
	alignas(max_align_t) struct block *prev;   /* the block handed out before */
	struct block *next;                        /* after */
} block;

/* One key seen in the document: slot of the duplicate-key set. */
typedef struct key_slot {
	uint64_t hash;      /* of the object's serial and the key */
	uint32_t gen;       /* the document it belongs to (stale otherwise) */
	uint32_t object;    /* serial number of its object in the document */
	size_t at;          /* offset of its bytes in keys */
	size_t len;         /* its length */
} key_slot;

/* One number of the tree: where its text is. */
typedef struct num_slot {
	const json_t *v;    /* the value */
	uint32_t gen;       /* the tree it belongs to (stale otherwise) */
	size_t at;          /* offset of its text in num_text */
	size_t len;         /* its length */
} num_slot;

struct sb_json_in {
	jmp_buf oom_exit;            /* where an allocation failure inside YAJL goes */
	bool in_parse;               /* oom_exit is set */
	bool oom;                    /* an allocation failed (YAJL's or a caller's) */
	block *blocks;               /* YAJL's live blocks */
	yajl_handle yajl;            /* the current document's parser */
	const sb_json_events *ev;    /* the caller's events */
	void *ctx;                   /* and their context */
	sb_err *e;                   /* the parse's error */
	const char *text;            /* the document */
	size_t len;                  /* its length */
	bool has_u_escape;           /* it holds "\u" somewhere */
	size_t depth;                /* objects and arrays open */
	size_t top_end;              /* where the top-level value ended (0: not yet) */
	bool completing;             /* in yajl_complete_parse: the text is all read */
	uint32_t *objects;           /* serial of each open level (0: an array) */
	size_t objects_cap;          /* its entries */
	uint32_t n_objects;          /* objects opened in the document */
	uint32_t gen;                /* the document's number, for key_slot.gen */
	key_slot *slots;             /* the duplicate-key set, open addressing */
	size_t slots_cap;            /* entries (a power of two, or 0) */
	size_t slots_used;           /* entries of this document */
	char *keys;                  /* the keys' bytes */
	size_t keys_len;             /* used */
	size_t keys_cap;             /* allocated */
	/* sb_json_in_tree: the tree being built and its numbers' texts */
	json_t **build;              /* the containers open */
	char **build_keys;           /* each object's pending key (NULL in arrays) */
	size_t build_cap;            /* entries of both */
	size_t build_n;              /* containers open (not yet in their parent) */
	json_t *tree;                /* the finished top value */
	num_slot *nums;              /* number -> text, open addressing */
	size_t nums_cap;             /* entries (a power of two, or 0) */
	size_t nums_used;            /* numbers of the current tree */
	uint32_t nums_gen;           /* the tree's number, for num_slot.gen */
	char *num_text;              /* the numbers' texts */
	size_t num_text_len;         /* used */
	size_t num_text_cap;         /* allocated */
};

static void *yajl_malloc_cb(void *ctx, size_t n)
{
	sb_json_in *j = ctx;
	block *b = malloc(sizeof *b + n);

	if (b == NULL) {
		j->oom = true;
		longjmp(j->oom_exit, 1);
	}
	b->prev = NULL;
	b->next = j->blocks;
	if (j->blocks != NULL)
		j->blocks->prev = b;
	j->blocks = b;
	return b + 1;
}

static void unlink_block(sb_json_in *j, block *b)
{
	if (b->prev != NULL)
		b->prev->next = b->next;
	else
		j->blocks = b->next;
	if (b->next != NULL)
		b->next->prev = b->prev;
}

static void yajl_free_cb(void *ctx, void *p)
{
	block *b;

	if (p == NULL)
		return;
	b = (block *)p - 1;
	unlink_block(ctx, b);
	free(b);
}

static void *yajl_realloc_cb(void *ctx, void *p, size_t n)
{
	sb_json_in *j = ctx;
	block *b, *nb;

	if (p == NULL)
		return yajl_malloc_cb(ctx, n);
	b = (block *)p - 1;
	unlink_block(j, b);
	nb = realloc(b, sizeof *b + n);
	if (nb == NULL) {
		/* b is still live: back on the list, for the cleanup */
		b->prev = NULL;
		b->next = j->blocks;
		if (j->blocks != NULL)
			j->blocks->prev = b;
		j->blocks = b;
		j->oom = true;
		longjmp(j->oom_exit, 1);
	}
	nb->prev = NULL;
	nb->next = j->blocks;
	if (j->blocks != NULL)
		j->blocks->prev = nb;
	j->blocks = nb;
	return nb + 1;
}

/* Free every block YAJL still holds (after a longjmp, or as yajl_free). */
static void free_blocks(sb_json_in *j)
{
	while (j->blocks != NULL) {
		block *b = j->blocks;
		j->blocks = b->next;
		free(b);
	}
}

sb_json_in *sb_json_in_new(void)
{
	return calloc(1, sizeof(sb_json_in));
}

void sb_json_in_free(sb_json_in *j)
{
	if (j == NULL)
		return;
	free_blocks(j);
	free(j->objects);
	free(j->slots);
	free(j->keys);
	free(j->build);
	free(j->build_keys);
	free(j->nums);
	free(j->num_text);
	free(j);
}

void sb_json_in_oom(sb_json_in *j)
{
	j->oom = true;
}

size_t sb_json_in_offset(const sb_json_in *j)
{
	return j->yajl != NULL ? yajl_get_bytes_consumed(j->yajl) : 0;
}

/* Fail the parse with "not valid JSON: WHAT (column N)", N the column of
 * the byte at offset at; returns false for the callback to return. */
static bool refuse(sb_json_in *j, size_t at, const char *what)
{
	size_t line = 1, from = 0;

	for (size_t i = 0; i < at && i < j->len; i++)
		if (j->text[i] == '\n') {
			line++;
			from = i + 1;
		}
	if (memchr(j->text, '\n', j->len) == NULL)   /* one line: its column says it */
		sb_fail(j->e, SB_EDATA, "not valid JSON: %s (column %zu)", what, at + 1);
	else
		sb_fail(j->e, SB_EDATA, "not valid JSON: %s (line %zu, column %zu)", what, line, at - from + 1);
	return false;
}

/* The length of the valid UTF-8 sequence at s[0..n), strictly (no
 * overlong forms, no surrogates, at most U+10FFFF), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* The offset in the document of the opening quote of the string token
 * that ends just before end (its closing quote at end - 1). */
static size_t token_start(const sb_json_in *j, size_t end)
{
	size_t i = end >= 2 ? end - 2 : 0;

	for (; i > 0; i--) {
		size_t slashes = 0;
		if (j->text[i] != '"')
			continue;
		while (slashes < i && j->text[i - 1 - slashes] == '\\')
			slashes++;
		if (slashes % 2 == 0)
			break;
	}
	return i;
}

/* The value of the 4 hex digits at s (valid: YAJL has checked them). */
static unsigned hex4(const char *s)
{
	unsigned v = 0;

	for (int k = 0; k < 4; k++) {
		char h = s[k];
		v = v * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
	}
	return v;
}

/* Whether the raw string token text[from, to) (quotes included) has a
 * \u escape of half a surrogate pair without its other half. */
static bool lone_surrogate(const char *text, size_t from, size_t to)
{
	for (size_t i = from + 1; i + 1 < to; i++) {
		unsigned u;
		if (text[i] != '\\')
			continue;
		if (text[i + 1] != 'u' || i + 6 > to) {
			i++;
			continue;
		}
		u = hex4(text + i + 2);
		i += 5;
		if (u >= 0xdc00 && u <= 0xdfff)
			return true;
		if (u >= 0xd800 && u <= 0xdbff) {
			if (i + 7 > to || text[i + 1] != '\\' || text[i + 2] != 'u')
				return true;
			u = hex4(text + i + 3);
			if (u < 0xdc00 || u > 0xdfff)
				return true;
			i += 6;
		}
	}
	return false;
}

/* Check a string or key of the document as YAJL handed it over: strict
 * UTF-8, no lone surrogate escape.  False (the error filled) when bad. */
static bool check_text(sb_json_in *j, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	bool raw = s >= j->text && s + n <= j->text + j->len;   /* no escapes: YAJL's own bytes */
	size_t end = yajl_get_bytes_consumed(j->yajl);

	if (!raw && j->has_u_escape) {
		size_t from = token_start(j, end);
		if (memchr(s, '\0', n) != NULL)   /* only an escape makes one */
			return refuse(j, from, "\\u0000 is not allowed");
		if (lone_surrogate(j->text, from, end))
			return refuse(j, from, "a \\u escape of half a UTF-16 surrogate pair");
	}
	for (size_t i = 0; i < n; i++) {
		size_t k;
		if (u[i] < 0x80)
			continue;
		if ((k = utf8_seq(u + i, n - i)) == 0) {
			char what[64];
			snprintf(what, sizeof what, "invalid UTF-8 byte 0x%02x in a string", u[i]);
			return refuse(j, raw ? (size_t)(s - j->text) + i : token_start(j, end), what);
		}
		i += k - 1;
	}
	return true;
}

/* The hash of key s[0..n) in object serial obj (FNV-1a). */
static uint64_t key_hash(uint32_t obj, const char *s, size_t n)
{
	uint64_t h = UINT64_C(14695981039346656037) ^ obj;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= UINT64_C(1099511628211);
	}
	return h;
}

/* Double the duplicate-key set (the document's keys moved over). */
static bool grow_slots(sb_json_in *j)
{
	size_t cap = j->slots_cap ? j->slots_cap * 2 : 256;
	key_slot *slots = calloc(cap, sizeof *slots);

	if (slots == NULL)
		return false;
	for (size_t i = 0; i < j->slots_cap; i++) {
		key_slot *s = &j->slots[i];
		size_t at;
		if (s->gen != j->gen)
			continue;
		for (at = s->hash & (cap - 1); slots[at].gen == j->gen; at = (at + 1) & (cap - 1))
			;
		slots[at] = *s;
	}
	free(j->slots);
	j->slots = slots;
	j->slots_cap = cap;
	return true;
}

/* Add key s[0..n) to the current object's keys; false (the error filled)
 * when it is there already or memory ran out. */
static bool add_key(sb_json_in *j, const char *s, size_t n)
{
	uint32_t obj = j->objects[j->depth - 1];
	uint64_t h = key_hash(obj, s, n);
	size_t at;

	if ((j->slots_used + 1) * 2 > j->slots_cap && !grow_slots(j)) {
		j->oom = true;
		return false;
	}
	for (at = h & (j->slots_cap - 1); j->slots[at].gen == j->gen; at = (at + 1) & (j->slots_cap - 1)) {
		const key_slot *k = &j->slots[at];
		if (k->hash == h && k->object == obj && k->len == n && memcmp(j->keys + k->at, s, n) == 0) {
			char q[SB_QUOTE_BUFSZ], what[SB_QUOTE_BUFSZ + 32];
			char *name = malloc(n + 1);
			if (name == NULL) {
				j->oom = true;
				return false;
			}
			memcpy(name, s, n);
			name[n] = '\0';
			snprintf(what, sizeof what, "duplicate key %s", sb_quote(name, SB_QUOTE_ALWAYS, q, sizeof q));
			free(name);
			return refuse(j, token_start(j, yajl_get_bytes_consumed(j->yajl)), what);
		}
	}
	if (j->keys == NULL || j->keys_len + n > j->keys_cap) {   /* (an empty key too: keys not NULL) */
		size_t cap = j->keys_cap ? j->keys_cap : 4096;
		char *keys;
		while (cap < j->keys_len + n)
			cap *= 2;
		if ((keys = realloc(j->keys, cap)) == NULL) {
			j->oom = true;
			return false;
		}
		j->keys = keys;
		j->keys_cap = cap;
	}
	memcpy(j->keys + j->keys_len, s, n);
	j->slots[at] = (key_slot){.hash = h, .gen = j->gen, .object = obj, .at = j->keys_len, .len = n};
	j->keys_len += n;
	j->slots_used++;
	return true;
}

/* Open a level (an object when is_map); false past the bound. */
static bool open_level(sb_json_in *j, bool is_map)
{
	if (j->depth >= SB_JSON_MAX_DEPTH) {
		char what[64];
		snprintf(what, sizeof what, "nested deeper than %d levels", SB_JSON_MAX_DEPTH);
		return refuse(j, yajl_get_bytes_consumed(j->yajl) - 1, what);
	}
	if (j->depth == j->objects_cap) {
		size_t cap = j->objects_cap ? j->objects_cap * 2 : 16;
		uint32_t *o = realloc(j->objects, cap * sizeof *o);
		if (o == NULL) {
			j->oom = true;
			return false;
		}
		j->objects = o;
		j->objects_cap = cap;
	}
	j->objects[j->depth++] = is_map ? ++j->n_objects : 0;
	return true;
}

/* Note where the top-level value ends, once it has (YAJL accepts a cut
 * token after it: the text past this point is checked after the parse). */
static void note_end(sb_json_in *j)
{
	if (j->depth == 0)
		j->top_end = j->completing ? j->len : yajl_get_bytes_consumed(j->yajl);
}

static int on_null(void *ctx)
{
	sb_json_in *j = ctx;
	note_end(j);
	return j->ev->null == NULL || j->ev->null(j->ctx);
}

static int on_boolean(void *ctx, int value)
{
	sb_json_in *j = ctx;
	note_end(j);
	return j->ev->boolean == NULL || j->ev->boolean(j->ctx, value != 0);
}

static int on_number(void *ctx, const char *s, size_t n)
{
	sb_json_in *j = ctx;
	if (j->depth == 0 && s >= j->text && s + n <= j->text + j->len)
		j->top_end = (size_t)(s - j->text) + n;   /* a top-level number: where its text ends */
	else
		note_end(j);
	return j->ev->number == NULL || j->ev->number(j->ctx, s, n);
}

static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	sb_json_in *j = ctx;
	note_end(j);
	return check_text(j, (const char *)s, n) &&
	       (j->ev->string == NULL || j->ev->string(j->ctx, (const char *)s, n));
}

static int on_key(void *ctx, const unsigned char *s, size_t n)
{
	sb_json_in *j = ctx;
	return check_text(j, (const char *)s, n) && add_key(j, (const char *)s, n) &&
	       (j->ev->key == NULL || j->ev->key(j->ctx, (const char *)s, n));
}

static int on_start_map(void *ctx)
{
	sb_json_in *j = ctx;
	return open_level(j, true) && (j->ev->start_map == NULL || j->ev->start_map(j->ctx));
}

static int on_end_map(void *ctx)
{
	sb_json_in *j = ctx;
	j->depth--;
	note_end(j);
	return j->ev->end_map == NULL || j->ev->end_map(j->ctx);
}

static int on_start_array(void *ctx)
{
	sb_json_in *j = ctx;
	return open_level(j, false) && (j->ev->start_array == NULL || j->ev->start_array(j->ctx));
}

static int on_end_array(void *ctx)
{
	sb_json_in *j = ctx;
	j->depth--;
	note_end(j);
	return j->ev->end_array == NULL || j->ev->end_array(j->ctx);
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_boolean,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = on_end_map,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end_array,
};

/* The offset of the first \v or \f in the text, or its length: YAJL takes
 * them for white space, JSON does not, and no string may hold them raw,
 * so wherever they are the text is wrong there. */
static size_t bad_space(const sb_json_in *j)
{
	const char *vt = memchr(j->text, '\v', j->len), *ff = memchr(j->text, '\f', j->len);

	if (vt == NULL && ff == NULL)
		return j->len;
	return (size_t)((vt == NULL || (ff != NULL && ff < vt) ? ff : vt) - j->text);
}

/* Refuse the \v or \f at offset at. */
static void refuse_space(sb_json_in *j, size_t at)
{
	refuse(j, at, j->text[at] == '\v' ? "a vertical tab is not JSON white space"
	                                  : "a form feed is not JSON white space");
}

/* YAJL's reason for a syntax error, without its "lexical error: " or
 * "parse error: " and its final ".\n", into e; a \v or \f before the
 * place YAJL stopped is the error instead. */
static void syntax_error(sb_json_in *j)
{
	unsigned char *msg = yajl_get_error(j->yajl, 0, NULL, 0);
	const char *what = (const char *)msg;
	size_t n, at = yajl_get_bytes_consumed(j->yajl);
	char buf[256];

	if (strncmp(what, "lexical error: ", 15) == 0)
		what += 15;
	else if (strncmp(what, "parse error: ", 13) == 0)
		what += 13;
	n = strlen(what);
	while (n > 0 && strchr(".\n ", what[n - 1]) != NULL)
		n--;
	snprintf(buf, sizeof buf, "%.*s", (int)n, what);
	yajl_free_error(j->yajl, msg);
	/* YAJL has read the offending token: it ends at `at` */
	if (strcmp(buf, "premature EOF") == 0 || at > j->len)
		at = j->len;
	else if (at > 0)
		at--;
	if (bad_space(j) < at) {
		refuse_space(j, bad_space(j));
		return;
	}
	if (at + 3 <= j->len && memcmp(j->text + at, "\xef\xbb\xbf", 3) == 0) {
		snprintf(buf, sizeof buf, "a byte order mark (U+FEFF) where a value or white space is due");
	} else if (at < j->len && j->text[at] == '\0') {
		n = strlen(buf);
		snprintf(buf + n, sizeof buf - n, " (a NUL byte)");
	} else if (at < j->len) {
		/* the text there, up to 20 bytes of a token, quoted */
		char tok[24], q[SB_QUOTE_SIZE(20)];
		size_t k = 0;
		while (k < 20 && at + k < j->len && strchr(" \t\r\n,:[]{}", j->text[at + k]) == NULL)
			k++;
		if (k == 0)
			k = 1;
		memcpy(tok, j->text + at, k);
		tok[k] = '\0';
		n = strlen(buf);
		snprintf(buf + n, sizeof buf - n, " near %s", sb_quote(tok, SB_QUOTE_ALWAYS, q, sizeof q));
	}
	refuse(j, at, buf);
}

/* Whether text[0..len) holds a backslash followed by 'u' anywhere (the
 * lone-surrogate check runs only then). */
static bool has_u_escape(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while ((p = memchr(p, '\\', (size_t)(end - p))) != NULL && p + 1 < end) {
		if (p[1] == 'u')
			return true;
		p += 2;
	}
	return false;
}

int sb_json_in_parse(sb_json_in *j, const char *text, size_t len, const sb_json_events *ev,
                     void *ctx, sb_err *e)
{
	yajl_alloc_funcs funcs = {yajl_malloc_cb, yajl_realloc_cb, yajl_free_cb, j};
	yajl_status st;

	j->ev = ev;
	j->ctx = ctx;
	j->e = e;
	j->text = text;
	j->len = len;
	j->has_u_escape = has_u_escape(text, len);
	j->depth = 0;
	j->top_end = 0;
	j->completing = false;
	j->n_objects = 0;
	j->slots_used = 0;
	j->keys_len = 0;
	j->oom = false;
	if (++j->gen == 0) {   /* wrapped: every slot is stale anyway */
		if (j->slots != NULL)
			memset(j->slots, 0, j->slots_cap * sizeof *j->slots);
		j->gen = 1;
	}
	j->yajl = NULL;
	if (setjmp(j->oom_exit) != 0) {
		/* YAJL could not allocate: its blocks go, its handle with them */
		free_blocks(j);
		j->yajl = NULL;
		sb_err_clear(e);
		return sb_fail(e, SB_EINTERNAL, "out of memory (reading JSON)");
	}
	j->yajl = yajl_alloc(&callbacks, &funcs, j);
	st = yajl_parse(j->yajl, (const unsigned char *)text, len);
	if (st == yajl_status_ok) {
		j->completing = true;
		st = yajl_complete_parse(j->yajl);
	}
	if (st == yajl_status_ok && bad_space(j) < len) {
		refuse_space(j, bad_space(j));
		st = yajl_status_error;
	} else if (st == yajl_status_ok) {
		size_t at = j->top_end;
		while (at < len && strchr(" \t\r\n", text[at]) != NULL && text[at] != '\0')
			at++;
		if (at < len) {
			refuse(j, at, text[at] == '\0' ? "trailing garbage (a NUL byte)" : "trailing garbage");
			st = yajl_status_error;
		}
	} else if (st == yajl_status_error) {
		syntax_error(j);
	}
	yajl_free(j->yajl);
	j->yajl = NULL;
	if (j->oom) {
		sb_err_clear(e);
		return sb_fail(e, SB_EINTERNAL, "out of memory (reading JSON)");
	}
	if (st == yajl_status_ok)
		return SB_OK;
	return e->code != SB_OK ? e->code : sb_fail(e, SB_EDATA, "not valid JSON");
}

json_t *sb_json_in_number(sb_json_in *j, const char *s, size_t len, sb_err *e)
{
	char buf[64], *num = buf;
	bool real = memchr(s, '.', len) != NULL || memchr(s, 'e', len) != NULL || memchr(s, 'E', len) != NULL;
	size_t at = j->yajl != NULL ? yajl_get_bytes_consumed(j->yajl) : len;
	json_t *v;

	if (len >= sizeof buf && (num = malloc(len + 1)) == NULL)
		return NULL;
	memcpy(num, s, len);
	num[len] = '\0';
	errno = 0;
	if (!real) {
		long long n = strtoll(num, NULL, 10);
		v = errno == ERANGE ? NULL : json_integer((json_int_t)n);
		if (errno == ERANGE)
			sb_fail(e, SB_EDATA, "not valid JSON: the integer %.*s does not fit in 64 bits (column %zu)",
			        (int)(len > 40 ? 40 : len), s, at >= len ? at - len + 1 : 1);
	} else {
		double d = strtod(num, NULL);
		bool over = errno == ERANGE && (d > 1 || d < -1);
		v = over ? NULL : json_real(d);
		if (over)
			sb_fail(e, SB_EDATA, "not valid JSON: the number %.*s is too large (column %zu)",
			        (int)(len > 40 ? 40 : len), s, at >= len ? at - len + 1 : 1);
	}
	if (num != buf)
		free(num);
	return v;
}

/* ---- sb_json_in_tree: the events build a jansson tree ------------------ */

/* Remember that number v was written as s[0..n). */
static bool note_number(sb_json_in *j, const json_t *v, const char *s, size_t n)
{
	size_t at;

	if ((j->nums_used + 1) * 2 > j->nums_cap) {
		size_t cap = j->nums_cap ? j->nums_cap * 2 : 64;
		num_slot *t = calloc(cap, sizeof *t);
		if (t == NULL)
			return false;
		for (size_t i = 0; i < j->nums_cap; i++) {
			if (j->nums[i].gen != j->nums_gen)
				continue;
			for (at = ((uintptr_t)j->nums[i].v >> 4) & (cap - 1); t[at].gen == j->nums_gen;
			     at = (at + 1) & (cap - 1))
				;
			t[at] = j->nums[i];
		}
		free(j->nums);
		j->nums = t;
		j->nums_cap = cap;
	}
	if (j->num_text == NULL || j->num_text_len + n > j->num_text_cap) {
		size_t cap = j->num_text_cap ? j->num_text_cap : 1024;
		char *t;
		while (cap < j->num_text_len + n)
			cap *= 2;
		if ((t = realloc(j->num_text, cap)) == NULL)
			return false;
		j->num_text = t;
		j->num_text_cap = cap;
	}
	memcpy(j->num_text + j->num_text_len, s, n);
	for (at = ((uintptr_t)v >> 4) & (j->nums_cap - 1); j->nums[at].gen == j->nums_gen;
	     at = (at + 1) & (j->nums_cap - 1))
		;
	j->nums[at] = (num_slot){.v = v, .gen = j->nums_gen, .at = j->num_text_len, .len = n};
	j->num_text_len += n;
	j->nums_used++;
	return true;
}

const char *sb_json_in_number_text(const sb_json_in *j, const json_t *v, size_t *len)
{
	if (j->nums_cap == 0 || v == NULL)
		return NULL;
	for (size_t at = ((uintptr_t)v >> 4) & (j->nums_cap - 1); j->nums[at].gen == j->nums_gen;
	     at = (at + 1) & (j->nums_cap - 1))
		if (j->nums[at].v == v) {
			*len = j->nums[at].len;
			return j->num_text + j->nums[at].at;
		}
	return NULL;
}

/* Put the finished value v where it belongs: in the open container, or
 * as the tree.  False when out of memory (v is then released). */
static bool tree_put(sb_json_in *j, json_t *v)
{
	size_t d = j->depth;

	if (v == NULL) {
		if (j->e->code == SB_OK)
			j->oom = true;
		return false;
	}
	if (d == 0) {
		j->tree = v;
		return true;
	}
	if (j->build_keys[d - 1] != NULL) {
		int rc = json_object_set_new_nocheck(j->build[d - 1], j->build_keys[d - 1], v);
		free(j->build_keys[d - 1]);
		j->build_keys[d - 1] = NULL;
		if (rc == 0)
			return true;
	} else if (json_array_append_new(j->build[d - 1], v) == 0) {
		return true;
	}
	j->oom = true;
	return false;
}

static bool tree_null(void *ctx)
{
	return tree_put(ctx, json_null());
}

static bool tree_boolean(void *ctx, bool value)
{
	return tree_put(ctx, json_boolean(value));
}

static bool tree_number(void *ctx, const char *s, size_t n)
{
	sb_json_in *j = ctx;
	json_t *v = sb_json_in_number(j, s, n, j->e);

	if (v != NULL && !note_number(j, v, s, n)) {
		json_decref(v);
		j->oom = true;
		return false;
	}
	return tree_put(j, v);
}

static bool tree_string(void *ctx, const char *s, size_t n)
{
	return tree_put(ctx, json_stringn_nocheck(s, n));
}

static bool tree_key(void *ctx, const char *s, size_t n)
{
	sb_json_in *j = ctx;
	char *k = malloc(n + 1);

	if (k == NULL) {
		j->oom = true;
		return false;
	}
	memcpy(k, s, n);
	k[n] = '\0';
	free(j->build_keys[j->depth - 1]);
	j->build_keys[j->depth - 1] = k;
	return true;
}

/* Open a container (on_start_* has counted the level: it is j->depth). */
static bool tree_open(sb_json_in *j, json_t *c)
{
	size_t d = j->depth;

	if (c == NULL) {
		j->oom = true;
		return false;
	}
	if (d > j->build_cap) {
		size_t cap = j->build_cap ? j->build_cap * 2 : 16;
		json_t **b = realloc(j->build, cap * sizeof *b);
		char **k;
		if (b != NULL)
			j->build = b;
		k = b != NULL ? realloc(j->build_keys, cap * sizeof *k) : NULL;
		if (k == NULL) {
			json_decref(c);
			j->oom = true;
			return false;
		}
		j->build_keys = k;
		j->build_cap = cap;
	}
	j->build[d - 1] = c;
	j->build_keys[d - 1] = NULL;
	j->build_n = d;
	return true;
}

static bool tree_start_map(void *ctx)
{
	return tree_open(ctx, json_object());
}

static bool tree_start_array(void *ctx)
{
	return tree_open(ctx, json_array());
}

/* Close the container of the level on_end_* has just left. */
static bool tree_close(void *ctx)
{
	sb_json_in *j = ctx;

	j->build_n = j->depth;
	return tree_put(j, j->build[j->depth]);
}

static const sb_json_events tree_events = {
	.null = tree_null,
	.boolean = tree_boolean,
	.number = tree_number,
	.string = tree_string,
	.key = tree_key,
	.start_map = tree_start_map,
	.end_map = tree_close,
	.start_array = tree_start_array,
	.end_array = tree_close,
};

int sb_json_in_tree(sb_json_in *j, const char *text, size_t len, json_t **root, sb_err *e)
{
	int rc;

	*root = NULL;
	j->tree = NULL;
	j->build_n = 0;
	j->nums_used = 0;
	j->num_text_len = 0;
	if (++j->nums_gen == 0) {
		if (j->nums != NULL)
			memset(j->nums, 0, j->nums_cap * sizeof *j->nums);
		j->nums_gen = 1;
	}
	rc = sb_json_in_parse(j, text, len, &tree_events, j, e);
	if (rc != SB_OK) {
		/* what was built so far: each open container holds its closed ones */
		for (size_t d = j->build_n; d > 0; d--) {
			free(j->build_keys[d - 1]);
			j->build_keys[d - 1] = NULL;
			json_decref(j->build[d - 1]);
		}
		json_decref(j->tree);
		j->tree = NULL;
		j->nums_used = 0;
		j->nums_gen++;
		return rc;
	}
	*root = j->tree;
	j->tree = NULL;
	return SB_OK;
}
