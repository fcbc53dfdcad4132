/* jsonarray.c: streaming reader of JSON array elements (see jsonarray.h). */
#include "importers/jsonarray.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 64 * 1024, KEY_MAX = 128 };

/* Where the scanner is, between or inside values. */
enum state {
	ST_START,         /* before the top-level '[' (or '{' with a member) */
	ST_KEY,           /* member mode: before a key or '}' */
	ST_KEY_STR,       /* inside a key */
	ST_COLON,         /* after a key: ':' */
	ST_VALUE,         /* before a member's value */
	ST_SKIP,          /* inside a member's value that is skipped */
	ST_MEMBER_AFTER,  /* after a member: ',' or '}' */
	ST_FIRST,         /* after '[': an element or ']' */
	ST_NEXT,          /* after ',': an element */
	ST_AFTER,         /* after an element: ',' or ']' */
	ST_ELEM,          /* inside an element */
	ST_TRAIL,         /* after the end: white space only (a stream: the next
	                     document may begin) */
	ST_DONE,          /* the end was reported */
	ST_RESUME         /* resumed after an element: ',' or ']' go on in its
	                     array, anything else follows a top-level record */
};

/* What one byte did to the value being scanned. */
enum scan { SCAN_MORE, SCAN_END_WITH, SCAN_END_BEFORE, SCAN_BAD };

struct sb_jarr {
	sb_read_fn fn;              /* where bytes come from */
	void *ctx;                  /* its context */
	const char *member;         /* member holding the array, or NULL */
	unsigned flags;             /* SB_JARR_* */
	size_t max_elem;            /* longest element handed out whole */
	char *buf;                  /* buffered input */
	size_t cap;                 /* allocated size of buf */
	size_t pos;                 /* next byte to scan */
	size_t end;                 /* one past the last buffered byte */
	int64_t base;               /* input offset of buf[0] */
	int64_t line;               /* line of buf[pos] */
	bool at_eof;                /* the read function said end of input */
	enum state st;              /* where the scanner is */
	bool opened;                /* the array's '[' was read */
	bool found;                 /* member mode: the member was found */
	char key[KEY_MAX];          /* member mode: the key being read */
	size_t key_len;             /* its bytes so far (KEY_MAX: too long) */
	bool key_esc;               /* the key's last byte was a backslash */
	bool in_elem;               /* elem_start marks an element in buf */
	bool top_elem;              /* the element is a top-level object */
	size_t elem_start;          /* the element's first byte in buf */
	int64_t elem_offset;        /* its input offset */
	int64_t elem_line;          /* its line */
	int64_t dropped;            /* bytes of it dropped (too long) */
	size_t depth;               /* open brackets of the value being scanned */
	size_t deeper;              /* open brackets past SB_JARR_MAX_DEPTH (not matched) */
	bool started;               /* the value's first byte was seen */
	bool in_str;                /* inside a string of it */
	bool esc;                   /* after a backslash in that string */
	bool bare;                  /* it is a bare scalar (number, literal) */
	char stack[SB_JARR_MAX_DEPTH]; /* the open brackets */
};

sb_jarr *sb_jarr_new(sb_read_fn fn, void *ctx, const char *member, size_t max_elem)
{
	return sb_jarr_new_stream(fn, ctx, member, max_elem, SB_JARR_ARRAYS);
}

sb_jarr *sb_jarr_new_stream(sb_read_fn fn, void *ctx, const char *member, size_t max_elem,
                            unsigned flags)
{
	sb_jarr *ja = calloc(1, sizeof *ja);

	if (ja == NULL)
		return NULL;
	ja->fn = fn;
	ja->ctx = ctx;
	ja->member = member;
	ja->flags = member != NULL ? flags & SB_JARR_STREAM : flags;
	ja->max_elem = max_elem < SB_JARR_KEEP ? SB_JARR_KEEP : max_elem;
	ja->cap = 2 * BLOCK;
	ja->buf = malloc(ja->cap);
	if (ja->buf == NULL) {
		free(ja);
		return NULL;
	}
	ja->line = 1;
	ja->st = ST_START;
	return ja;
}

