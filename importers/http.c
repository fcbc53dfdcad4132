/* http.c: the HTTP client of the provider APIs (see http.h).
 *
 * Longer than 600 lines on purpose: one transfer's state (libcurl's
 * callbacks, the header and status checks, the decoding of a compressed
 * body, the retries and the page cursor) is private to this file, and
 * every part reads and writes it; split, that state would need a header
 * of its own for no other caller.  Its parts are marked below (helpers,
 * URLs, callbacks, one transfer, the reader).
 */
#include "importers/http.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <curl/curl.h>
#include <jansson.h>
#include <zlib.h>

#include "importers/scrub.h"

enum {
	PENDING_MAX = 256 * 1024,   /* body bytes held before the transfer is paused */
	ERROR_BODY_MAX = 2048,      /* bytes of an error response kept for the message */
	URL_MAX = 8192,             /* longest URL taken from a Link header */
	CURSOR_MAX = 2048,          /* longest cursor */
	PAGES_MAX = 100000,         /* more pages than this is a loop */
	REDIRECTS_MAX = 5,          /* redirects followed per page */
	SCRUB_READ = 64 * 1024      /* body bytes scrubbed at a time */
};

/* How a response body is encoded (Content-Encoding). */
enum {
	ENC_IDENTITY = 0,           /* as it is */
	ENC_GZIP,                   /* gzip, x-gzip */
	ENC_DEFLATE,                /* deflate (the zlib format) */
	ENC_OTHER                   /* anything else, or two encodings: not decoded */
};

struct sb_http {
	sb_http_req req;            /* the request (strings borrowed) */
	sb_http_opts o;             /* options, defaults filled in */
	CURLM *multi;               /* drives the transfer */
	CURL *easy;                 /* the transfer */
	bool added;                 /* easy is in multi */
	struct curl_slist *headers; /* request headers */
	char *page_url;             /* the page being read (allocated) */
	char *effective;            /* where it came from, after redirects (allocated) */
	bool key_sent;              /* the last request carried the key */
	char *buf;                  /* body bytes received, not yet handed out */
	size_t buf_cap;             /* allocated */
	size_t start, end;          /* pending bytes are buf[start..end) */
	bool paused;                /* the write callback paused the transfer */
	bool done;                  /* the transfer ended */
	CURLcode result;            /* how */
	bool too_big;               /* the body passed max_bytes */
	bool collect_only;          /* error body: keep at most ERROR_BODY_MAX bytes */
	int64_t raw_bytes;          /* body bytes received over all pages, as sent */
	int64_t total_bytes;        /* body bytes over all pages, decoded */
	int64_t page_bytes;         /* body bytes of this page, decoded */
	long status;                /* the status of the last header block */
	int http_major;             /* its HTTP version: 1 (1.0, 1.1), 2, 3 */
	bool has_length;            /* it gave a Content-Length */
	bool chunked;               /* it is Transfer-Encoding: chunked */
	char coding[32];            /* a transfer coding other than chunked, or "" */
	int encoding;               /* ENC_*, from its Content-Encoding */
	char encoding_name[32];     /* that encoding as the server wrote it */
	z_stream z;                 /* inflating a gzip or deflate body */
	bool z_ready;               /* z is initialised */
	bool z_ended;               /* the compressed stream reached its proper end */
	bool z_more;                /* the last inflate filled its output: more may wait */
	bool ended;                 /* the last page has been read */
	size_t token_len;           /* strlen(req.token), 0 without a key */
	char *win;                  /* body text not yet scrubbed (allocated) */
	size_t win_len, win_cap;    /* bytes in win, its size */
	char *sout;                 /* scrubbed text not yet handed out (allocated) */
	size_t sout_start, sout_end; /* pending scrubbed bytes are sout[start..end) */
	bool scrub_eof;             /* the scrubber has seen the end of the body */
	char reason[64];            /* its reason phrase, when the server sent one */
	char *link_next;            /* Link rel="next" of this page, NULL if none */
	char *cursor;               /* the cursor header of this page, NULL if none */
	bool last_nl;               /* the last byte handed out was '\n' */
	bool need_sep;              /* hand out a '\n' before the next page */
	int pages;                  /* pages fetched */
	char errbuf[CURL_ERROR_SIZE]; /* curl's detail of a failure */
};

/* ---- small helpers ------------------------------------------------------ */

/* Take the key out of msg (raw, percent-encoded or JSON-escaped: see
 * scrub.h), so that no message can carry it even when a server echoes it. */
static void scrub(char *msg, const char *token)
{
	sb_scrub_str(msg, token);
}

/* Return e's code after scrubbing the token out of its message. */
static int done_err(const sb_http_req *req, sb_err *e)
{
	if (e->code != SB_OK)
		scrub(e->msg, req->token);
	return e->code;
}

void sb_http_opts_init(sb_http_opts *o)
{
	memset(o, 0, sizeof *o);
	o->connect_timeout_ms = SB_HTTP_CONNECT_TIMEOUT_MS;
	o->timeout_ms = SB_HTTP_TIMEOUT_MS;
	o->retries = SB_HTTP_RETRIES;
	o->backoff_ms = SB_HTTP_BACKOFF_MS;
	o->max_wait_ms = SB_HTTP_MAX_WAIT_MS;
	o->max_bytes = SB_HTTP_MAX_BYTES;
}

/* Fill the defaults of the zero fields of o. */
static void fill_defaults(sb_http_opts *o)
{
	if (o->connect_timeout_ms <= 0)
		o->connect_timeout_ms = SB_HTTP_CONNECT_TIMEOUT_MS;
	if (o->timeout_ms <= 0)
		o->timeout_ms = SB_HTTP_TIMEOUT_MS;
	if (o->retries < 0)
		o->retries = SB_HTTP_RETRIES;
	if (o->backoff_ms <= 0)
		o->backoff_ms = SB_HTTP_BACKOFF_MS;
	if (o->max_wait_ms <= 0)
		o->max_wait_ms = SB_HTTP_MAX_WAIT_MS;
	if (o->max_bytes <= 0)
		o->max_bytes = SB_HTTP_MAX_BYTES;
}

