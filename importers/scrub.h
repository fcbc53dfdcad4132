/* scrub.h: taking an API key out of text before it is shown or stored
 * (docs/providers.md, "Keys").
 *
 * A server may echo the key it was sent: in an error message, in a body
 * that repeats the request's headers, in a next-page link or a redirect.
 * Whatever of a response is kept (a rejected record, a billing line's
 * extra members, a plan name, a message, a trace line) goes through the
 * scrubber first, which puts SB_SCRUB_MARK where the key was.
 *
 * The key is found in any of the forms a server writes it in, each byte
 * on its own: the byte itself, percent-encoded ("%2B" or "%2b"), or as a
 * JSON escape ("\u002B", "\/" for '/', "\\" and "\"").  So the raw key,
 * its URL-encoded form in either case, a fully percent-encoded one and a
 * JSON-escaped one are all found, and any mix of them.
 *
 * Streams: sb_scrub_run works on a window of the stream and says how many
 * bytes at its end it could not decide on yet (the start of what may be
 * the key, cut by the end of the window); the caller keeps them and puts
 * them in front of the next bytes, so that a key split across two reads
 * is still found.  At most SB_SCRUB_SPAN(len) bytes are ever kept.
 *
 * Keys are SB_SCRUB_KEY_MIN to SB_SCRUB_KEY_MAX bytes: a shorter one could
 * match ordinary text (and the scrubbed text would no longer be the
 * statement), so fetching refuses it.  Nothing here allocates.
 */
#ifndef SB_SCRUB_H
#define SB_SCRUB_H

#include <stdbool.h>
#include <stddef.h>

#define SB_SCRUB_MARK "[key]"
#define SB_SCRUB_MARK_LEN 5
#define SB_SCRUB_KEY_MIN 8
#define SB_SCRUB_KEY_MAX 512

/* The longest text that stands for a key of len bytes (six per byte, as
 * "\u00XX"). */
#define SB_SCRUB_SPAN(len) (6 * (size_t)(len))

/* Scrub in[0..n) of a stream into out, which has room for n bytes (out may
 * be in itself: the text only shrinks).  Returns the length written.
 * *keep is how many bytes at the end of in were not written because they
 * may begin the key: the caller gives them again, first, with the next
 * bytes.  With eof (no more bytes will come) *keep is 0.  key is
 * klen bytes, SB_SCRUB_KEY_MIN to SB_SCRUB_KEY_MAX; with another length the
 * text is copied unchanged. */
size_t sb_scrub_run(const char *key, size_t klen, const char *in, size_t n, bool eof, char *out,
                    size_t *keep);

/* Scrub the NUL-terminated text s in place (NULL key: nothing to do). */
void sb_scrub_str(char *s, const char *key);

/* True when text[0..n) holds the key in any of its forms. */
bool sb_scrub_found(const char *key, const char *text, size_t n);

#endif
