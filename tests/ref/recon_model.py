#!/usr/bin/env python3
"""An independent model of the reconciliation rules of docs/reconcile.md,
in Python with exact integers and decimals: billed and its basis, the
windows of billing grids off the UTC edges, the statuses and their
precedence, the flags and the billing lag, the exact tolerance, sessions,
and the verdict of the explanation.  It reads the input files directly
(never the ledger, never the program's code) and prints the result in the
shape of `sbledger reconcile --format json`, so that the two can be
compared (tests/ref/recon_compare.py, tests/cli/cases/recon_model.sh).

usage:
  recon_model.py --period FROM..TO --now TIME [--billing-lag 72h] [--abs-tol 0.01]
                 [--rel-tol 0.05] [--all-sessions] [--tol BACKEND:ABS:REL]...
                 [--runs FILE]... [--billing FORMAT:FILE]...
                 [--supersede FORMAT:FILE@FROM..TO]...
  recon_model.py SAMPLES_DIR FROM TO [NOW]    (every sample file; dates)

FROM, TO and NOW are RFC 3339 timestamps or dates (UTC midnight).  Formats:
record, focus (CSV or JSON Lines), modal, daytona, e2b-events,
deepinfra-usage.  The cards are the seeded ones (per minute of session
life; no per-second rates, so a metered line is never priced here) and
there are no exchange rates (a line not in USD is left out: currency).

The billing files are imported in the order given, one batch each;
--supersede imports its file as a reissue covering [FROM, TO): it
replaces the live lines of other batches of its format that hold one of
its keys, that are the same charge as one of its lines (backend, session,
category and charge identity equal, periods overlapping), or that lie
inside the period (start in it, end by its end) for a backend its lines
have (docs/formats-billing.md).  --tol is `tolerance set`.  Importable:
model(argv) returns the result as a dict.
"""
import argparse
import csv
import io
import json
import sys
from datetime import datetime, timezone
from decimal import Decimal, ROUND_HALF_EVEN, ROUND_FLOOR

NANO = 10 ** 9
HOUR = 3600 * 1000
DAY = 24 * HOUR
CARD = {"local": 0, "docker": 0, "k8s": 0, "e2b": "0.06", "cloudflare": "0.05",
        "daytona": "0.08", "blaxel": "0.09", "modal": "0.10", "runloop": "0.10",
        "vercel": "0.12"}
FREE = {"local", "docker", "k8s"}
SDK = {"LocalSubprocessSandboxClient": "local", "DockerSandboxClient": "docker",
       "K8sPodSandboxClient": "k8s", "E2bSandboxClient": "e2b",
       "CloudflareSandboxClient": "cloudflare", "DaytonaSandboxClient": "daytona",
       "BlaxelSandboxClient": "blaxel", "ModalSandboxClient": "modal",
       "RunloopSandboxClient": "runloop", "VercelSandboxClient": "vercel"}
MARGIN = 7 * DAY


# ---- numbers and times ------------------------------------------------------

def ms(ts):
    """RFC 3339 (or a date, or a naive UTC time) to ms, fractions truncated."""
    ts = ts.strip()
    if len(ts) == 10:
        ts += "T00:00:00Z"
    ts = ts.replace(" ", "T")
    if ts.endswith("Z") or ts.endswith("z"):
        ts = ts[:-1] + "+00:00"
    frac = ""
    if "." in ts:
        head, rest = ts.split(".", 1)
        i = 0
        while i < len(rest) and rest[i].isdigit():
            i += 1
        frac, ts = rest[:i], head + rest[i:]
    d = datetime.fromisoformat(ts)
    if d.tzinfo is None:
        d = d.replace(tzinfo=timezone.utc)
    whole = (d - datetime(1970, 1, 1, tzinfo=timezone.utc))
    seconds = whole.days * 86400 + whole.seconds
    return seconds * 1000 + int((frac + "000")[:3])


