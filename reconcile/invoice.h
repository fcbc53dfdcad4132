/* invoice.h: invoices per customer (docs/reports.md, sbledger invoice).
 *
 * A customer is the value of one tag (--by tag:NAME); runs without the tag
 * are the customer "(untagged)".  An invoice has a compute line per
 * backend (exec minutes, the amount) and a token line per model (input
 * and output tokens, the amount from the model price table), sorted by
 * backend then model; each line's amount is rounded half to even to the
 * cent, and the total is the sum of the lines.
 *
 * Basis computed charges the runs' computed_cost_usd.  Basis billed
 * charges what providers billed: per session where the provider's lines
 * name sessions (a session shared by customers is split by their computed
 * cost), each run's own billed_cost_usd where it fills a gap, and the rest
 * of the backend's billed total (account-level lines) allocated to the
 * backend's customers in proportion to their computed cost, to the cent,
 * by largest remainder.  Notes say where that took a decision.
 *
 * Finalizing stores an invoice under a number that never repeats
 * (INV-2026-11-acme-001); a finalized invoice is reprinted from storage,
 * never recomputed, and what changed since (late runs and bills, runs
 * replaced, moved to another customer or repriced) is reported beside it
 * as an adjustment.  A run is on one finalized invoice at most, under any
 * tag: an invoice leaves out the runs another finalized invoice charged
 * (sql/schema/009_invoice_once.sql enforces it), and says how many and
 * where.  A run with tokens but no model has no token price: a draft
 * shows that line's amount and its total as unknown, and finalizing it is
 * refused.  So, on the computed basis, for the compute line of a backend
 * with runs that no rate card priced (none in force at their start): its
 * cost is unknown, never 0, until the backend gets a card (a price, or
 * --free for a self-hosted backend).
 *
 * Ownership: sb_invoice_build and sb_invoice_finalize allocate the set;
 * the caller frees it with sb_invoice_set_free, which frees every string
 * and array inside.  Nothing here prints.
 */
#ifndef SB_INVOICE_H
#define SB_INVOICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/period.h"
#include "ledger/rates.h"
#include "ledger/quote.h"

/* What an invoice charges. */
typedef enum {
	SB_BASIS_COMPUTED,   /* the runs' computed_cost_usd */
	SB_BASIS_BILLED      /* what the providers billed */
} sb_basis;

/* Kinds of invoice line. */
typedef enum {
	SB_INV_COMPUTE,      /* sandbox minutes of one backend */
	SB_INV_TOKENS        /* tokens of one model */
} sb_inv_kind;

typedef struct sb_invoice_line {
	sb_inv_kind kind;             /* compute or tokens */
	char *description;            /* "Sandbox compute: e2b", "Tokens: gpt-5.6-terra" */
	char *backend;                /* compute: backend id; NULL on token lines */
	char *model;                  /* tokens: model; NULL on compute lines */
	int64_t runs;                 /* runs behind the line (0 when read from storage) */
	int64_t exec_ms;              /* compute: exec milliseconds (0 when read from storage) */
	int64_t computed_nanos;       /* compute: the runs' computed_cost_usd (0 when read from storage) */
	int64_t quantity_milli;       /* compute: exec minutes x 1000, rounded half to even */
	bool has_rate;                /* compute: rate_nanos is known (there are minutes) */
	int64_t rate_nanos;           /* compute: amount per exec minute, before the cent rounding */
	int64_t input_tokens;         /* tokens: input tokens */
	int64_t output_tokens;        /* tokens: output tokens */
	int64_t input_per_m_nanos;    /* tokens: price of a million input tokens */
	int64_t output_per_m_nanos;   /* tokens: price of a million output tokens */
	int64_t no_card_runs;         /* compute: runs no rate card priced (none in force at their start) */
	bool unknown;                 /* amount unknown: tokens whose runs name no model (model NULL), or, computed
	                                 basis, compute with no_card_runs */
	int64_t amount_nanos;         /* whole cents, in nanodollars (0 when unknown) */
} sb_invoice_line;

/* What happened to a run since a finalized invoice was stored. */
typedef enum {
	SB_ADJ_LATE,         /* of its customer and period, on no finalized invoice: arrived later */
	SB_ADJ_MOVED_IN,     /* charged by another invoice of the same tag, whose customer or period it has left, and now of this customer and period */
	SB_ADJ_MOVED_OUT,    /* charged here; now another customer's (to), or started outside the period (to NULL) */
	SB_ADJ_REPRICED,     /* charged here; replaced since (import runs --replace) by a version with other figures */
	SB_ADJ_REPLACED,     /* charged here; replaced since by a version with the same figures */
	SB_ADJ_DUPLICATE     /* charged here and, first, by another invoice (finalized before that was refused) */
} sb_adjust_kind;

/* The name of a kind in JSON: "late", "moved_in", "moved_out",
 * "repriced", "replaced", "duplicate". */
const char *sb_adjust_kind_name(sb_adjust_kind kind);

/* One run an adjustment names. */
typedef struct sb_adjust_run {
	sb_adjust_kind kind;          /* what happened */
	char *run_id;                 /* the run */
	char *to;                     /* moved out: the customer it has now; NULL when it left the period */
	char *from;                   /* moved in: the customer it had on the invoice that charged it */
	char *invoice;                /* moved in, duplicate: the number of the other invoice */
} sb_adjust_run;

/* What changed for a finalized invoice since it was stored: a fresh
 * computation on the same basis (the runs it charged as they are now, and
 * the runs that came to it) minus the stored lines. */