void sb_jarr_resume(sb_jarr *ja, int64_t offset, int64_t line)
{
	ja->pos = ja->end = 0;
	ja->base = offset;
	ja->line = line;
	ja->at_eof = false;
	ja->in_elem = false;
	ja->opened = true;
	ja->found = true;
	ja->st = ST_RESUME;
}

bool sb_jarr_opened(const sb_jarr *ja)
{
	return ja->opened;
}

void sb_jarr_free(sb_jarr *ja)
{
	if (ja == NULL)
		return;
	free(ja->buf);
	free(ja);
}

/* Read more input: keep the current element (or nothing before pos),
 * drop the middle of an element that passed the maximum, grow the buffer
 * when needed, and read one block.  Sets at_eof at the end of input. */
static int fill(sb_jarr *ja, sb_err *e)
{
	size_t keep_from = ja->in_elem ? ja->elem_start : ja->pos;
	size_t got = 0;
	int rc;

	if (keep_from > 0) {
		memmove(ja->buf, ja->buf + keep_from, ja->end - keep_from);
		ja->end -= keep_from;
		ja->pos -= keep_from;
		ja->base += (int64_t)keep_from;
		if (ja->in_elem)
			ja->elem_start = 0;
	}
	if (ja->in_elem && ja->pos > ja->max_elem) {
		size_t drop = ja->pos - SB_JARR_KEEP;
		memmove(ja->buf + SB_JARR_KEEP, ja->buf + ja->pos, ja->end - ja->pos);
		ja->end -= drop;
		ja->pos = SB_JARR_KEEP;
		ja->base += (int64_t)drop;
		ja->dropped += (int64_t)drop;
	}
	if (ja->cap - ja->end < BLOCK) {
		size_t cap = ja->cap * 2;
		char *buf = realloc(ja->buf, cap);
		if (buf == NULL)
			return sb_fail(e, SB_EINTERNAL, "out of memory");
		ja->buf = buf;
		ja->cap = cap;
	}
	rc = ja->fn(ja->ctx, ja->buf + ja->end, ja->cap - ja->end, &got, e);
	if (rc != SB_OK)
		return rc;
	if (got == 0)
		ja->at_eof = true;
	ja->end += got;
	return SB_OK;
}

/* True for JSON white space. */
static bool space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Begin scanning a value. */
static void value_begin(sb_jarr *ja)
{
	ja->depth = ja->deeper = 0;
	ja->started = ja->in_str = ja->esc = ja->bare = false;
}

/* Feed byte c to the value being scanned. */
static enum scan value_byte(sb_jarr *ja, char c)
{
	if (ja->in_str) {
		if (ja->esc)
			ja->esc = false;
		else if (c == '\\')
			ja->esc = true;
		else if (c == '"') {
			ja->in_str = false;
			if (ja->depth == 0)
				return SCAN_END_WITH;
		}
		return SCAN_MORE;
	}
	if (ja->bare)
		return space(c) || c == ',' || c == ']' || c == '}' ? SCAN_END_BEFORE : SCAN_MORE;
	if (!ja->started) {
		ja->started = true;
		if (c == ',' || c == ']' || c == '}' || c == ':')
			return SCAN_BAD;
		if (c == '"') {
			ja->in_str = true;
			return SCAN_MORE;
		}
		if (c != '{' && c != '[') {
			ja->bare = true;
			return SCAN_MORE;
		}
	}
	if (c == '{' || c == '[') {
		/* deeper than the stack: counted, so that the value's end is
		 * still found (json_loadb rejects it: jansson's limit is the
		 * same), and the values after it are read */
		if (ja->depth == SB_JARR_MAX_DEPTH)
			ja->deeper++;
		else
			ja->stack[ja->depth++] = c;
	} else if ((c == '}' || c == ']') && ja->deeper > 0) {
		ja->deeper--;
	} else if (c == '}' || c == ']') {
		if (ja->depth == 0 || ja->stack[ja->depth - 1] != (c == '}' ? '{' : '['))
			return SCAN_BAD;
		if (--ja->depth == 0)
			return SCAN_END_WITH;
	} else if (c == '"') {
		ja->in_str = true;
	}
	return SCAN_MORE;
}

