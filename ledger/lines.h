/* lines.h: normalized billing lines (docs/formats-billing.md) and their writer.
 *
 * Every billing format becomes sb_bill_line values: the importer fills
 * them, the writer stores them; the writer knows no format.  Strings are
 * borrowed from whoever filled the line and live until its next line.
 *
 * A line is stored under its line key: the format's own id where it has
 * one, else the SHA-256 of the normalized line (every field below but the
 * key, so that the same charge spelt differently has the same key).  A
 * key that a live line of the same format holds is a duplicate, counted
 * and not stored.  Superseding marks the lines of earlier batches that a
 * reissued export replaces: kept for audit, no longer live.
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
	                               SHA-256 of the normalized line */
} sb_bill_line;

/* Length of a hex SHA-256 line key with its NUL. */
#define SB_LINE_KEY_HEX 65

typedef struct sb_line_writer sb_line_writer;

/* A writer storing lines of format (borrowed, must outlive the writer)
 * into db for batch batch_id.  The caller owns *out (sb_line_writer_free). */
int sb_line_writer_new(sb_db *db, const char *format, int64_t batch_id,
                       sb_line_writer **out, sb_err *e);

/* Free w; NULL is allowed. */
void sb_line_writer_free(sb_line_writer *w);

/* Store line, read at line_no with source[0..source_len) as its row,
 * inside the caller's transaction.  *stored is false when a live line of
 * the format has its key (a duplicate: nothing written).  SB_EDATA for a
 * line that breaks the table's rules (an empty backend, end before start,
 * an amount on a metered line), SB_EINTERNAL or SB_EIO from SQLite. */
int sb_line_store(sb_line_writer *w, const sb_bill_line *line, int64_t line_no,
                  const void *source, size_t source_len, bool *stored, sb_err *e);

/* The SHA-256 of the normalized line (its key when the format has no id)
 * as hex into key; false when libcrypto could not make it (out of memory),
 * key then being all zeros, which must never be used as a key. */
bool sb_line_hash(const sb_bill_line *line, char key[SB_LINE_KEY_HEX]);

/* Mark superseded by batch_id the live lines of earlier batches (ids below
 * batch_id) of format and backend whose charge period lies inside
 * [from_ms, to_ms] (start >= from_ms and end <= to_ms).  *count gets how
 * many.  Inside the caller's transaction. */
int sb_lines_supersede(sb_db *db, const char *format, const char *backend, int64_t from_ms,
                       int64_t to_ms, int64_t batch_id, int64_t *count, sb_err *e);

#endif
