/* csvout.h: the one CSV cell writer (docs/reports.md, "CSV that a
 * spreadsheet opens safely").
 *
 * Every CSV sbledger writes goes through it: the listings of report/out.c,
 * the invoice CSV, nightly's summary.csv and the FOCUS export.  A cell is
 * one of two kinds:
 *
 *   text   free text that came from outside (a tag name or value, a
 *          session, a model, a description, a command, a backend id, a
 *          source path, a rejected line): when its first byte is one a
 *          spreadsheet starts a formula with (= + - @ tab CR), it is
 *          written with a leading ' (the OWASP rule), unless the writer is
 *          raw (--raw);
 *   value  what the program writes itself (a number, a time, one of its
 *          own names): written as it is; only a value that is not a number
 *          and still starts with one of those bytes is guarded like text
 *          (so that "-0.5" stays a number and nothing else slips through).
 *
 * Either kind is then quoted as RFC 4180 says: in double quotes, quotes
 * doubled, when it holds a comma, a quote, CR or LF.  NULL is an empty
 * cell.  The writer puts the commas between cells and the newline at the
 * end of a row.  It allocates nothing.
 */
#ifndef SB_CSVOUT_H
#define SB_CSVOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct sb_csv_out {
	FILE *f;                  /* where the rows go (borrowed) */
	bool raw;                 /* free text as it is, never guarded */
	size_t cells;             /* cells written on the current row */
} sb_csv_out;

/* Start writing rows to f; raw turns the guard off. */
void sb_csv_out_init(sb_csv_out *w, FILE *f, bool raw);

/* The next cell: free text (see above). */
void sb_csv_text(sb_csv_out *w, const char *s);

/* The next cell: a value the program writes (see above). */
void sb_csv_value(sb_csv_out *w, const char *s);

/* End the current row (a newline). */
void sb_csv_end(sb_csv_out *w);

/* Whether a spreadsheet would run s as a formula: its first byte is one
 * of = + - @ tab CR. */
bool sb_csv_formula(const char *s);

/* Whether s is a plain decimal number: an optional sign, digits with at
 * most one point, an optional exponent ("-0.5", "12", "1.5E-3"). */
bool sb_csv_number(const char *s);

#endif