/* c itself when printable, else '?' (for messages). */
static char shown(char c)
{
	return c >= 0x20 && c < 0x7f ? c : '?';
}

/* Hand out the rest of the input (its first SB_JARR_KEEP bytes) as a bad
 * record, the message being already in why, and stop reading.  Returns
 * SB_OK, or the read function's error. */
static int structure_error(sb_jarr *ja, sb_jelem *out, sb_err *e)
{
	size_t len;

	ja->in_elem = false;
	while (!ja->at_eof && ja->end - ja->pos < SB_JARR_KEEP)
		if (fill(ja, e) != SB_OK)
			return e->code;
	len = ja->end - ja->pos;

	if (len > SB_JARR_KEEP)
		len = SB_JARR_KEEP;
	out->text = ja->buf + ja->pos;
	out->len = len;
	out->lineno = ja->line;
	out->offset = ja->base + (int64_t)ja->pos;
	out->next_offset = out->offset + (int64_t)len;
	out->next_line = ja->line;
	out->too_long = false;
	out->full_len = (int64_t)len;
	out->top = false;
	ja->st = ST_DONE;
	return SB_OK;
}

/* Hand out the element ending before buf[end_at]. */
static void element_out(sb_jarr *ja, size_t end_at, sb_jelem *out)
{
	int64_t full = (int64_t)(end_at - ja->elem_start) + ja->dropped;

	out->text = ja->buf + ja->elem_start;
	out->too_long = full > (int64_t)ja->max_elem;
	out->len = out->too_long ? SB_JARR_KEEP : end_at - ja->elem_start;
	out->full_len = full;
	out->lineno = ja->elem_line;
	out->offset = ja->elem_offset;
	out->next_offset = ja->base + (int64_t)end_at;
	out->next_line = ja->line;
	out->top = ja->top_elem;
	ja->in_elem = false;
	ja->top_elem = false;
}

/* The end of input in state st: a clean end, or the problem in why. */
static void at_end(sb_jarr *ja, sb_jelem *out, bool *eof, sb_err *why)
{
	memset(out, 0, sizeof *out);
	out->text = "";
	out->lineno = out->next_line = ja->line;
	out->offset = out->next_offset = ja->base + (int64_t)ja->pos;
	if (ja->st == ST_RESUME && !(ja->flags & SB_JARR_OBJECTS))
		ja->st = ST_AFTER;   /* resumed in an array that the input never closes */
	switch (ja->st) {
	case ST_START:
	case ST_TRAIL:
	case ST_DONE:
	case ST_RESUME:
		*eof = true;
		break;
	case ST_ELEM:
		element_out(ja, ja->end, out);
		sb_fail(why, SB_EDATA, "the file ends inside this element (truncated?)");
		break;
	case ST_FIRST:
	case ST_NEXT:
	case ST_AFTER:
		sb_fail(why, SB_EDATA, "the file ends before the JSON array is closed by ']' (truncated?)");
		break;
	default:
		if (ja->found)
			sb_fail(why, SB_EDATA, "the file ends before the JSON object is closed by '}' (truncated?)");
		else
			sb_fail(why, SB_EDATA, "the file ends before a member \"%s\" holding an array (truncated?)",
			        ja->member);
		break;
	}
	ja->st = ST_DONE;
}

/* Whether the member key read so far is the one wanted. */
static bool key_matches(const sb_jarr *ja)
{
	return ja->key_len < KEY_MAX && strlen(ja->member) == ja->key_len &&
	       memcmp(ja->key, ja->member, ja->key_len) == 0;
}

/* What may begin a document here, for messages. */
static const char *expected(const sb_jarr *ja)
{
	if (ja->member != NULL)
		return "a JSON object ('{')";
	if ((ja->flags & SB_JARR_OBJECTS) && (ja->flags & SB_JARR_ARRAYS))
		return "a JSON object or array ('{' or '[')";
	if (ja->flags & SB_JARR_OBJECTS)
		return "a JSON object ('{')";
	return "a JSON array ('[')";
}

