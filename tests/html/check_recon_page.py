#!/usr/bin/env python3
"""check_recon_page.py: the reconciliation page as Chromium built it,
held to 'reconcile --format json' (tests/html/render.sh runs it).

  check_recon_page.py NAME DOM RECON_JSON DRIFT_JSON [--batches BATCHES_JSON --night AT]
                      [--mail MAIL] [--flags FLAGS_JSON] [--run SBLEDGER DIR]

DOM is the page's DOM (chromium --dump-dom), RECON_JSON the result of
the same reconciliation as JSON ('-' for the drift page, which has only
the trend), DRIFT_JSON 'report drift --format json'
over the trend's days.  It checks, each independently of sbledger's own
arithmetic (Python decimal):

- every backend of the JSON is on the page once, with its status, flag,
  computed, billed, drift, drift_rel, basis and window as the JSON has
  them (data attributes, and the figures shown: 6 decimals, half to even),
  its tolerance max(abs, rel x computed), and one bar pair in the chart;
- the verdict's counts, and the money at stake: the |drift| of the
  flagged backends plus that of the flagged sessions of backends not
  flagged (a sum made here from the JSON);
- the flagged sessions are those of the JSON, each with its drift, worst
  first (|drift| descending, unknown last);
- the trend has one line per backend with a drift on a stored day, a dot
  per such day with its drift, a grey mark per day without;
- with --batches and --night: what the night imported is the batches
  begun at AT (from 'batches --format json');
- the night's faults: the verdict leads with one line per batch of the
  night with rejected records (its file, how many, 'rejects --batch N'),
  per provider the night's MAIL (its stdout and stderr) says was skipped
  ("KEY is not set"), per range of days it names as not judged, and no
  other; the verdict is green only when there is no fault and nothing is
  flagged (a page with no --batches is a page made by hand: no fault);
- with --flags: the flags of the period are those of 'flags --period P
  --format json', each with its state, handling, backend, session, status,
  money at stake, who and reason, the open ones first, and the counts
  and the money in dispute (a sum made here) above them;
- with --run SB DIR: every command shown begins with SB (the program as
  the page's sbledger was run, found on PATH), runs as printed in a POSIX
  shell in DIR with the environment the page was made in ($SBLEDGER_DB
  included), and exits 0.

Prints "ok NAME: ..." or "FAIL NAME: ..." per check.
"""
import html.parser
import json
import os
import shlex
import subprocess
import sys
from decimal import Decimal, ROUND_HALF_EVEN

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.kids = tag, dict(attrs), parent, []

    def text(self):
        return "".join(k if isinstance(k, str) else k.text() for k in self.kids)

    def walk(self):
        for k in self.kids:
            if isinstance(k, Node):
                yield k
                yield from k.walk()

    def find(self, tag=None, cls=None, **attrs):
        for n in self.walk():
            if tag is not None and n.tag != tag:
                continue
            if cls is not None and cls not in n.attrs.get("class", "").split():
                continue
            if all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                yield n


class Builder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.kids.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.kids.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.kids.append(data)


def parse(path):
    b = Builder()
    b.feed(open(path, encoding="utf-8").read())
    return b.root


name = sys.argv[1]
failed = 0


def ok(what):
    print(f"ok   {name}: {what}")


def bad(what):
    global failed
    failed += 1
    print(f"FAIL {name}: {what}")


def check(cond, what, why=""):
    (ok if cond else bad)(what if cond else f"{what}: {why}")


def usd(s):
    return None if s is None else Decimal(s)


def shown(d, places):
    return str(d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))


def attr(v):
    return None if v == "null" else v


args = sys.argv[2:]
dom_path, recon_path, drift_path = args[0], args[1], args[2]
opts = {}
rest = args[3:]
while rest:
    if rest[0] == "--run":
        opts["run"] = (rest[1], rest[2])
        rest = rest[3:]
    else:
        opts[rest[0]] = rest[1]
        rest = rest[2:]

dom = parse(dom_path)
recon = json.load(open(recon_path)) if recon_path != "-" else None
drift = json.load(open(drift_path))
want = []

