/* quote.c: names quoted for messages (see quote.h). */
#include "ledger/quote.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Bytes that leave a name plain (a shell word needing no quotes). */
static const char plain_set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                "0123456789-_./:+,@%";

/* The length of the UTF-8 character at s[0..n) (1 to 4), or 0 when the
 * bytes there are not one (a stray continuation byte, an overlong form, a
 * surrogate, past U+10FFFF, cut short). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		len = 2, cp = s[0] & 0x1Fu;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3, cp = s[0] & 0x0Fu;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		len = 4, cp = s[0] & 0x07u;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3Fu);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

/* The escape of the character at s (len bytes, 0 when not UTF-8) inside
 * $'...', into esc; 0 when it needs none. */
static size_t escape(const unsigned char *s, size_t len, char esc[8])
{
	if (len == 0)
		return (size_t)snprintf(esc, 8, "\\x%02X", s[0]);
	if (len == 2 && s[0] == 0xC2 && s[1] < 0xA0)   /* U+0080 .. U+009F, the C1 controls */
		return (size_t)snprintf(esc, 8, "\\u%04X", (unsigned)s[1]);
	if (len > 1)
		return 0;
	switch (s[0]) {
	case '\n': return (size_t)snprintf(esc, 8, "\\n");
	case '\t': return (size_t)snprintf(esc, 8, "\\t");
	case '\r': return (size_t)snprintf(esc, 8, "\\r");
	case 0x1B: return (size_t)snprintf(esc, 8, "\\e");
	case '\\': return (size_t)snprintf(esc, 8, "\\\\");
	case '\'': return (size_t)snprintf(esc, 8, "\\'");
	default:
		if (s[0] < 0x20 || s[0] == 0x7F)
			return (size_t)snprintf(esc, 8, "\\x%02X", s[0]);
		return 0;
	}
}

/* True when name holds a control character or bytes that are not UTF-8. */
static bool needs_escapes(const unsigned char *s, size_t n)
{
	char esc[8];

	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(s + i, n - i);
		if (len == 0 || (escape(s + i, len, esc) > 0 && s[i] != '\\' && s[i] != '\''))
			return true;
		i += len > 0 ? len : 1;
	}
	return false;
}

/* The piece that stands for the character at s (len bytes, 0 when not
 * UTF-8; step bytes taken) inside '...' or $'...' (dollar), into piece;
 * returns its length. */
static size_t piece_of(const unsigned char *s, size_t len, size_t step, bool dollar,
                       char piece[8])
{
	size_t plen;

	if (dollar && (plen = escape(s, len, piece)) > 0)
		return plen;
	if (!dollar && s[0] == '\'')
		return (size_t)snprintf(piece, 8, "'\\''");
	memcpy(piece, s, step);
	return step;
}

const char *sb_quote(const char *name, int how, char *buf, size_t cap)
{
	const unsigned char *s = (const unsigned char *)(name != NULL ? name : "");
	size_t n = strlen((const char *)s), used = 0, total;
	bool dollar, cut;
	char piece[8];

	if (cap == 0)
		return buf;
	buf[0] = '\0';
	if (how == SB_QUOTE_IF_NEEDED && n > 0 && strspn((const char *)s, plain_set) == n) {
		if (n < cap) {
			memcpy(buf, s, n + 1);
			return buf;
		}
	}
	if (cap < 8)
		return buf;
	dollar = needs_escapes(s, n);
	total = dollar ? 3 : 2;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(s + i, n - i), step = len > 0 ? len : 1;
		total += piece_of(s + i, len, step, dollar, piece);
		i += step;
	}
	cut = total + 1 > cap;
	if (dollar)
		buf[used++] = '$';
	buf[used++] = '\'';
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(s + i, n - i), step = len > 0 ? len : 1;
		size_t plen = piece_of(s + i, len, step, dollar, piece);
		/* when cut, room is kept for "'..." and the NUL after each piece */
		if (cut && used + plen + 5 > cap) {
			snprintf(buf + used, cap - used, "'...");
			return buf;
		}
		memcpy(buf + used, piece, plen);
		used += plen;
		i += step;
	}
	buf[used++] = '\'';
	buf[used] = '\0';
	return buf;
}

bool sb_quote_is_option(const char *name)
{
	return name != NULL && name[0] == '-';
}

const char *sb_invocation_words(const sb_invocation *inv, char *buf, size_t cap)
{
	const char *program = inv != NULL && inv->program != NULL ? inv->program : "sbledger";
	size_t used;

	if (cap == 0)
		return buf;
	sb_quote(program, SB_QUOTE_IF_NEEDED, buf, cap);
	used = strlen(buf);
	if (inv != NULL && inv->db != NULL && used + 7 < cap) {
		memcpy(buf + used, " --db ", 7);
		used += 6;
		sb_quote(inv->db, SB_QUOTE_IF_NEEDED, buf + used, cap - used);
	}
	return buf;
}
