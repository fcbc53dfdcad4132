#!/usr/bin/env python3
"""Compare the model's result (tests/ref/recon_model.py) with what
`sbledger reconcile --format json` printed: per backend its status, flag,
basis, runs, window, computed, billed, tax, drift, verdict and flagged
sessions; per listed session its status, flag and figures; the counts.

usage: recon_compare.py NAME MODEL.json PROGRAM.json
Prints "agree: NAME (N backends, M sessions)" or each difference; exits 1
on a difference.
"""
import json
import sys

BACKEND = ["status", "flagged", "basis", "runs", "window", "flagged_sessions", "computed_cost_usd",
           "billed_cost_usd", "tax_usd", "drift_usd", "verdict"]
SESSION = ["status", "flagged", "computed_cost_usd", "billed_cost_usd", "drift_usd"]
COUNTS = ["flagged", "flagged_backends", "flagged_sessions", "pending"]


def differences(model, program):
    """The differences between the two results, as lines of text."""
    diffs = []
    for b in program["backends"]:
        b["verdict"] = (b.get("explain") or {}).get("verdict")
    mb = {b["backend"]: b for b in model["backends"]}
    pb = {b["backend"]: b for b in program["backends"]}
    for k in sorted(set(mb) | set(pb)):
        if k not in mb or k not in pb:
            diffs.append(f"backend {k}: only in the {'model' if k in mb else 'program'}")
            continue
        for f in BACKEND:
            if mb[k][f] != pb[k][f]:
                diffs.append(f"backend {k} {f}: model {mb[k][f]!r}, program {pb[k][f]!r}")
    ms = {(s["backend"], s["session_id"]): s for s in model["sessions"]}
    ps = {(s["backend"], s["session_id"]): s for s in program["sessions"]}
    for k in sorted(set(ms) | set(ps), key=str):
        if k not in ms or k not in ps:
            diffs.append(f"session {k}: only in the {'model' if k in ms else 'program'}")
            continue
        for f in SESSION:
            if ms[k][f] != ps[k][f]:
                diffs.append(f"session {k} {f}: model {ms[k][f]!r}, program {ps[k][f]!r}")
    for f in COUNTS:
        if model[f] != program[f]:
            diffs.append(f"{f}: model {model[f]!r}, program {program[f]!r}")
    if model["period"] != program["period"]:
        diffs.append(f"period: model {model['period']}, program {program['period']}")
    return diffs


def main():
    name, model, program = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
    diffs = differences(model, program)
    pb = program["backends"]
    ps = program["sessions"]
    for d in diffs:
        print(f"differ: {name}: {d}")
    if not diffs:
        print(f"agree: {name} ({len(pb)} backends, {len(ps)} sessions)")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