if recon is not None:
    # ---- the backends
    abs_tol = Decimal(recon["tolerance"]["abs_usd"])
    rel_tol = Decimal(recon["tolerance"]["rel"])
    rows = {}
    for tr in dom.find("tr", cls="backend"):
        rows.setdefault(tr.attrs["data-backend"], []).append(tr)
    pairs = {}
    for g in dom.find("g", cls="pair"):
        pairs.setdefault(g.attrs["data-backend"], []).append(g)
    names = [b["backend"] for b in recon["backends"]]
    check(sorted(rows) == sorted(names), f"one line per backend ({len(names)})", f"page {sorted(rows)} json {names}")
    check(sorted(pairs) == sorted(names) and all(len(v) == 1 for v in pairs.values()),
          "one bar pair per backend in the chart", f"{sorted(pairs)}")
    mismatch = []
    for b in recon["backends"]:
        trs = rows.get(b["backend"], [])
        if len(trs) != 1:
            mismatch.append(f"{b['backend']}: {len(trs)} lines")
            continue
        tr = trs[0]
        if tr.attrs["data-status"] != b["status"]:
            mismatch.append(f"{b['backend']}: status {tr.attrs['data-status']} != {b['status']}")
        if tr.attrs["data-flagged"] != ("true" if b["flagged"] else "false"):
            mismatch.append(f"{b['backend']}: flagged")
        badge = next(tr.find("span", cls="badge"))
        if badge.attrs["data-status"] != b["status"] or not badge.text().startswith(b["status"]) or \
                (("flagged" in badge.text()) != b["flagged"]):
            mismatch.append(f"{b['backend']}: the badge says {badge.text()!r}")
        cells = {td.attrs["data-field"]: td for td in tr.find("td") if "data-field" in td.attrs}
        for field, key in (("computed", "computed_cost_usd"), ("billed", "billed_cost_usd"), ("drift", "drift_usd")):
            td = cells[field]
            if attr(td.attrs["data-usd"]) != b[key]:
                mismatch.append(f"{b['backend']}: {field} {td.attrs['data-usd']} != {b[key]}")
            want = shown(usd(b[key]), 6) if b[key] is not None else None
            if want is not None and td.text().strip() != want:
                mismatch.append(f"{b['backend']}: {field} shows {td.text().strip()!r}, not {want}")
            if want is None and td.text().strip() not in ("-", "none", "unknown"):
                mismatch.append(f"{b['backend']}: {field} shows {td.text().strip()!r} for null")
        rel = cells["drift_rel"]
        if attr(rel.attrs["data-rel"]) != b["drift_rel"]:
            mismatch.append(f"{b['backend']}: drift_rel {rel.attrs['data-rel']} != {b['drift_rel']}")
        if b["drift_rel"] is not None and rel.text().strip() != shown(Decimal(b["drift_rel"]) * 100, 2) + "%":
            mismatch.append(f"{b['backend']}: drift shows {rel.text().strip()!r}")
        tol = max(abs_tol, (rel_tol * Decimal(b["computed_cost_usd"])).quantize(Decimal("1e-9"), ROUND_HALF_EVEN))
        if Decimal(cells["tolerance"].attrs["data-usd"]) != tol:
            mismatch.append(f"{b['backend']}: tolerance {cells['tolerance'].attrs['data-usd']} != {tol}")
        if attr(cells["basis"].attrs["data-basis"]) != b["basis"]:
            mismatch.append(f"{b['backend']}: basis")
        w = cells["window"]
        if (w.attrs["data-from"], w.attrs["data-to"]) != (b["window"]["from"], b["window"]["to"]):
            mismatch.append(f"{b['backend']}: window")
        g = pairs.get(b["backend"], [None])[0]
        if g is not None and (g.attrs["data-computed"] != b["computed_cost_usd"] or
                              attr(g.attrs["data-billed"]) != b["billed_cost_usd"] or
                              g.attrs["data-status"] != b["status"]):
            mismatch.append(f"{b['backend']}: its bar pair")
        if b["status"] == "pending" and "pending" not in badge.text():
            mismatch.append(f"{b['backend']}: pending not shown")
    check(not mismatch, "every backend's status, flag, figures, basis, window and tolerance as the JSON has them",
          "; ".join(mismatch))

    # ---- the verdict and the money at stake
    v = next(dom.find("section", id="verdict"))
    check((int(v.attrs["data-flagged-backends"]), int(v.attrs["data-flagged-sessions"]),
           int(v.attrs["data-flagged"]), int(v.attrs["data-pending"])) ==
          (recon["flagged_backends"], recon["flagged_sessions"], recon["flagged"], recon["pending"]),
          "the verdict's counts are the JSON's", str(v.attrs))
    if recon["backends"]:
        head = next(v.find(cls="headline")).text()
        want = (f"{recon['flagged_backends']} backend{'' if recon['flagged_backends'] == 1 else 's'}, "
                f"{recon['flagged_sessions']} session{'' if recon['flagged_sessions'] == 1 else 's'} flagged")
        check(head == want, f"the verdict reads '{want}'", repr(head))
        flagged = {b["backend"] for b in recon["backends"] if b["flagged"]}
        stake = sum((abs(Decimal(b["drift_usd"])) for b in recon["backends"]
                     if b["flagged"] and b["drift_usd"] is not None), Decimal(0))
        stake += sum((abs(Decimal(s["drift_usd"])) for s in recon["sessions"]
                      if s["flagged"] and s["backend"] not in flagged and s["drift_usd"] is not None), Decimal(0))
        el = next(dom.find(id="at-stake"))
        text = el.text().strip()
        places = 6 if stake != 0 and shown(stake, 2) == "0.00" else 2
        check(Decimal(el.attrs["data-usd"]) == stake and text == shown(stake, places) + " USD",
              f"the money at stake is {stake} USD, each dollar once", f"{el.attrs['data-usd']} shown {text!r}")

    # ---- the flagged sessions, worst first
    want = [s for s in recon["sessions"] if s["flagged"]]
    got = list(dom.find("tr", cls="session"))
    key = lambda b, s: (b, s or "")
    check(sorted(key(t.attrs["data-backend"], t.attrs["data-session"]) for t in got) ==
          sorted(key(s["backend"], s["session_id"]) for s in want),
          f"the flagged sessions are listed ({len(want)})", f"{len(got)} on the page")
    by_key = {key(s["backend"], s["session_id"]): s for s in want}
    wrong = [t.attrs["data-session"] for t in got
             if key(t.attrs["data-backend"], t.attrs["data-session"]) in by_key and
             (attr(t.attrs["data-drift"]) != by_key[key(t.attrs["data-backend"], t.attrs["data-session"])]["drift_usd"] or
              t.attrs["data-status"] != by_key[key(t.attrs["data-backend"], t.attrs["data-session"])]["status"])]
    check(not wrong, "each flagged session's status and drift as the JSON has them", str(wrong))
    mags = [None if attr(t.attrs["data-drift"]) is None else abs(Decimal(t.attrs["data-drift"])) for t in got]
    known = [m for m in mags if m is not None]
    check(known == sorted(known, reverse=True) and mags == known + [None] * (len(mags) - len(known)),
          "the flagged sessions are worst first (|drift| descending, unknown last)", str(mags))

