#!/usr/bin/env python3
"""Read and apply one mutation of tests/mutants/*.mut (see run.sh).

usage:
  apply.py get KEY FILE.mut         print the header KEY (rule, change, tests)
  apply.py check ROOT FILE.mut      each snippet occurs exactly once in ROOT's sources?
  apply.py apply ROOT FILE.mut      replace it there (ROOT is a copy, never the tree)

A mutation file is a header of "key: value" lines (# starts a comment),
then one or more pairs

  @@ find
  <lines of source, verbatim, tabs and all>
  @@ replace
  <the lines that take their place>
  @@ end

The snippet is looked for in every C source of the rooms (ledger/,
importers/, reconcile/, report/, cli/, nightly/: *.c) and every compiled-in
SQL file (sql/*/*.sql), by its text, never by a file name: code moves
between files.  It must occur exactly once in all of them together;
otherwise the mutation is refused (exit 2) with where it was found, so
that a rule whose code changed shape fails loudly instead of passing.
"""
import sys
from pathlib import Path

ROOMS = ["ledger", "importers", "reconcile", "report", "cli", "nightly"]


def parse(path):
    head, pairs, mode, find, repl = {}, [], None, [], []
    for n, line in enumerate(Path(path).read_text().splitlines(keepends=True), 1):
        tag = line.rstrip("\n")
        if tag == "@@ find":
            mode, find, repl = "find", [], []
        elif tag == "@@ replace":
            if mode != "find":
                sys.exit(f"{path}:{n}: '@@ replace' without '@@ find'")
            mode = "replace"
        elif tag == "@@ end":
            if mode != "replace":
                sys.exit(f"{path}:{n}: '@@ end' without '@@ replace'")
            pairs.append(("".join(find), "".join(repl)))
            mode = None
        elif mode == "find":
            find.append(line)
        elif mode == "replace":
            repl.append(line)
        elif tag.strip() and not tag.startswith("#"):
            key, sep, value = tag.partition(":")
            if not sep:
                sys.exit(f"{path}:{n}: not 'key: value': {tag!r}")
            head[key.strip()] = value.strip()
    if mode is not None:
        sys.exit(f"{path}: a snippet is not closed with '@@ end'")
    if not pairs:
        sys.exit(f"{path}: no '@@ find' snippet")
    for find, repl in pairs:
        if not find.strip() or find == repl:
            sys.exit(f"{path}: an empty snippet, or a replacement equal to it")
    return head, pairs


def sources(root):
    root = Path(root)
    files = [p for room in ROOMS for p in sorted((root / room).rglob("*.c"))]
    return files + sorted(root.glob("sql/*/*.sql"))


def locate(root, find):
    """[(file, count)] of the files holding the snippet."""
    hits = []
    for p in sources(root):
        k = p.read_text(errors="replace").count(find)
        if k:
            hits.append((p, k))
    return hits


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "get":
        head, _ = parse(sys.argv[3])
        print(head.get(sys.argv[2], ""))
        return 0
    if len(sys.argv) != 4 or sys.argv[1] not in ("check", "apply"):
        sys.exit(__doc__)
    what, root, mut = sys.argv[1:]
    _, pairs = parse(mut)
    bad = 0
    plan = []
    for i, (find, repl) in enumerate(pairs, 1):
        hits = locate(root, find)
        total = sum(k for _, k in hits)
        if total != 1:
            where = ", ".join(f"{p.relative_to(root)} x{k}" for p, k in hits) or "nowhere"
            first = find.strip().splitlines()[0]
            print(f"{Path(mut).name}: snippet {i} ({first.strip()[:60]!r}) occurs {total} times "
                  f"in the sources ({where}), not once: rewrite the mutation", file=sys.stderr)
            bad += 1
        else:
            plan.append((hits[0][0], find, repl))
    if bad:
        return 2
    if what == "apply":
        for p, find, repl in plan:
            p.write_text(p.read_text().replace(find, repl, 1))
            print(p.relative_to(root))
    return 0


sys.exit(main())
