/* recon_words.h: what a backend's reconciliation means, in words that
 * agree with its figures (docs/reconcile.md): the sentences the reconcile
 * table prints under its rows, and that any other page of the result can
 * show.  Rendering, not judgment: every figure comes from the result.
 */
#ifndef SB_RECON_WORDS_H
#define SB_RECON_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "ledger/quote.h"
#include "reconcile/reconcile.h"

/* What a backend's result means, in words that agree with its figures
 * (the verdict, pending, no_rate with the command that sets the missing
 * rates, ...), without the backend's name, written into buf (always
 * NUL-terminated, cut to cap).  The commands in it begin with inv's words
 * (sb_invocation_words; NULL: "sbledger").  Returns false, with buf "",
 * when there is nothing to say (ok, with no flagged sessions). */
bool sb_recon_words(const sb_recon *r, const sb_recon_backend *b, const sb_invocation *inv,
                    char *buf, size_t cap);

#endif
