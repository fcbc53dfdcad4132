#!/usr/bin/env python3
"""gen_runs.py: deterministic run-usage JSON Lines for the import benchmark.

    python3 bench/gen_runs.py --runs N --seed S --out FILE [--dup-rate P]
                              [--start YYYY-MM-DD --days D]

Writes N runs in the shape of examples/samples/runs.jsonl (docs/formats-runs.md):
one compact JSON object per line, 1 to 8 executions per run
(4.5 on average, about 1.2 KB a line, so 100,000 runs is about 120 MB).
Every record is valid under section 3: exec_count is the number of
executions; total_duration_ms, cpu_ms, bytes_read and bytes_written are
their sums; memory_peak_mb is their maximum; computed_cost_usd is the sum
of their cost_usd, each cost being usd_per_minute * duration_ms / 60000
with the seeded rate card of section 5 (free backends 0.0), written as the
float's repr; ended_at is never before started_at.  Runs start at a random
instant of the D days from --start (default: the 30 days of November 2026).

The same --runs, --seed, --dup-rate, --start and --days give the same bytes.  With
--dup-rate P, after each run the line of a recent run is written again
with probability P (an exact duplicate, which an importer counts and
skips), so the file holds N distinct run_ids and about N * (1 + P) lines.

The file is streamed (memory does not grow with N) and written to
FILE.tmp, then renamed, so a FILE that exists is complete.  A summary
goes to stderr: runs, lines, duplicates, executions, bytes.
"""

import argparse
import datetime
import os
import random
import sys

# Backend ids and the SDK class names that map to them (docs/formats-runs.md), with
# the seeded usd_per_minute (docs/rules.md; 0 for the free backends).
BACKENDS = [
    # (id, class name, session prefix, usd_per_minute)
    ("local", "LocalSubprocessSandboxClient", "loc", 0.0),
    ("docker", "DockerSandboxClient", "doc", 0.0),
    ("k8s", "K8sPodSandboxClient", "k8s", 0.0),
    ("e2b", "E2bSandboxClient", "e2b", 0.06),
    ("cloudflare", "CloudflareSandboxClient", "clo", 0.05),
    ("daytona", "DaytonaSandboxClient", "day", 0.08),
    ("blaxel", "BlaxelSandboxClient", "bla", 0.09),
    ("modal", "ModalSandboxClient", "mod", 0.10),
    ("runloop", "RunloopSandboxClient", "run", 0.10),
    ("vercel", "VercelSandboxClient", "ver", 0.12),
]
CLASS_NAME_SHARE = 0.25       # runs whose backend is written as the class name
COMMANDS = ["ls -la", "python app.py", "make test", "pytest -q",
            "pip install -e ."]
# exit codes, weighted roughly as in the sample: mostly 0
EXIT_CODES = [0] * 17 + [137, 2, 1]
MODELS = ["claude-x-mini", "gpt-5.6-terra"]
# tags objects, already as JSON text; {} now and then
TAGS = ['{"customer":"acme"}', '{"customer":"globex"}',
        '{"customer":"initech"}', '{"customer":"umbrella"}',
        '{"customer":"acme"}', '{"customer":"globex"}',
        '{"customer":"initech"}', '{"customer":"umbrella"}',
        '{"customer":"hooli"}', '{"customer":"stark"}', '{}']
MAX_EXECS = 8                 # executions per run: uniform 1..8, mean 4.5
SESSION_REUSE = 0.10          # share of runs that reuse an earlier session
BILLED_SHARE = 0.02           # share of runs that carry billed_cost_usd
DUP_WINDOW = 1024             # duplicates repeat one of the last N lines

START = "2026-11-01"          # by default started_at falls in November 2026
SPAN_DAYS = 30
DAY_MS = 86_400_000


def day_strings(start, n):
    """The date part "YYYY-MM-DD" of each of n days from the date start."""
    first = datetime.datetime.strptime(start, "%Y-%m-%d").replace(
        tzinfo=datetime.timezone.utc)
    return [(first + datetime.timedelta(days=d)).strftime("%Y-%m-%d")
            for d in range(n)]


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Deterministic run-usage JSONL for sbledger's import "
                    "benchmark.")
    p.add_argument("--runs", type=int, required=True,
                   help="number of distinct runs")
    p.add_argument("--seed", type=int, default=1, help="random seed")
    p.add_argument("--out", required=True, help="output file ('-': stdout)")
    p.add_argument("--dup-rate", type=float, default=0.0,
                   help="probability of repeating a recent line after each "
                        "run (default 0)")
    p.add_argument("--start", default=START,
                   help="the first UTC day runs start on, YYYY-MM-DD "
                        "(default %s)" % START)
    p.add_argument("--days", type=int, default=SPAN_DAYS,
                   help="how many days from --start runs start in "
                        "(default %d)" % SPAN_DAYS)
    a = p.parse_args(argv)
    try:
        datetime.datetime.strptime(a.start, "%Y-%m-%d")
    except ValueError:
        p.error("--start must be a date YYYY-MM-DD")
    if a.days < 1:
        p.error("--days must be >= 1")
    if a.runs < 0:
        p.error("--runs must be >= 0")
    if not 0.0 <= a.dup_rate <= 1.0:
        p.error("--dup-rate must be within [0, 1]")
    return a


