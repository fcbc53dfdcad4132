#!/usr/bin/env python3
"""hostile.py: hostile input files for every importer, on standard output.

    python3 tests/reliability/hostile.py FORMAT KIND

FORMAT is an importer: runs, record, focus, modal, daytona, e2b-events,
deepinfra-usage.  KIND is what is wrong with the file:

  random     4 KiB of random bytes (the same bytes every time)
  nesting    good records around one whose field nests 100,000 levels deep
  long       good records around one with a 20 MB string (under the 64 MiB
             limit of a record)
  toolong    good records around one of 70 MB (past the limit)
  utf8       good records around ones with invalid UTF-8 (bad bytes inside
             and outside strings, an overlong encoding, a lone surrogate)
  nan        good records around ones with NaN, Infinity, -Infinity and
             1e999 where numbers are due (as numbers and as text)
  bigint     good records around ones with integers past 64 bits and
             amounts past int64 nanodollars
  overflow   records each within int64 whose sums are not (a run's
             executions; 9 billion USD twice for one backend and period)
  bomcrlf    good records only, with a byte-order mark and CRLF line ends
  empty      no bytes at all
  sql        good records whose every text field looks like SQL or a
             format string, to be stored verbatim

Every good record is one the importer accepts, with an id "good-N"; bad
ones have ids "bad-N" where they have ids.  The same arguments always
give the same bytes.
"""
import json
import random
import sys

FORMATS = ["runs", "record", "focus", "modal", "daytona", "e2b-events", "deepinfra-usage"]
SQL = ["'); DROP TABLE run; --", "\" OR 1=1 --", "x'; DELETE FROM billing_line WHERE '1'='1",
       "%s%s%n%x", "Robert'); DROP TABLE batch;--", "\\'; SELECT sqlite_version(); --"]


def run(i, **over):
    """A good run record (a dict)."""
    rec = {"run_id": "good-%d" % i, "backend": "e2b", "session_id": "s-%d" % i,
           "started_at": "2026-11-0%dT10:00:00Z" % (1 + i % 9), "ended_at": "2026-11-0%dT10:05:00Z" % (1 + i % 9),
           "tags": {"customer": "acme"},
           "sandbox_usage": {"exec_count": 1, "total_duration_ms": 1000, "cpu_ms": 10,
                             "computed_cost_usd": 0.001,
                             "executions": [{"command": "ls", "duration_ms": 1000, "cpu_ms": 10,
                                             "cost_usd": 0.001}]}}
    rec.update(over)
    return rec


def record(i, **over):
    rec = {"backend": "cloudflare", "session_id": "s-%d" % i, "cost_usd": 0.25, "currency": "USD",
           "unit": "seconds", "raw": {"id": i}, "period_start": "2026-11-04T01:00:00Z",
           "period_end": "2026-11-04T02:00:00Z", "line_id": "good-%d" % i}
    rec.update(over)
    return rec


def modal(i, **over):
    rec = {"object_id": "good-%d" % i, "description": "sandbox", "environment": "main",
           "interval_start": "2026-11-04T00:00:00", "cost": "1.019045", "tags": {}}
    rec.update(over)
    return rec


def daytona(i, **over):
    rec = {"sandboxId": "good-%d" % i, "firstStart": "2026-11-04T00:29:36.399Z",
           "lastEnd": "2026-11-04T00:34:25.913Z", "totalCPUSeconds": 579.028, "totalRAMGBSeconds": 1158.056,
           "totalDiskGBSeconds": 0, "totalGPUSeconds": 0, "totalPrice": 0.386019}
    rec.update(over)
    return rec


def e2b(i, **over):
    rec = {"id": "good-%d" % i, "type": "sandbox.lifecycle.killed", "sandbox_id": "e2b-%d" % i,
           "timestamp": "2026-11-04T10:13:35.242Z",
           "event_data": {"execution": {"started_at": "2026-11-04T10:08:25.564Z", "vcpu_count": 2,
                                        "memory_mb": 1024, "execution_time": 309678}}}
    rec.update(over)
    return rec


def month(i, **over):
    rec = {"period": "2026-%02d" % (1 + i % 12), "total_cost": 90210 + i}
    rec.update(over)
    return rec


MAKERS = {"runs": run, "record": record, "modal": modal, "daytona": daytona, "e2b-events": e2b,
          "deepinfra-usage": month}

FOCUS_HEADER = ("BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,"
                "ServiceProviderName,ResourceId,InvoiceId,Tags,x_Note")


def focus_row(i, cost="0.047588", currency="USD", start="2026-11-02T00:00:00Z",
              end="2026-11-03T00:00:00Z", category="Usage", provider="Vercel", resource=None,
              invoice="INV-1", tags='{"env":"prod"}', note="n"):
    def cell(v):
        v = str(v)
        if any(c in v for c in ',"\r\n'):
            return '"' + v.replace('"', '""') + '"'
        return v
    resource = "good-%d" % i if resource is None else resource
    return ",".join(cell(v) for v in [cost, currency, start, end, category, provider, resource,
                                      invoice, tags, note])


