#!/usr/bin/env python3
"""provider_server.py: a small HTTP server on the loopback that plays the
provider APIs of docs/providers.md for the tests (tests/http/run.sh).

    provider_server.py --port-file FILE --key KEY --log FILE
                       [--fixtures DIR] [--tls CERT KEYFILE] [--host ADDRESS]

It listens on a free port of 127.0.0.1 (or of --host: ::1 for IPv6),
written to --port-file once it listens, and answers GET requests whose
first path segment picks a scenario, so that a test chooses one with
--base-url http://127.0.0.1:PORT/SCENARIO:

    ok         correct responses (catalog, usage, FOCUS JSON Lines)
    paged      the charges in pages of 2 lines, Link: <...>; rel="next"
    gzip       the charges gzip-compressed whatever the client asked for (a
               server that compresses although sbledger asks for identity)
    gzip2      the same as two gzip members, one after the other (RFC 1952)
    gzipcut    the charges' first two lines gzip-compressed and cut at a
               flush point: no gzip trailer, yet complete at the HTTP level
               (Content-Length is what is sent)
    gzipjunk   a whole gzip stream followed by bytes that are not gzip
    br         Content-Encoding: br (an encoding sbledger does not decode)
    short      a 200 whose body ends at a line end, before its Content-Length
    chunked    the charges in chunks of one line (Transfer-Encoding: chunked)
    chunkcut   the same, the connection closed at a line end without the last
               (zero-length) chunk
    closecut   a 200 with neither Content-Length nor chunks, closed at a line
               end: its end cannot be told from a cut connection
    echo       bodies that echo the key in JSON: raw, percent-encoded in upper
               and lower case, and as JSON \\u escapes
    echohdr    a 200 whose body is the request's own headers, key included: the
               header block as text (catalog), a JSON line (charges)
    split      echo's charges sent in chunks that cut the key in two, with a
               pause between them, so that the key arrives in two reads
    echolink   paged, the next-page link carrying the key percent-encoded
    retry429   429 with Retry-After: 1 on the first request, then as ok
    retry503   503 on the first request, then as ok
    s503       503 always
    s401       401 with a JSON error
    s402       402 (account suspended)
    s403       403
    echo401    401 whose body echoes the Authorization header back
    cut        a 200 whose body stops mid-line (Content-Length promised more)
    cutclose   a 200 without Content-Length, closed after half a line
    shape      a 200 with JSON of the wrong shape for the endpoint
    slow       waits 5 s before answering
    big        a 200 of 3 MB of valid JSON Lines
    empty      a 200 with an empty body
    offsite    a Link to another host on the first page
    redirect   a 302 to the same path on another host name (localhost)
    redirok    a 302 to the same path under ok, on this host, the Location
               carrying the key percent-encoded in its query
    redirloop  a 302 to redirloop2, which sends a 302 back to redirloop
    redirmany.N  N redirects in a row (redirmany.N to redirmany.N-1 ... to ok)
    redirtls.PORT   a 302 to https://127.0.0.1:PORT/ok/... (another origin)
    tohttp.PORT     a 302 to http://127.0.0.1:PORT/fromtls/... (https down to
                    plain http; fromtls answers as ok)
    prices     a catalog of prices that need exact rounding
    daily      the charges of the day asked for (from=): that day's usage,
               10.00 on Nov 1, 11.00 on Nov 2, ..., and the month's plan fee
               so far (Nov 1 to Dec 1: 20.00, 25.00 from Nov 3 on)

A scenario may carry a suffix after a dot (retry429.t7) so that each test
has its own request counter.  Every request must carry
"Authorization: Bearer KEY", else 401.  The log gets one line per request:
scenario, path, query and whether the key matched, never the key; LOG.hdr
gets the scenario and the Accept-Encoding the request carried.
"""
import argparse
import gzip
import zlib
import json
import os
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs, quote

COUNTS = {}
LOCK = threading.Lock()

CATALOG = [
    {"id": "small", "vcpu": 2, "ram_gb": 4, "disk_gb": 20, "price_per_hour": 0.04},
    {"id": "medium", "vcpu": 4, "ram_gb": 8, "disk_gb": 40, "price_per_hour": 0.08},
    {"id": "large", "vcpu": 8, "ram_gb": 16, "disk_gb": 80, "price_per_hour": 0.16},
]
# prices whose per-minute rate needs exact decimal arithmetic and rounding
# half to even at the nanodollar
PRICES = ('[{"id": "half-down", "price_per_hour": 0.00000003},'
          ' {"id": "half-up", "price_per_hour": 0.00000009},'
          ' {"id": "text-half", "price_per_hour": "0.000000150"},'
          ' {"id": "exp", "price_per_hour": 1e-7},'
          ' {"id": "big", "price_per_hour": 12345.678},'
          ' {"id": "tenth", "price_per_hour": 0.1},'
          ' {"id": "whole", "price_per_hour": 3}]')