def generate(out, runs, seed, dup_rate, start=START, span_days=SPAN_DAYS):
    """Write the runs to the text stream out; return the summary counts."""
    rng = random.Random(seed)
    rnd = rng.random
    bits = rng.getrandbits
    days = day_strings(start, span_days + 2)
    width = max(6, len(str(max(runs - 1, 0))))
    id_fmt = "run-%d-%%0%dd" % (seed, width)
    nback = len(BACKENDS)
    ncmd = len(COMMANDS)
    nexit = len(EXIT_CODES)
    ntags = len(TAGS)
    sessions = [[] for _ in BACKENDS]   # recent session ids per backend
    recent = []                         # recent lines, for duplicates
    n_execs = n_dups = n_bytes = n_lines = 0
    buf = []

    def stamp(ms):
        d, r = divmod(ms, DAY_MS)
        s, milli = divmod(r, 1000)
        h, s = divmod(s, 3600)
        m, s = divmod(s, 60)
        return "%sT%02d:%02d:%02d.%03dZ" % (days[d], h, m, s, milli)

    for i in range(runs):
        b = int(rnd() * nback)
        bid, cls, prefix, rate = BACKENDS[b]
        backend = cls if rnd() < CLASS_NAME_SHARE else bid
        pool = sessions[b]
        if pool and rnd() < SESSION_REUSE:
            session = pool[int(rnd() * len(pool))]
        else:
            session = "%s-%010x" % (prefix, bits(40))
            if len(pool) < 64:
                pool.append(session)
            else:
                pool[int(rnd() * 64)] = session

        nex = 1 + int(rnd() * MAX_EXECS)
        execs = []
        tot_dur = tot_cpu = tot_rd = tot_wr = mem_max = 0
        cost_sum = 0.0
        for _ in range(nex):
            dur = 500 + int(rnd() * 90_000)
            cpu = int(rnd() * dur)
            mem = 128 + int(rnd() * 3_968)
            rd = int(rnd() * 9_000_000)
            wr = int(rnd() * 10_000_000)
            cost = rate * dur / 60000 if rate else 0.0
            tot_dur += dur
            tot_cpu += cpu
            tot_rd += rd
            tot_wr += wr
            if mem > mem_max:
                mem_max = mem
            cost_sum += cost
            execs.append(
                '{"command":"%s","exit_code":%d,"duration_ms":%d,'
                '"cpu_ms":%d,"memory_peak_mb":%d,"bytes_read":%d,'
                '"bytes_written":%d,"cost_usd":%r}'
                % (COMMANDS[int(rnd() * ncmd)],
                   EXIT_CODES[int(rnd() * nexit)],
                   dur, cpu, mem, rd, wr, cost))
        n_execs += nex

        begin = int(rnd() * span_days * DAY_MS)
        # session life: the executions plus set-up and idle gaps
        end = begin + tot_dur + int(rnd() * 60_000 * nex)
        if rnd() < BILLED_SHARE:
            billed = repr(round(cost_sum, 9))
        else:
            billed = "null"

        line = (
            '{"run_id":"%s","backend":"%s","session_id":"%s",'
            '"started_at":"%s","ended_at":"%s","tags":%s,'
            '"token_usage":{"model":"%s","input_tokens":%d,'
            '"output_tokens":%d},"budget_usd":0.5,'
            '"sandbox_usage":{"exec_count":%d,"total_duration_ms":%d,'
            '"cpu_ms":%d,"memory_peak_mb":%d,"bytes_read":%d,'
            '"bytes_written":%d,"computed_cost_usd":%r,'
            '"billed_cost_usd":%s,"executions":[%s]}}\n'
            % (id_fmt % i, backend, session, stamp(begin), stamp(end),
               TAGS[int(rnd() * ntags)], MODELS[int(rnd() * 2)],
               1000 + int(rnd() * 60_000), 500 + int(rnd() * 9_500),
               nex, tot_dur, tot_cpu, mem_max, tot_rd, tot_wr, cost_sum,
               billed, ",".join(execs)))
        buf.append(line)
        n_bytes += len(line)
        n_lines += 1

        if dup_rate:
            if len(recent) < DUP_WINDOW:
                recent.append(line)
            else:
                recent[i % DUP_WINDOW] = line
            if rnd() < dup_rate:
                dup = recent[int(rnd() * len(recent))]
                buf.append(dup)
                n_bytes += len(dup)
                n_lines += 1
                n_dups += 1

        if len(buf) >= 2048:
            out.write("".join(buf))
            buf.clear()
    out.write("".join(buf))
    return {"runs": runs, "lines": n_lines, "duplicates": n_dups,
            "executions": n_execs, "bytes": n_bytes}


def main(argv):
    a = parse_args(argv)
    if a.out == "-":
        counts = generate(sys.stdout, a.runs, a.seed, a.dup_rate, a.start, a.days)
        sys.stdout.flush()
    else:
        tmp = a.out + ".tmp"
        with open(tmp, "w", encoding="ascii", newline="\n",
                  buffering=1 << 20) as f:
            counts = generate(f, a.runs, a.seed, a.dup_rate, a.start, a.days)
        os.replace(tmp, a.out)
    print("gen_runs: %(runs)d runs, %(lines)d lines (%(duplicates)d "
          "duplicates), %(executions)d executions, %(bytes)d bytes" % counts,
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
