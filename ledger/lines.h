/* lines.h: normalized billing lines (docs/formats-billing.md) and their writer.
 *
 * Every billing format becomes sb_bill_line values: the importer fills
 * them, the writer stores them; the writer knows no format.  Strings are
 * borrowed from whoever filled the line and live until its next line.
 *
 * A line is stored under its line key: the format's own id where it has
 * one, else the SHA-256 of the normalized line (every field below but the
 * key and the identity, so that the same charge spelt differently has the
 * same key) for the first row of a file with that content, and the SHA-256
 * of that and the row's ordinal among the identical rows of its file for
 * the next ones (two identical rows of one file are two charges).  A key
 * that a live line of the format holds with the same content is a
 * duplicate (counted, not stored); with other content a conflict.  A line
 * that is the same charge as a live line of another batch (same format,
 * backend, session, category, neither a correction, the same charge
 * identity, overlapping periods) is refused, naming that batch.
 *
 * A superseding batch stores its lines as pending (no reader sees them;
 * their keys are compared among themselves) and finishes in the
 * transaction of its last chunk: the live lines it replaces are
 * superseded (kept for audit, no longer live) and its lines become live,
 * in one step.
 */
#ifndef SB_LEDGER_LINES_H
#define SB_LEDGER_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"

/* Kinds of billing line. */
typedef enum {
	SB_LINE_BILLED,    /* dollars the provider reports */
	SB_LINE_METERED    /* usage the provider reports, priced at reconciliation */
} sb_line_kind;

/* The kind's name as the ledger stores it ("billed", "metered"); static. */
const char *sb_line_kind_name(sb_line_kind kind);

/* A stored kind back to its enum: SB_OK, or SB_EDATA in e for a name this
 * sbledger does not know. */
int sb_line_kind_parse(const char *name, sb_line_kind *out, sb_err *e);

typedef struct sb_bill_line {
	const char *backend;        /* backend id */
	const char *session_id;     /* NULL for an account-level line */
	int64_t start_ms;           /* charge period start */
	int64_t end_ms;             /* charge period end */
	sb_line_kind kind;          /* billed or metered */
	bool has_amount;            /* amount_nanos is known (false on metered lines) */
	int64_t amount_nanos;       /* signed, in currency units x 10^9 */
	const char *currency;       /* ISO 4217 code ("USD") */
	const char *category;       /* FOCUS ChargeCategory, NULL when none */
	bool correction;            /* FOCUS ChargeClass Correction */
	const char *quantity;       /* consumed quantity as text, NULL when none */
	const char *unit;           /* its unit, NULL when none */
	bool has_metered;           /* vcpu_ms and memory_mb_ms are set */
	int64_t vcpu_ms;            /* vCPU-milliseconds */
	int64_t memory_mb_ms;       /* MB-milliseconds */
	bool has_list_cost;         /* list_cost_nanos is known */
	int64_t list_cost_nanos;    /* FOCUS ListCost */
	bool has_effective_cost;    /* effective_cost_nanos is known */
	int64_t effective_cost_nanos; /* FOCUS EffectiveCost */
	const char *invoice_id;     /* FOCUS InvoiceId, NULL when none */
	const char *tags;           /* tags as JSON text, NULL when none */
	const char *extra;          /* other kept fields as a JSON object, NULL when none */
	const char *line_key;       /* the format's own id, or NULL: the writer then uses the
	                               SHA-256 of the normalized line (and its ordinal) */
	const char *identity;       /* what names the charge within backend, session and
	                               category (FOCUS ServiceName, SkuId, ...; Modal resource;
	                               record unit), NULL for none */
} sb_bill_line;

/* Length of a hex SHA-256 line key with its NUL. */
#define SB_LINE_KEY_HEX 65

typedef struct sb_line_writer sb_line_writer;

/* How a writer stores. */
typedef struct sb_line_writer_opts {
	bool pending;              /* a superseding batch: lines pending until it finishes */
	bool loose_identity;       /* a line without a charge identity is the same charge as
	                              one with any (Modal: a total and its resources) */
} sb_line_writer_opts;

/* A writer storing lines of format (borrowed, must outlive the writer)
 * into db for batch batch_id.  The caller owns *out (sb_line_writer_free). */
int sb_line_writer_new(sb_db *db, const char *format, int64_t batch_id,
                       const sb_line_writer_opts *o, sb_line_writer **out, sb_err *e);

/* Free w; NULL is allowed. */
void sb_line_writer_free(sb_line_writer *w);

/* Before a commit, and after a rollback to a savepoint of what w stored:
 * what w knows of the ledger (the next line's row id) holds no longer,
 * and is read again from the ledger when it is next needed (another
 * process may store lines between two transactions). */
void sb_line_writer_forget(sb_line_writer *w);

/* What sb_line_store did with a line. */
typedef enum {
	SB_LINE_STORED,      /* stored (pending in a superseding batch) */
	SB_LINE_DUPLICATE,   /* its key is live (or pending in this batch) with the same content */
	SB_LINE_CONFLICT,    /* its key is live (or pending) with other content: not stored */
	SB_LINE_SAME_CHARGE  /* the same charge as a live line of another batch: not stored */
} sb_line_outcome;

/* The result of sb_line_store. */
typedef struct sb_line_stored {
	sb_line_outcome outcome;   /* what was done */
	int64_t batch_id;          /* CONFLICT, SAME_CHARGE: the batch holding the other line */
	int64_t line_no;           /* CONFLICT: that line's line in its batch's input */
	char key[SB_LINE_KEY_HEX]; /* the line's key when it had none of its own */
} sb_line_stored;

/* Store line, read at line_no with source[0..source_len) as its row,
 * inside the caller's transaction (see the top of this file for keys,
 * duplicates, conflicts and the same charge).  SB_EINTERNAL for a line
 * that breaks the table's rules (an empty backend, end before start, an
 * amount on a metered line), SB_EINTERNAL or SB_EIO from SQLite. */
int sb_line_store(sb_line_writer *w, const sb_bill_line *line, int64_t line_no,
                  const void *source, size_t source_len, sb_line_stored *r, sb_err *e);

/* The SHA-256 of the normalized line (its key when the format has no id)
 * as hex into key; false when libcrypto could not make it (out of memory),
 * key then being all zeros, which must never be used as a key. */
bool sb_line_hash(const sb_bill_line *line, char key[SB_LINE_KEY_HEX]);

/* A superseding batch w completes, inside the transaction of its last
 * chunk.  Superseded by it, among the live lines of other batches of its
 * format: those holding one of its keys; those that are the same charge
 * as one of its lines; and for each backend of its lines, those lying
 * inside the period it covers (charge start in it, end by its end):
 * [from_ms, to_ms) when has_period, else the span of that backend's lines
 * (earliest start to latest end), which must all be of one length (a UTC
 * calendar month is one length).  Then its lines become live.  *count
 * gets how many lines were superseded.  When the lengths differ nothing
 * is done and *refused holds why (SB_EUSAGE, naming --period). */
int sb_line_writer_finish(sb_line_writer *w, bool has_period, int64_t from_ms, int64_t to_ms,
                          int64_t *count, sb_err *refused, sb_err *e);

/* A batch ended (complete or failed): drop what it kept while it could be
 * resumed (the row counts), and, when it failed, its pending lines. */
int sb_lines_batch_ended(sb_db *db, int64_t batch_id, sb_err *e);

#endif