/* Send one trace line through the events, printf-style. */
static void trace(const sb_http *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void trace(const sb_http *h, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (h->o.events.on_trace == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	scrub(line, h->req.token);
	h->o.events.on_trace(h->o.events.ctx, line);
}

/* Initialise libcurl once per process. */
static int global_init(sb_err *e)
{
	static bool ready = false;

	if (ready)
		return SB_OK;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return sb_fail(e, SB_EINTERNAL, "libcurl cannot be initialised");
	ready = true;
	return SB_OK;
}

/* The reason phrase of common statuses, for HTTP/2 (which sends none). */
static const char *status_text(long status)
{
	switch (status) {
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 402: return "Payment Required";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 409: return "Conflict";
	case 410: return "Gone";
	case 422: return "Unprocessable Entity";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	default: return "";
	}
}

/* "503 Service Unavailable" into buf. */
static const char *status_line(const sb_http *h, char buf[96])
{
	const char *text = h->reason[0] != '\0' ? h->reason : status_text(h->status);

	snprintf(buf, 96, "%ld%s%s", h->status, text[0] != '\0' ? " " : "", text);
	return buf;
}

/* True when host (as CURLU gives it, IPv6 in brackets) is a loopback IP
 * address written as such: one of 127.0.0.0/8, or ::1.  A name never is,
 * whatever it resolves to ("localhost", "127.0.0.1.nip.io"): what a name
 * stands for is decided by a resolver sbledger does not control. */
static bool loopback_ip(const char *host)
{
	struct in_addr a4;
	struct in6_addr a6;
	char inner[64];
	size_t n = strlen(host);

	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (n < 3 || host[0] != '[' || host[n - 1] != ']' || n - 2 >= sizeof inner)
		return false;
	memcpy(inner, host + 1, n - 2);
	inner[n - 2] = '\0';
	return inet_pton(AF_INET6, inner, &a6) == 1 && IN6_IS_ADDR_LOOPBACK(&a6);
}

/* ---- URLs --------------------------------------------------------------- */

int sb_http_url(const char *base, const char *path, const char *const *query, char **out,
                sb_err *e)
{
	CURLU *u = NULL;
	char *part = NULL, *full = NULL, *joined = NULL;
	size_t blen;
	int ok;

	*out = NULL;
	if (global_init(e) != SB_OK)
		return e->code;
	if ((u = curl_url()) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	blen = strlen(base);
	while (blen > 0 && base[blen - 1] == '/')
		blen--;
	if (curl_url_set(u, CURLUPART_URL, base, 0) != CURLUE_OK) {
		sb_fail(e, SB_EUSAGE, "'%s' is not a URL (give http://HOST or https://HOST[/PREFIX])", base);
		goto done;
	}
	if (curl_url_get(u, CURLUPART_SCHEME, &part, 0) != CURLUE_OK ||
	    (strcmp(part, "https") != 0 && strcmp(part, "http") != 0)) {
		sb_fail(e, SB_EUSAGE, "'%s' is not an http or https URL", base);
		goto done;
	}
	curl_free(part);
	part = NULL;
	ok = curl_url_get(u, CURLUPART_USER, &part, 0) != CURLUE_OK;
	curl_free(part);
	part = NULL;
	ok = ok && curl_url_get(u, CURLUPART_PASSWORD, &part, 0) != CURLUE_OK;
	curl_free(part);
	part = NULL;
	if (!ok) {
		sb_fail(e, SB_EUSAGE, "the URL must not hold a user name or password: the key is read "
		        "from the environment only");
		goto done;
	}
	ok = curl_url_get(u, CURLUPART_QUERY, &part, 0) != CURLUE_OK;
	curl_free(part);
	part = NULL;
	ok = ok && curl_url_get(u, CURLUPART_FRAGMENT, &part, 0) != CURLUE_OK;
	curl_free(part);
	part = NULL;
	if (!ok) {
		sb_fail(e, SB_EUSAGE, "the base URL must not have a query or fragment (give "
		        "https://HOST[/PREFIX])");
		goto done;
	}
	if ((joined = malloc(blen + strlen(path) + 1)) == NULL) {
		sb_fail(e, SB_EINTERNAL, "out of memory");
		goto done;
	}
	memcpy(joined, base, blen);
	strcpy(joined + blen, path);
	if (curl_url_set(u, CURLUPART_URL, joined, 0) != CURLUE_OK) {
		sb_fail(e, SB_EUSAGE, "'%s' is not a URL", joined);
		goto done;
	}
	for (size_t i = 0; query != NULL && query[i] != NULL && query[i + 1] != NULL; i += 2) {
		char *pair = malloc(strlen(query[i]) + strlen(query[i + 1]) + 2);
		CURLUcode uc;
		if (pair == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			goto done;
		}
		sprintf(pair, "%s=%s", query[i], query[i + 1]);
		uc = curl_url_set(u, CURLUPART_QUERY, pair, CURLU_APPENDQUERY | CURLU_URLENCODE);
		free(pair);
		if (uc != CURLUE_OK) {
			sb_fail(e, SB_EINTERNAL, "cannot add the query parameter %s", query[i]);
			goto done;
		}
	}
	if (curl_url_get(u, CURLUPART_URL, &full, 0) != CURLUE_OK) {
		sb_fail(e, SB_EINTERNAL, "cannot build the URL");
		goto done;
	}
	if ((*out = strdup(full)) == NULL)
		sb_fail(e, SB_EINTERNAL, "out of memory");
done:
	curl_free(full);
	curl_free(part);
	free(joined);
	curl_url_cleanup(u);
	return e->code;
}

/* Scheme, host and port of url into the three buffers; false when url
 * does not parse. */
static bool origin(const char *url, char scheme[16], char host[256], char port[16])
{
	CURLU *u = curl_url();
	char *s = NULL, *h = NULL, *p = NULL;
	bool ok = false;

	if (u != NULL && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_SCHEME, &s, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &h, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PORT, &p, CURLU_DEFAULT_PORT) == CURLUE_OK) {
		snprintf(scheme, 16, "%s", s);
		snprintf(host, 256, "%s", h);
		snprintf(port, 16, "%s", p);
		for (char *c = host; *c != '\0'; c++)
			*c = (char)tolower((unsigned char)*c);
		ok = true;
	}
	curl_free(s);
	curl_free(h);
	curl_free(p);
	curl_url_cleanup(u);
	return ok;
}

/* What may be fetched. */
typedef enum {
	URL_OK = 0,                 /* https anywhere, or plain http to a loopback IP */
	URL_BAD,                    /* not a URL */
	URL_SCHEME,                 /* neither http nor https */
	URL_PLAIN_NAME              /* plain http to a host that is not a loopback IP */
} url_verdict;

/* Check url against the rules of http.h, with its scheme and host into
 * the buffers (for messages). */
static url_verdict url_check(const char *url, char scheme[16], char host[256])
{
	char port[16];

	scheme[0] = host[0] = '\0';
	if (url == NULL || !origin(url, scheme, host, port))
		return URL_BAD;
	if (strcmp(scheme, "https") == 0)
		return URL_OK;
	if (strcmp(scheme, "http") != 0)
		return URL_SCHEME;
	return loopback_ip(host) ? URL_OK : URL_PLAIN_NAME;
}

/* True when a and b have the same scheme, host and port. */
static bool same_origin(const char *a, const char *b)
{
	char s1[16], h1[256], p1[16], s2[16], h2[256], p2[16];

	return origin(a, s1, h1, p1) && origin(b, s2, h2, p2) && strcmp(s1, s2) == 0 &&
	       strcmp(h1, h2) == 0 && strcmp(p1, p2) == 0;
}

/* link resolved against base into *out (malloc'd); NULL when it does not
 * parse. */
static char *resolve(const char *base, const char *link)
{
	CURLU *u = curl_url();
	char *full = NULL, *copy = NULL;

	if (u != NULL && curl_url_set(u, CURLUPART_URL, base, 0) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_URL, link, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_URL, &full, 0) == CURLUE_OK)
		copy = strdup(full);
	curl_free(full);
	curl_url_cleanup(u);
	return copy;
}

/* url with the query parameter name=value added (malloc'd), NULL on
 * failure. */
static char *with_param(const char *url, const char *name, const char *value)
{
	CURLU *u = curl_url();
	char *full = NULL, *copy = NULL, *pair = malloc(strlen(name) + strlen(value) + 2);

	if (u != NULL && pair != NULL) {
		sprintf(pair, "%s=%s", name, value);
		if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
		    curl_url_set(u, CURLUPART_QUERY, pair, CURLU_APPENDQUERY | CURLU_URLENCODE) == CURLUE_OK &&
		    curl_url_get(u, CURLUPART_URL, &full, 0) == CURLUE_OK)
			copy = strdup(full);
	}
	free(pair);
	curl_free(full);
	curl_url_cleanup(u);
	return copy;
}

