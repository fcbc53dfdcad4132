#!/usr/bin/env python3
"""Random small reconciliation scenarios, seeded and deterministic, for
the reference model (recon_model.py) and the program to be compared on
(check_scenarios.py).

usage: gen_scenarios.py [--seed S] [--count N] [--first K] OUTDIR

Scenario K of seed S is always the same (its own random.Random(f"{S}:{K}")),
whatever N: OUTDIR/NNNNN/ holds runs.jsonl, the billing files and
scenario.json:

  {"period": "FROM..TO", "now": TIME, "options": [reconcile options...],
   "tols": [[backend, abs, rel]...],              (tolerance set)
   "imports": [["billing", FORMAT, FILE] | ["supersede", FORMAT, FILE, "FROM..TO"]...]}

What is drawn, around a base day (2027-01-12, UTC):
- a period of half a day, one, two or three days;
- runs of account-billed backends (modal, runloop, vercel, docker: FOCUS
  lines without a ResourceId) and of session-billed ones (cloudflare,
  daytona, blaxel: record lines naming sessions), starting anywhere a day
  around the period and, on purpose, exactly at its start, at its end, a
  millisecond before each; some with their own billed_cost_usd, some
  still running (no ended_at), their cost the card's minutes or not;
- daily FOCUS lines (on UTC midnight, or Pacific days at 08:00Z for
  vercel: a grid window), sometimes a line running past the period's end
  (partial), a Tax line, an instant charge; the line of the period's first
  day billed at the tolerance's edge on purpose: computed + the tolerance,
  one nanodollar under or over it, on the absolute or the relative side,
  either sign;
- record lines per session, an orphan session (no run), a line in EUR (no
  exchange rate: currency), a session billed on another day;
- a reissue of one FOCUS backend with --supersede over a span of whole
  days, whose lines replace those inside the span, with one old line
  straddling an edge of the span (it stays) and one outside;
- the time of the reconcile: inside the period (pending), exactly at its
  end, at the end plus the billing lag, a millisecond after that, later;
  the lag, the default tolerances or others, a backend's own tolerance.
"""
import argparse
import json
import os
import random
from datetime import datetime, timezone
from decimal import Decimal, ROUND_FLOOR

NANO = 10 ** 9
HOUR = 3600 * 1000
DAY = 24 * HOUR
BASE = int(datetime(2027, 1, 12, tzinfo=timezone.utc).timestamp() * 1000)
CARD = {"modal": "0.10", "runloop": "0.10", "vercel": "0.12", "docker": "0", "cloudflare": "0.05",
        "daytona": "0.08", "blaxel": "0.09"}
ACCOUNT = ["modal", "runloop", "vercel", "docker"]
SESSION = ["cloudflare", "daytona", "blaxel"]
PROVIDER = {"modal": "Modal", "runloop": "Runloop", "vercel": "Vercel", "docker": "Docker"}