def out(data):
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    sys.stdout.buffer.write(data)


def frame(fmt, items, crlf=False, bom=False):
    """Records (bytes each) in the file shape of fmt."""
    nl = b"\r\n" if crlf else b"\n"
    head = b"\xef\xbb\xbf" if bom else b""
    if fmt in ("runs", "record"):
        return head + b"".join(x + nl for x in items)
    if fmt == "focus":
        return head + FOCUS_HEADER.encode() + nl + b"".join(x + nl for x in items)
    body = (b"," + nl).join(items)
    if fmt == "deepinfra-usage":
        return head + b'{"initial_month": "2026-01", "months": [' + nl + body + nl + b"]}" + nl
    return head + b"[" + nl + body + nl + b"]" + nl


def good(fmt, i):
    if fmt == "focus":
        return focus_row(i).encode()
    return json.dumps(MAKERS[fmt](i)).encode()


def with_field(fmt, i, raw):
    """A record of fmt whose main text field holds the raw bytes (already
    JSON text for JSON formats: inserted as is)."""
    if fmt == "focus":
        return focus_row(i, resource="@@").encode().replace(b"@@", raw)
    key = {"runs": "session_id", "record": "session_id", "modal": "description", "daytona": "sandboxId",
           "e2b-events": "sandbox_id", "deepinfra-usage": "period"}[fmt]
    return json.dumps(MAKERS[fmt](i, **{key: "@@"})).encode().replace(b'"@@"', raw)


def main():
    fmt, kind = sys.argv[1], sys.argv[2]
    if fmt not in FORMATS:
        sys.exit("hostile.py: no format %s (one of %s)" % (fmt, ", ".join(FORMATS)))
    r = random.Random(sum(map(ord, fmt + kind)))
    g = lambda i: good(fmt, i)
    if kind == "random":
        out(bytes(r.randrange(256) for _ in range(4096)))
    elif kind == "empty":
        pass
    elif kind == "nesting":
        deep = b"[" * 100000 + b"]" * 100000
        if fmt == "focus":
            out(frame(fmt, [g(1), focus_row(2, tags="[" * 100000 + "]" * 100000).encode(), g(3)]))
        else:
            out(frame(fmt, [g(1), with_field(fmt, 2, deep), g(3)]))
    elif kind in ("long", "toolong"):
        n = 20 * 1000 * 1000 if kind == "long" else 70 * 1000 * 1000
        text = b"x" * n
        big = focus_row(2, note="@@").encode().replace(b"@@", text) if fmt == "focus" \
            else with_field(fmt, 2, b'"' + text + b'"')
        out(frame(fmt, [g(1), big, g(3)]))
    elif kind == "utf8":
        bad = [b'"\xff\xfe bad bytes"', b'"over\xc0\xaflong"', b'"lone \\ud800 surrogate"',
               b'"cut \xe2\x82"']
        items = [g(1)]
        for k, b in enumerate(bad):
            items.append(with_field(fmt, 10 + k, b[1:-1] if fmt == "focus" else b))
        if fmt != "focus":   # a bad byte outside any string
            items.append(with_field(fmt, 20, b'"ok"')[:-1] + b" \xff}")
        items.append(g(3))
        out(frame(fmt, items))
    elif kind == "nan":
        values = ["NaN", "Infinity", "-Infinity", "1e999"]
        items = [g(1)]
        for k, v in enumerate(values):
            if fmt == "focus":
                items.append(focus_row(10 + k, cost=v).encode())
            else:
                items.append(money_record(fmt, 10 + k, v.encode()))
                items.append(money_record(fmt, 20 + k, json.dumps(v).encode()))
        items.append(g(3))
        out(frame(fmt, items))
    elif kind == "bigint":
        values = [b"99999999999999999999", b"-99999999999999999999", b"18446744073709551616",
                  b"9223372036854775807", b"1e30"]
        items = [g(1)]
        for k, v in enumerate(values):
            if fmt == "focus":
                items.append(focus_row(10 + k, cost=v.decode()).encode())
                items.append(focus_row(20 + k, cost=v.decode() + ".5").encode())
            else:
                items.append(money_record(fmt, 10 + k, v))
                items.append(money_record(fmt, 20 + k, b'"' + v + b'"'))
                items.append(count_record(fmt, 30 + k, v))
        items.append(g(3))
        out(frame(fmt, items))
    elif kind == "overflow":
        out(frame(fmt, [g(1)] + overflow_records(fmt) + [g(3)]))
    elif kind == "bomcrlf":
        out(frame(fmt, [g(1), g(2), g(3)], crlf=True, bom=True))
    elif kind == "sql":
        items = []
        for k, s in enumerate(SQL):
            if fmt == "focus":
                items.append(focus_row(k, resource=s, invoice=s, note=s, tags=json.dumps({"k": s})).encode())
            else:
                items.append(sql_record(fmt, k, s))
        out(frame(fmt, items))
    else:
        sys.exit("hostile.py: no kind %s" % kind)