# ---- the trend
rows_with = {}
for r in drift:
    rows_with.setdefault(r["backend"], []).append(r)
lines = {g.attrs["data-backend"]: g for g in dom.find("g", cls="trend")}
with_drift = sorted(b for b, rs in rows_with.items() if any(r["drift_usd"] is not None for r in rs))
check(sorted(lines) == with_drift, f"the trend has one line per backend with a drift ({len(with_drift)})",
      f"page {sorted(lines)} json {with_drift}")
wrong = []
for b, g in lines.items():
    if len(list(g.find("path", cls="line"))) != 1:
        wrong.append(f"{b}: not one line")
    dots = sorted((c.attrs["data-from"], c.attrs["data-drift"]) for c in g.find("circle", cls="pt"))
    marks = sorted(c.attrs["data-from"] for c in g.find("rect", cls="pt-none"))
    if dots != sorted((r["from"], r["drift_usd"]) for r in rows_with[b] if r["drift_usd"] is not None):
        wrong.append(f"{b}: dots {dots}")
    if marks != sorted(r["from"] for r in rows_with[b] if r["drift_usd"] is None):
        wrong.append(f"{b}: marks {marks}")
    flags = sorted(c.attrs["data-from"] for c in g.find("circle", cls="flag"))
    if flags != sorted(r["from"] for r in rows_with[b] if r["drift_usd"] is not None and r["status"] not in ("ok", "pending")):
        wrong.append(f"{b}: flagged dots {flags}")
check(not wrong, f"each trend line holds the stored days ({len(drift)} rows)", "; ".join(wrong))