/* ---- callbacks ---------------------------------------------------------- */

/* The URL of rel="next" in a Link header value, malloc'd, or NULL. */
static char *link_next(const char *v, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t lt, gt, pend;
		while (i < len && v[i] != '<')
			i++;
		if (i >= len)
			break;
		lt = ++i;
		while (i < len && v[i] != '>')
			i++;
		if (i >= len)
			break;
		gt = i++;
		pend = i;
		while (pend < len && v[pend] != '<')
			pend++;
		/* the parameters of this link are v[i..pend): look for rel */
		for (size_t k = i; k + 4 <= pend; k++) {
			if (strncasecmp(v + k, "rel=", 4) != 0)
				continue;
			k += 4;
			{
				bool quoted = k < pend && v[k] == '"';
				size_t vs = quoted ? k + 1 : k, ve = vs;
				while (ve < pend && (quoted ? v[ve] != '"' : (v[ve] != ';' && v[ve] != ',' &&
				                                                v[ve] != ' ')))
					ve++;
				/* rel may list several space-separated types */
				for (size_t t = vs; t < ve;) {
					size_t te = t;
					while (te < ve && v[te] != ' ')
						te++;
					if (te - t == 4 && strncasecmp(v + t, "next", 4) == 0 && gt - lt < URL_MAX) {
						char *url = malloc(gt - lt + 1);
						if (url != NULL) {
							memcpy(url, v + lt, gt - lt);
							url[gt - lt] = '\0';
						}
						return url;
					}
					t = te + 1;
				}
			}
			break;
		}
		i = pend;
	}
	return NULL;
}

/* Forget what the last header block said (a new block begins: a
 * redirect, 100 Continue, the response). */
static void reset_response(sb_http *h)
{
	free(h->link_next);
	free(h->cursor);
	h->link_next = h->cursor = NULL;
	h->reason[0] = '\0';
	h->status = 0;
	h->http_major = 1;
	h->has_length = h->chunked = false;
	h->coding[0] = '\0';
	h->encoding = ENC_IDENTITY;
	h->encoding_name[0] = '\0';
}

/* The comma-separated tokens of a Content-Encoding or Transfer-Encoding
 * value v[0..len) into the response's framing: chunked, the transfer
 * codings sbledger does not decode, the content encoding. */
static void codings(sb_http *h, bool transfer, const char *v, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t s, t;
		char tok[32];
		while (i < len && (v[i] == ',' || v[i] == ' ' || v[i] == '\t'))
			i++;
		s = i;
		while (i < len && v[i] != ',')
			i++;
		t = i;
		while (t > s && (v[t - 1] == ' ' || v[t - 1] == '\t'))
			t--;
		if (t == s)
			continue;
		snprintf(tok, sizeof tok, "%.*s", (int)(t - s), v + s);
		for (char *c = tok; *c != '\0'; c++)
			if (!isprint((unsigned char)*c))
				*c = '?';
		if (strcasecmp(tok, "identity") == 0)
			continue;
		if (transfer) {
			if (strcasecmp(tok, "chunked") == 0)
				h->chunked = true;
			else if (h->coding[0] == '\0')
				snprintf(h->coding, sizeof h->coding, "%s", tok);
			continue;
		}
		if (h->encoding != ENC_IDENTITY) {
			/* two encodings, one over the other: not decoded */
			h->encoding = ENC_OTHER;
			snprintf(h->encoding_name, sizeof h->encoding_name, "%s", "more than one");
			continue;
		}
		snprintf(h->encoding_name, sizeof h->encoding_name, "%s", tok);
		if (strcasecmp(tok, "gzip") == 0 || strcasecmp(tok, "x-gzip") == 0)
			h->encoding = ENC_GZIP;
		else if (strcasecmp(tok, "deflate") == 0)
			h->encoding = ENC_DEFLATE;
		else
			h->encoding = ENC_OTHER;
	}
}

/* libcurl's header callback: the status line, the framing and encoding of
 * the body, Link and the cursor header. */
