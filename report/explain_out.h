/* explain_out.h: the drift's parts (reconcile/explain.h) as 'explain'
 * prints them: a table, JSON, an HTML page, or the dispute pack of one
 * session (docs/reconcile.md, "Explain").  Amounts carry 9 decimals
 * everywhere here, so that the parts visibly add up to the drift.
 */
#ifndef SB_EXPLAIN_OUT_H
#define SB_EXPLAIN_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "ledger/err.h"
#include "ledger/quote.h"
#include "reconcile/explain.h"

/* What the renderers are told besides the explanation. */
typedef struct sb_explain_view {
	const sb_invocation *invoked; /* the program as run (the commands it names) */
	bool ours_only;               /* --ours-only: only the lines and runs left unmatched */
	const char *session;          /* --session S, or NULL */
} sb_explain_view;

/* The explanation as JSON (new reference; NULL when memory ran out). */
json_t *sb_explain_json(const sb_explained *x, const sb_explain_view *v);

/* As a table on f.  SB_EIO when f reports an error. */
int sb_explain_table(FILE *f, const sb_explained *x, const sb_explain_view *v, sb_err *e);

/* As an HTML page on f.  SB_EIO when f reports an error. */
int sb_explain_html(FILE *f, const sb_explained *x, const sb_explain_view *v, sb_err *e);

/* The dispute pack of session v->session (the text a provider's support
 * needs): SB_ENOINPUT when no backend has that session in the period. */
int sb_explain_dispute(FILE *f, const sb_explained *x, const sb_explain_view *v, sb_err *e);

#endif
