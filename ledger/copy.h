/* copy.h: a ledger's content, fingerprinted and copied between ledgers
 * of either engine ('sbledger check --fingerprint', 'sbledger copy';
 * docs/postgresql.md).
 *
 * A fingerprint says what a ledger holds, whatever engine holds it and
 * whatever order things were stored in: each file sql/fingerprint/NAME.sql
 * selects one table's natural content (no id that depends on the order of
 * storing; a reference to another row as that row's natural key), and
 * its fingerprint is the count of its rows and the sum, modulo 2^256, of
 * the SHA-256 of each row (so the rows' order does not matter and a row
 * twice counts twice).  A row's bytes are, per column, 'N' for NULL, or
 * 'V', its text's length as 8 bytes big-endian and the text (an integer
 * as its decimal digits; a blob's bytes as they are).
 */
#ifndef SB_LEDGER_COPY_H
#define SB_LEDGER_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "ledger/db.h"
#include "ledger/err.h"

/* Tell each(ctx, ...) of each fingerprint file in the order of their
 * names: its name ("fingerprint/03_run"), what it is (what_len bytes of
 * what: its first line after "-- "), its rows and its sum in hex. */
typedef void (*sb_fingerprint_fn)(void *ctx, const char *name, const char *what, size_t what_len, int64_t rows,
                                  const char hex[65]);
int sb_ledger_fingerprint(sb_db *db, sb_fingerprint_fn each, void *ctx, sb_err *e);

/* What a copy moved. */
typedef struct sb_copy_counts {
	int64_t tables;     /* tables copied */
	int64_t rows;       /* rows copied in all */
	int64_t checked;    /* fingerprint files found equal on both */
} sb_copy_counts;

/* Copy every row of every table of from into to, exactly (ids too), in
 * one transaction of to: to must hold no batch, invoice or reconciliation
 * yet (a ledger just made by init; SB_EDATA otherwise), and what init
 * seeded there (rate cards, backends, tolerances, ...) is replaced by
 * from's.  Before it commits, the fingerprints of the two are compared:
 * a difference is SB_EINTERNAL and to is left as it was. */
int sb_ledger_copy(sb_db *from, sb_db *to, sb_copy_counts *out, sb_err *e);

#endif