/* Begin an element at buf[pos]: an array's (top false) or a top-level
 * object that is a record itself (top true). */
static void begin_element(sb_jarr *ja, bool top)
{
	ja->in_elem = true;
	ja->top_elem = top;
	ja->elem_start = ja->pos;
	ja->elem_offset = ja->base + (int64_t)ja->pos;
	ja->elem_line = ja->line;
	ja->dropped = 0;
	value_begin(ja);
	ja->st = ST_ELEM;
}

int sb_jarr_next(sb_jarr *ja, sb_jelem *out, bool *eof, sb_err *why, sb_err *e)
{
	*eof = false;
	if (ja->st == ST_DONE) {
		*eof = true;
		return SB_OK;
	}
	for (;;) {
		char c;
		enum scan sc;

		if (ja->pos == ja->end) {
			if (ja->at_eof) {
				at_end(ja, out, eof, why);
				return SB_OK;
			}
			if (fill(ja, e) != SB_OK)
				return e->code;
			continue;
		}
		c = ja->buf[ja->pos];
		switch (ja->st) {
		case ST_START:
			if (ja->base + (int64_t)ja->pos == 0 && ja->end - ja->pos < 3 && !ja->at_eof &&
			    (unsigned char)c == 0xEF) {
				if (fill(ja, e) != SB_OK)
					return e->code;
				continue;
			}
			if (ja->base + (int64_t)ja->pos == 0 && ja->end - ja->pos >= 3 &&
			    memcmp(ja->buf + ja->pos, "\xEF\xBB\xBF", 3) == 0) {
				ja->pos += 3;
				continue;
			}
			if (space(c))
				break;
			if (ja->member == NULL && c == '[' && (ja->flags & SB_JARR_ARRAYS)) {
				ja->opened = true;
				ja->st = ST_FIRST;
			} else if (ja->member == NULL && c == '{' && (ja->flags & SB_JARR_OBJECTS)) {
				begin_element(ja, true);
				continue;
			} else if (ja->member != NULL && c == '{') {
				ja->found = false;
				ja->st = ST_KEY;
			} else {
				sb_fail(why, SB_EDATA, "expected %s, found '%c'", expected(ja), shown(c));
				return structure_error(ja, out, e);
			}
			break;
		case ST_KEY:
			if (space(c))
				break;
			if (c == '}') {
				if (!ja->found) {
					sb_fail(why, SB_EDATA, "the JSON object has no member \"%s\"", ja->member);
					return structure_error(ja, out, e);
				}
				ja->st = ST_TRAIL;
			} else if (c == '"') {
				ja->key_len = 0;
				ja->key_esc = false;
				ja->st = ST_KEY_STR;
			} else {
				sb_fail(why, SB_EDATA, "expected a member name, found '%c'", shown(c));
				return structure_error(ja, out, e);
			}
			break;
		case ST_KEY_STR:
			if (!ja->key_esc && c == '"') {
				ja->st = ST_COLON;
			} else {
				ja->key_esc = !ja->key_esc && c == '\\';
				if (ja->key_len < KEY_MAX)
					ja->key[ja->key_len++] = c;
			}
			break;
		case ST_COLON:
			if (space(c))
				break;
			if (c != ':') {
				sb_fail(why, SB_EDATA, "expected ':' after a member name, found '%c'", shown(c));
				return structure_error(ja, out, e);
			}
			ja->st = ST_VALUE;
			break;
		case ST_VALUE:
			if (space(c))
				break;
			if (!ja->found && key_matches(ja)) {
				if (c != '[') {
					sb_fail(why, SB_EDATA, "the member holding the array is not an array: found '%c'", shown(c));
					return structure_error(ja, out, e);
				}
				ja->found = ja->opened = true;
				ja->st = ST_FIRST;
				break;
			}
			value_begin(ja);
			ja->st = ST_SKIP;
			continue;
		case ST_SKIP:
			sc = value_byte(ja, c);
			if (sc == SCAN_BAD) {
				sb_fail(why, SB_EDATA, "bad JSON structure at '%c'", shown(c));
				return structure_error(ja, out, e);
			}
			if (sc == SCAN_END_BEFORE) {
				ja->st = ST_MEMBER_AFTER;
				continue;
			}
			if (sc == SCAN_END_WITH)
				ja->st = ST_MEMBER_AFTER;
			break;
		case ST_MEMBER_AFTER:
			if (space(c))
				break;
			if (c == ',') {
				ja->st = ST_KEY;
			} else if (c == '}') {
				if (!ja->found) {
					sb_fail(why, SB_EDATA, "the JSON object has no member \"%s\"", ja->member);
					return structure_error(ja, out, e);
				}
				ja->st = ST_TRAIL;
			} else {
				sb_fail(why, SB_EDATA, "expected ',' or '}' after a member, found '%c'", shown(c));
				return structure_error(ja, out, e);
			}
			break;
		case ST_FIRST:
		case ST_NEXT:
			if (space(c))
				break;
			if (c == ']' && ja->st == ST_FIRST) {
				ja->st = ja->member != NULL ? ST_MEMBER_AFTER : ST_TRAIL;
				break;
			}
			if (c == ']' || c == ',') {
				sb_fail(why, SB_EDATA, "found '%c' where an element was expected", shown(c));
				return structure_error(ja, out, e);
			}
			begin_element(ja, false);
			continue;
		case ST_ELEM:
			if (c == '\n' && ja->top_elem) {
				/* a top-level record still open at its line's end, and
				 * the next line starts with '{': a JSON Lines record cut
				 * short; the next line is the next record */
				if (ja->pos + 1 == ja->end && !ja->at_eof) {
					if (fill(ja, e) != SB_OK)
						return e->code;
					continue;
				}
				if (ja->pos + 1 < ja->end && ja->buf[ja->pos + 1] == '{') {
					element_out(ja, ja->pos, out);
					ja->st = ST_TRAIL;
					sb_fail(why, SB_EDATA, "the record is not closed at the end of its line, and the next line begins another");
					return SB_OK;
				}
			}
			sc = value_byte(ja, c);
			if (sc == SCAN_BAD) {
				sb_fail(why, SB_EDATA, "bad JSON structure at '%c' (brackets do not match)", shown(c));
				return structure_error(ja, out, e);
			}
			if (sc == SCAN_MORE)
				break;
			if (sc == SCAN_END_WITH) {
				ja->pos++;
				if (c == '\n')
					ja->line++;
			}
			ja->st = ja->top_elem ? ST_TRAIL : ST_AFTER;
			element_out(ja, ja->pos, out);
			return SB_OK;
		case ST_RESUME:
			/* without top-level records, only an array's element ends here */
			if (!(ja->flags & SB_JARR_OBJECTS)) {
				ja->st = ST_AFTER;
				continue;
			}
			if (space(c))
				break;
			ja->st = c == ',' || c == ']' ? ST_AFTER : ST_TRAIL;
			continue;
		case ST_AFTER:
			if (space(c))
				break;
			if (c == ',') {
				ja->st = ST_NEXT;
			} else if (c == ']') {
				ja->st = ja->member != NULL ? ST_MEMBER_AFTER : ST_TRAIL;
			} else {
				sb_fail(why, SB_EDATA, "expected ',' or ']' after an element, found '%c'", shown(c));
				return structure_error(ja, out, e);
			}
			break;
		case ST_TRAIL:
			if (!space(c) && (ja->flags & SB_JARR_STREAM)) {
				ja->st = ST_START;
				continue;
			}
			if (!space(c)) {
				sb_fail(why, SB_EDATA, "text after the end of the JSON document, at '%c'", shown(c));
				return structure_error(ja, out, e);
			}
			break;
		case ST_DONE:
			*eof = true;
			return SB_OK;
		}
		if (c == '\n')
			ja->line++;
		ja->pos++;
	}
}
