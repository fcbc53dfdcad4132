#!/usr/bin/env python3
"""An independent model of docs/reconcile.md over the sample inputs, in
Python with exact decimals, used as the hand calculation of the reconciler
tests.  It reads runs.jsonl and the billing samples directly (not the
ledger) and prints, per backend, the figures reconcile must print.

usage: recon_model.py SAMPLES_DIR FROM TO   (dates, TO excluded)
"""
import csv
import json
import sys
from datetime import datetime, timezone
from decimal import Decimal, ROUND_HALF_EVEN

NANO = Decimal("1e-9")
CARD = {"local": 0, "docker": 0, "k8s": 0, "e2b": "0.06", "cloudflare": "0.05",
        "daytona": "0.08", "blaxel": "0.09", "modal": "0.10", "runloop": "0.10",
        "vercel": "0.12"}
FREE = {"local", "docker", "k8s"}
SDK = {"LocalSubprocessSandboxClient": "local", "DockerSandboxClient": "docker",
       "K8sPodSandboxClient": "k8s", "E2bSandboxClient": "e2b",
       "CloudflareSandboxClient": "cloudflare", "DaytonaSandboxClient": "daytona",
       "BlaxelSandboxClient": "blaxel", "ModalSandboxClient": "modal",
       "RunloopSandboxClient": "runloop", "VercelSandboxClient": "vercel"}


def ms(ts):
    if ts.endswith("Z"):
        ts = ts[:-1] + "+00:00"
    d = datetime.fromisoformat(ts)
    if d.tzinfo is None:
        d = d.replace(tzinfo=timezone.utc)
    return int(d.timestamp() * 1000 + 0.5) if d.microsecond % 1000 == 0 else int(d.timestamp() * 1000)


def nanos_of_float(x):
    return int((Decimal(repr(float(x))) * 1000000000).to_integral_value(ROUND_HALF_EVEN)) \
        if x is not None else None


def rnd(q):
    return int(q.to_integral_value(ROUND_HALF_EVEN))


def money(n):
    return None if n is None else f"{Decimal(n) * NANO:.9f}"


def main():
    d, frm, to = sys.argv[1], ms(sys.argv[2] + "T00:00:00Z"), ms(sys.argv[3] + "T00:00:00Z")
    runs = {}
    for line in open(f"{d}/runs.jsonl"):
        r = json.loads(line)
        runs[r["run_id"]] = r
    runs = [r for r in runs.values() if frm <= ms(r["started_at"]) < to]
    lines = []  # (backend, session, kind, usd_nanos or None, start, end, tax)
    for l in map(json.loads, open(f"{d}/billing-record.jsonl")):
        lines.append((l["backend"], l["session_id"], "billed", nanos_of_float(l["cost_usd"]),
                      ms(l["period_start"]), ms(l["period_end"]), False))
    with open(f"{d}/billing-focus.csv", newline="") as f:
        for row in csv.DictReader(f):
            amt = rnd(Decimal(row["BilledCost"]) * 1000000000)
            lines.append((row["ServiceProviderName"].lower().replace(" ", ""),
                          row["ResourceId"] or None, "billed", amt,
                          ms(row["ChargePeriodStart"]), ms(row["ChargePeriodEnd"]),
                          row["ChargeCategory"] == "Tax"))
    for l in json.load(open(f"{d}/billing-modal.json")):
        s = ms(l["interval_start"])
        lines.append(("modal", l["object_id"], "billed", rnd(Decimal(l["cost"]) * 1000000000),
                      s, s + 86400000, False))
    for l in json.load(open(f"{d}/billing-daytona.json")):
        lines.append(("daytona", l["sandboxId"], "billed", nanos_of_float(l["totalPrice"]),
                      ms(l["firstStart"]), ms(l["lastEnd"]), False))
    for ev in json.load(open(f"{d}/billing-e2b-events.json")):
        x = ev.get("event_data", {}).get("execution")
        if x:
            s = ms(x["started_at"])
            lines.append(("e2b", ev["sandbox_id"], "metered", None, s, s + x["execution_time"], False))
    u = json.load(open(f"{d}/deepinfra-usage.json"))
    for m in u["months"]:
        y, mo = map(int, m["period"].split("-"))
        s = ms(f"{y:04d}-{mo:02d}-01T00:00:00Z")
        e = ms(f"{y + mo // 12:04d}-{mo % 12 + 1:02d}-01T00:00:00Z")
        lines.append(("deepinfra", None, "billed", m["total_cost"] * 10000000, s, e, False))
    live = [l for l in lines if frm <= l[4] < to]
    backends = sorted({SDK.get(r["backend"], r["backend"]) for r in runs} | {l[0] for l in live})
    for b in backends:
        rs = [r for r in runs if SDK.get(r["backend"], r["backend"]) == b]
        ls = [l for l in live if l[0] == b]
        computed = sum(nanos_of_float(r["sandbox_usage"]["computed_cost_usd"]) for r in rs)
        billed_lines = [l for l in ls if l[2] == "billed" and not l[6]]
        metered = [l for l in ls if l[2] == "metered"]
        tax = [l for l in ls if l[6]]
        status = None
        if metered:
            status = "no_rate"  # the seeded card has no per-second rates
        if any(l[5] > to for l in ls):
            status = status or "partial"
        covered = {l[1] for l in lines if l[0] == b and l[2] == "billed" and not l[6]}
        own = [nanos_of_float(r["sandbox_usage"].get("billed_cost_usd")) for r in rs]
        fill = [nanos_of_float(r["sandbox_usage"].get("billed_cost_usd")) for r in rs
                if r.get("session_id") not in covered and r["sandbox_usage"].get("billed_cost_usd") is not None]
        if billed_lines:
            basis, billed = "billed", sum(l[3] for l in billed_lines) + sum(fill)
        elif metered and not status:
            basis, billed = "metered", None
        elif any(o is not None for o in own):
            basis, billed = "run", sum(o for o in own if o is not None)
        else:
            basis, billed = None, None
        if status is None and billed is not None and billed > 0 and (not rs or b in FREE):
            status = "unexpected"
        if status is None and computed > 0 and billed is None:
            status = "unbilled"
        drift = None if billed is None else billed - computed
        if status is None and drift is not None and abs(drift) > max(10000000, Decimal("0.05") * computed):
            status = "over_billed" if drift > 0 else "under_billed"
        status = status or "ok"
        ended = [r for r in rs if r.get("ended_at")]
        life_ms = sum(ms(r["ended_at"]) - ms(r["started_at"]) for r in ended)
        rate = Decimal(str(CARD.get(b, 0))) if b in CARD else None
        life_cost = sum(rnd(rate * 1000000000 * (ms(r["ended_at"]) - ms(r["started_at"])) / 60000)
                        for r in ended) if rate is not None else None
        print(json.dumps({"backend": b, "status": status, "basis": basis, "runs": len(rs),
                          "computed_cost_usd": money(computed), "billed_cost_usd": money(billed),
                          "drift_usd": money(drift),
                          "tax_usd": money(sum(l[3] for l in tax)) if tax else None,
                          "lifetime_cost_usd": money(life_cost) if ended else None,
                          "lifetime_ms": life_ms}))


main()
