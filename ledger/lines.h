/* lines.h: normalized billing lines (DESIGN.md section 4) and their writer.
 *
 * Every billing format becomes sb_bill_line values: the importer fills
 * them, the writer stores them; the writer knows no format.  Strings are
 * borrowed from whoever filled the line and live until its next line.
 */
#ifndef SB_LINES_H
#define SB_LINES_H

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

#endif
