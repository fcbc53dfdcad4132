/* http.c: the HTTP client of the provider APIs (see http.h). */
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

#include <curl/curl.h>
#include <jansson.h>

enum {
	PENDING_MAX = 256 * 1024,   /* body bytes held before the transfer is paused */
	ERROR_BODY_MAX = 2048,      /* bytes of an error response kept for the message */
	URL_MAX = 8192,             /* longest URL taken from a Link header */
	CURSOR_MAX = 2048,          /* longest cursor */
	PAGES_MAX = 100000          /* more pages than this is a loop */
};

struct sb_http {
	sb_http_req req;            /* the request (strings borrowed) */
	sb_http_opts o;             /* options, defaults filled in */
	CURLM *multi;               /* drives the transfer */
	CURL *easy;                 /* the transfer */
	bool added;                 /* easy is in multi */
	struct curl_slist *headers; /* request headers */
	char *page_url;             /* the page being read (allocated) */
	char *buf;                  /* body bytes received, not yet handed out */
	size_t buf_cap;             /* allocated */
	size_t start, end;          /* pending bytes are buf[start..end) */
	bool paused;                /* the write callback paused the transfer */
	bool done;                  /* the transfer ended */
	CURLcode result;            /* how */
	bool too_big;               /* the body passed max_bytes */
	bool collect_only;          /* error body: keep at most ERROR_BODY_MAX bytes */
	int64_t total_bytes;        /* body bytes over all pages */
	int64_t page_bytes;         /* body bytes of this page */
	long status;                /* the status of the last header block */
	char reason[64];            /* its reason phrase, when the server sent one */
	char *link_next;            /* Link rel="next" of this page, NULL if none */
	char *cursor;               /* the cursor header of this page, NULL if none */
	bool last_nl;               /* the last byte handed out was '\n' */
	bool need_sep;              /* hand out a '\n' before the next page */
	int pages;                  /* pages fetched */
	char errbuf[CURL_ERROR_SIZE]; /* curl's detail of a failure */
};

/* ---- small helpers ------------------------------------------------------ */

/* Replace every occurrence of token in msg by "[key]", so that no message
 * can carry the key even when a server echoes it. */
static void scrub(char *msg, const char *token)
{
	size_t tlen = token != NULL ? strlen(token) : 0;
	char *p;

	if (tlen < 4)
		return;
	while ((p = strstr(msg, token)) != NULL) {
		size_t rest = strlen(p + tlen);
		memcpy(p, "[key]", 5);
		memmove(p + 5, p + tlen, rest + 1);
	}
}

/* Return e's code after scrubbing the token out of its message. */
static int done_err(const sb_http_req *req, sb_err *e)
{
	if (e->code != SB_OK)
		scrub(e->msg, req->token);
	return e->code;
}

/* A whole number from the environment into *out (unchanged when unset). */
static int env_long(const char *name, long *out, sb_err *e)
{
	const char *v = getenv(name);
	char *end = NULL;
	long n;

	if (v == NULL || v[0] == '\0')
		return SB_OK;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0' || n < 0)
		return sb_fail(e, SB_EUSAGE, "%s='%s' is not a non-negative whole number", name, v);
	*out = n;
	return SB_OK;
}