static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
	sb_http *h = ud;
	size_t len = size * n, name_len;
	const char *colon;

	if (len >= 5 && strncmp(p, "HTTP/", 5) == 0) {
		/* "HTTP/1.1 503 Service Unavailable", "HTTP/2 200" */
		char line[256];
		const char *sp, *r;
		size_t ll = len < sizeof line - 1 ? len : sizeof line - 1;
		memcpy(line, p, ll);
		line[ll] = '\0';
		line[strcspn(line, "\r\n")] = '\0';
		reset_response(h);
		h->http_major = isdigit((unsigned char)line[5]) ? line[5] - '0' : 1;
		if ((sp = strchr(line, ' ')) != NULL) {
			h->status = strtol(sp + 1, NULL, 10);
			if ((r = strchr(sp + 1, ' ')) != NULL) {
				size_t k = 0;
				for (r++; *r != '\0' && k + 1 < sizeof h->reason; r++)
					h->reason[k++] = isprint((unsigned char)*r) ? *r : ' ';
				h->reason[k] = '\0';
			}
		}
		return len;
	}
	if ((colon = memchr(p, ':', len)) == NULL)
		return len;
	name_len = (size_t)(colon - p);
	{
		const char *v = colon + 1, *end = p + len;
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
			end--;
		if (name_len == 14 && strncasecmp(p, "content-length", 14) == 0) {
			h->has_length = true;
		} else if (name_len == 17 && strncasecmp(p, "transfer-encoding", 17) == 0) {
			codings(h, true, v, (size_t)(end - v));
		} else if (name_len == 16 && strncasecmp(p, "content-encoding", 16) == 0) {
			codings(h, false, v, (size_t)(end - v));
		} else if (h->req.paging.kind == SB_PAGE_LINK && name_len == 4 &&
		           strncasecmp(p, "link", 4) == 0 && h->link_next == NULL) {
			h->link_next = link_next(v, (size_t)(end - v));
		} else if (h->req.paging.kind == SB_PAGE_CURSOR && h->req.paging.cursor_header != NULL &&
		           name_len == strlen(h->req.paging.cursor_header) &&
		           strncasecmp(p, h->req.paging.cursor_header, name_len) == 0 && end > v &&
		           (size_t)(end - v) < CURSOR_MAX) {
			free(h->cursor);
			if ((h->cursor = malloc((size_t)(end - v) + 1)) != NULL) {
				memcpy(h->cursor, v, (size_t)(end - v));
				h->cursor[end - v] = '\0';
			}
		}
	}
	return len;
}

/* libcurl's write callback: keep the bytes (as sent: decoding is done as
 * they are read) for sb_http_read, pausing the transfer while PENDING_MAX
 * bytes wait. */
static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
	sb_http *h = ud;
	size_t len = size * n, pending = h->end - h->start;

	if (h->collect_only) {
		size_t room = pending < ERROR_BODY_MAX ? ERROR_BODY_MAX - pending : 0;
		if (len > room)
			len = room;
	} else {
		if (h->raw_bytes + (int64_t)len > h->o.max_bytes) {
			h->too_big = true;
			return 0;
		}
		if (pending > 0 && pending + len > PENDING_MAX) {
			h->paused = true;
			return CURL_WRITEFUNC_PAUSE;
		}
	}
	if (h->start > 0) {
		memmove(h->buf, h->buf + h->start, pending);
		h->start = 0;
		h->end = pending;
	}
	if (h->end + len > h->buf_cap) {
		size_t cap = h->buf_cap > 0 ? h->buf_cap : 16384;
		char *nb;
		while (cap < h->end + len)
			cap *= 2;
		if ((nb = realloc(h->buf, cap)) == NULL)
			return 0;
		h->buf = nb;
		h->buf_cap = cap;
	}
	memcpy(h->buf + h->end, p, len);
	h->end += len;
	if (!h->collect_only)
		h->raw_bytes += (int64_t)len;
	return size * n;
}

/* ---- one transfer ------------------------------------------------------- */

/* End the inflating of the last body, if any. */
static void z_end(sb_http *h)
{
	if (h->z_ready)
		inflateEnd(&h->z);
	h->z_ready = h->z_ended = h->z_more = false;
}

/* Start fetching url (a fresh transfer on the kept connection pool).  The
 * key goes with it only when url is on the first page's origin; plain
 * http (to a loopback IP: see url_check) never goes through a proxy,
 * https follows the proxy variables as curl does. */
static int start(sb_http *h, const char *url, sb_err *e)
{
	CURL *c = h->easy;
	bool plain = strncmp(url, "http:", 5) == 0;

	if (h->added) {
		curl_multi_remove_handle(h->multi, c);
		h->added = false;
	}
	curl_easy_reset(c);
	z_end(h);
	h->start = h->end = 0;
	h->paused = h->done = h->too_big = false;
	h->result = CURLE_OK;
	h->collect_only = false;
	h->page_bytes = 0;
	h->errbuf[0] = '\0';
	reset_response(h);
	h->key_sent = h->req.token != NULL && same_origin(url, h->req.url);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	/* redirects are followed by open_page, which checks each one */
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	if (plain) {
		/* "" turns every proxy off, the environment's too; NOPROXY "*"
		 * says the same a second way */
		curl_easy_setopt(c, CURLOPT_PROXY, "");
		curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
	}
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	if (h->o.ca_file != NULL)
		curl_easy_setopt(c, CURLOPT_CAINFO, h->o.ca_file);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, h->o.connect_timeout_ms);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, h->o.timeout_ms);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "sbledger/0.1");
	/* no compression is asked for (the headers say Accept-Encoding:
	 * identity), and libcurl decodes none: a body a server compresses
	 * anyway is decoded by page_read, which checks that it ends */
	curl_easy_setopt(c, CURLOPT_HTTP_CONTENT_DECODING, 0L);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h->headers);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, h->errbuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, h);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, h);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)(h->o.max_bytes - h->raw_bytes));
	if (h->key_sent) {
		curl_easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BEARER);
		curl_easy_setopt(c, CURLOPT_XOAUTH2_BEARER, h->req.token);
	}
	if (curl_multi_add_handle(h->multi, c) != CURLM_OK)
		return sb_fail(e, SB_EINTERNAL, "libcurl cannot start the transfer");
	h->added = true;
	return SB_OK;
}

/* Drive the transfer one step: let libcurl work, note its end, and wait
 * for the network (at most a second) when it is still running. */
static int step(sb_http *h, sb_err *e)
{
	int running = 0, left = 0;
	CURLMsg *msg;

	if (curl_multi_perform(h->multi, &running) != CURLM_OK)
		return sb_fail(e, SB_EINTERNAL, "libcurl failed to drive the transfer");
	while ((msg = curl_multi_info_read(h->multi, &left)) != NULL) {
		if (msg->msg == CURLMSG_DONE && msg->easy_handle == h->easy) {
			h->done = true;
			h->result = msg->data.result;
		}
	}
	if (!h->done && !h->paused && (h->start == h->end || h->collect_only) &&
	    curl_multi_poll(h->multi, NULL, 0, 1000, NULL) != CURLM_OK)
		return sb_fail(e, SB_EINTERNAL, "libcurl failed to wait for the transfer");
	return SB_OK;
}

/* Drive the transfer until body bytes are pending or it has ended. */
static int pump(sb_http *h, sb_err *e)
{
	while (h->start == h->end && !h->done) {
		if (h->paused) {
			h->paused = false;
			curl_easy_pause(h->easy, CURLPAUSE_CONT);
			continue;
		}
		if (step(h, e) != SB_OK)
			return e->code;
	}
	return SB_OK;
}