USAGE = {"initial_month": "2026-01",
         "months": [{"period": "2026-10", "total_cost": 90210},
                    {"period": "2026-11", "total_cost": 41877}]}


def focus_lines(args):
    """The Vercel charges: FOCUS records, one JSON object per line."""
    path = os.path.join(args.fixtures, "vercel-charges.jsonl")
    with open(path, "rb") as f:
        return [l for l in f.read().split(b"\n") if l.strip()]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-provider/1"

    def log_message(self, fmt, *a):  # no stderr noise; requests go to --log
        pass

    def record(self, scenario, path, query, auth):
        # a URL may carry the key (a next-page link or a redirect that
        # echoes it, a base URL holding it): the log says [key] instead
        key = self.server.args.key
        line = "%s %s %s auth=%s\n" % (scenario, path, query or "-", auth)
        for form in (quote(key, safe=""), key):
            line = line.replace(form, "[key]")
        with LOCK, open(self.server.args.log, "a") as f:
            f.write(line)

    def record_headers(self, scenario):
        line = "%s accept-encoding=%s\n" % (scenario, self.headers.get("Accept-Encoding", "-"))
        line = line.replace(quote(self.server.args.key, safe=""), "[key]")
        with LOCK, open(self.server.args.log + ".hdr", "a") as f:
            f.write(line)

    def echoes(self):
        """The key as an echoing server may write it: raw, percent-encoded
        (upper and lower case hex, every byte), and as JSON \\u escapes."""
        key = self.server.args.key
        upper = quote(key, safe="")
        lower = "".join("%%%02x" % b for b in key.encode())
        uesc = "".join("\\u%04X" % ord(c) for c in key)
        return key, upper, lower, uesc

    def send_chunked(self, parts, last=True, pause=0.0, ctype="application/jsonl"):
        """parts as HTTP/1.1 chunks, a pause after each; without the last
        (zero-length) chunk, the connection is then closed."""
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for part in parts:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.flush()
            if pause:
                time.sleep(pause)
        if last:
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.close_connection = True
        self.wfile.flush()

    def send(self, status, body, ctype="application/json", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        args = self.server.args
        url = urlsplit(self.path)
        parts = url.path.split("/", 2)
        scenario_id = parts[1] if len(parts) > 1 else ""
        scenario = scenario_id.split(".")[0]
        path = "/" + (parts[2] if len(parts) > 2 else "")
        got = self.headers.get("Authorization", "")
        auth = "ok" if got == "Bearer " + args.key else ("missing" if not got else "bad")
        self.record(scenario_id, path, url.query, auth)
        self.record_headers(scenario_id)
        with LOCK:
            COUNTS[scenario_id] = COUNTS.get(scenario_id, 0) + 1
            n = COUNTS[scenario_id]

        if auth != "ok" and scenario not in ("echo401", "echohdr"):
            return self.send(401, b'{"error": {"message": "invalid token"}}')
        if scenario == "s401":
            return self.send(401, b'{"error": {"message": "invalid token"}}')
        if scenario == "echohdr":
            # the request's own headers sent back as the body: the header
            # block as text, or (charges) as one JSON line, as httpbin does
            if path == "/v1/billing/charges":
                line = json.dumps({"headers": dict(self.headers.items())}) + "\n"
                return self.send(200, line.encode(), "application/jsonl")
            head = "%s\r\n%s\r\n" % (self.requestline, str(self.headers).replace("\n", "\r\n"))
            return self.send(200, head.encode(), "text/plain")
        if scenario == "echo401":
            body = json.dumps({"detail": "token %s is not valid" % got}).encode()
            return self.send(401, body)
        if scenario == "s402":
            return self.send(402, b'{"detail": "payment overdue: account suspended"}')
        if scenario == "s403":
            return self.send(403, b'{"message": "forbidden"}')
        if scenario == "s503":
            return self.send(503, b"busy", "text/plain")
        if scenario == "retry429" and n == 1:
            return self.send(429, b'{"message": "slow down"}', headers=[("Retry-After", "1")])
        if scenario == "retry503" and n == 1:
            return self.send(503, b"busy", "text/plain")
        here = self.server.server_address[1]
        rest = path + ("?" + url.query if url.query else "")
        if scenario == "redirect":
            to = "http://localhost:%d/ok%s" % (here, rest)
            return self.send(302, b"", headers=[("Location", to)])
        if scenario == "redirok":
            sig = quote(args.key, safe="")
            to = "/ok%s%ssig=%s" % (rest, "&" if url.query else "?", sig)
            return self.send(302, b"", headers=[("Location", to)])
        if scenario == "redirloop":
            return self.send(302, b"", headers=[("Location", "/redirloop2%s" % rest)])
        if scenario == "redirloop2":
            return self.send(302, b"", headers=[("Location", "/redirloop%s" % rest)])
        if scenario == "redirmany":
            k = int(scenario_id.split(".")[1])
            to = "/redirmany.%d%s" % (k - 1, rest) if k > 1 else "/ok%s" % rest
            return self.send(302, b"", headers=[("Location", to)])
        if scenario == "redirtls":
            port = int(scenario_id.split(".")[1])
            to = "https://127.0.0.1:%d/ok%s" % (port, rest)
            return self.send(302, b"", headers=[("Location", to)])
        if scenario == "tohttp":
            port = int(scenario_id.split(".")[1])
            to = "http://127.0.0.1:%d/fromtls%s" % (port, rest)
            return self.send(302, b"", headers=[("Location", to)])
        if scenario == "slow":
            time.sleep(5)

        ctype = "application/json"
        if path == "/v1/sandboxes/catalog":
            if scenario == "shape":
                return self.send(200, json.dumps({"plans": CATALOG}).encode())
            if scenario == "prices":
                return self.send(200, PRICES.encode())
            body = json.dumps(CATALOG).encode()
            if scenario == "echo":
                # plan ids that carry the key, each form once
                raw, upper, lower, uesc = self.echoes()
                extra = ", ".join('{"id": "%s-%s", "price_per_hour": 0.6}' % (tag, form)
                                  for tag, form in (("raw", raw), ("up", upper),
                                                    ("low", lower), ("esc", uesc)))
                body = body[:-1] + b", " + extra.encode() + b"]"
        elif path == "/payment/usage":
            q = parse_qs(url.query)
            if "from" not in q or "to" not in q:
                return self.send(400, b'{"detail": "from and to are required"}')
            if scenario == "shape":
                return self.send(200, b'{"months": {"period": "2026-11"}}')
            body = json.dumps(USAGE).encode()
            if scenario == "echo":
                raw, upper, lower, uesc = self.echoes()
                body = ('{"initial_month": "2026-01", "months": [{"period": "2026-11", '
                        '"total_cost": 41877, "note": "%s %s %s %s"}]}'
                        % (raw, upper, lower, uesc)).encode()
        elif path == "/v1/billing/charges":
            q = parse_qs(url.query)
            if "from" not in q or "to" not in q:
                return self.send(400, b'{"error": {"message": "from and to are required"}}')
            lines = focus_lines(args)
            if scenario == "shape":
                body = b'{"charge": 1, "currency": "USD"}\n{"charge": 2}\n'
            elif scenario == "big":
                one = lines[0]
                body = b"\n".join([one] * (3 * 1024 * 1024 // (len(one) + 1) + 1)) + b"\n"
            elif scenario == "empty":
                body = b""
            elif scenario in ("echo", "split"):
                raw, upper, lower, uesc = self.echoes()
                echoed = []
                for i, form in enumerate((raw, upper, lower, uesc, raw)):
                    line = lines[i]
                    echoed.append(line[:-1] + (', "ChargeDescription": "key %s"}' % form).encode())
                if scenario == "split":
                    # cut inside the raw key of line 1 and inside the
                    # percent-encoded key of line 2 (after its "%2")
                    text = b"\n".join(echoed) + b"\n"
                    k1 = text.find(raw.encode()) + len(raw) // 2
                    k2 = text.find(b"%", text.find(upper.encode())) + 2
                    parts = [text[:k1], text[k1:k2], text[k2:]]
                    return self.send_chunked(parts, pause=0.3)
                body = b"\n".join(echoed) + b"\n"
            elif scenario == "echolink":
                page = int(q.get("page", ["1"])[0])
                body = b"\n".join(lines[(page - 1) * 2: page * 2])
                headers = []
                if page * 2 < len(lines):
                    headers.append(("Link", "<%s?from=%s&to=%s&page=%d&sig=%s>; rel=\"next\"" % (
                        url.path, quote(q["from"][0]), quote(q["to"][0]), page + 1,
                        quote(args.key, safe=""))))
                return self.send(200, body, "application/jsonl", headers)
            elif scenario == "daily":
                day = int(q["from"][0][8:10])
                usage = {"BilledCost": "%d.00" % (9 + day), "BillingCurrency": "USD",
                         "ChargePeriodStart": "2026-11-%02dT00:00:00Z" % day,
                         "ChargePeriodEnd": "2026-11-%02dT00:00:00Z" % (day + 1),
                         "ChargeCategory": "Usage", "ServiceProviderName": "Vercel",
                         "ServiceName": "Functions"}
                fee = {"BilledCost": "25.00" if day >= 3 else "20.00", "BillingCurrency": "USD",
                       "ChargePeriodStart": "2026-11-01T00:00:00Z",
                       "ChargePeriodEnd": "2026-12-01T00:00:00Z", "ChargeCategory": "Usage",
                       "ServiceProviderName": "Vercel", "ServiceName": "Pro plan"}
                body = (json.dumps(usage) + "\n" + json.dumps(fee) + "\n").encode()
            elif scenario in ("paged", "offsite"):
                page = int(q.get("page", ["1"])[0])
                chunk = lines[(page - 1) * 2: page * 2]
                body = b"\n".join(chunk)  # no final newline: the client joins pages
                headers = []
                if page * 2 < len(lines):
                    if scenario == "offsite":
                        link = "<http://localhost.invalid:1/x?page=2>; rel=\"next\""
                    else:
                        link = "<%s?from=%s&to=%s&page=%d>; rel=\"next\"" % (
                            url.path, q["from"][0], q["to"][0], page + 1)
                    headers.append(("Link", link))
                return self.send(200, body, "application/jsonl", headers)
            else:
                body = b"\n".join(lines) + b"\n"
            if scenario == "gzip":
                return self.send(200, gzip.compress(body), "application/jsonl",
                                 [("Content-Encoding", "gzip")])
            if scenario == "gzip2":
                half = len(lines) // 2
                two = (gzip.compress(b"\n".join(lines[:half]) + b"\n") +
                       gzip.compress(b"\n".join(lines[half:]) + b"\n"))
                return self.send(200, two, "application/jsonl", [("Content-Encoding", "gzip")])
            if scenario == "gzipcut":
                # compress the whole body, but stop at the flush point
                # after line 2: the rest and the trailer never come
                z = zlib.compressobj(9, zlib.DEFLATED, 31)
                cut = z.compress(b"\n".join(lines[:2]) + b"\n") + z.flush(zlib.Z_FULL_FLUSH)
                return self.send(200, cut, "application/jsonl", [("Content-Encoding", "gzip")])
            if scenario == "gzipjunk":
                return self.send(200, gzip.compress(body) + b"not gzip\n", "application/jsonl",
                                 [("Content-Encoding", "gzip")])
            if scenario == "br":
                return self.send(200, body, "application/jsonl", [("Content-Encoding", "br")])
            if scenario == "chunked":
                return self.send_chunked([l + b"\n" for l in lines])
            if scenario == "chunkcut":
                return self.send_chunked([l + b"\n" for l in lines[:2]], last=False)
            ctype = "application/jsonl"
        else:
            return self.send(404, b'{"message": "no such endpoint"}')

        if scenario == "cut":
            # promise the whole body, send part of it, hang up mid-line
            self.send_response(200)
            self.send_header("Content-Type", "application/jsonl")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2 + 7])
            self.wfile.flush()
            self.close_connection = True
            return
        if scenario == "short":
            # the whole body promised, the connection closed at a line end
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            nl = body.find(b"\n")
            self.wfile.write(body[: nl + 1] if nl >= 0 else body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if scenario == "closecut":
            # no length, no chunks: closed at a line end
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Connection", "close")
            self.end_headers()
            nl = body.find(b"\n")
            self.wfile.write(body[: nl + 1] if nl >= 0 else body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if scenario == "cutclose":
            # a body delimited by the end of the connection, ended mid-line
            self.send_response(200)
            self.send_header("Content-Type", "application/jsonl")
            self.send_header("Connection", "close")
            self.end_headers()
            nl = body.find(b"\n")
            self.wfile.write(body[: nl + 1 + 20] if nl >= 0 else body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        return self.send(200, body, ctype)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--fixtures", default=os.path.join(os.path.dirname(__file__), "fixtures"))
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEYFILE"))
    ap.add_argument("--host", default="127.0.0.1", help="the address to listen on (::1 too)")
    args = ap.parse_args()
    server_class = ThreadingHTTPServer
    if ":" in args.host:
        class V6(ThreadingHTTPServer):
            address_family = socket.AF_INET6
        server_class = V6
    httpd = server_class((args.host, 0), Handler)
    httpd.daemon_threads = True
    httpd.args = args
    if args.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.tls[0], args.tls[1])
        httpd.socket = ctx.wrap_socket(httpd.socket, server_side=True)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % httpd.server_address[1])
    os.rename(tmp, args.port_file)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
