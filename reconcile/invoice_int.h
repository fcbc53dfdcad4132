/* invoice_int.h: what the files of the invoice builder share, and no one
 * else (reconcile/invoice.h is the builder's interface).
 *
 *   invoice.c           names of the enums, freeing, and the helpers below
 *   invoice_computed.c  the computed basis: the lines of every customer from
 *                       the runs, less the runs other finalized invoices
 *                       charged
 *   invoice_billed.c    the billed basis: what providers billed, allocated
 *                       to customers (it runs the reconciler)
 *   invoice_final.c     finalized invoices read back, and their adjustments
 *   invoice_build.c     sb_invoice_build: finalized and computed invoices
 *                       merged, and the refusals of a tag or customer
 *   invoice_store.c     sb_invoice_finalize: numbering and storing
 *
 * Every function here records its error in e (first error wins) and
 * returns its code, unless it says otherwise.
 */
#ifndef SB_INVOICE_INT_H
#define SB_INVOICE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/quote.h"
#include "reconcile/invoice.h"

/* A cent in nanodollars, and the customer of the runs without the tag. */
/* name quoted for a message (ledger/quote.h), in a buffer of the
 * statement that uses it. */
#define QUOTE(name) sb_quote((name), SB_QUOTE_ALWAYS, (char[SB_QUOTE_BUFSZ]){0}, SB_QUOTE_BUFSZ)

#define CENT_NANOS INT64_C(10000000)
#define UNTAGGED "(untagged)"

/* A growable list of notes (allocated strings). */
typedef struct notes {
	char **items;             /* the notes */
	size_t n;                 /* how many */
} notes;

/* Runs of the period another finalized invoice charged: one row of
 * invoice_claimed.sql. */
typedef struct claim {
	char *customer;           /* its customer now, under the tag */
	char *backend;            /* its backend */
	char *model;              /* its model, "" for none */
	char *number;             /* the invoice that charged it */
	bool belongs;             /* it still belongs to that invoice */
	int64_t runs;             /* how many */
	int64_t exec_ms;          /* their exec time */
	int64_t computed_nanos;   /* their computed cost */
	int64_t input_tokens;     /* their tokens */
	int64_t output_tokens;
} claim;

/* Invoices computed now, one per customer with runs. */
typedef struct fresh {
	sb_invoice *invs;         /* by customer */
	size_t n;
	size_t cap;
	notes set_notes;          /* about no invoice in particular */
	notes notices;            /* for the operator (sb_invoice_set.notices) */
	char **unpriced;          /* per invoice: the first model with no price, or NULL */
	claim *claims;            /* runs left out: other finalized invoices charged them */
	size_t n_claims;
	int64_t claimed_runs;     /* their number */
	char *claimed_where;      /* how many on which invoice (allocated), NULL when none */
	bool any_runs;            /* the period has runs (before leaving any out) */
	bool tag_seen;            /* one of them has the tag (before leaving any out) */
	__int128 set_aside;       /* billed basis: nanodollars billed for runs left out */
} fresh;

/* strdup that records an out-of-memory error in e (s NULL gives NULL). */
char *sb_inv_dup(const char *s, sb_err *e);

/* Append a printf-formatted note to list. */
int sb_inv_note(notes *list, sb_err *e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));


/* Free an adjustment and what it holds; NULL is allowed. */
void sb_inv_adjust_free(sb_invoice_adjust *a);

/* Free what an invoice holds (not the invoice) and clear it. */
void sb_inv_clear(sb_invoice *inv);

/* Free a fresh computation. */
void sb_inv_fresh_free(fresh *f);

/* Add a note to one invoice. */
int sb_inv_note_on(sb_invoice *inv, sb_err *e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));


/* The index of customer's invoice in f, added (in order) when new;
 * (size_t)-1 on error. */
size_t sb_inv_fresh_customer(fresh *f, const char *customer, sb_basis basis, sb_err *e);

/* The index of customer in f, or (size_t)-1. */
size_t sb_inv_fresh_find(const fresh *f, const char *customer);

/* A new zeroed line at the end of inv's lines, or NULL (error in e). */
sb_invoice_line *sb_inv_add_line(sb_invoice *inv, sb_err *e);

/* Set a line's description to "PREFIX: NAME". */
int sb_inv_describe(sb_invoice_line *l, const char *prefix, const char *name, sb_err *e);

/* The compute line of backend on inv, added (0 runs, 0 minutes) when
 * missing; NULL on error. */
sb_invoice_line *sb_inv_compute_line(sb_invoice *inv, const char *backend, sb_err *e);

/* Order of lines: compute lines by backend, then token lines by model,
 * the tokens of no model last. */
int sb_inv_line_cmp(const void *pa, const void *pb);

/* Set a compute line's rate from the amount it charges before the cent
 * rounding: that amount per exec minute, rounded half to even. */
void sb_inv_set_rate(sb_invoice_line *l, __int128 amount);

/* Round nanodollars half to even to the cent, or fail with what. */
int sb_inv_to_cent(__int128 nanos, int64_t *out, const char *what, sb_err *e);

/* Bind the period and the tag of o to st. */
void sb_inv_bind_period_tag(sb_db *db, sb_stmt *st, const sb_invoice_opts *o);

/* Bind the period of o to st (invoice_compute.sql, invoice_tokens.sql,
 * invoice_period_tags.sql): the whole UTC days within the period, read
 * from the day rollups, and the parts before and after them, read from
 * run.  A period holding no whole day is all "before" (head_end_ms =
 * to_ms) and reads no rollup. */
void sb_inv_bind_days(sb_db *db, sb_stmt *st, const sb_invoice_opts *o);

/* sb_inv_bind_days and the tag of o. */
void sb_inv_bind_period_days(sb_db *db, sb_stmt *st, const sb_invoice_opts *o);

/* Price the compute lines on a billed basis (see invoice.h). */
int sb_inv_apply_billed(sb_db *db, const sb_invoice_opts *o, fresh *f, sb_err *e);

/* Compute the invoice of every customer with runs in the period, on basis. */
int sb_inv_compute_fresh(sb_db *db, const sb_invoice_opts *o, sb_basis basis, fresh *f, sb_err *e);

/* A finalized invoice as read from invoice_find (without lines). */
typedef struct stored {
	int64_t invoice_id;       /* its row */
	sb_invoice inv;           /* what it says */
} stored;

/* Read the finalized invoices of the tag over exactly the period, lines
 * and all.  The caller frees *out (sb_inv_clear each, then the array). */
int sb_inv_load_stored(sb_db *db, const sb_invoice_opts *o, stored **out, size_t *n_out, sb_err *e);

/* The adjustment of a finalized invoice: `now` (the same customer
 * computed on the same basis now: the runs it charged as they are now and
 * the runs that came to it since; NULL when it has none) minus what was
 * stored, and the runs behind the difference.  Tokens of runs that name
 * no model have no price: they stay out of the lines, and a note says
 * so.  inv->adjust stays NULL when nothing changed. */
int sb_inv_adjust(sb_db *db, const sb_invoice_opts *o, stored *s, const sb_invoice *now, sb_err *e);

#endif
