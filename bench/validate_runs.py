#!/usr/bin/env python3
"""validate_runs.py: check run-usage JSONL against docs/formats-runs.md.

    python3 bench/validate_runs.py FILE [--every K]

Checks every K-th line (default every line) the way sbledger's importer
must: required fields and types, lower-case or SDK class-name backend,
RFC 3339 timestamps with ended_at >= started_at, non-negative integer
counters, and the aggregates against the executions (exec_count, sums,
maximum, computed_cost_usd within one nanodollar per execution after each
amount is rounded to nanodollars); and, for the benchmark's generator,
that each cost_usd is the rate card's usd_per_minute * duration_ms / 60000
(docs/rules.md).  Prints the first few problems and a count; exit 1 if any.
"""

import argparse
import datetime
import json
import math
import re
import sys

RATES = {"local": 0, "docker": 0, "k8s": 0, "e2b": 0.06, "cloudflare": 0.05,
         "daytona": 0.08, "blaxel": 0.09, "modal": 0.10, "runloop": 0.10,
         "vercel": 0.12}
CLASSES = {"LocalSubprocessSandboxClient": "local",
           "DockerSandboxClient": "docker", "K8sPodSandboxClient": "k8s",
           "E2bSandboxClient": "e2b", "CloudflareSandboxClient": "cloudflare",
           "DaytonaSandboxClient": "daytona", "BlaxelSandboxClient": "blaxel",
           "ModalSandboxClient": "modal", "RunloopSandboxClient": "runloop",
           "VercelSandboxClient": "vercel"}
BACKEND_RE = re.compile(r"[a-z0-9_-]{1,64}\Z")
COUNTERS = ("total_duration_ms", "cpu_ms", "memory_peak_mb", "bytes_read",
            "bytes_written")
EXEC_COUNTERS = ("duration_ms", "cpu_ms", "memory_peak_mb", "bytes_read",
                 "bytes_written")


def nanos(x):
    """A JSON number in USD as nanodollars, the way sbledger converts it."""
    return round(x * 1e9)


def is_count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def is_amount(v):
    return (isinstance(v, (int, float)) and not isinstance(v, bool)
            and math.isfinite(v) and v >= 0)


def ts_ms(s):
    if not isinstance(s, str) or not (s.endswith("Z") or
                                      re.search(r"[+-]\d\d:\d\d\Z", s)):
        raise ValueError("not an RFC 3339 timestamp with offset: %r" % (s,))
    d = datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))
    return int(d.timestamp() * 1000)


def check(rec):
    """Return a list of problems with one decoded record."""
    errs = []
    if not isinstance(rec, dict):
        return ["not a JSON object"]
    rid = rec.get("run_id")
    if not isinstance(rid, str) or not rid or len(rid.encode()) > 256:
        errs.append("run_id")
    be = rec.get("backend")
    if not isinstance(be, str):
        errs.append("backend missing")
        be = None
    else:
        be = CLASSES.get(be, be)
        if not BACKEND_RE.match(be):
            errs.append("backend %r" % be)
    try:
        start = ts_ms(rec.get("started_at"))
        if rec.get("ended_at") is not None:
            if ts_ms(rec["ended_at"]) < start:
                errs.append("ended_at precedes started_at")
    except (ValueError, TypeError) as e:
        errs.append("timestamp: %s" % e)
    su = rec.get("sandbox_usage")
    if not isinstance(su, dict):
        return errs + ["sandbox_usage missing"]
    for k in ("exec_count",) + COUNTERS:
        if k in su and not is_count(su[k]):
            errs.append("sandbox_usage.%s = %r" % (k, su[k]))
    ex = su.get("executions") or []
    if ex:
        if su.get("exec_count", 0) != len(ex):
            errs.append("exec_count %r but %d executions"
                        % (su.get("exec_count"), len(ex)))
        for k, ek in zip(COUNTERS, EXEC_COUNTERS):
            vals = [e.get(ek, 0) for e in ex]
            if not all(is_count(v) for v in vals):
                errs.append("executions[].%s not counts" % ek)
                continue
            want = max(vals) if k == "memory_peak_mb" else sum(vals)
            if su.get(k, 0) != want:
                errs.append("%s %r, executions say %r" % (k, su.get(k), want))
        costs = [e.get("cost_usd") for e in ex]
        if not all(c is None or is_amount(c) for c in costs):
            errs.append("executions[].cost_usd not amounts")
        else:
            total = sum(nanos(c) for c in costs if c is not None)
            got = su.get("computed_cost_usd", 0)
            if not is_amount(got) or abs(nanos(got) - total) > len(ex):
                errs.append("computed_cost_usd %r, executions say %d nd"
                            % (got, total))
            rate = RATES.get(be)
            if rate is not None:
                for e in ex:
                    want = nanos(rate * e.get("duration_ms", 0) / 60000)
                    if e.get("cost_usd") is None or \
                            abs(nanos(e["cost_usd"]) - want) > 1:
                        errs.append("cost_usd %r, card says %d nd"
                                    % (e.get("cost_usd"), want))
                        break
    return errs


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--every", type=int, default=1,
                   help="check every K-th line only")
    a = p.parse_args(argv)
    bad = checked = 0
    ids = set()
    dups = 0
    with open(a.file, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if (n - 1) % a.every:
                continue
            checked += 1
            try:
                rec = json.loads(line)
            except ValueError as e:
                errs = ["not JSON: %s" % e]
            else:
                errs = check(rec)
                if isinstance(rec, dict):
                    if rec.get("run_id") in ids:
                        dups += 1
                    ids.add(rec.get("run_id"))
            if errs:
                bad += 1
                if bad <= 10:
                    print("%s:%d: %s" % (a.file, n, "; ".join(errs)),
                          file=sys.stderr)
    print("validate_runs: %d lines checked, %d distinct run_ids, %d repeated,"
          " %d invalid" % (checked, len(ids), dups, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