int sb_http_opts_init(sb_http_opts *o, sb_err *e)
{
	long retries = SB_HTTP_RETRIES;

	memset(o, 0, sizeof *o);
	o->connect_timeout_ms = SB_HTTP_CONNECT_TIMEOUT_MS;
	o->timeout_ms = SB_HTTP_TIMEOUT_MS;
	o->backoff_ms = SB_HTTP_BACKOFF_MS;
	o->max_wait_ms = SB_HTTP_MAX_WAIT_MS;
	o->max_bytes = SB_HTTP_MAX_BYTES;
	if (env_long("SBLEDGER_HTTP_BACKOFF_MS", &o->backoff_ms, e) != SB_OK ||
	    env_long("SBLEDGER_HTTP_RETRIES", &retries, e) != SB_OK ||
	    env_long("SBLEDGER_HTTP_TIMEOUT_MS", &o->timeout_ms, e) != SB_OK)
		return e->code;
	o->retries = retries > 100 ? 100 : (int)retries;
	o->ca_file = getenv("SBLEDGER_CA_BUNDLE");
	if (o->ca_file != NULL && o->ca_file[0] == '\0')
		o->ca_file = NULL;
	return SB_OK;
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

/* True when host (as CURLU gives it) is a loopback address. */
static bool loopback(const char *host)
{
	return strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 ||
	       strcmp(host, "[::1]") == 0;
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

/* libcurl's header callback: status line, Link and the cursor header. */
static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
	sb_http *h = ud;
	size_t len = size * n, name_len;
	const char *colon;

	if (len >= 5 && strncmp(p, "HTTP/", 5) == 0) {
		/* a new header block (a redirect, 100 Continue, the response):
		 * "HTTP/1.1 503 Service Unavailable" */
		char line[256];
		const char *sp, *r;
		size_t ll = len < sizeof line - 1 ? len : sizeof line - 1;
		memcpy(line, p, ll);
		line[ll] = '\0';
		line[strcspn(line, "\r\n")] = '\0';
		free(h->link_next);
		free(h->cursor);
		h->link_next = h->cursor = NULL;
		h->reason[0] = '\0';
		h->status = 0;
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
		if (h->req.paging.kind == SB_PAGE_LINK && name_len == 4 && strncasecmp(p, "link", 4) == 0 &&
		    h->link_next == NULL) {
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

/* libcurl's write callback: keep the bytes for sb_http_read, pausing the
 * transfer while PENDING_MAX bytes wait. */
static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
	sb_http *h = ud;
	size_t len = size * n, pending = h->end - h->start;

	if (h->collect_only) {
		size_t room = pending < ERROR_BODY_MAX ? ERROR_BODY_MAX - pending : 0;
		if (len > room)
			len = room;
	} else {
		if (h->total_bytes + (int64_t)len > h->o.max_bytes) {
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
	if (!h->collect_only) {
		h->total_bytes += (int64_t)len;
		h->page_bytes += (int64_t)len;
	}
	return size * n;
}

/* ---- one transfer ------------------------------------------------------- */

/* Start fetching url (a fresh transfer on the kept connection pool). */
static int start(sb_http *h, const char *url, sb_err *e)
{
	CURL *c = h->easy;

	if (h->added) {
		curl_multi_remove_handle(h->multi, c);
		h->added = false;
	}
	curl_easy_reset(c);
	h->start = h->end = 0;
	h->paused = h->done = h->too_big = false;
	h->result = CURLE_OK;
	h->collect_only = false;
	h->page_bytes = 0;
	h->status = 0;
	h->reason[0] = '\0';
	h->errbuf[0] = '\0';
	free(h->link_next);
	free(h->cursor);
	h->link_next = h->cursor = NULL;
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	/* a redirect never goes from https down to http */
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR,
	                 strncmp(url, "https:", 6) == 0 ? "https" : "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	if (h->o.ca_file != NULL)
		curl_easy_setopt(c, CURLOPT_CAINFO, h->o.ca_file);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, h->o.connect_timeout_ms);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, h->o.timeout_ms);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "sbledger/0.1");
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h->headers);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, h->errbuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, h);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, h);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)(h->o.max_bytes - h->total_bytes));
	if (h->req.token != NULL) {
		/* sent to this host only: libcurl does not pass credentials on to
		 * another host when it follows a redirect */
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
		return sb_fail(e, SB_EDATA, "%s: the response is larger than the limit of %lld bytes "
		               "(--max-bytes)", h->page_url, (long long)h->o.max_bytes);
	switch (rc) {
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
		return sb_fail(e, SB_EREFUSED, "%s: TLS: %s (the certificate is always verified; "
		               "--cacert FILE or SBLEDGER_CA_BUNDLE trusts another CA)", h->page_url,
		               curl_reason(h));
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

/* The message of an error response: the "message", "detail" or "error"
 * of a JSON body, else its first printable bytes, into out. */
static void error_body(const sb_http *h, char *out, size_t cap)
{
	const char *text = h->buf != NULL ? h->buf + h->start : "";
	size_t len = h->end - h->start, o = 0;
	json_t *j = len > 0 ? json_loadb(text, len, 0, NULL) : NULL;
	const char *msg = NULL;

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

/* Fail e for a refusing status (4xx and others not retried). */
static int fail_status(sb_http *h, sb_err *e)
{
	char st[96], body[256], said[300] = "";
	const char *who = h->req.who != NULL ? h->req.who : "the provider";
	const char *key = h->req.token_name != NULL ? h->req.token_name : "the key";

	error_body(h, body, sizeof body);
	if (body[0] != '\0')
		snprintf(said, sizeof said, " (it said: %s)", body);
	status_line(h, st);
	switch (h->status) {
	case 401:
		return sb_fail(e, SB_EREFUSED, "%s refused the key in %s: %s%s; check the key, or "
		               "make a new one", who, key, st, said);
	case 402:
		return sb_fail(e, SB_EREFUSED, "%s says the account is suspended: %s%s; settle the "
		               "account's payment with %s, then run this again", who, st, said, who);
	case 403:
		return sb_fail(e, SB_EREFUSED, "%s: the key in %s may not read %s: %s%s; give the "
		               "key billing access", who, key, h->page_url, st, said);
	case 404:
		return sb_fail(e, SB_EREFUSED, "%s: %s: %s%s; check --base-url", who, h->page_url, st,
		               said);
	default:
		return sb_fail(e, SB_EREFUSED, "%s refused %s: %s%s", who, h->page_url, st, said);
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

/* Fetch url until its status is 2xx (then the body is ready to read),
 * retrying as http.h says. */
static int open_page(sb_http *h, const char *url, sb_err *e)
{
	int attempts = h->o.retries + 1;
	char st[96];

	free(h->page_url);
	if ((h->page_url = strdup(url)) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	for (int attempt = 1;; attempt++) {
		long retry_after_ms = 0, wait;
		const char *why;
		trace(h, "GET %s%s", url, attempt > 1 ? " (again)" : "");
		if (start(h, url, e) != SB_OK || pump(h, e) != SB_OK)
			return e->code;
		if (h->done && h->result != CURLE_OK && h->end == h->start) {
			if (!transport_retryable(h->result) || h->too_big)
				return fail_transport(h, e);
			why = curl_reason(h);
			trace(h, "failed: %s", why);
			if (attempt >= attempts)
				return sb_fail(e, SB_ETEMP, "%s: %s (%d %s); try again later", url, why, attempts,
				               attempts == 1 ? "attempt" : "attempts");
			wait = backoff(h, attempt, 0);
			if (h->o.events.on_retry != NULL)
				h->o.events.on_retry(h->o.events.ctx, url, 0, why, attempt, attempts, wait);
			sleep_ms(wait);
			continue;
		}
		curl_easy_getinfo(h->easy, CURLINFO_RESPONSE_CODE, &h->status);
		trace(h, "HTTP %s", status_line(h, st));
		if (h->status >= 200 && h->status < 300) {
			h->pages++;
			return SB_OK;
		}
		/* an error response: keep the start of its body for the message */
		h->collect_only = true;
		while (!h->done && h->end - h->start < ERROR_BODY_MAX)
			if (step(h, e) != SB_OK)
				return e->code;
		if (h->status != 429 && (h->status < 500 || h->status > 599))
			return fail_status(h, e);
		{
			curl_off_t ra = -1;
			if (curl_easy_getinfo(h->easy, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra > 0)
				retry_after_ms = ra > 86400 ? 86400000L : (long)ra * 1000L;
		}
		if (attempt >= attempts)
			return sb_fail(e, SB_ETEMP, "%s: %s (%d %s); try again later", url, st, attempts,
			               attempts == 1 ? "attempt" : "attempts");
		wait = backoff(h, attempt, retry_after_ms);
		if (h->o.events.on_retry != NULL)
			h->o.events.on_retry(h->o.events.ctx, url, h->status, st, attempt, attempts, wait);
		sleep_ms(wait);
	}
}

/* The next page's URL (malloc'd) into *next, NULL when this was the last. */
static int next_page(sb_http *h, char **next, sb_err *e)
{
	char *url = NULL, *effective = NULL;

	*next = NULL;
	if (h->req.paging.kind == SB_PAGE_LINK && h->link_next != NULL) {
		curl_easy_getinfo(h->easy, CURLINFO_EFFECTIVE_URL, &effective);
		url = resolve(effective != NULL ? effective : h->page_url, h->link_next);
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
	/* the key goes to the first page's host only */
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
	char scheme[16], host[256], port[16];

	*out = NULL;
	if (global_init(e) != SB_OK)
		return e->code;
	if (req->token != NULL) {
		for (const char *c = req->token; *c != '\0'; c++)
			if ((unsigned char)*c < 0x21 || *c == 0x7f)
				return sb_fail(e, SB_EUSAGE, "%s holds a space or control character: give the "
				               "key alone", req->token_name != NULL ? req->token_name : "the key");
		if (!origin(req->url, scheme, host, port))
			return sb_fail(e, SB_EUSAGE, "'%s' is not a URL", req->url);
		if (strcmp(scheme, "https") != 0 && !loopback(host))
			return sb_fail(e, SB_EUSAGE, "%s: refusing to send %s over plain http to %s: use "
			               "https", req->url, req->token_name != NULL ? req->token_name : "the key",
			               host);
	}
	if ((h = calloc(1, sizeof *h)) == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	h->req = *req;
	h->o = *o;
	fill_defaults(&h->o);
	h->last_nl = true;
	if ((h->multi = curl_multi_init()) == NULL || (h->easy = curl_easy_init()) == NULL) {
		sb_http_close(h);
		return sb_fail(e, SB_EINTERNAL, "libcurl cannot make a transfer");
	}
	if (req->accept != NULL) {
		char accept[256];
		snprintf(accept, sizeof accept, "Accept: %s", req->accept);
		if ((h->headers = curl_slist_append(NULL, accept)) == NULL) {
			sb_http_close(h);
			return sb_fail(e, SB_EINTERNAL, "out of memory");
		}
	}
	if (open_page(h, req->url, e) != SB_OK) {
		sb_http_close(h);
		return done_err(req, e);
	}
	*out = h;
	return SB_OK;
}

int sb_http_read(void *ctx, char *buf, size_t cap, size_t *got, sb_err *e)
{
	sb_http *h = ctx;

	*got = 0;
	while (cap > 0) {
		size_t pending;
		char *next = NULL;
		if (h->need_sep) {
			buf[0] = '\n';
			*got = 1;
			h->need_sep = false;
			h->last_nl = true;
			return SB_OK;
		}
		if (pump(h, e) != SB_OK)
			return done_err(&h->req, e);
		pending = h->end - h->start;
		if (pending > 0) {
			size_t n = pending < cap ? pending : cap;
			memcpy(buf, h->buf + h->start, n);
			h->start += n;
			h->last_nl = buf[n - 1] == '\n';
			*got = n;
			return SB_OK;
		}
		/* the page has ended */
		if (h->result != CURLE_OK) {
			fail_transport(h, e);
			return done_err(&h->req, e);
		}
		trace(h, "page %d: %lld bytes", h->pages, (long long)h->page_bytes);
		if (next_page(h, &next, e) != SB_OK)
			return done_err(&h->req, e);
		if (next == NULL)
			return SB_OK;
		if (!h->last_nl)
			h->need_sep = true;
		if (open_page(h, next, e) != SB_OK) {
			free(next);
			return done_err(&h->req, e);
		}
		free(next);
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
	curl_slist_free_all(h->headers);
	free(h->page_url);
	free(h->buf);
	free(h->link_next);
	free(h->cursor);
	free(h);
}
