/* runs_jsonl.h: the run-usage JSON Lines format (docs/formats-runs.md).
 *
 * One line is one record: the agent SDK's RunResult around a SandboxUsage.
 * The parser checks every rule of section 3 and yields an sb_run, or a
 * reason naming the field.
 */
#ifndef SB_RUNS_JSONL_H
#define SB_RUNS_JSONL_H

#include <stddef.h>

#include "importers/arena.h"
#include "ledger/err.h"
#include "ledger/runs.h"

typedef struct sb_run_parser sb_run_parser;

/* A parser; NULL when out of memory.  Free it with sb_run_parser_free. */
sb_run_parser *sb_run_parser_new(void);

/* Free p and everything it handed out; NULL is allowed. */
void sb_run_parser_free(sb_run_parser *p);

/* Parse one line text[0..len) into *run.  The strings and arrays of *run
 * belong to p and live until the next call.  On a record that breaks a
 * rule returns SB_EDATA with the reason in e ("sandbox_usage.exec_count is
 * 3 but executions has 2 entries"); SB_EINTERNAL when out of memory. */
int sb_run_parse(sb_run_parser *p, const char *text, size_t len, sb_run *run, sb_err *e);

/* A deep copy of run (its strings, executions and tags) in arena a, for
 * a record parsed on one thread and stored on another: *out lives until
 * a is reset.  SB_EINTERNAL when out of memory. */
int sb_run_keep(const sb_run *run, sb_arena *a, sb_run **out, sb_err *e);

/* The backend id for a backend field: an SDK client class name mapped to
 * its id ("E2bSandboxClient" -> "e2b"), else name itself.  Borrowed. */
const char *sb_backend_from_sdk(const char *name);

/* True when id is a backend id: [a-z0-9_-]{1,64}. */
bool sb_backend_id_valid(const char *id);

#endif