typedef struct sb_invoice_adjust {
	sb_invoice_line *lines;       /* the lines that differ: quantities and amounts as deltas */
	size_t n_lines;
	int64_t total_nanos;          /* the sum of their amounts */
	sb_adjust_run *runs;          /* the runs that changed, by kind (late first), then run id */
	size_t n_runs;
	size_t n_kind[6];             /* how many of runs have each kind (sb_adjust_kind) */
} sb_invoice_adjust;

typedef struct sb_invoice {
	char *customer;               /* the tag value, or "(untagged)" */
	char *number;                 /* the invoice number, NULL for a draft */
	sb_basis basis;               /* what it charges */
	char currency[4];             /* "USD" */
	int64_t created_ms;           /* finalized: when; 0 for a draft */
	sb_invoice_line *lines;       /* compute lines by backend, then token lines by model (no model last) */
	size_t n_lines;
	int64_t total_nanos;          /* sum of the lines' amounts (of the known ones when total_unknown) */
	bool total_unknown;           /* a line's amount is unknown (a draft only), so is the total */
	char **unknown_runs;          /* with total_unknown: the runs with tokens but no model, by run id */
	size_t n_unknown_runs;
	sb_no_card *no_card;          /* with total_unknown: the backends of the compute lines of unknown cost,
	                                 their runs on this invoice, the earliest start of the period's */
	size_t n_no_card;
	int64_t runs;                 /* runs charged */
	char **notes;                 /* what the invoice says besides its lines */
	size_t n_notes;
	sb_invoice_adjust *adjust;    /* finalized: what changed since, NULL when nothing did */
} sb_invoice;

typedef struct sb_invoice_set {
	sb_period period;             /* the period invoiced */
	char tag[129];                /* the tag name */
	sb_basis basis;               /* the basis asked for (a finalized invoice keeps its own) */
	sb_invoice *invoices;         /* by customer */
	size_t n_invoices;
	char **notes;                 /* about no invoice in particular (amounts billed to no customer) */
	size_t n_notes;
	char **notices;               /* for whoever runs sbledger, never on an invoice: the runs left out
	                                 because other finalized invoices charged them, and what to run
	                                 about a note (the CLI writes them to stderr) */
	size_t n_notices;
	int64_t claimed_runs;         /* runs of the period left out: other finalized invoices charged them */
	char *claimed_where;          /* how many of them on which invoice ("8 on INV-2026-11-acme-001, ..."), NULL when none */
	int64_t made_ms;              /* when the set was made */
} sb_invoice_set;

typedef struct sb_invoice_opts {
	sb_period period;             /* --period */
	const char *tag;              /* the tag name of --by tag:NAME */
	const char *customer;         /* --customer, or NULL for every customer */
	sb_basis basis;               /* --basis */
	const sb_invocation *invoked; /* how sbledger was run: what the commands of the
	                                 notices begin with (NULL: "sbledger") */
} sb_invoice_opts;

/* The basis's name: "computed" or "billed" (static). */
const char *sb_basis_name(sb_basis basis);

/* A basis's name (stored, or given to --basis) back to its enum: SB_OK,
 * or SB_EDATA in e for a name this sbledger does not know. */
int sb_basis_parse(const char *name, sb_basis *out, sb_err *e);

/* An invoice line kind's name as the ledger stores it ("compute",
 * "tokens"; static), and a stored name back to its enum (SB_EDATA in e for
 * a name this sbledger does not know). */
const char *sb_inv_kind_name(sb_inv_kind kind);
int sb_inv_kind_parse(const char *name, sb_inv_kind *out, sb_err *e);

/* Build the invoices of the period: finalized ones as stored (with their
 * adjustments), the others computed now, without the runs other finalized
 * invoices charged.  A tag that no run of the period carries is SB_EDATA
 * naming the tags they have (and the nearest one, when it is close: "did
 * you mean"); a period without runs has no invoices.  A customer given in
 * opts that no run has ever had as its tag value is SB_EDATA (the message
 * lists values that exist); a known customer with no runs in the period
 * gets an empty invoice.  A token line whose model has no price is
 * SB_EDATA naming the model (it is never priced as zero); tokens of runs
 * that name no model make an unknown line.  The caller owns *out. */
int sb_invoice_build(sb_db *db, const sb_invoice_opts *opts, sb_invoice_set **out, sb_err *e);

/* Finalize the invoices of opts (one customer, or every customer with runs
 * in the period) in one transaction: refused (SB_EDATA, nothing stored)
 * when any of them is already finalized for this period or one
 * overlapping it, when one has runs with tokens but no model (naming
 * them), or, on the computed basis, runs no rate card priced (naming the
 * backend and both ways out), or when there is nothing to invoice (no runs, or every run is on
 * another finalized invoice: the message says how many and where).
 * Numbers are INV-PERIOD-CUSTOMER-NNN, NNN one more than the highest ever
 * given to that prefix.  On success *out is the set as stored (read
 * back); the caller owns it.  db must have been opened with SB_DB_WRITE. */
int sb_invoice_finalize(sb_db *db, const sb_invoice_opts *opts, sb_invoice_set **out, sb_err *e);

/* Free set and everything in it; NULL is allowed. */
void sb_invoice_set_free(sb_invoice_set *set);

/* The edit distance of a and b (insertions, deletions, substitutions and
 * swaps of two neighbours, each 1), or SIZE_MAX past 128 bytes; for "did
 * you mean". */
size_t sb_edit_distance(const char *a, const char *b);

/* The slug of text for an invoice number: ASCII letters and digits kept
 * (letters lower-cased), every other run of bytes one '-', no '-' at
 * either end, at most 40 bytes; "x" when nothing is left.  Writes buf. */
char *sb_invoice_slug(const char *text, bool keep_dots, char buf[64]);

#endif
