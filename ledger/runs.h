/* runs.h: run-usage records as the ledger stores them, and the writer.
 *
 * An sb_run is one normalized record (docs/formats-runs.md): the importer
 * fills it, the writer stores it.  Its strings are borrowed from whoever
 * parsed the record and live until that parser's next record.
 */
#ifndef SB_RUNS_H
#define SB_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/rates.h"

/* One execution of a run. */
typedef struct sb_exec {
	const char *command;      /* the command, NULL when absent */
	size_t command_len;       /* its length (it may hold any bytes) */
	bool has_exit_code;       /* exit_code is known */
	int64_t exit_code;        /* exit status */
	int64_t duration_ms;      /* wall time */
	int64_t cpu_ms;           /* CPU time */
	int64_t memory_peak_mb;   /* peak memory */
	int64_t bytes_read;       /* bytes read */
	int64_t bytes_written;    /* bytes written */
	bool has_cost;            /* cost_nanos is known (cost_usd not null) */
	int64_t cost_nanos;       /* cost_usd */
	const char *extra;        /* unknown fields as JSON text, NULL when none */
} sb_exec;

/* One tag. */
typedef struct sb_tag {
	const char *name;         /* tag name */
	const char *value;        /* tag value as text */
} sb_tag;

/* One run-usage record. */
typedef struct sb_run {
	const char *run_id;       /* non-empty, at most 256 bytes */
	const char *backend;      /* backend id, class names already mapped */
	const char *session_id;   /* NULL when absent */
	const char *plan;         /* NULL when absent */
	int64_t started_ms;       /* started_at */
	bool has_ended;           /* ended_ms is known */
	int64_t ended_ms;         /* ended_at */
	const char *model;        /* token_usage.model, NULL when absent */
	int64_t input_tokens;     /* token_usage.input_tokens */
	int64_t output_tokens;    /* token_usage.output_tokens */
	bool has_budget;          /* budget_nanos is known */
	int64_t budget_nanos;     /* budget_usd */
	int64_t exec_count;       /* sandbox_usage counters ... */
	int64_t total_duration_ms;
	int64_t cpu_ms;
	int64_t memory_peak_mb;
	int64_t bytes_read;
	int64_t bytes_written;
	int64_t computed_nanos;   /* sandbox_usage.computed_cost_usd */
	bool has_billed;          /* billed_nanos is known */
	int64_t billed_nanos;     /* sandbox_usage.billed_cost_usd */
	const sb_exec *execs;     /* the executions, n_execs of them */
	size_t n_execs;
	const sb_tag *tags;       /* the tags, n_tags of them */
	size_t n_tags;
	const char *tags_json;    /* the tags object as JSON text, NULL when absent */
	const char *extra;        /* unknown fields as a JSON object, NULL when none */
	const char *execs_json;   /* execs as the ledger stores them (sb_execs_json), made by
	                             the parser; NULL: the writer makes it */
	size_t execs_json_len;    /* its length */
	char fingerprint[65];     /* SHA-256 of the normalized record, hex */
} sb_run;

/* What storing a record did. */
enum sb_store {
	SB_STORED,      /* a new run */
	SB_DUPLICATE,   /* the same record was already there: nothing written */
	SB_CONFLICT,    /* another record has this run_id: nothing written */
	SB_REPLACED     /* --replace: the old version went to run_history */
};

typedef struct sb_run_writer sb_run_writer;

/* A writer storing runs into db for batch batch_id, pricing them with
 * rates (borrowed; must outlive the writer).  The caller owns *out. */
int sb_run_writer_new(sb_db *db, const sb_rates *rates, int64_t batch_id,
                      sb_run_writer **out, sb_err *e);

/* Free w; NULL is allowed. */
void sb_run_writer_free(sb_run_writer *w);

/* Store run (read at line line_no) inside the caller's transaction (and
 * call sb_run_writer_flush before committing it).
 * *result says what happened; for SB_CONFLICT, why[0..why_len) says which
 * batch and line hold the other version.  With replace a conflict replaces
 * the stored version, which is kept in run_history. */
