#!/bin/sh
# prepare_all.sh: PREPARE every query of sbledger on a PostgreSQL server, to
# find the ones PostgreSQL refuses (syntax, unknown tables or columns,
# operators between mismatched types, parameters whose type it cannot
# determine) without running any of them.
#
#   sh tests/pg/prepare_all.sh 'host=/tmp/pg.XXXX user=sbledger dbname=ledger'
#
# The argument is a libpq conninfo (or a database name) of a database that
# holds the PostgreSQL schema, sql/pg/schema/010_init.sql, and nothing of
# value: every PREPARE is made inside one transaction that is rolled back.
# Run it from the top of the repository; it needs psql and python3.
#
# Each query is sql/pg/queries/NAME.sql when that file exists, else
# sql/queries/NAME.sql (the file the PostgreSQL engine reads), and each
# case PostgreSQL has a text of its own for (sql/pg/queries/NAME.CASE.sql), each of its
# statements prepared on its own (a file may hold several, run one after
# the other).  Parameters :name become $1..$n, the same name the same
# number, as the engine rewrites them.  Their types are those the engine
# binds, found in the C code that binds them (sb_bind_i64 bigint,
# sb_bind_text text, sb_bind_blob bytea): the query's name is looked for as
# a string in ledger/ importers/ reconcile/ report/ nightly/ cli/, and the
# binds of those files (else of any file) by parameter name.  Each
# statement is prepared twice: once with every parameter typed, and once
# with the parameters that may be bound NULL (sb_bind_null, sb_bind_*_opt,
# sb_bindi_text*) left untyped, as the engine sends a NULL (unknown type);
# a parameter whose binding is not found is untyped both times.
#
# A COPY statement (COPY table (col, ...) FROM STDIN, whose rows the
# engine sends) cannot be prepared: it is run with no rows instead, which
# checks its table and columns.
#
# Prints one line per statement that fails (file, statement number, the
# variant, PostgreSQL's message), then a count.  Exit status 0 when every
# statement prepares, 1 when one does not, 2 on a usage error.
set -eu