# ---- the night's imports
batches = []
if "--batches" in opts:
    batches = [b for b in json.load(open(opts["--batches"])) if b["started_at"] == opts["--night"]]
    p = next(dom.find(id="imports"))
    sums = tuple(sum(b[k] for b in batches) for k in ("accepted", "duplicates", "rejected"))
    check((int(p.attrs["data-batches"]), int(p.attrs["data-accepted"]), int(p.attrs["data-duplicates"]),
           int(p.attrs["data-rejected"])) == (len(batches),) + sums,
          f"what the night imported: {len(batches)} batches, {sums[0]} accepted, {sums[1]} duplicates, "
          f"{sums[2]} rejected", str(p.attrs))
    shown_ids = [int(t.attrs["data-batch"]) for t in dom.find("tr", cls="batch")]
    check(shown_ids == [b["batch_id"] for b in batches], "one row per batch of the night", str(shown_ids))
    cmds = [c.text() for c in dom.find("code", cls="cmd")]
    missing = [b["batch_id"] for b in batches if b["rejected"] > 0 and
               not any(shlex.split(c)[-3:] == ["rejects", "--batch", str(b["batch_id"])] for c in cmds)]
    check(not missing, "each batch with rejected lines names the command that lists them", str(missing))

# ---- the night's faults, leading the verdict
if recon is not None:
    import re
    v = next(dom.find("section", id="verdict"))
    want_faults = []
    if "--batches" in opts:
        for b in batches:
            if b["rejected"] > 0:
                want_faults.append(("rejected", str(b["batch_id"])))
    mail = open(opts["--mail"]).read() if "--mail" in opts else ""
    for m in re.finditer(r"(\S+) is not set: export the (\S+) key", mail):
        want_faults.append(("fetch", m.group(2)))
    for m in re.finditer(r"^not judged: (\d{4}-\d\d-\d\d)(?: \.\. (\d{4}-\d\d-\d\d))? \(", mail, re.M):
        want_faults.append(("unjudged", m.group(1) + ".." + (m.group(2) or m.group(1))))
    got_faults = []
    wrong = []
    for li in v.find("li", cls="fault"):
        kind = li.attrs["data-fault"]
        text = li.text()
        if kind == "rejected":
            got_faults.append((kind, li.attrs["data-batch"]))
            b = next((b for b in batches if str(b["batch_id"]) == li.attrs["data-batch"]), None)
            cmd = [c.text() for c in li.find("code", cls="cmd")]
            if b is None or b["source"] not in text or f"{b['rejected']} record" not in text or \
                    not cmd or shlex.split(cmd[0])[-3:] != ["rejects", "--batch", str(b["batch_id"])]:
                wrong.append(f"rejected batch {li.attrs['data-batch']}: {text!r}")
        elif kind == "fetch":
            got_faults.append((kind, li.attrs["data-provider"]))
            if li.attrs["data-skipped"] != "true" or "skipped" not in text or li.attrs["data-provider"] not in text:
                wrong.append(f"fetch: {text!r}")
        elif kind == "unjudged":
            first, end = li.attrs["data-from"][:10], li.attrs["data-to"]
            import datetime
            last = (datetime.date.fromisoformat(end[:10]) - datetime.timedelta(days=1)).isoformat()
            got_faults.append((kind, first + ".." + last))
            if first not in text or last not in text:
                wrong.append(f"unjudged: {text!r}")
        else:
            got_faults.append((kind, ""))
    check(sorted(got_faults) == sorted(want_faults) and int(v.attrs["data-faults"]) == len(want_faults),
          f"the verdict names the night's {len(want_faults)} faults (rejected files, fetches skipped, days not judged)",
          f"page {got_faults} (data-faults {v.attrs['data-faults']}), want {want_faults}")
    check(not wrong, "each fault names its file and count, its provider, or its days", "; ".join(wrong))
    if want_faults:
        first = next(k for k in v.kids if isinstance(k, Node))
        check(first.attrs.get("id") == "faults-head", "the verdict leads with the faults", f"it begins with {first.tag} {first.attrs}")
        if any(k == "unjudged" for k, _ in want_faults):
            judge = [c.text() for c in v.find("code", cls="cmd") if "--catch-up" in c.text()]
            mail_cmd = re.search(r"^judge them: (.*)$", mail, re.M)
            check(judge and mail_cmd and judge[0] == mail_cmd.group(1),
                  "the command that judges the days not judged is the mail's", f"page {judge}, mail {mail_cmd and mail_cmd.group(1)}")
    tone = v.attrs["class"].split()
    green = not want_faults and recon["flagged"] == 0
    check(("good" in tone) == green and ("bad" in tone) != green,
          f"the verdict is {'green' if green else 'not green'} ({len(want_faults)} faults, {recon['flagged']} flagged)",
          f"its class is {v.attrs['class']!r}")

