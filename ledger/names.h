/* names.h: the one table of names of each enum the ledger stores as text
 * (a batch's status, a billing line's kind, a reconciliation's status,
 * basis and verdict, an invoice's basis).
 *
 * Each enum has its own table, beside its type, and two functions made
 * from it: NAME (the enum to its text, static) and NAME_parse (stored text
 * back to the enum).  These two helpers are what those functions share: a
 * stored name is looked up in one place, and one this sbledger does not
 * know is an error that says so, never a default.  Nothing here allocates.
 */
#ifndef SB_NAMES_H
#define SB_NAMES_H

#include <stddef.h>

#include "ledger/err.h"

/* A table and its length, as the two functions below take them. */
#define SB_NAMES(table) (table), (sizeof (table) / sizeof (table)[0])

/* The index of name in names[0, n), or -1 when it is not there (or is
 * NULL).  NULL entries of names never match. */
int sb_name_index(const char *const *names, size_t n, const char *name);

/* Parse name into *index among names[0, n): SB_OK, or SB_EDATA in e
 * saying that name is not `what` ("a batch status") this sbledger knows
 * and listing those it knows (a ledger written by a newer sbledger, or edited
 * by hand).  *index is left alone on failure. */
int sb_name_parse(const char *const *names, size_t n, const char *what, const char *name,
                  int *index, sb_err *e);

#endif