int sb_run_store(sb_run_writer *w, const sb_run *run, int64_t line_no, bool replace,
                 enum sb_store *result, char *why, size_t why_len, sb_err *e);

/* The next runs stored (sb_run_store) are runs[0..n) (those among them
 * that are stored: the others are skipped), in that order: one query finds
 * which of them the ledger holds, and the new ones are then stored under
 * row ids the writer gives them, without waiting for each one's answer
 * (sb_db_run_later; on PostgreSQL the rows of one COPY per table).  That
 * holds until the next call, sb_run_writer_flush (another process may
 * write between transactions), or the store of a run that needs the
 * ledger's answer (one not among them; --replace of a stored one); the
 * runs must stay as they are until then.  Without it each run is one
 * INSERT whose outcome is read before the next. */
int sb_run_writer_expect(sb_run_writer *w, const sb_run *const *runs, size_t n, sb_err *e);

/* For an input of input_bytes (what is left to read) into a ledger much
 * smaller than it: at least min_bytes and at least twice the ledger
 * file's size.  Then the runs stored go to the settled part of the
 * session index (sql/schema/010_scale.sql) rather than to the recent one,
 * which would be merged into it at the end; and when no reader has the
 * ledger open, readers are kept out (ledger/db.h,
 * sb_db_readers_shut_out: never on PostgreSQL) and the secondary indexes
 * of the run tables dropped inside the caller's transaction, so that
 * sb_run_writer_finish builds each once, its keys sorted, instead of every
 * row updating them in random order.  *dropped says whether. */
int sb_run_writer_bulk(sb_run_writer *w, int64_t input_bytes, int64_t min_bytes, bool *dropped,
                       sb_err *e);

/* Inside the batch's last transaction: the indexes sb_run_writer_bulk
 * dropped built again (those missing); without it, the recent part of the
 * session index merged into the settled part when it holds more than an
 * eighth of the runs (sql/schema/010_scale.sql). */
int sb_run_writer_finish(sb_run_writer *w, sb_err *e);

/* After the batch's last transaction, committed or not: when
 * sb_run_writer_bulk dropped the indexes and they are not there (the
 * import failed after a commit without them), they are built in a
 * transaction of their own; then readers are let in again. */
int sb_run_writer_done(sb_run_writer *w, sb_err *e);

/* Write what w has gathered for the day rollups (ledger/rollup.h) into
 * the ledger: before every commit of the runs stored since the last one. */
int sb_run_writer_flush(sb_run_writer *w, sb_err *e);

/* The executions execs[0..n) as the ledger stores them (run_execs.execs,
 * sql/schema/010_scale.sql): a JSON array holding one array per
 * execution, [command, exit_code, duration_ms, cpu_ms, memory_peak_mb,
 * bytes_read, bytes_written, cost_nanos, extra], absent values null, text
 * escaped as SQLite's json_quote escapes it, so that the text is the one
 * SQLite's json_array and json_group_array make of the same values (the
 * migration and the restore of a replaced run make it in SQL).
 * sb_execs_json_max is at least its length; sb_execs_json writes it at
 * buf, which has room for sb_execs_json_max + 1 bytes, with a NUL after
 * it, and returns its length. */
size_t sb_execs_json_max(const sb_exec *execs, size_t n);
size_t sb_execs_json(const sb_exec *execs, size_t n, char *buf);

/* The card cost of run with card: the sum of cost_for_ms of its listed
 * executions, plus cost_for_ms of what they leave of total_duration_ms
 * (all of it for a summary-only record, the unlisted part of a partly
 * detailed one, 0 for a fully detailed one).  cost_for_ms prices a
 * negative duration (clock skew) as 0.  False on overflow. */
bool sb_run_card_cost(const sb_run *run, const sb_card *card, int64_t *nanos);

#endif