# ---- the flags of the period
if "--flags" in opts:
    flags = json.load(open(opts["--flags"]))
    rows = list(dom.find("tr", cls="flag"))
    got = [int(t.attrs["data-flag"]) for t in rows]
    check(sorted(got) == sorted(f["id"] for f in flags), f"the flags of the period are listed ({len(flags)})",
          f"page {got}, json {[f['id'] for f in flags]}")
    states = [t.attrs["data-state"] for t in rows]
    check(states == sorted(states, key=lambda x: x != "open"), "the open flags come first", str(states))
    by_id = {f["id"]: f for f in flags}
    words = {"ack": "acked", "waive": "waived", "dispute": "disputed"}
    wrong = []
    for t in rows:
        f = by_id.get(int(t.attrs["data-flag"]))
        if f is None:
            continue
        cells = [td.text().strip() for td in t.find("td")]
        badge = next(t.find("span", cls="badge")).text()
        word = "open" if f["state"] == "open" else words.get(f["handling"], f["state"])
        at_stake = shown(Decimal(f["at_stake_usd"]), 6)
        if (t.attrs["data-state"], t.attrs["data-handling"] or None, t.attrs["data-backend"], t.attrs["data-session"] or None,
                t.attrs["data-status"], t.attrs["data-at-stake"]) != \
                (f["state"], f["handling"], f["backend"], f["session"], f["status"], f["at_stake_usd"]):
            wrong.append(f"flag {f['id']}: its data attributes {t.attrs}")
        if badge != word or ("bad" in next(t.find("span", cls="badge")).attrs["class"].split()) != (word == "open"):
            wrong.append(f"flag {f['id']}: badge {badge!r}, not {word}")
        if not cells[6].startswith(at_stake) or (word == "disputed") != ("in dispute" in cells[6]):
            wrong.append(f"flag {f['id']}: at stake shows {cells[6]!r}, not {at_stake}")
        if cells[7] != (f["who"] or "-") or cells[8] != (f["reason"] or "-"):
            wrong.append(f"flag {f['id']}: who/reason {cells[7]!r} {cells[8]!r}")
    check(not wrong, "each flag's state, backend, session, status, money at stake, who and reason as 'flags' has them",
          "; ".join(wrong))
    p = next(dom.find(id="flags-summary"))
    disputes = [f for f in flags if f["state"] == "handled" and f["handling"] == "dispute"]
    in_dispute = sum((Decimal(f["at_stake_usd"]) for f in disputes), Decimal(0))
    counts = (sum(f["state"] == "open" for f in flags), sum(f["handling"] == "ack" for f in flags),
              sum(f["handling"] == "waive" for f in flags), len(disputes))
    check((int(p.attrs["data-open"]), int(p.attrs["data-acked"]), int(p.attrs["data-waived"]),
           int(p.attrs["data-disputed"])) == counts and Decimal(p.attrs["data-in-dispute"]) == in_dispute and
          (not disputes or f"{shown(in_dispute, 6 if in_dispute != 0 and shown(in_dispute, 2) == '0.00' else 2)} USD in dispute" in p.text()),
          f"the flags' counts (open, acked, waived, disputed: {counts}) and {in_dispute} USD in dispute",
          f"{p.attrs} {p.text()!r}")
    v = next(dom.find("section", id="verdict"))
    o = list(v.find(id="flags-open"))
    check((int(o[0].attrs["data-open"]) if o else 0) == counts[0], "the verdict names the open flags",
          str(o[0].attrs if o else None))

# ---- the commands, run as printed
if "run" in opts:
    sb, where = opts["run"]
    cmds = [c.text() for c in dom.find("code", cls="cmd")]
    failures = []
    for c in cmds:
        words = shlex.split(c)
        if words[0] != sb:
            failures.append(f"{c!r} does not start with {sb}")
            continue
        if "--session" in words:
            sid = words[words.index("--session") + 1]
            if not any(s["session_id"] == sid for s in want):
                failures.append(f"{c!r}: --session {sid!r} is no flagged session")
        # in the environment the page was made in: a ledger named by
        # $SBLEDGER_DB gives no --db (the command finds it the same way)
        r = subprocess.run(["sh", "-c", c], cwd=where,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            failures.append(f"{c!r} exited {r.returncode}: {r.stderr.strip()[:200]}")
    check(cmds and not failures, f"the {len(cmds)} commands run as printed", "; ".join(failures))

sys.exit(1 if failed else 0)
