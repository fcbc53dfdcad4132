/* http.h: the one HTTP client every provider API goes through (docs/providers.md), on libcurl.
 *
 * A response body is read as an sb_read_fn, so that it streams straight
 * into a parser: the transfer is driven (curl's multi interface) only when
 * the parser wants bytes, and paused while its buffer is full, so memory
 * does not grow with the response.  Pages are joined into one stream: when
 * a page ends and the provider declared how its API pages (a Link header,
 * or a cursor header), the next page is fetched and read on.
 *
 * What every request gets:
 *  - a bearer token (from the caller; the command line reads it from the
 *    environment),
 *    sent only to the first page's origin (scheme, host, port), never put
 *    in a message, never traced, and taken out of the body as it is read
 *    (importers/scrub.h: raw, percent-encoded or JSON-escaped), so that
 *    nothing stored from a response can hold it;
 *  - plain http only to a loopback IP address written as such (127.0.0.0/8
 *    or [::1], never a name), and then never through a proxy (whatever
 *    http_proxy, HTTP_PROXY or ALL_PROXY say); https goes through
 *    https_proxy / ALL_PROXY unless no_proxy says not, as curl does;
 *  - redirects followed here, not by libcurl, each one checked: never from
 *    https down to http, plain http only to a loopback IP, no loop, at
 *    most 5 in a row (SB_EREFUSED naming the redirect otherwise);
 *  - TLS verification, always (another CA can be trusted with ca_file);
 *  - connect and total timeouts, and a size limit on the decoded body;
 *  - Accept-Encoding: identity; a body a server compresses anyway (gzip,
 *    deflate) is decoded here and must reach the end of its compressed
 *    stream; any other encoding is refused;
 *  - retries on 429, 5xx and transport failures before the body started,
 *    with exponential backoff, jitter and Retry-After (capped), a bounded
 *    number of times, then SB_ETEMP;
 *  - 401, 402 (account suspended), 403, 404 and the other 4xx are
 *    SB_EREFUSED with a message that says what to do.
 *
 * A body is whole or an error.  Cut off (the connection closed before its
 * Content-Length or its last chunk, a timeout mid-body, a compressed
 * stream without its end even though the HTTP framing looked whole) is
 * SB_ETEMP; an HTTP/1 body with neither Content-Length nor chunks (whose
 * end cannot be told from a cut), one past the size limit, or one that
 * does not decode is SB_EDATA.  Nothing here prints: the caller gets
 * events.
 *
 * Ownership: sb_http_open allocates the reader, sb_http_close frees it;
 * the request's strings are borrowed and must outlive the reader.
 */
#ifndef SB_HTTP_H
#define SB_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/err.h"

/* How an API hands out the next page. */
typedef enum {
	SB_PAGE_NONE = 0,    /* one response */
	SB_PAGE_LINK,        /* RFC 8288: Link: <URL>; rel="next" */
	SB_PAGE_CURSOR       /* a response header holds a cursor, sent back as a query parameter */
} sb_page_kind;

typedef struct sb_http_paging {
	sb_page_kind kind;          /* how */
	const char *cursor_header;  /* SB_PAGE_CURSOR: the response header ("X-Next-Cursor") */
	const char *cursor_param;   /* SB_PAGE_CURSOR: the query parameter ("cursor") */
} sb_http_paging;

/* Callbacks to the caller, any of them NULL (the core does not print). */
typedef struct sb_http_events {
	/* a retry is coming: what happened (status 0 for a transport error,
	 * then reason says which), the attempt that failed, how many there
	 * may be, and how long the wait is */
	void (*on_retry)(void *ctx, const char *url, long status, const char *reason,
	                 int attempt, int attempts, long wait_ms);
	/* one trace line (--verbose): requests, statuses, pages; no secret is
	 * ever in it */
	void (*on_trace)(void *ctx, const char *line);
	void *ctx;                  /* passed back */
} sb_http_events;

/* Defaults of sb_http_opts (0 or -1 in a field means the default). */
#define SB_HTTP_CONNECT_TIMEOUT_MS 10000L
#define SB_HTTP_TIMEOUT_MS 600000L
#define SB_HTTP_RETRIES 4
#define SB_HTTP_BACKOFF_MS 500L
#define SB_HTTP_MAX_WAIT_MS 60000L
#define SB_HTTP_MAX_BYTES ((int64_t)1 << 30)

typedef struct sb_http_opts {
	long connect_timeout_ms;    /* per connection; 0: SB_HTTP_CONNECT_TIMEOUT_MS */
	long timeout_ms;            /* per request, whole; 0: SB_HTTP_TIMEOUT_MS */
	int retries;                /* retries after the first attempt; -1: SB_HTTP_RETRIES */
	long backoff_ms;            /* first wait before jitter, doubled each retry; 0: default */
	long max_wait_ms;           /* no wait is longer (Retry-After included); 0: default */
	int64_t max_bytes;          /* body bytes over all pages; 0: SB_HTTP_MAX_BYTES */
	const char *ca_file;        /* a CA bundle to trust instead of the system's, or NULL */
	sb_http_events events;      /* callbacks */
} sb_http_opts;

/* Fill o with the defaults (the caller then sets what it was given: the
 * command line reads its options and environment, the library none). */
void sb_http_opts_init(sb_http_opts *o);

/* One GET request (and its further pages). */
typedef struct sb_http_req {
	const char *url;            /* the first page, as built by sb_http_url */
	const char *token;          /* the bearer token, or NULL for none */
	const char *token_name;     /* where it came from, for messages ("VERCEL_TOKEN") */
	const char *accept;         /* the Accept header, or NULL */
	const char *who;            /* the provider, for messages ("deepinfra") */
	sb_http_paging paging;      /* how further pages are found */
} sb_http_req;

typedef struct sb_http sb_http;

/* Send the request, retrying and following redirects as described above,
 * until the first page's status is 2xx; then *out is ready to read its
 * body (sb_http_read).  SB_EUSAGE before anything is sent for a URL that
 * is not http or https, plain http to anything but a loopback IP, or a
 * token with a space or control character or of fewer than
 * SB_SCRUB_KEY_MIN (more than SB_SCRUB_KEY_MAX) bytes.  The caller owns
 * *out (sb_http_close). */
int sb_http_open(const sb_http_req *req, const sb_http_opts *o, sb_http **out, sb_err *e);

/* An sb_read_fn over the body (ctx is the sb_http): every page's bytes in
 * turn, decoded, a newline put between two pages when the first did not
 * end with one, the token replaced by "[key]" wherever it appears (also
 * when it is split across two reads).  *got is 0 at the end of the last
 * page, which is only reached when every page ended properly. */
int sb_http_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e);

/* Body bytes read so far (all pages), and the pages fetched. */
int64_t sb_http_bytes(const sb_http *h);
int sb_http_pages(const sb_http *h);

/* Free h, ending any transfer; NULL is allowed. */
void sb_http_close(sb_http *h);

/* Build base + path + ?query into *out (malloc'd; the caller frees it).
 * query is NULL or name, value pairs ended by NULL; values are
 * percent-encoded.  base must be an http or https URL without user name,
 * password, query or fragment (a key belongs in the environment, not in
 * a URL): SB_EUSAGE otherwise.  A trailing '/' of base is dropped.  The
 * URL is written as libcurl reads it ("127.1" becomes "127.0.0.1"), so
 * that the host sb_http_open checks is the one it connects to. */
int sb_http_url(const char *base, const char *path, const char *const *query, char **out,
                sb_err *e);

#endif
