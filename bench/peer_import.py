#!/usr/bin/env python3
"""peer_import.py: the obvious Python script for loading run usage into SQLite.

    python3 bench/peer_import.py DB FILE

The yardstick for sbledger's import: what a user would write in an
afternoon with the standard library (json + sqlite3).  It reads the JSON
Lines file, keeps the same columns sbledger keeps (a run per row, an
execution per row, tags and token usage flattened), and inserts them with
executemany inside one transaction.  It does no validation, no backend
mapping, no timestamp parsing, no money arithmetic, no batch records or
reject log: minimal work.  Rows go in in chunks of CHUNK lines so that its
memory stays flat, as sbledger's does; a repeated run_id is skipped
(INSERT OR IGNORE), since real files hold duplicates.
"""

import json
import sqlite3
import sys

CHUNK = 10_000

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id            TEXT PRIMARY KEY,
    backend           TEXT NOT NULL,
    session_id        TEXT,
    plan              TEXT,
    started_at        TEXT NOT NULL,
    ended_at          TEXT,
    tags              TEXT,
    model             TEXT,
    input_tokens      INTEGER,
    output_tokens     INTEGER,
    budget_usd        REAL,
    exec_count        INTEGER,
    total_duration_ms INTEGER,
    cpu_ms            INTEGER,
    memory_peak_mb    INTEGER,
    bytes_read        INTEGER,
    bytes_written     INTEGER,
    computed_cost_usd REAL,
    billed_cost_usd   REAL
);
CREATE TABLE IF NOT EXISTS executions (
    run_id         TEXT NOT NULL REFERENCES runs(run_id),
    seq            INTEGER NOT NULL,
    command        TEXT,
    exit_code      INTEGER,
    duration_ms    INTEGER,
    cpu_ms         INTEGER,
    memory_peak_mb INTEGER,
    bytes_read     INTEGER,
    bytes_written  INTEGER,
    cost_usd       REAL,
    PRIMARY KEY (run_id, seq)
);
"""

RUN_SQL = ("INSERT OR IGNORE INTO runs VALUES "
           "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
EXEC_SQL = "INSERT OR IGNORE INTO executions VALUES (?,?,?,?,?,?,?,?,?,?)"


def main(argv):
    if len(argv) != 2:
        print("usage: peer_import.py DB FILE", file=sys.stderr)
        return 64
    db_path, file_path = argv
    con = sqlite3.connect(db_path)
    con.executescript(SCHEMA)
    runs, execs = [], []

    def flush():
        con.executemany(RUN_SQL, runs)
        con.executemany(EXEC_SQL, execs)
        runs.clear()
        execs.clear()

    with con, open(file_path, encoding="utf-8") as f:   # one transaction
        for line in f:
            r = json.loads(line)
            tu = r.get("token_usage") or {}
            su = r["sandbox_usage"]
            runs.append((
                r["run_id"], r["backend"], r.get("session_id"), r.get("plan"),
                r["started_at"], r.get("ended_at"),
                json.dumps(r.get("tags") or {}),
                tu.get("model"), tu.get("input_tokens"),
                tu.get("output_tokens"), r.get("budget_usd"),
                su.get("exec_count", 0), su.get("total_duration_ms", 0),
                su.get("cpu_ms", 0), su.get("memory_peak_mb", 0),
                su.get("bytes_read", 0), su.get("bytes_written", 0),
                su.get("computed_cost_usd"), su.get("billed_cost_usd")))
            for seq, e in enumerate(su.get("executions") or ()):
                execs.append((
                    r["run_id"], seq, e.get("command"), e.get("exit_code"),
                    e.get("duration_ms", 0), e.get("cpu_ms", 0),
                    e.get("memory_peak_mb", 0), e.get("bytes_read", 0),
                    e.get("bytes_written", 0), e.get("cost_usd")))
            if len(runs) >= CHUNK:
                flush()
        flush()
    con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