/* What to make of a transfer that failed: retry it, or which code. */
static bool transport_retryable(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return true;
	default:
		return false;
	}
}

/* The failure of a transfer in words: curl's detail, or its code's text. */
static const char *curl_reason(const sb_http *h)
{
	return h->errbuf[0] != '\0' ? h->errbuf : curl_easy_strerror(h->result);
}

/* Fail e for a transfer that ended with an error (not a retry case). */
static int fail_transport(sb_http *h, sb_err *e)
{
	CURLcode rc = h->result;

	if (h->too_big || rc == CURLE_FILESIZE_EXCEEDED)
		return sb_fail_hint(e, SB_EDATA, SB_HINT_MAX_BYTES, "%s: the response is larger than the "
		                    "limit of %lld bytes " SB_WORDS_MAX_BYTES, h->page_url,
		                    (long long)h->o.max_bytes);
	switch (rc) {
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
		return sb_fail_hint(e, SB_EREFUSED, SB_HINT_CA, "%s: TLS: %s (the certificate is always "
		                    "verified; " SB_WORDS_CA ")", h->page_url, curl_reason(h));
	case CURLE_BAD_CONTENT_ENCODING:
	case CURLE_WEIRD_SERVER_REPLY:
		return sb_fail(e, SB_EDATA, "%s: the response does not decode: %s", h->page_url,
		               curl_reason(h));
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_URL_MALFORMAT:
		return sb_fail(e, SB_EUSAGE, "%s: %s", h->page_url, curl_reason(h));
	case CURLE_TOO_MANY_REDIRECTS:
		return sb_fail(e, SB_EREFUSED, "%s: too many redirects", h->page_url);
	case CURLE_OUT_OF_MEMORY:
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	case CURLE_WRITE_ERROR:
		return sb_fail(e, SB_EINTERNAL, "out of memory while reading %s", h->page_url);
	default:
		if (h->page_bytes > 0)
			return sb_fail(e, SB_ETEMP, "%s: the response was cut off after %lld bytes: %s; "
			               "try again later", h->page_url, (long long)h->page_bytes,
			               curl_reason(h));
		return sb_fail(e, SB_ETEMP, "%s: %s; try again later", h->page_url, curl_reason(h));
	}
}

/* The start of an error response's body, decoded when it was compressed,
 * into tmp: *text and *len are what to read. */
static void error_text(const sb_http *h, char *tmp, size_t cap, const char **text, size_t *len)
{
	z_stream z;

	*text = h->buf != NULL ? h->buf + h->start : "";
	*len = h->end - h->start;
	if (h->encoding != ENC_GZIP && h->encoding != ENC_DEFLATE)
		return;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 15 + 32) != Z_OK)
		return;
	z.next_in = (unsigned char *)(uintptr_t)*text;
	z.avail_in = (unsigned)*len;
	z.next_out = (unsigned char *)tmp;
	z.avail_out = (unsigned)cap;
	inflate(&z, Z_SYNC_FLUSH);
	*text = tmp;
	*len = cap - z.avail_out;
	inflateEnd(&z);
}

/* The message of an error response: the "message", "detail" or "error"
 * of a JSON body, else its first printable bytes, into out. */
static void error_body(const sb_http *h, char *out, size_t cap)
{
	char plain[ERROR_BODY_MAX];
	const char *text;
	size_t len, o = 0;
	json_t *j;
	const char *msg = NULL;

	error_text(h, plain, sizeof plain, &text, &len);
	j = len > 0 ? json_loadb(text, len, 0, NULL) : NULL;
	out[0] = '\0';
	if (j != NULL) {
		static const char *const keys[] = {"message", "detail", "error", "error_description"};
		for (size_t k = 0; k < 4 && msg == NULL; k++) {
			json_t *v = json_object_get(j, keys[k]);
			if (json_is_object(v))
				v = json_object_get(v, "message");
			if (json_is_string(v))
				msg = json_string_value(v);
		}
	}
	if (msg != NULL) {
		text = msg;
		len = strlen(msg);
	}
	for (size_t i = 0; i < len && o + 1 < cap && o < 200; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == '\r' || c == '\n' || c == '\t')
			c = ' ';
		if (c < 0x20 || c == 0x7f)
			continue;
		if (c == ' ' && (o == 0 || out[o - 1] == ' '))
			continue;
		out[o++] = (char)c;
	}
	while (o > 0 && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
	json_decref(j);
}

/* Fail e for a refusing status (4xx and others not retried), naming the
 * URL that answered it. */
static int fail_status(sb_http *h, sb_err *e)
{
	char st[96], body[256], said[300] = "";
	const char *who = h->req.who != NULL ? h->req.who : "the provider";
	const char *key = h->req.token_name != NULL ? h->req.token_name : "the key";
	const char *at = h->effective != NULL ? h->effective : h->page_url;

	error_body(h, body, sizeof body);
	if (body[0] != '\0')
		snprintf(said, sizeof said, " (it said: %s)", body);
	status_line(h, st);
	if (!h->key_sent && h->req.token != NULL && (h->status == 401 || h->status == 403))
		return sb_fail_hint(e, SB_EREFUSED, SB_HINT_BASE_URL, "%s: %s%s from %s, where a redirect "
		                    "led: the key in %s goes to %s only and was not sent there; "
		                    SB_WORDS_BASE_URL, who, st, said, at, key, h->req.url);
	switch (h->status) {
	case 401:
		return sb_fail(e, SB_EREFUSED, "%s refused the key in %s: %s%s; check the key, or "
		               "make a new one", who, key, st, said);
	case 402:
		return sb_fail(e, SB_EREFUSED, "%s says the account is suspended: %s%s; settle the "
		               "account's payment with %s, then run this again", who, st, said, who);
	case 403:
		return sb_fail(e, SB_EREFUSED, "%s: the key in %s may not read %s: %s%s; give the "
		               "key billing access", who, key, at, st, said);
	case 404:
		return sb_fail_hint(e, SB_EREFUSED, SB_HINT_BASE_URL, "%s: %s: %s%s; " SB_WORDS_BASE_URL, who,
		                    at, st, said);
	default:
		return sb_fail(e, SB_EREFUSED, "%s refused %s: %s%s", who, at, st, said);
	}
}

/* Wait ms milliseconds. */
static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The wait before retry number attempt (1 = the first retry): the base
 * doubled per retry, with equal jitter (half fixed, half random), at
 * least Retry-After, at most max_wait. */