def iso(t):
    d = datetime.fromtimestamp(t // 1000, tz=timezone.utc)
    s = d.strftime("%Y-%m-%dT%H:%M:%S")
    return s + (f".{t % 1000:03d}Z" if t % 1000 else "Z")


def usd(n):
    sign = "-" if n < 0 else ""
    n = abs(n)
    return f"{sign}{n // NANO}.{n % NANO:09d}"


def scenario(seed, k, out):
    rnd = random.Random(f"{seed}:{k}")
    days = rnd.choice([0, 1, 1, 1, 2, 3])
    frm = BASE
    to = frm + (days * DAY if days else 12 * HOUR)
    lag_h = rnd.choice([72, 72, 24, 0, 1])
    abs_tol, rel_tol = rnd.choice([("0.01", "0.05"), ("0.01", "0.05"), ("0", "0"), ("0.05", "0.10"),
                                   ("0.002", "0.01")])
    tols = {}
    backends = rnd.sample(ACCOUNT, rnd.randint(1, 3)) + rnd.sample(SESSION, rnd.randint(0, 2))
    if rnd.random() < 0.3:
        b = rnd.choice(backends)
        tols[b] = rnd.choice([("0.02", "0.02"), ("0", "0.10"), ("0.5", "0")])
    pacific = rnd.random() < 0.3

    def tol_of(b):
        return tols.get(b, (abs_tol, rel_tol))

    runs, focus, record, reissue = [], [], [], None
    n_run = 0

    def start_time():
        edge = rnd.random()
        if edge < 0.12:
            return frm
        if edge < 0.24:
            return to
        if edge < 0.32:
            return to - 1
        if edge < 0.38:
            return frm - 1
        return rnd.randrange(frm - DAY, to + DAY) // 1000 * 1000 + rnd.choice([0, 0, 0, 250])

    computed_in = {}
    for b in backends:
        sessions = [f"{b[:3]}-s{i}" for i in range(rnd.randint(1, 3))] if b in SESSION else [None]
        for _ in range(rnd.randint(0, 4)):
            n_run += 1
            s = start_time()
            secs = rnd.randint(1, 900)
            minutes = Decimal(secs) / 60
            if rnd.random() < 0.6:
                cost = int((Decimal(CARD[b]) * minutes * NANO).to_integral_value())
            else:
                cost = rnd.randint(0, 2 * NANO)
            sid = rnd.choice(sessions)
            run = {"run_id": f"r{n_run}", "backend": b, "session_id": sid, "started_at": iso(s),
                   "sandbox_usage": {"exec_count": 1, "total_duration_ms": secs * 1000, "cpu_ms": 0,
                                     "memory_peak_mb": 0, "bytes_read": 0, "bytes_written": 0,
                                     "computed_cost_usd": float(usd(cost)), "billed_cost_usd": None,
                                     "executions": [{"command": "t", "exit_code": 0,
                                                     "duration_ms": secs * 1000, "cpu_ms": 0,
                                                     "memory_peak_mb": 0, "bytes_read": 0,
                                                     "bytes_written": 0, "cost_usd": float(usd(cost))}]}}
            if rnd.random() < 0.85:
                run["ended_at"] = iso(s + secs * 1000 + rnd.choice([0, 0, 1000, 30000]))
            if rnd.random() < 0.2:
                run["sandbox_usage"]["billed_cost_usd"] = float(usd(max(0, cost + rnd.randint(-NANO // 10, NANO // 10))))
            if sid is None and run["sandbox_usage"]["billed_cost_usd"] is None and rnd.random() < 0.5:
                del run["session_id"]
            runs.append(run)
            computed_in.setdefault(b, []).append((s, cost, sid))

    # account-level lines
    for b in backends:
        if b not in ACCOUNT or rnd.random() < 0.1:
            continue
        phase = 8 * HOUR if pacific and b == "vercel" else 0
        first = frm - DAY + phase
        d = first
        while d < to + DAY:
            amount = rnd.randint(0, 3 * NANO)
            if d == frm + phase or (phase and d == frm - DAY + phase):
                # the first day of the period: at the tolerance's edge
                cs = sum(c for s, c, _ in computed_in.get(b, []) if d <= s < d + DAY)
                a, r = (int(Decimal(x) * NANO) for x in tol_of(b))
                rel = Decimal(r) * cs / NANO
                edge = rnd.choice([a, int(rel.to_integral_value(ROUND_FLOOR)), int(-(-rel // 1))])
                delta = edge + rnd.choice([-1, 0, 0, 1])
                amount = max(0, cs + rnd.choice([1, -1]) * delta)
            focus.append((b, d, d + DAY, amount, "Usage"))
            d += DAY
        if rnd.random() < 0.15:
            focus.append((b, frm, frm + 31 * DAY, rnd.randint(0, NANO), "Usage"))   # past the end: partial
        if rnd.random() < 0.15:
            focus.append((b, frm + HOUR, frm + 2 * HOUR, rnd.randint(1, NANO // 10), "Tax"))
        if rnd.random() < 0.1:
            focus.append((b, frm + 3 * HOUR, frm + 3 * HOUR, rnd.randint(1, NANO // 10), "Usage"))

    # a reissue of one backend's days, with an old line straddling its span
    fb = sorted({l[0] for l in focus})
    if fb and rnd.random() < 0.35:
        b = rnd.choice(fb)
        phase = 8 * HOUR if pacific and b == "vercel" else 0
        s0 = frm - DAY + phase + rnd.randint(0, max(1, days)) * DAY
        s1 = s0 + rnd.randint(1, 2) * DAY
        if rnd.random() < 0.7:
            # straddles the start or the end of the span; not the same
            # charge as a new line (another ServiceName)
            at = rnd.choice([s0, s1])
            focus.append((b, at - 6 * HOUR, at + 6 * HOUR, rnd.randint(1, NANO), "Usage", "Sandbox Storage"))
        new = []
        d = s0
        while d < s1:
            if rnd.random() < 0.85:
                new.append((b, d, d + DAY, rnd.randint(0, 3 * NANO), "Usage"))
            d += DAY
        if rnd.random() < 0.3:
            new.append((b, s1 + DAY, s1 + 2 * DAY, rnd.randint(0, NANO), "Usage"))  # outside: stored
        reissue = (new, s0, s1)

    # record lines naming sessions
    n_line = 0
    for b in backends:
        if b not in SESSION or (b == "blaxel" and rnd.random() < 0.5):
            continue
        for s, cost, sid in computed_in.get(b, []):
            if sid is None or rnd.random() < 0.2:
                continue
            n_line += 1
            at = s if rnd.random() < 0.8 else s + rnd.choice([DAY, -DAY])
            amount = cost + rnd.choice([0, 0, 1, -1, NANO // 50, rnd.randint(-NANO, NANO)])
            record.append({"backend": b, "session_id": sid, "cost_usd": float(usd(max(0, amount))),
                           "currency": "EUR" if rnd.random() < 0.05 else "USD", "unit": "compute-seconds",
                           "period_start": iso(at), "period_end": iso(at + 60000),
                           "line_id": f"l{n_line}"})
        if rnd.random() < 0.2:
            n_line += 1
            record.append({"backend": b, "session_id": f"{b[:3]}-orphan", "cost_usd": 0.004,
                           "currency": "USD", "unit": "compute-seconds", "period_start": iso(frm + HOUR),
                           "period_end": iso(frm + HOUR + 60000), "line_id": f"l{n_line}"})

    # the time of the reconcile
    lag = lag_h * HOUR
    now = rnd.choice([frm + (to - frm) // 2, to - 1, to, to, to + lag, to + lag + 1, to + 10 * DAY,
                      to + 10 * DAY, to + 10 * DAY])
    options = ["--billing-lag", f"{lag_h}h", "--abs-tol", abs_tol, "--rel-tol", rel_tol]
    if rnd.random() < 0.3:
        options.append("--all-sessions")

    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "runs.jsonl"), "w") as f:
        for r in runs:
            f.write(json.dumps(r) + "\n")
    imports = []

    def write_focus(name, rows):
        with open(os.path.join(out, name), "w", newline="") as f:
            f.write("BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,"
                    "ServiceProviderName,ServiceName\n")
            seen = set()
            for row in rows:
                b, s, e, amount, cat = row[:5]
                service = row[5] if len(row) > 5 else "Sandbox"
                key = (b, s, e, cat, service)
                if key in seen:
                    continue          # one charge once (a second would be the same charge)
                seen.add(key)
                f.write(f"{usd(amount)},USD,{iso(s)},{iso(e)},{cat},{PROVIDER[b]},{service}\n")

    if focus:
        write_focus("focus.csv", focus)
        imports.append(["billing", "focus", "focus.csv"])
    if record:
        with open(os.path.join(out, "record.jsonl"), "w") as f:
            for l in record:
                f.write(json.dumps(l) + "\n")
        imports.append(["billing", "record", "record.jsonl"])
    if reissue and reissue[0]:
        write_focus("reissue.csv", reissue[0])
        imports.append(["supersede", "focus", "reissue.csv", f"{iso(reissue[1])}..{iso(reissue[2])}"])
    with open(os.path.join(out, "scenario.json"), "w") as f:
        json.dump({"period": f"{iso(frm)}..{iso(to)}", "now": iso(now), "options": options,
                   "tols": [[b, x, y] for b, (x, y) in sorted(tols.items())], "imports": imports}, f, indent=1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seed", default="1")
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("outdir")
    a = p.parse_args()
    for k in range(a.first, a.first + a.count):
        scenario(a.seed, k, os.path.join(a.outdir, f"{k:05d}"))


if __name__ == "__main__":
    main()