def money_record(fmt, i, raw):
    """A record of fmt whose amount is the raw JSON text."""
    key = {"runs": "budget_usd", "record": "cost_usd", "modal": "cost", "daytona": "totalPrice",
           "e2b-events": None, "deepinfra-usage": "total_cost"}[fmt]
    if key is None:   # metered: the execution time is the number
        rec = e2b(i)
        rec["id"] = "bad-%d" % i
        rec["event_data"]["execution"]["execution_time"] = "@@"
        return json.dumps(rec).encode().replace(b'"@@"', raw)
    rec = MAKERS[fmt](i, **{key: "@@"})
    for idk in ("run_id", "line_id", "object_id", "sandboxId", "id"):
        if idk in rec:
            rec[idk] = "bad-%d" % i
    return json.dumps(rec).encode().replace(b'"@@"', raw)


def count_record(fmt, i, raw):
    """A record of fmt whose counter (a whole number) is the raw JSON text."""
    if fmt == "runs":
        rec = run(i, run_id="bad-%d" % i)
        rec["sandbox_usage"] = {"exec_count": "@@"}
    elif fmt == "e2b-events":
        rec = e2b(i, id="bad-%d" % i)
        rec["event_data"]["execution"]["vcpu_count"] = "@@"
    elif fmt == "daytona":
        rec = daytona(i, sandboxId="bad-%d" % i, totalCPUSeconds="@@")
    elif fmt == "deepinfra-usage":
        rec = month(i, total_cost="@@", period="2027-%02d" % (1 + i % 12))
    elif fmt == "modal":
        rec = modal(i, object_id="bad-%d" % i, tags={"n": "@@"})
    else:
        rec = record(i, line_id="bad-%d" % i, raw={"n": "@@"})
    return json.dumps(rec).encode().replace(b'"@@"', raw)


def overflow_records(fmt):
    """Records each valid alone whose sums pass int64 nanodollars."""
    big = 9 * 10 ** 9   # USD: 9e18 nanodollars, just under 2^63
    if fmt == "runs":
        half = 2 ** 62
        execs = [{"command": "a", "duration_ms": half}, {"command": "b", "duration_ms": half}]
        return [json.dumps(run(10, run_id="bad-10", sandbox_usage={
                    "exec_count": 2, "total_duration_ms": 0, "executions": execs})).encode(),
                json.dumps(run(11, run_id="big-11", sandbox_usage={"exec_count": 1, "computed_cost_usd": big,
                                                                    "billed_cost_usd": big})).encode(),
                json.dumps(run(12, run_id="big-12", sandbox_usage={"exec_count": 1, "computed_cost_usd": big,
                                                                    "billed_cost_usd": big})).encode()]
    if fmt == "focus":
        return [focus_row(10, cost=str(big), resource="big-10").encode(),
                focus_row(11, cost=str(big), resource="big-11").encode()]
    if fmt == "e2b-events":
        rec = e2b(10, id="bad-10")
        rec["event_data"]["execution"].update(vcpu_count=2 ** 40, execution_time=2 ** 40)
        a, b = e2b(11, id="big-11"), e2b(12, id="big-12")
        for x in (a, b):
            x["event_data"]["execution"].update(vcpu_count=2 ** 20, execution_time=2 ** 40)
        return [json.dumps(x).encode() for x in (rec, a, b)]
    key = {"record": "cost_usd", "modal": "cost", "daytona": "totalPrice", "deepinfra-usage": "total_cost"}[fmt]
    value = big if fmt != "deepinfra-usage" else big * 100   # DeepInfra counts cents
    value = str(value) if fmt == "modal" else value
    recs = []
    for i in (10, 11):
        over = {key: value}
        if fmt == "deepinfra-usage":
            over["period"] = "2026-11" if i == 10 else "2026-12"
        recs.append(MAKERS[fmt](i, **over))
        for idk in ("line_id", "object_id", "sandboxId"):
            if idk in recs[-1]:
                recs[-1][idk] = "big-%d" % i
    return [json.dumps(x).encode() for x in recs]


def sql_record(fmt, i, s):
    """A good record of fmt with s in every text field it keeps."""
    if fmt == "runs":
        rec = run(i, run_id="sql-%d %s" % (i, s), session_id=s, plan=s, tags={"customer": s, s: "v"},
                  token_usage={"model": s, "input_tokens": 1, "output_tokens": 1}, note=s)
        rec["sandbox_usage"]["executions"][0]["command"] = s
    elif fmt == "record":
        rec = record(i, session_id=s, unit=s, raw={"q": s}, line_id="sql-%d %s" % (i, s))
    elif fmt == "modal":
        rec = modal(i, object_id="sql-%d %s" % (i, s), description=s, environment=s, tags={"t": s})
    elif fmt == "daytona":
        rec = daytona(i, sandboxId="sql-%d %s" % (i, s), note=s)
    elif fmt == "e2b-events":
        rec = e2b(i, id="sql-%d %s" % (i, s), sandbox_id=s, sandbox_execution_id=s)
    else:
        rec = month(i, note=s)
    return json.dumps(rec).encode()


if __name__ == "__main__":
    main()