static long backoff(const sb_http *h, int attempt, long retry_after_ms)
{
	static unsigned seed = 0;
	long delay = h->o.backoff_ms, jitter;

	if (seed == 0)
		seed = (unsigned)time(NULL) ^ (unsigned)getpid();
	for (int i = 1; i < attempt && delay < h->o.max_wait_ms; i++)
		delay *= 2;
	if (delay > h->o.max_wait_ms)
		delay = h->o.max_wait_ms;
	jitter = delay / 2 > 0 ? (long)(rand_r(&seed) % (delay / 2 + 1)) : 0;
	delay = delay - delay / 2 + jitter;
	if (retry_after_ms > delay)
		delay = retry_after_ms;
	return delay > h->o.max_wait_ms ? h->o.max_wait_ms : delay;
}

/* True for the statuses that send the client elsewhere. */
static bool is_redirect(long status)
{
	return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

/* Whether the redirect of from (status st) to to may be followed: to is
 * http or https, not plain http after https, plain http only to a
 * loopback IP, not a URL of this chain already (visited[0..n)), and not
 * past REDIRECTS_MAX.  SB_EREFUSED naming the redirect otherwise. */
static int redirect_ok(const char *from, const char *to, const char *st, char *const *visited,
                       int n, sb_err *e)
{
	char scheme[16], host[256];
	url_verdict v;

	if (to == NULL || to[0] == '\0')
		return sb_fail(e, SB_EREFUSED, "%s answered %s without saying where to (no Location)",
		               from, st);
	v = url_check(to, scheme, host);
	if (v == URL_BAD || v == URL_SCHEME)
		return sb_fail(e, SB_EREFUSED, "%s redirects (%s) to '%s', which is not an http or https "
		               "URL: not followed", from, st, to);
	if (strncmp(from, "https:", 6) == 0 && strcmp(scheme, "http") == 0)
		return sb_fail_hint(e, SB_EREFUSED, SB_HINT_BASE_URL, "%s redirects (%s) to %s: a redirect "
		                    "from https down to plain http is refused (the key and the statement "
		                    "would travel in clear); " SB_WORDS_BASE_URL, from, st, to);
	if (v == URL_PLAIN_NAME)
		return sb_fail(e, SB_EREFUSED, "%s redirects (%s) to %s: plain http goes only to a "
		               "loopback IP address (127.0.0.1 to 127.255.255.255, or [::1]), never to "
		               "a host name such as '%s': not followed", from, st, to, host);
	for (int i = 0; i < n; i++)
		if (strcmp(visited[i], to) == 0)
			return sb_fail(e, SB_EREFUSED, "%s redirects (%s) back to %s: a redirect loop, not "
			               "followed", from, st, to);
	if (n > REDIRECTS_MAX)
		return sb_fail(e, SB_EREFUSED, "%s redirects (%s) to %s: more than %d redirects in a "
		               "row, not followed", from, st, to, REDIRECTS_MAX);
	return SB_OK;
}

/* Whether the 2xx response now arriving can be read: its framing tells
 * its end from a cut connection, and its encoding is one page_read
 * decodes (then the decoder is made ready).  SB_EDATA otherwise. */
static int body_ok(sb_http *h, const char *url, sb_err *e)
{
	if (h->coding[0] != '\0')
		return sb_fail(e, SB_EDATA, "%s: the response is sent with Transfer-Encoding '%s', which "
		               "sbledger does not decode: nothing of it was stored", url, h->coding);
	if (h->encoding == ENC_OTHER)
		return sb_fail(e, SB_EDATA, "%s: the response is encoded as '%s' (Content-Encoding), "
		               "which sbledger does not decode (it asks for none, Accept-Encoding: "
		               "identity): nothing of it was stored", url, h->encoding_name);
	if (h->http_major == 1 && !h->has_length && !h->chunked && h->status != 204)
		return sb_fail(e, SB_EDATA, "%s: the response has neither a Content-Length nor chunks, so "
		               "its end could not be told from a connection cut short: refused, nothing "
		               "of it was stored", url);
	if (h->encoding == ENC_GZIP || h->encoding == ENC_DEFLATE) {
		memset(&h->z, 0, sizeof h->z);
		/* 15 + 32: the gzip or the zlib wrapper, told by its header */
		if (inflateInit2(&h->z, 15 + 32) != Z_OK)
			return sb_fail(e, SB_EINTERNAL, "out of memory");
		h->z_ready = true;
	}
	return SB_OK;
}

/* Fetch url until its status is 2xx (then the body is ready to read),
 * retrying as http.h says and following redirects that redirect_ok
 * allows (the key goes to the first page's origin only: see start). */
static int open_page(sb_http *h, const char *url, sb_err *e)
{
	int attempts = h->o.retries + 1, hops = 0;
	char *visited[REDIRECTS_MAX + 2] = {NULL};
	char st[96];
	const char *cur;

	free(h->page_url);
	free(h->effective);
	h->effective = NULL;
	if ((h->page_url = strdup(url)) == NULL || (visited[0] = strdup(url)) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	hops = 1;
	cur = visited[0];
	for (int attempt = 1;;) {
		long retry_after_ms = 0, wait;
		const char *why;
		trace(h, "GET %s%s", cur, attempt > 1 ? " (again)" : "");
		if (start(h, cur, e) != SB_OK || pump(h, e) != SB_OK)
			break;
		if (h->done && h->result != CURLE_OK && h->end == h->start) {
			char said[CURL_ERROR_SIZE + 64];
			if (!transport_retryable(h->result) || h->too_big) {
				fail_transport(h, e);
				break;
			}
			why = curl_reason(h);
			trace(h, "failed: %s", why);
			if (attempt >= attempts) {
				sb_fail(e, SB_ETEMP, "%s: %s (%d %s); try again later", cur, why, attempts,
				        attempts == 1 ? "attempt" : "attempts");
				break;
			}
			wait = backoff(h, attempt, 0);
			snprintf(said, sizeof said, "%s", why);
			if (h->o.events.on_retry != NULL) {
				char at[URL_MAX];
				snprintf(at, sizeof at, "%s", cur);
				scrub(at, h->req.token);
				scrub(said, h->req.token);
				h->o.events.on_retry(h->o.events.ctx, at, 0, said, attempt, attempts, wait);
			}
			sleep_ms(wait);
			attempt++;
			continue;
		}
		curl_easy_getinfo(h->easy, CURLINFO_RESPONSE_CODE, &h->status);
		trace(h, "HTTP %s", status_line(h, st));
		if (is_redirect(h->status)) {
			char *to = NULL;
			curl_easy_getinfo(h->easy, CURLINFO_REDIRECT_URL, &to);
			if (redirect_ok(cur, to, st, visited, hops, e) != SB_OK)
				break;
			if ((visited[hops] = strdup(to)) == NULL) {
				sb_fail(e, SB_EINTERNAL, "out of memory");
				break;
			}
			trace(h, "redirected to %s", visited[hops]);
			cur = visited[hops++];
			continue;
		}
		if ((h->effective = strdup(cur)) == NULL) {
			sb_fail(e, SB_EINTERNAL, "out of memory");
			break;
		}
		if (h->status >= 200 && h->status < 300) {
			if (body_ok(h, cur, e) == SB_OK)
				h->pages++;
			break;
		}
		/* an error response: keep the start of its body for the message */
		h->collect_only = true;
		while (!h->done && h->end - h->start < ERROR_BODY_MAX)
			if (step(h, e) != SB_OK)
				break;
		if (e->code != SB_OK)
			break;
		if (h->status != 429 && (h->status < 500 || h->status > 599)) {
			fail_status(h, e);
			break;
		}
		{
			curl_off_t ra = -1;
			if (curl_easy_getinfo(h->easy, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra > 0)
				retry_after_ms = ra > 86400 ? 86400000L : (long)ra * 1000L;
		}
		if (attempt >= attempts) {
			sb_fail(e, SB_ETEMP, "%s: %s (%d %s); try again later", cur, st, attempts,
			        attempts == 1 ? "attempt" : "attempts");
			break;
		}
		wait = backoff(h, attempt, retry_after_ms);
		if (h->o.events.on_retry != NULL) {
			char at[URL_MAX];
			snprintf(at, sizeof at, "%s", cur);
			scrub(at, h->req.token);
			h->o.events.on_retry(h->o.events.ctx, at, h->status, st, attempt, attempts, wait);
		}
		sleep_ms(wait);
		free(h->effective);
		h->effective = NULL;
		attempt++;
	}
	for (int i = 0; i < REDIRECTS_MAX + 2; i++)
		free(visited[i]);
	return e->code;
}

/* The next page's URL (malloc'd) into *next, NULL when this was the last. */
static int next_page(sb_http *h, char **next, sb_err *e)
{
	char *url = NULL;

	*next = NULL;
	if (h->req.paging.kind == SB_PAGE_LINK && h->link_next != NULL) {
		url = resolve(h->effective != NULL ? h->effective : h->page_url, h->link_next);
		if (url == NULL)
			return sb_fail(e, SB_EDATA, "%s: the next-page link '%s' is not a URL", h->page_url,
			               h->link_next);
	} else if (h->req.paging.kind == SB_PAGE_CURSOR && h->cursor != NULL && h->cursor[0] != '\0') {
		url = with_param(h->req.url, h->req.paging.cursor_param, h->cursor);
		if (url == NULL)
			return sb_fail(e, SB_EINTERNAL, "cannot build the next page's URL");
	} else {
		return SB_OK;
	}
	/* the key goes to the first page's origin only (and so plain http
	 * stays on a loopback IP) */
	if (!same_origin(url, h->req.url)) {
		sb_fail(e, SB_EDATA, "%s: the next page is on another host (%s): not followed, the key "
		        "is sent to %s only", h->page_url, url, h->req.url);
		free(url);
		return e->code;
	}
	if (strcmp(url, h->page_url) == 0 || h->pages >= PAGES_MAX) {
		sb_fail(e, SB_EDATA, "%s: the pages do not end (the next page is %s)", h->page_url, url);
		free(url);
		return e->code;
	}
	*next = url;
	return SB_OK;
}

/* ---- the reader --------------------------------------------------------- */

int sb_http_open(const sb_http_req *req, const sb_http_opts *o, sb_http **out, sb_err *e)
{
	sb_http *h = NULL;
	char scheme[16], host[256];
	const char *key = req->token_name != NULL ? req->token_name : "the key";

	*out = NULL;
	if (global_init(e) != SB_OK)
		return e->code;
	if (req->token != NULL) {
		size_t len = strlen(req->token);
		for (const char *c = req->token; *c != '\0'; c++)
			if ((unsigned char)*c < 0x21 || *c == 0x7f)
				return sb_fail(e, SB_EUSAGE, "%s holds a space or control character: give the "
				               "key alone", key);
		if (len < SB_SCRUB_KEY_MIN)
			return sb_fail(e, SB_EUSAGE, "%s is %zu characters long: a key has at least %d (a "
			               "shorter one could turn up in a statement by chance, and taking it out "
			               "of what is stored would change the statement); check the key", key,
			               len, SB_SCRUB_KEY_MIN);
		if (len > SB_SCRUB_KEY_MAX)
			return sb_fail(e, SB_EUSAGE, "%s is %zu characters long: a key has at most %d; check "
			               "the key", key, len, SB_SCRUB_KEY_MAX);
	}
	switch (url_check(req->url, scheme, host)) {
	case URL_OK:
		break;
	case URL_BAD:
		return sb_fail(e, SB_EUSAGE, "'%s' is not a URL", req->url);
	case URL_SCHEME:
		return sb_fail(e, SB_EUSAGE, "'%s' is not an http or https URL", req->url);
	case URL_PLAIN_NAME:
		sb_fail(e, SB_EUSAGE, "%s: refusing to send %s over plain http to '%s': plain http goes "
		        "only to a loopback IP address (127.0.0.1 to 127.255.255.255, or [::1]), never "
		        "to a host name; use https", req->url, key, host);
		return done_err(req, e);
	}
	if ((h = calloc(1, sizeof *h)) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	h->req = *req;
	h->o = *o;
	fill_defaults(&h->o);
	h->last_nl = true;
	h->token_len = req->token != NULL ? strlen(req->token) : 0;
	if (h->token_len > 0) {
		h->win_cap = SCRUB_READ + SB_SCRUB_SPAN(h->token_len);
		if ((h->win = malloc(h->win_cap)) == NULL || (h->sout = malloc(h->win_cap)) == NULL) {
			sb_http_close(h);
			return sb_fail(e, SB_EINTERNAL, "out of memory");
		}
	}
	if ((h->multi = curl_multi_init()) == NULL || (h->easy = curl_easy_init()) == NULL) {
		sb_http_close(h);
		return sb_fail(e, SB_EINTERNAL, "libcurl cannot make a transfer");
	}
	if ((h->headers = curl_slist_append(NULL, "Accept-Encoding: identity")) == NULL) {
		sb_http_close(h);
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	}
	if (req->accept != NULL) {
		char accept[256];
		struct curl_slist *more;
		snprintf(accept, sizeof accept, "Accept: %s", req->accept);
		if ((more = curl_slist_append(h->headers, accept)) == NULL) {
			sb_http_close(h);
			return sb_fail(e, SB_EINTERNAL, "out of memory");
		}
		h->headers = more;
	}
	if (open_page(h, req->url, e) != SB_OK) {
		sb_http_close(h);
		return done_err(req, e);
	}
	*out = h;
	return SB_OK;
}

/* Count n more decoded bytes of the body against the limit. */
static int count(sb_http *h, size_t n, sb_err *e)
{
	h->total_bytes += (int64_t)n;
	h->page_bytes += (int64_t)n;
	if (h->total_bytes > h->o.max_bytes)
		return sb_fail_hint(e, SB_EDATA, SB_HINT_MAX_BYTES, "%s: the response is larger than the "
		                    "limit of %lld bytes " SB_WORDS_MAX_BYTES, h->page_url,
		                    (long long)h->o.max_bytes);
	return SB_OK;
}

/* Up to cap decoded bytes of this page into out, *got 0 at its end.  The
 * end is checked: the transfer ended well, and a compressed body reached
 * the proper end of its stream (a gzip member's trailer), else the body
 * was cut off (SB_ETEMP) even when the HTTP framing looked complete. */
static int page_read(sb_http *h, char *out, size_t cap, size_t *got, sb_err *e)
{
	bool packed = h->encoding == ENC_GZIP || h->encoding == ENC_DEFLATE;

	*got = 0;
	for (;;) {
		size_t pending = h->end - h->start;
		if (pending == 0 && !(packed && h->z_more) && !h->done) {
			if (pump(h, e) != SB_OK)
				return e->code;
			continue;
		}
		if (!packed && pending > 0) {
			size_t n = pending < cap ? pending : cap;
			memcpy(out, h->buf + h->start, n);
			h->start += n;
			*got = n;
			return count(h, n, e);
		}
		if (packed && (pending > 0 || h->z_more)) {
			size_t produced;
			int rc;
			if (h->z_ended) {
				/* gzip allows members one after the other; the zlib
				 * format ends once */
				if (h->encoding == ENC_DEFLATE)
					return sb_fail(e, SB_EDATA, "%s: the response goes on after the end of its "
					               "deflate stream: nothing of it was stored", h->page_url);
				inflateReset(&h->z);
				h->z_ended = false;
			}
			h->z.next_in = (unsigned char *)(h->buf + h->start);
			h->z.avail_in = (unsigned)pending;
			h->z.next_out = (unsigned char *)out;
			h->z.avail_out = (unsigned)cap;
			rc = inflate(&h->z, Z_NO_FLUSH);
			h->start += pending - h->z.avail_in;
			produced = cap - h->z.avail_out;
			h->z_more = h->z.avail_out == 0;
			if (rc == Z_STREAM_END) {
				h->z_ended = true;
				h->z_more = false;
			} else if (rc == Z_BUF_ERROR) {
				h->z_more = false;
			} else if (rc != Z_OK) {
				return sb_fail(e, SB_EDATA, "%s: the response does not decode as %s (%s): "
				               "nothing of it was stored", h->page_url, h->encoding_name,
				               h->z.msg != NULL ? h->z.msg : "bad data");
			}
			if (produced > 0) {
				*got = produced;
				return count(h, produced, e);
			}
			continue;
		}
		/* nothing waits and the transfer has ended: the page's end */
		if (h->result != CURLE_OK)
			return fail_transport(h, e);
		if (packed && !h->z_ended)
			return sb_fail(e, SB_ETEMP, "%s: the response was cut off after %lld bytes: its %s "
			               "stream stops before its end (no trailer), though the connection "
			               "said it was whole; nothing of it was stored; try again later",
			               h->page_url, (long long)h->page_bytes, h->encoding_name);
		return SB_OK;
	}
}

/* Up to cap bytes of the body, every page in turn (the pages joined as
 * sb_http_read says), not yet scrubbed; *got 0 at the end. */
static int joined_read(sb_http *h, char *buf, size_t cap, size_t *got, sb_err *e)
{
	*got = 0;
	while (cap > 0 && !h->ended) {
		char *next = NULL;
		if (h->need_sep) {
			buf[0] = '\n';
			*got = 1;
			h->need_sep = false;
			h->last_nl = true;
			return SB_OK;
		}
		if (page_read(h, buf, cap, got, e) != SB_OK)
			return e->code;
		if (*got > 0) {
			h->last_nl = buf[*got - 1] == '\n';
			return SB_OK;
		}
		/* the page has ended */
		trace(h, "page %d: %lld bytes", h->pages, (long long)h->page_bytes);
		if (next_page(h, &next, e) != SB_OK)
			return e->code;
		if (next == NULL) {
			h->ended = true;
			return SB_OK;
		}
		if (!h->last_nl)
			h->need_sep = true;
		if (open_page(h, next, e) != SB_OK) {
			free(next);
			return e->code;
		}
		free(next);
	}
	return SB_OK;
}

int sb_http_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e)
{
	sb_http *h = ctx;

	*got = 0;
	if (h->win == NULL) {
		/* no key, nothing to take out */
		if (joined_read(h, buf, cap, got, e) != SB_OK)
			return done_err(&h->req, e);
		return SB_OK;
	}
	while (cap > 0) {
		size_t n = 0, keep = 0;
		if (h->sout_start < h->sout_end) {
			n = h->sout_end - h->sout_start;
			if (n > cap)
				n = cap;
			memcpy(buf, h->sout + h->sout_start, n);
			h->sout_start += n;
			*got = n;
			return SB_OK;
		}
		if (h->scrub_eof)
			return SB_OK;
		/* the bytes kept from the last round stay in front of the window,
		 * so that a key cut by a read is seen whole */
		if (joined_read(h, h->win + h->win_len, h->win_cap - h->win_len, &n, e) != SB_OK)
			return done_err(&h->req, e);
		h->win_len += n;
		h->sout_end = sb_scrub_run(h->req.token, h->token_len, h->win, h->win_len, n == 0,
		                           h->sout, &keep);
		h->sout_start = 0;
		memmove(h->win, h->win + h->win_len - keep, keep);
		h->win_len = keep;
		h->scrub_eof = n == 0;
	}
	return SB_OK;
}

int64_t sb_http_bytes(const sb_http *h)
{
	return h->total_bytes;
}

int sb_http_pages(const sb_http *h)
{
	return h->pages;
}

void sb_http_close(sb_http *h)
{
	if (h == NULL)
		return;
	if (h->added)
		curl_multi_remove_handle(h->multi, h->easy);
	if (h->easy != NULL)
		curl_easy_cleanup(h->easy);
	if (h->multi != NULL)
		curl_multi_cleanup(h->multi);
	z_end(h);
	curl_slist_free_all(h->headers);
	free(h->page_url);
	free(h->effective);
	free(h->buf);
	free(h->link_next);
	free(h->cursor);
	free(h->win);
	free(h->sout);
	free(h);
}
