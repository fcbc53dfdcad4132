/* scrub.c: taking an API key out of text (see scrub.h). */
#include "importers/scrub.h"

#include <string.h>

enum {
	SPAN_MAX = 6 * SB_SCRUB_KEY_MAX + 1,   /* offsets a match can reach */
	WORD_BITS = 64
};

/* A set of offsets 0..SPAN_MAX-1. */
typedef struct offsets {
	unsigned long long bits[(SPAN_MAX + WORD_BITS - 1) / WORD_BITS];  /* bit p: offset p */
} offsets;

static void set_add(offsets *s, size_t p)
{
	s->bits[p / WORD_BITS] |= 1ULL << (p % WORD_BITS);
}

static bool set_has(const offsets *s, size_t p)
{
	return (s->bits[p / WORD_BITS] >> (p % WORD_BITS)) & 1ULL;
}

/* Empty the offsets from..to of s (only the words that hold them: a set
 * is cleared step by step, as far as the match has come). */
static void set_clear(offsets *s, size_t from, size_t to)
{
	for (size_t w = from / WORD_BITS; w <= to / WORD_BITS; w++)
		s->bits[w] = 0;
}

/* The value of hex digit c, or -1. */
static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Whether d[p..n) begins with the hex digits of want, digits in all:
 * 1 yes, 0 no, -1 d ends before it can tell. */
static int hex_is(const char *d, size_t n, size_t p, int digits, unsigned want)
{
	unsigned v = 0;

	for (int i = 0; i < digits; i++) {
		int h;
		if (p + (size_t)i >= n)
			return -1;
		if ((h = hex(d[p + (size_t)i])) < 0)
			return 0;
		v = v * 16 + (unsigned)h;
		/* a prefix that already differs cannot become want */
		if ((want >> (4 * (digits - 1 - i))) != v)
			return 0;
	}
	return 1;
}

/* Whether the text d[0..n) begins with the key (any mix of its forms):
 * 1 and the length of that text in *mlen, 0 when it does not, -1 when d
 * ends before it can tell.  After j bytes of the key the text is at some
 * set of offsets (a byte is 1, 2, 3 or 6 characters); each step moves
 * every offset by every form that fits the next byte. */
static int match_at(const char *key, size_t klen, const char *d, size_t n, size_t *mlen)
{
	offsets a, b, *cur = &a, *next = &b;
	bool undecided = false;

	set_clear(cur, 0, 0);
	set_add(cur, 0);
	for (size_t j = 0; j < klen; j++) {
		unsigned char k = (unsigned char)key[j];
		bool any = false;
		/* after j + 1 bytes the text is at j + 1 to 6 (j + 1) */
		set_clear(next, j + 1, 6 * (j + 1));
		for (size_t p = j; p <= 6 * j; p++) {
			int r;
			if (!set_has(cur, p))
				continue;
			if (p >= n) {
				undecided = true;
				continue;
			}
			if ((unsigned char)d[p] == k) {
				set_add(next, p + 1);
				any = true;
			}
			if (d[p] == '%') {
				if ((r = hex_is(d, n, p + 1, 2, k)) == 1) {
					set_add(next, p + 3);
					any = true;
				} else if (r < 0) {
					undecided = true;
				}
			} else if (d[p] == '\\') {
				if (p + 1 >= n) {
					undecided = true;
				} else if (d[p + 1] == 'u' && k < 0x80) {
					if ((r = hex_is(d, n, p + 2, 4, k)) == 1) {
						set_add(next, p + 6);
						any = true;
					} else if (r < 0) {
						undecided = true;
					}
				} else if (d[p + 1] == (char)k && (k == '/' || k == '\\' || k == '"')) {
					set_add(next, p + 2);
					any = true;
				}
			}
		}
		if (!any)
			return undecided ? -1 : 0;
		{
			offsets *t = cur;
			cur = next;
			next = t;
		}
	}
	/* the longest text that reads as the key */
	for (size_t p = 6 * klen; p >= klen; p--) {
		if (set_has(cur, p)) {
			*mlen = p;
			return 1;
		}
	}
	return 0;
}

size_t sb_scrub_run(const char *key, size_t klen, const char *in, size_t n, bool eof, char *out,
                    size_t *keep)
{
	size_t i = 0, o = 0, m = 0;

	*keep = 0;
	if (key == NULL || klen < SB_SCRUB_KEY_MIN || klen > SB_SCRUB_KEY_MAX) {
		memmove(out, in, n);
		return n;
	}
	while (i < n) {
		char c = in[i];
		if (c == key[0] || c == '%' || c == '\\') {
			int r = match_at(key, klen, in + i, n - i, &m);
			if (r == 1) {
				/* m >= klen > SB_SCRUB_MARK_LEN: o + 5 <= i + m, so
				 * writing in place never overtakes what is unread */
				memcpy(out + o, SB_SCRUB_MARK, SB_SCRUB_MARK_LEN);
				o += SB_SCRUB_MARK_LEN;
				i += m;
				continue;
			}
			if (r < 0 && !eof) {
				*keep = n - i;
				return o;
			}
		}
		out[o++] = c;
		i++;
	}
	return o;
}

void sb_scrub_str(char *s, const char *key)
{
	size_t keep = 0, n;

	if (s == NULL || key == NULL)
		return;
	n = sb_scrub_run(key, strlen(key), s, strlen(s), true, s, &keep);
	s[n] = '\0';
}

bool sb_scrub_found(const char *key, const char *text, size_t n)
{
	size_t klen = key != NULL ? strlen(key) : 0, m = 0;

	if (klen < SB_SCRUB_KEY_MIN || klen > SB_SCRUB_KEY_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((text[i] == key[0] || text[i] == '%' || text[i] == '\\') &&
		    match_at(key, klen, text + i, n - i, &m) == 1)
			return true;
	return false;
}