if [ $# -ne 1 ]; then
	echo "usage: sh tests/pg/prepare_all.sh CONNINFO" >&2
	exit 2
fi
cd "$(dirname "$0")/../.."
exec python3 - "$1" <<'EOF'
import glob, os, re, subprocess, sys

conninfo = sys.argv[1]
DIRS = ["ledger", "importers", "reconcile", "report", "nightly", "cli"]
TYPE = {"i64": "bigint", "text": "text", "textn": "text", "blob": "bytea"}

def scan(text):
    """Yield (kind, chunk) of SQL text: 'code', 'quote' ('...' or "..."), 'comment'."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"":
            j = i + 1
            while j < n:
                if text[j] == c:
                    if j + 1 < n and text[j + 1] == c:
                        j += 2
                        continue
                    break
                j += 1
            yield "quote", text[i:j + 1]
            i = j + 1
        elif text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            yield "comment", text[i:j]
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            yield "comment", text[i:j]
            i = j
        else:
            j = i
            while j < n and text[j] not in "'\"" and not text.startswith("--", j) \
                    and not text.startswith("/*", j):
                j += 1
            yield "code", text[i:j]
            i = j

def statements(text):
    """The statements of a file, comments dropped, split at ';' outside quotes."""
    out, cur = [], []
    for kind, chunk in scan(text):
        if kind == "comment":
            cur.append(" ")
        elif kind == "quote":
            cur.append(chunk)
        else:
            parts = chunk.split(";")
            cur.append(parts[0])
            for p in parts[1:]:
                out.append("".join(cur))
                cur = [p]
    out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]

def numbered(stmt):
    """stmt with :name as $n (same name same n), and the names in order."""
    names, res = [], []
    for kind, chunk in scan(stmt):
        if kind != "code":
            res.append(chunk)
            continue
        def sub(m):
            if m.group(1) is not None:     # '::' is not a parameter
                return m.group(0)
            name = m.group(2)
            if name not in names:
                names.append(name)
            return "$%d" % (names.index(name) + 1)
        res.append(re.sub(r"(::)|(?<![:\w]):([A-Za-z_]\w*)", sub, chunk))
    return "".join(res), names

# Binds in the C code: per file, parameter name -> set of bind kinds.
BIND = re.compile(r'\bsb_bind_(i64|text|textn|blob|null|i64_opt|text_opt)\s*\([^;"]*"(:\w+)"')
TABLE = re.compile(r'"(:\w+)"')
sources = {}
for d in DIRS:
    for path in glob.glob(d + "/**/*.c", recursive=True):
        with open(path, encoding="utf-8", errors="replace") as f:
            sources[path] = f.read()
binds = {}
for path, text in sources.items():
    b = binds.setdefault(path, {})
    for kind, name in BIND.findall(text):
        b.setdefault(name[1:], set()).add(kind)
    # names resolved once (sb_db_param) and bound by position (sb_bindi_*):
    # the kinds of those calls in the file, for the names its tables list
    if "sb_bindi_" in text:
        for name in TABLE.findall(text):
            b.setdefault(name[1:], set()).add("bindi")

def param_type(query, name):
    """(type or None, nullable) of parameter name of query."""
    files = [p for p, t in sources.items() if '"%s"' % query in t]
    kinds = set()
    for p in files:
        kinds |= binds[p].get(name, set())
    if not kinds or kinds == {"bindi"}:
        for p in sources:
            kinds |= binds[p].get(name, set()) - {"bindi"}
    nullable = bool(kinds & {"null", "i64_opt", "text_opt", "bindi"}) or \
        any(binds[p].get(name) == {"bindi"} for p in files)
    types = {TYPE.get(k.replace("_opt", "")) for k in kinds} - {None}
    if len(types) != 1:
        return None, True
    return types.pop(), nullable

queries = sorted(os.path.basename(p)[:-4] for p in glob.glob("sql/queries/*.sql"))
# and PostgreSQL's own texts for cases of a query (NAME.CASE.sql: ledger/db.h)
queries += sorted(os.path.basename(p)[:-4] for p in glob.glob("sql/pg/queries/*.*.sql")
                  if not os.path.exists("sql/queries/" + os.path.basename(p)))
# one PREPARE a line: psql names the line of each error (psql:<stdin>:LINE:)
script = ["\\set ON_ERROR_STOP 0", "\\set VERBOSITY terse", "BEGIN;"]
labels = {}
k = 0
for q in queries:
    path = "sql/pg/queries/%s.sql" % q
    if not os.path.exists(path):
        path = "sql/queries/%s.sql" % q
    with open(path, encoding="utf-8") as f:
        stmts = statements(f.read())
    for i, s in enumerate(stmts, 1):
        text, names = numbered(s)
        text = "".join(c if kind == "quote" else re.sub(r"\s+", " ", c) for kind, c in scan(text))
        typed = [param_type(q, n) for n in names]
        variants = [("typed", [t or "unknown" for t, _ in typed])]
        if any(t is not None and nul for t, nul in typed):
            variants.append(("NULL untyped", [t if t and not nul else "unknown" for t, nul in typed]))
        if re.match(r"(?i)copy\s", text):
            # a COPY (the engine sends its rows, a parameter per column):
            # run with no rows, which checks its table and columns
            k += 1
            script.append("SAVEPOINT p;")
            script.append("%s;" % text)
            labels[len(script)] = "%s [statement %d, COPY]" % (path, i)
            script.append("\\.")
            script.append("ROLLBACK TO SAVEPOINT p;")
            continue
        for v, types in variants:
            k += 1
            script.append("SAVEPOINT p;")
            script.append("PREPARE q%d%s AS %s;" % (k, "(%s)" % ", ".join(types) if types else "", text))
            labels[len(script)] = "%s [statement %d, %s%s]" % (
                path, i, v, "" if not names else ": " + ", ".join(
                    "$%d :%s %s" % (j + 1, n, t) for j, (n, t) in enumerate(zip(names, types))))
            script.append("ROLLBACK TO SAVEPOINT p;")
script.append("ROLLBACK;")

r = subprocess.run(["psql", "-X", "-q", "-d", conninfo, "-f", "-"], input="\n".join(script) + "\n",
                   capture_output=True, text=True)
failed, other = {}, []
for line in r.stderr.splitlines():
    m = re.match(r"psql:<stdin>:(\d+): (.*)", line)
    if m and int(m.group(1)) in labels:
        failed.setdefault(int(m.group(1)), []).append(m.group(2))
    elif line.strip():
        other.append(line)
if r.returncode != 0 or (other and not failed):
    sys.stderr.write("\n".join(other) + "\n")
    sys.exit(2)
for at in sorted(failed):
    print("FAIL %s\n     %s" % (labels[at], "\n     ".join(failed[at])))
print("%d queries, %d preparations, %d failed" % (len(queries), k, len(failed)))
sys.exit(1 if failed else 0)
EOF
