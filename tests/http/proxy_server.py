#!/usr/bin/env python3
"""proxy_server.py: a small HTTP proxy on 127.0.0.1 for tests/http/run.sh,
to see which requests go through a proxy.

    proxy_server.py --port-file FILE --log FILE

It listens on a free port (written to --port-file once it listens).  Every
connection adds one line to --log: the method and the target of its first
request line ("CONNECT 127.0.0.1:4443", "GET http://127.0.0.1:8080/...")
and whether it carried an Authorization header (never the header's value).
A CONNECT is tunnelled to its target (so https through this proxy works);
any other request is answered 502 and closed: a request that should never
have come here fails, and the log says it came.
"""
import argparse
import os
import socket
import sys
import threading


def pipe(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(conn, log, lock):
    head = b""
    while b"\r\n\r\n" not in head and len(head) < 65536:
        data = conn.recv(4096)
        if not data:
            break
        head += data
    first, _, rest = head.partition(b"\r\n")
    parts = first.decode("latin-1").split(" ")
    method = parts[0] if parts else "-"
    target = parts[1] if len(parts) > 1 else "-"
    auth = b"\nauthorization:" in (b"\n" + rest.lower())
    with lock, open(log, "a") as f:
        f.write("%s %s auth=%s\n" % (method, target.split("?")[0], "yes" if auth else "no"))
    if method == "CONNECT":
        host, _, port = target.rpartition(":")
        try:
            up = socket.create_connection((host.strip("[]"), int(port)), timeout=10)
        except OSError:
            conn.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            conn.close()
            return
        conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        body = head.partition(b"\r\n\r\n")[2]
        if body:
            up.sendall(body)
        threading.Thread(target=pipe, args=(up, conn), daemon=True).start()
        pipe(conn, up)
        return
    conn.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    args = ap.parse_args()
    lock = threading.Lock()
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    open(args.log, "a").close()
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.getsockname()[1])
    os.rename(tmp, args.port_file)
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=serve, args=(conn, args.log, lock), daemon=True).start()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(0)
