#!/usr/bin/env python3
"""sdk_record.py: how an application that uses the agent SDK (troopai-adk)
writes the run records `sbledger import runs` reads, one JSON object a line.

The SDK's RunResult holds what the run used:

  result.sandbox_usage   a SandboxUsage (exec_count, total_duration_ms, cpu_ms,
                         memory_peak_mb, bytes_read, bytes_written,
                         computed_cost_usd, billed_cost_usd, executions), or
                         None when no sandbox session ran
  result.context.usage   an LLMUsage (requests, input_tokens, output_tokens,
                         total_tokens, details, per-request usage)

and nothing else sbledger needs.  The application knows the rest:

  run_id       none in RunResult: a uuid the application makes for the run
               (uuid.uuid4().hex), or its own job id; it must stay the same
               when the record is written again (sbledger skips the duplicate)
  backend      the sandbox client it gave the run
               (RunConfig(sandbox=SandboxRunConfig(client=...))): its class
               name, type(client).__name__ ("E2bSandboxClient"), which
               sbledger maps to the backend id ("e2b"); a custom client's
               backend_id ("acme-cloud").  A run without a sandbox client is
               written as "local", the free backend: it used no sandbox and
               no provider bills it
  session_id   the sandbox session's id, when the application keeps it
  started_at,  time.time() just before and just after Runner.run / arun: Unix
  ended_at     seconds, written as the number they are (sbledger keeps the
               millisecond, truncated)
  model        LLMUsage has no model: the model the agent was configured
               with (Agent(llm="...")).  Without it sbledger cannot price the
               tokens: their cost is unknown in its reports, never 0
  tags,        its own: who the run was for ({"customer": "acme"}), and the
  budget_usd   budget it allowed the run

sandbox_usage and token_usage are written as dataclasses.asdict gives them;
sbledger reads the fields it knows and keeps the others.  A usage folded
from several with the SDK's __add__ (a run resumed after an interruption)
is written the same way; when one part had no executions listed, its
exec_count is more than the executions listed, and sbledger reads it so.

Use it in the application:

    record = run_and_record(agent, "prompt", client=E2bSandboxClient(...),
                            out="runs.jsonl", tags={"customer": "acme"})

or convert what an application saved (one JSON object a line: run_id,
client, session_id, started_at, ended_at, model, tags, budget_usd, and the
asdict output of the run's SandboxUsage and LLMUsage under sandbox_usage
and llm_usage):

    python3 examples/sdk_record.py saved.jsonl > runs.jsonl
    sbledger import runs runs.jsonl

The conversion runs without the SDK installed; run_and_record needs it.
"""
import dataclasses
import json
import sys
import time
import uuid


def plain(value):
    """value as JSON-ready data: a dataclass as dataclasses.asdict gives it
    (the LLMUsage details are pydantic models, which asdict leaves as they
    are: model_dump makes them dicts), lists and dicts item by item."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    if hasattr(value, "model_dump"):
        value = value.model_dump()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def backend_of(client):
    """The backend field for a sandbox client (an instance or its class
    name): the SDK's client class name, a custom client's backend_id, or
    "local" for a run without a sandbox."""
    if client is None:
        return "local"
    if isinstance(client, str):
        return client
    name = type(client).__name__
    if name.endswith("SandboxClient") and name != "BaseSandboxClient":
        return name
    return getattr(client, "backend_id", name)


def run_record(*, run_id, backend, started_at, ended_at, sandbox_usage, llm_usage, model=None,
               session_id=None, plan=None, tags=None, budget_usd=None):
    """The record of one run: sandbox_usage a SandboxUsage, its asdict
    output or None (no sandbox); llm_usage an LLMUsage, its asdict output
    or None (no model called)."""
    token_usage = plain(llm_usage) if llm_usage is not None else None
    if token_usage is not None and model is not None:
        token_usage["model"] = model
    return {
        "run_id": run_id,
        "backend": backend,
        "session_id": session_id,
        "plan": plan,
        "started_at": started_at,
        "ended_at": ended_at,
        "tags": tags or {},
        "token_usage": token_usage,
        "budget_usd": budget_usd,
        "sandbox_usage": plain(sandbox_usage) if sandbox_usage is not None else None,
    }


def model_of(agent):
    """The model name the agent was configured with, or None."""
    llm = getattr(agent, "llm", None)
    if llm is None or isinstance(llm, str):
        return llm
    return getattr(llm, "model", None)


def append(out, record):
    """Append record to the JSON Lines file out as one line."""
    with open(out, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


def run_and_record(agent, prompt, *, client=None, out="runs.jsonl", run_id=None, session_id=None,
                   tags=None, budget_usd=None):
    """Run agent on prompt with the SDK (with client's sandbox when one is
    given), append its record to out, and return the RunResult.  The SDK
    is imported here, so that the rest of this file runs without it."""
    from troopai.adk import RunConfig, Runner
    from troopai.adk.sandbox import SandboxRunConfig

    config = RunConfig(sandbox=SandboxRunConfig(client=client)) if client is not None else None
    run_id = run_id or uuid.uuid4().hex
    started_at = time.time()
    try:
        result = Runner.run(agent, prompt, run_config=config)
    finally:
        ended_at = time.time()
    append(out, run_record(run_id=run_id, backend=backend_of(client), started_at=started_at,
                           ended_at=ended_at, sandbox_usage=result.sandbox_usage,
                           llm_usage=result.context.usage, model=model_of(agent),
                           session_id=session_id, tags=tags, budget_usd=budget_usd))
    return result


def main(argv):
    """Convert the saved runs of argv[1] to records on standard output."""
    if len(argv) != 2:
        print("usage: sdk_record.py SAVED.jsonl > runs.jsonl", file=sys.stderr)
        return 64
    with open(argv[1], encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            saved = json.loads(line)
            if not saved.get("run_id"):
                # a new uuid here would make the run a new one at every
                # conversion: sbledger would count it twice
                print(f"sdk_record.py: {argv[1]}:{line_no}: no run_id saved", file=sys.stderr)
                return 65
            print(json.dumps(run_record(
                run_id=saved["run_id"], backend=backend_of(saved.get("client")),
                started_at=saved["started_at"], ended_at=saved.get("ended_at"),
                sandbox_usage=saved.get("sandbox_usage"), llm_usage=saved.get("llm_usage"),
                model=saved.get("model"), session_id=saved.get("session_id"), tags=saved.get("tags"),
                budget_usd=saved.get("budget_usd"))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
