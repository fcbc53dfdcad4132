#!/usr/bin/env python3
"""The program against the reference model on generated scenarios.

usage: check_scenarios.py --sbledger PATH [--seed S] [--count N] [--first K]
                          [--jobs J] [--keep DIR] [--quiet]

Generates scenarios first..first+count-1 of seed S (gen_scenarios.py), and
for each: a fresh ledger, its runs and billing files imported as the
scenario says (in order; a reissue with --supersede --period), its
tolerances set, then `sbledger reconcile --period P --dry-run --format
json` at the scenario's time against recon_model.py on the same files,
compared field by field (recon_compare.py: every backend's status, flag,
basis, runs, window, figures, verdict; every listed session; the counts).
An import or a reconcile that fails is a difference too.  J scenarios at
once (default: one per CPU).  Prints each difference, with the command
that reproduces the scenario, then "scenarios: N agree, M differ"; exits 1
when one differs.
"""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


gen = load("gen_scenarios")
ref = load("recon_model")
cmp = load("recon_compare")
SB = None
SEED = None


def sb(d, *args, now=None):
    env = dict(os.environ, TZ="UTC", LC_ALL="C")
    env.pop("SBLEDGER_DB", None)
    if now:
        env["SBLEDGER_NOW"] = now
    p = subprocess.run([SB, "--db", os.path.join(d, "ledger.db")] + list(args), cwd=d, env=env,
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def one(args):
    k, root = args
    d = os.path.join(root, f"{k:05d}")
    gen.scenario(SEED, k, d)
    sc = json.load(open(os.path.join(d, "scenario.json")))
    name = f"scenario {k} (seed {SEED})"
    steps = [("init",)]
    if os.path.getsize(os.path.join(d, "runs.jsonl")):
        steps.append(("import", "runs", "runs.jsonl"))
    for b, x, y in sc["tols"]:
        steps.append(("tolerance", "set", b, "--abs-tol", x, "--rel-tol", y))
    margv = ["--period", sc["period"], "--now", sc["now"]] + sc["options"]
    for b, x, y in sc["tols"]:
        margv += ["--tol", f"{b}:{x}:{y}"]
    if os.path.getsize(os.path.join(d, "runs.jsonl")):
        margv += ["--runs", os.path.join(d, "runs.jsonl")]
    for imp in sc["imports"]:
        if imp[0] == "billing":
            steps.append(("import", "billing", "--format", imp[1], imp[2]))
            margv += ["--billing", f"{imp[1]}:{os.path.join(d, imp[2])}"]
        else:
            steps.append(("import", "billing", "--format", imp[1], "--supersede", "--period", imp[3], imp[2]))
            margv += ["--supersede", f"{imp[1]}:{os.path.join(d, imp[2])}@{imp[3]}"]
    for st in steps:
        rc, out, err = sb(d, *st)
        if rc != 0:
            return k, [f"{name}: sbledger {' '.join(st)}: exit {rc}: {err.strip()}"]
    rc, out, err = sb(d, "reconcile", "--period", sc["period"], "--dry-run", "--format", "json",
                      *sc["options"], now=sc["now"])
    if rc != 0:
        return k, [f"{name}: sbledger reconcile: exit {rc}: {err.strip()}"]
    program = json.loads(out)
    model = ref.model(margv)
    diffs = cmp.differences(model, program)
    if not diffs:
        shutil.rmtree(d)
    return k, [f"{name}: {x}" for x in diffs]


def main():
    global SB, SEED
    p = argparse.ArgumentParser()
    p.add_argument("--sbledger", required=True)
    p.add_argument("--seed", default="1")
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--keep", help="keep the scenarios that differ here")
    p.add_argument("--quiet", action="store_true", help="no line per scenario")
    a = p.parse_args()
    SB, SEED = os.path.abspath(a.sbledger), a.seed
    root = a.keep or tempfile.mkdtemp(prefix="sbledger-scenarios.")
    os.makedirs(root, exist_ok=True)
    bad = 0
    try:
        with Pool(a.jobs) as pool:
            for k, diffs in pool.imap(one, [(k, root) for k in range(a.first, a.first + a.count)]):
                if diffs:
                    bad += 1
                    for x in diffs:
                        print(f"differ: {x}")
                    print(f"  (again: python3 tests/ref/check_scenarios.py --sbledger SB --seed {a.seed} "
                          f"--first {k} --count 1 --keep DIR)")
                elif not a.quiet:
                    print(f"agree: scenario {k}")
    finally:
        if not a.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(f"scenarios: {a.count - bad} agree, {bad} differ (seed {a.seed}, {a.first}..{a.first + a.count - 1})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
