/* line_list.h: the billing lines as the ledger stores them, read back by
 * name for the listing of 'lines' (sql/queries/billing_line_list.sql).
 *
 * A listing is a statement of the ledger, bound to its filter, and read a
 * row at a time into an sb_line_row whose fields are named, so that no
 * reader counts columns.  Memory does not grow with the lines: one row is
 * held at a time.
 */
#ifndef SB_LEDGER_LINE_LIST_H
#define SB_LEDGER_LINE_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/period.h"

/* Which lines: those whose charge starts in period, narrowed to one
 * backend, session or batch when given (NULL, has_batch false: all). */
typedef struct sb_line_filter {
	sb_period period;          /* charge start in [from_ms, to_ms) */
	const char *backend;       /* backend id, or NULL */
	const char *session_id;    /* session, or NULL */
	bool has_batch;            /* batch_id is given */
	int64_t batch_id;          /* the batch */
} sb_line_filter;

/* One stored line, superseded or not.  Text fields are borrowed from the
 * listing's statement: they live until the next sb_line_list_next; NULL
 * where the ledger holds none. */
typedef struct sb_line_row {
	int64_t batch_id;          /* the batch that stored it */
	int64_t line_no;           /* its line (record) in that batch's input */
	const char *format;        /* the billing format */
	const char *line_key;      /* its line key (lines.h) */
	const char *backend;       /* backend id */
	const char *session_id;    /* session, NULL for an account-level line */
	int64_t start_ms, end_ms;  /* the charge period */
	const char *kind;          /* "billed" or "metered" */
	bool has_amount;           /* amount_nanos is known */
	int64_t amount_nanos;      /* the amount in its currency, nanos */
	const char *currency;      /* ISO 4217 code */
	const char *category;      /* the provider's category */
	bool correction;           /* a correction of an earlier charge */
	const char *quantity;      /* consumed quantity as the source gives it */
	const char *unit;          /* its unit */
	bool has_vcpu_ms;          /* metered: vCPU-milliseconds known */
	int64_t vcpu_ms;
	bool has_memory_mb_ms;     /* metered: MB-milliseconds known */
	int64_t memory_mb_ms;
	bool has_list_cost;        /* list cost known */
	int64_t list_cost_nanos;
	bool has_effective_cost;   /* effective cost known */
	int64_t effective_cost_nanos;
	const char *invoice_id;    /* the provider's invoice */
	const char *tags;          /* tags as stored (JSON text) */
	const char *extra;         /* fields kept as given (JSON text) */
	bool superseded;           /* a later batch superseded it */
	int64_t superseded_by;     /* that batch, when superseded */
} sb_line_row;

/* The listing of f's lines, oldest charge first (then backend, session,
 * and the order they were stored): a statement of db for
 * sb_line_list_next, or NULL with the error in e. */
sb_stmt *sb_line_list_open(sb_db *db, const sb_line_filter *f, sb_err *e);

/* The next line of the listing st into *row: 1, or 0 when none is left,
 * or -1 when the ledger failed (in e); at 0 and -1 st is reset and must
 * not be read again. */
int sb_line_list_next(sb_db *db, sb_stmt *st, sb_line_row *row, sb_err *e);

#endif