def iso(t):
    d = datetime.fromtimestamp(t // 1000, tz=timezone.utc)
    s = d.strftime("%Y-%m-%dT%H:%M:%S")
    return s + (f".{t % 1000:03d}Z" if t % 1000 else "Z")


def half_even(q):
    return int(q.to_integral_value(ROUND_HALF_EVEN))


def nanos_text(text):
    return half_even(Decimal(text) * NANO)


def nanos_number(x):
    return None if x is None else half_even(Decimal(repr(float(x))) * NANO)


def money(n):
    if n is None:
        return None
    sign = "-" if n < 0 else ""
    n = abs(n)
    return f"{sign}{n // NANO}.{n % NANO:09d}"


def div_half_even(num, den):
    return half_even(Decimal(num) / Decimal(den))


def beyond(drift, base, abs_nanos, rel_ppb):
    """|drift| > max(abs, rel x base), in integers (rel in parts per 10^9)."""
    return abs(drift) > abs_nanos and abs(drift) * NANO > rel_ppb * base


def duration_ms(text):
    units = {"s": 1000, "m": 60000, "h": HOUR, "d": DAY}
    if text[-1] in units:
        return int(text[:-1]) * units[text[-1]]
    return int(text) * HOUR


# ---- inputs -----------------------------------------------------------------

class Line:
    def __init__(self, backend, session, kind, amount, currency, start, end, tax=False,
                 key=None, identity=None, category=None, quantity=None, unit=None):
        self.backend, self.session, self.kind = backend, session, kind
        self.quantity, self.unit = quantity, unit
        self.amount, self.currency, self.start, self.end, self.tax = amount, currency, start, end, tax
        self.key, self.identity, self.category = key, identity, category
        self.format = self.batch = None


def json_values(text):
    """Whitespace-separated JSON values; an array of records spreads."""
    dec, i, out = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        v, i = dec.raw_decode(text, i)
        out.extend(v if isinstance(v, list) else [v])


def read_runs(path, runs):
    for r in json_values(open(path).read()):
        runs[r["run_id"]] = r


def read_billing(fmt, path, lines):
    text = open(path, newline="").read()
    if fmt == "record":
        for l in json_values(text):
            lines.append(Line(l["backend"], l.get("session_id"), "billed", nanos_number(l["cost_usd"]),
                              l.get("currency") or "USD", ms(l["period_start"]), ms(l["period_end"]),
                              key=l.get("line_id"), identity=l.get("unit")))
    elif fmt == "focus":
        if text.lstrip().startswith("{"):
            rows = json_values(text)
        else:
            rows = list(csv.DictReader(io.StringIO(text)))
        for row in rows:
            def cell(k):
                v = row.get(k)
                return None if v is None or v == "" or v == "NULL" else v
            cost = row["BilledCost"]
            amount = nanos_text(cost) if isinstance(cost, str) else nanos_number(cost)
            provider = cell("ServiceProviderName") or cell("ProviderName")
            lines.append(Line(provider.lower().replace(" ", ""), cell("ResourceId"), "billed", amount,
                              cell("BillingCurrency") or "USD", ms(row["ChargePeriodStart"]),
                              ms(row["ChargePeriodEnd"]), cell("ChargeCategory") == "Tax",
                              key=tuple(sorted((k, str(v)) for k, v in row.items())),
                              identity=tuple(cell(k) for k in FOCUS_IDENTITY),
                              category=cell("ChargeCategory"),
                              quantity=None if cell("ConsumedQuantity") is None else str(cell("ConsumedQuantity")),
                              unit=cell("ConsumedUnit")))
    elif fmt == "modal":
        for l in json_values(text):
            s = ms(l["interval_start"])
            lines.append(Line("modal", l["object_id"], "billed", nanos_text(l["cost"]), "USD", s, s + DAY))
    elif fmt == "daytona":
        for l in json_values(text):
            lines.append(Line("daytona", l.get("sandboxId"), "billed", nanos_number(l["totalPrice"]), "USD",
                              ms(l["firstStart"]), ms(l["lastEnd"])))
    elif fmt == "e2b-events":
        for ev in json_values(text):
            data = ev.get("event_data") or ev.get("eventData") or {}
            x = data.get("execution")
            if x:
                s = ms(x["started_at"])
                lines.append(Line("e2b", ev.get("sandbox_id") or ev.get("sandboxId"), "metered", None, "USD",
                                  s, s + x["execution_time"]))
    elif fmt == "deepinfra-usage":
        for m in json.loads(text)["months"]:
            y, mo = map(int, m["period"].replace(".", "-").split("-"))
            s = ms(f"{y:04d}-{mo:02d}-01")
            e = ms(f"{y + mo // 12:04d}-{mo % 12 + 1:02d}-01")
            lines.append(Line("deepinfra", None, "billed", m["total_cost"] * 10000000, "USD", s, e))
    else:
        raise SystemExit(f"recon_model: no format {fmt}")


FOCUS_IDENTITY = ["ServiceName", "SkuId", "ChargeDescription", "PricingCategory",
                  "CommitmentDiscountId", "RegionId", "InvoiceId"]


def overlap(a, b):
    """Charge periods overlap (a zero-length one counts as its first ms;
    periods that only touch do not)."""
    return a.start < max(b.end, b.start + 1) and max(a.end, a.start + 1) > b.start


def same_charge(a, b):
    return (a.format == b.format and a.backend == b.backend and a.session == b.session
            and a.category == b.category and a.identity == b.identity and overlap(a, b))


def import_batch(live, new, fmt, batch, span):
    """Import the lines new of one file as batch into the live lines; span
    (from, to) for a superseding import, else None.  Returns the live
    lines after it."""
    for l in new:
        l.format, l.batch = fmt, batch
    if span is None:
        return live + new
    frm, to = span
    backends = {l.backend for l in new}
    keys = {l.key for l in new if l.key is not None}

    def replaced(o):
        if o.format != fmt or o.batch == batch:
            return False
        if o.key is not None and o.key in keys:
            return True
        if any(same_charge(o, l) for l in new):
            return True
        return o.backend in backends and frm <= o.start < to and o.end <= to
    return [o for o in live if not replaced(o)] + new


# ---- windows ----------------------------------------------------------------

def grid_window(account, frm, to):
    """The window of a backend from its account-level lines, or None when
    they are not one grid off the UTC edges (then the period is used)."""
    near = [l for l in account if l.start < to + MARGIN and l.end > frm - MARGIN and l.end > l.start]
    if not near:
        return None
    lengths = {l.end - l.start for l in near}
    if lengths == {HOUR}:
        step = HOUR
    elif lengths <= {DAY - HOUR, DAY, DAY + HOUR}:
        step = DAY
    else:
        return None
    spans = sorted({(l.start, l.end) for l in near})
    if len({s for s, _ in spans}) != len(spans):
        return None                       # one start, two ends
    for (s0, e0), (s1, _) in zip(spans, spans[1:]):
        if s1 < e0:
            return None                   # a line starting inside another
    phases = sorted({s % step for s, _ in spans})
    if len(phases) > 2 or (len(phases) == 2 and (step != DAY or (phases[1] - phases[0]) not in (HOUR, DAY - HOUR))):
        return None
    if phases == [0]:
        return None                       # on the UTC edges
    known = sorted({s for s, _ in spans} | {e for _, e in spans})

    def first_edge_at_or_after(t):
        edges = list(known)
        # between two known edges: whole steps from the earlier, none
        # within half a step of the later
        for a, b in zip(known, known[1:]):
            k = a + step
            while k <= b - step // 2:
                edges.append(k)
                k += step
        # beyond them
        k = known[-1]
        while k < t:
            k += step
            edges.append(k)
        k = known[0]
        while k > t:
            k -= step
            edges.append(k)
        return min(e for e in edges if e >= t)

    w = (first_edge_at_or_after(frm), first_edge_at_or_after(to))
    return w if w[0] < w[1] else None


# ---- explain: the drift's parts ---------------------------------------------

PARTS = ["card", "idle", "paused", "metering", "price", "billed_beyond_lifetime"]
TIME_UNITS = {"minute": 1, "minutes": 1, "min": 1, "mins": 1, "m": 1,
              "second": 60, "seconds": 60, "sec": 60, "secs": 60, "s": 60}


def cost_for_ms(rate, t):
    """rate (nanodollars a minute) over t ms, half to even; 0 below 0."""
    return half_even(Decimal(rate) * max(0, t) / 60000)


def run_card_cost(rate, usage):
    """K of a run: each listed execution's time at the card, plus the rest
    of total_duration_ms."""
    execs = usage.get("executions") or []
    k = sum(cost_for_ms(rate, x.get("duration_ms", 0)) for x in execs)
    rest = usage.get("total_duration_ms", 0) - sum(x.get("duration_ms", 0) for x in execs)
    return k + cost_for_ms(rate, rest)


def paused_ms(run, segments):
    """The gaps between the session's E2B segments inside the run's life."""
    sid = run.get("session_id")
    if sid is None or not run.get("ended_at"):
        return 0
    s0, s1 = ms(run["started_at"]), ms(run["ended_at"])
    total, last = 0, None
    for a, e in sorted((l.start, l.end) for l in segments if l.session == sid):
        if last is not None and a > last:
            total += max(0, min(a, s1) - max(last, s0))
        last = e if last is None or e > last else last
    return total


def explain_parts(b, rs, ls, mine, billed, computed, basis):
    """card, idle, paused, metering and price (or billed_beyond_lifetime)
    of a backend, with L' and Q x card; None when billed is unknown or a
    run has no card."""
    if billed is None or b not in CARD:
        return None
    rate = int(Decimal(str(CARD[b])) * NANO)
    segs = [l for l in mine if l.format == "e2b-events"]
    K = L = Lp = 0
    for r in rs:
        u = r["sandbox_usage"] or {}
        k = run_card_cost(rate, u)
        life = cost_for_ms(rate, ms(r["ended_at"]) - ms(r["started_at"])) if r.get("ended_at") else k
        K, L = K + k, L + life
        Lp += life - (cost_for_ms(rate, paused_ms(r, segs)) if segs else 0)
    q = None
    billing = [l for l in ls if l.kind == "billed" and not l.tax]
    if basis == "billed" and billing and all(
            l.quantity is not None and (l.unit or "").lower() in TIME_UNITS and l.currency == "USD"
            for l in billing) and sum(l.amount for l in billing) == billed:
        q = sum(half_even(Decimal(nanos_text(l.quantity)) * rate / (NANO * TIME_UNITS[l.unit.lower()]))
                for l in billing)
    p = {"card": K - computed, "idle": L - K, "paused": Lp - L, "L'": Lp, "Q": q, "B": billed}
    if q is None:
        p.update(metering=None, price=None, billed_beyond_lifetime=billed - Lp)
    else:
        p.update(metering=q - Lp, price=billed - q, billed_beyond_lifetime=None)
    return p


def parts_verdict(p, drift, abs_nanos, rel_ppb):
    beyond_l = p["B"] - p["L'"]
    if not beyond(beyond_l, p["L'"], abs_nanos, rel_ppb):
        return "lifetime"
    price, base = (p["price"], p["Q"]) if p["Q"] is not None else (beyond_l, p["L'"])
    if base > 0 and abs(price) * NANO > rel_ppb * base and (price > 0) == (drift > 0):
        return "rate"
    return "unexplained"


# ---- the reconciliation -----------------------------------------------------

PRECEDENCE = ["pending", "currency", "no_rate", "partial", "unexpected", "unbilled", "drift"]
ALWAYS = {"currency", "no_rate", "partial", "unexpected", "over_billed", "under_billed"}


def judge(conds, drift):
    for c in PRECEDENCE:
        if c in conds:
            return ("over_billed" if drift > 0 else "under_billed") if c == "drift" else c
    return "ok"


def flagged(status, window_to, now, lag):
    return status in ALWAYS or (status == "unbilled" and now - window_to > lag)


def reconcile(runs, lines, frm, to, now, lag, default_abs, default_rel, all_sessions, tols=None):
    runs = [dict(r, backend=SDK.get(r["backend"], r["backend"])) for r in runs.values()]
    backends = sorted({r["backend"] for r in runs} | {l.backend for l in lines})
    out_backends, out_sessions = [], []
    for b in backends:
        mine = [l for l in lines if l.backend == b]
        account = [l for l in mine if l.session is None]
        period_session_lines = [l for l in mine if l.session is not None and frm <= l.start < to]
        win = None if period_session_lines else grid_window(account, frm, to)
        wf, wt = win if win else (frm, to)
        rs = [r for r in runs if r["backend"] == b and wf <= ms(r["started_at"]) < wt]
        ls = [l for l in account if wf <= l.start < wt] + period_session_lines
        if not rs and not ls:
            continue
        abs_nanos, rel_ppb = (tols or {}).get(b, (default_abs, default_rel))
        usage = [r["sandbox_usage"] for r in rs]
        computed = sum(nanos_number(u.get("computed_cost_usd") or 0) for u in usage)
        conds = set()
        if now < wt:
            conds.add("pending")
        usd = [l for l in ls if l.kind == "metered" or l.currency == "USD"]
        if len(usd) < len(ls):
            conds.add("currency")
        metered = [l for l in usd if l.kind == "metered"]
        if metered:
            conds.add("no_rate")          # the seeded cards have no per-second rates
        if any(l.end > wt for l in ls if l.session is None):
            conds.add("partial")
        billed_lines = [l for l in usd if l.kind == "billed" and not l.tax]
        tax = [l for l in usd if l.kind == "billed" and l.tax]
        covered = {l.session for l in mine if l.kind == "billed" and not l.tax}
        own = [nanos_number(r["sandbox_usage"].get("billed_cost_usd")) for r in rs]
        if billed_lines:
            fill = [nanos_number(r["sandbox_usage"].get("billed_cost_usd")) for r in rs
                    if (r.get("session_id") is None or r.get("session_id") not in covered)
                    and r["sandbox_usage"].get("billed_cost_usd") is not None]
            basis, billed = "billed", sum(l.amount for l in billed_lines) + sum(fill)
        elif any(o is not None for o in own):
            basis, billed = "run", sum(o for o in own if o is not None)
        else:
            basis, billed = None, None
        free = b in FREE
        if billed is not None and billed > 0 and (not rs or free):
            conds.add("unexpected")
        if computed > 0 and billed is None:
            conds.add("unbilled")
        drift = None if billed is None else billed - computed
        if drift is not None and beyond(drift, computed, abs_nanos, rel_ppb):
            conds.add("drift")
        status = judge(conds, drift)
        # the explanation: the parts of the drift (explain), and the
        # verdict that follows from them, given when the drift is flagged
        ended = [r for r in rs if r.get("ended_at")]
        parts = explain_parts(b, rs, ls, mine, billed, computed, basis)
        verdict = None
        if status in ("over_billed", "under_billed") and ended:
            verdict = parts_verdict(parts, drift, abs_nanos, rel_ppb) if parts else "unexplained"
        b_flag = flagged(status, wt, now, lag)
        # sessions, for a backend whose lines name sessions in the period
        n_flag = 0
        if period_session_lines:
            by_session = {}
            for l in period_session_lines:
                by_session.setdefault(l.session, []).append(l)
            prs = [r for r in runs if r["backend"] == b and frm <= ms(r["started_at"]) < to]
            sids = set(by_session) | {r.get("session_id") for r in prs}
            any_line = {l.session for l in mine if l.session is not None}
            for sid in sorted(sids, key=lambda s: (s is not None, s or "")):
                sl = by_session.get(sid, [])
                srs = [r for r in prs if r.get("session_id") == sid]
                scomputed = sum(nanos_number(r["sandbox_usage"].get("computed_cost_usd") or 0) for r in srs)
                sconds = set()
                if now < to:
                    sconds.add("pending")
                s_usd = [l for l in sl if l.kind == "metered" or l.currency == "USD"]
                if len(s_usd) < len(sl):
                    sconds.add("currency")
                if any(l.kind == "metered" for l in s_usd):
                    sconds.add("no_rate")
                s_billed_lines = [l for l in s_usd if l.kind == "billed" and not l.tax]
                sown = [nanos_number(r["sandbox_usage"].get("billed_cost_usd")) for r in srs]
                if s_billed_lines:
                    sbilled = sum(l.amount for l in s_billed_lines)
                elif sid not in any_line and any(o is not None for o in sown):
                    sbilled = sum(o for o in sown if o is not None)
                else:
                    sbilled = None
                if sbilled is not None and sbilled > 0 and (not srs or free):
                    sconds.add("unexpected")
                if scomputed > 0 and sbilled is None:
                    sconds.add("unbilled")
                sdrift = None if sbilled is None else sbilled - scomputed
                if sdrift is not None and beyond(sdrift, scomputed, abs_nanos, rel_ppb):
                    sconds.add("drift")
                sstatus = judge(sconds, sdrift)
                sflag = flagged(sstatus, to, now, lag)
                n_flag += sflag
                if sstatus != "ok" or all_sessions:
                    out_sessions.append({"session_id": sid, "backend": b, "status": sstatus, "flagged": sflag,
                                         "computed_cost_usd": money(scomputed),
                                         "billed_cost_usd": money(sbilled), "drift_usd": money(sdrift)})
        out_backends.append({
            "backend": b, "status": status, "flagged": b_flag, "basis": basis, "runs": len(rs),
            "window": {"from": iso(wf), "to": iso(wt)}, "flagged_sessions": n_flag,
            "computed_cost_usd": money(computed), "billed_cost_usd": money(billed),
            "tax_usd": money(sum(l.amount for l in tax)) if tax else None,
            "drift_usd": money(drift), "verdict": verdict,
            "parts": None if parts is None else {k: money(v) for k, v in parts.items() if k in PARTS}})
    fb = sum(b["flagged"] for b in out_backends)
    fs = sum(b["flagged_sessions"] for b in out_backends)
    return {"period": {"from": iso(frm), "to": iso(to)}, "backends": out_backends, "sessions": out_sessions,
            "flagged": fb + fs, "flagged_backends": fb, "flagged_sessions": fs,
            "pending": sum(b["status"] == "pending" for b in out_backends)}


class Ordered(argparse.Action):
    """--billing and --supersede into one list, in their order."""
    def __call__(self, parser, ns, value, option=None):
        ns.imports = (getattr(ns, "imports", None) or []) + [(self.dest, value)]


def model(argv):
    """The result of the command line argv (a list), as a dict."""
    if argv and not argv[0].startswith("--"):
        d = argv[0]
        argv = ["--period", f"{argv[1]}..{argv[2]}", "--now", argv[3] if len(argv) > 3 else argv[2],
                "--runs", f"{d}/runs.jsonl"] + sum(
            [["--billing", f"{f}:{d}/{n}"] for f, n in [
                ("record", "billing-record.jsonl"), ("focus", "billing-focus.csv"), ("modal", "billing-modal.json"),
                ("daytona", "billing-daytona.json"), ("e2b-events", "billing-e2b-events.json"),
                ("deepinfra-usage", "deepinfra-usage.json")]], [])
    p = argparse.ArgumentParser()
    p.add_argument("--period", required=True)
    p.add_argument("--now", required=True)
    p.add_argument("--billing-lag", default="72h")
    p.add_argument("--abs-tol", default="0.01")
    p.add_argument("--rel-tol", default="0.05")
    p.add_argument("--all-sessions", action="store_true")
    p.add_argument("--runs", action="append", default=[])
    p.add_argument("--billing", action=Ordered)
    p.add_argument("--supersede", action=Ordered)
    p.add_argument("--tol", action="append", default=[])
    a = p.parse_args(argv)
    frm, to = (ms(x) for x in a.period.split(".."))
    runs, lines = {}, []
    for f in a.runs:
        read_runs(f, runs)
    for batch, (how, spec) in enumerate(getattr(a, "imports", None) or [], 1):
        span = None
        if how == "supersede":
            spec, period = spec.rsplit("@", 1)
            span = tuple(ms(x) for x in period.split(".."))
        fmt, path = spec.split(":", 1)
        new = []
        read_billing(fmt, path, new)
        lines = import_batch(lines, new, fmt, batch, span)
    tols = {}
    for t in a.tol:
        b, x, y = t.split(":")
        tols[b] = (nanos_text(x), nanos_text(y))
    return reconcile(runs, lines, frm, to, ms(a.now), duration_ms(a.billing_lag), nanos_text(a.abs_tol),
                     nanos_text(a.rel_tol), a.all_sessions, tols)


if __name__ == "__main__":
    json.dump(model(sys.argv[1:]), sys.stdout, indent=1)
    print()
