/* out.h: listings in the three data formats (table, csv, json), the one
 * place where sbledger lays out rows and columns, and the output formats
 * every renderer of report/ takes.
 *
 * A listing has typed columns; rows are added cell by cell, and the
 * listing writes to the FILE * it was started with (nothing goes to
 * stdout unless that is what it was given).  JSON prints an array of
 * objects (money as decimal strings with 9 decimals, absent values null);
 * CSV a header row and one line per row (money with 9 decimals, absent
 * values empty, numbers as plain digits); a table aligned columns:
 * numbers right-aligned under a right-aligned heading, text to the left,
 * money with 6 decimals and rates with 9, token and byte counts with
 * thousands separators (1,234,567), absent values "-".  Table rows are
 * kept until the end to size the columns; CSV and JSON rows are written as
 * they come.  CSV cells go through the one CSV writer (report/csvout.h):
 * text columns as free text (guarded against spreadsheet formulas unless
 * the listing is raw: --raw), the others as values the program writes.
 *
 * A cell or a row that memory ran out for is never dropped silently: the
 * listing remembers it, and sb_out_end says so.  Whether the FILE * took
 * the bytes is for its owner to check (ferror; stdout is checked once, at
 * exit).  Every sb_out_* call on a NULL listing (sb_out_new failed) does
 * nothing, so that a caller checks once, at sb_out_end.
 */
#ifndef SB_REPORT_OUT_H
#define SB_REPORT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ledger/db.h"
#include "ledger/err.h"

/* Output formats (a command's --format; not every renderer has each). */
typedef enum { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_HTML } sb_format;

/* Column types. */
typedef enum {
	COL_INT,     /* integer */
	COL_MONEY,   /* nanodollars: 9 decimals in data, 6 in tables */
	COL_RATE,    /* nanodollars per unit: 9 decimals everywhere */
	COL_TEXT,    /* text */
	COL_TIME,    /* UTC ms as RFC 3339 */
	COL_BOOL,    /* true/false */
	COL_COUNT,   /* integer count of tokens or bytes: 1,234,567 in tables */
	COL_NUMBER   /* a number kept as text (a provider's quantity "8.544", or
	              * one the caller wrote, "5.021", "13.56%"): right-aligned
	              * in tables, a string in JSON, a value in CSV (never
	              * guarded as free text) */
} sb_col_type;

/* A table_width that keeps the end of a long text (a path: its file name)
 * and cuts from the left: ".../samples/runs.jsonl". */
#define SB_KEEP_END(width) (-(width))

typedef struct sb_col {
	const char *name;    /* column name (JSON key, CSV header) */
	sb_col_type type;    /* its type */
	int table_width;     /* at most this many characters in a table: 0 no
	                      * limit; N cut at the right ("abc..."); negative
	                      * (SB_KEEP_END) cut at the left */
} sb_col;

typedef struct sb_out sb_out;

/* Start a listing of n columns (cols borrowed: they must outlive it) in
 * format fmt (FMT_TABLE, FMT_CSV or FMT_JSON) on f; csv_raw writes CSV
 * free text unguarded (--raw).  CSV writes its header and JSON its '['
 * now.  NULL when out of memory (nothing written). */
sb_out *sb_out_new(FILE *f, sb_format fmt, bool csv_raw, const sb_col *cols, size_t n);

/* Cells of the current row, in column order. */
void sb_out_int(sb_out *o, int64_t v);
void sb_out_money(sb_out *o, int64_t nanos);
void sb_out_text(sb_out *o, const char *s);           /* NULL is null */
void sb_out_textn(sb_out *o, const char *s, size_t n); /* any bytes; bad UTF-8 replaced */
void sb_out_time(sb_out *o, int64_t ms);
void sb_out_bool(sb_out *o, bool v);
void sb_out_null(sb_out *o);
void sb_out_unknown(sb_out *o);                       /* null, "unknown" in a table */

/* End the current row. */
void sb_out_row(sb_out *o);

/* Table only: start every line with `spaces` spaces, and print no heading
 * row (a list of labelled figures rather than columns). */
void sb_out_indent(sb_out *o, int spaces);
void sb_out_no_heading(sb_out *o);

/* v with a comma between each group of three digits ("-1,234,567") into
 * buf; returns buf.  For counts that a table shows. */
char *sb_thousands(int64_t v, char buf[32]);

/* Finish the listing (print a table, close a JSON array) and free o.
 * SB_EINTERNAL in e ("out of memory while writing the result") when o is
 * NULL or memory ran out for a cell or a row on the way. */
int sb_out_end(sb_out *o, sb_err *e);

/* Print the current row of st as one row of o: column i of st in column
 * i of the listing, printed by the listing column's type (NULL as null, a
 * BLOB in a text column as its bytes). */
void sb_out_stmt(sb_out *o, sb_stmt *st);

/* The first n columns of the current row of st as the first n cells of
 * the current row of o, as sb_out_stmt prints them, the row left open:
 * the caller adds the cells of the columns after them, then ends it. */
void sb_out_stmt_cells(sb_out *o, sb_stmt *st, size_t n);

/* Print every row of st (a statement of db, its parameters bound) with
 * sb_out_stmt, then reset st.  Returns e->code (a failed step is in e). */
int sb_out_rows(sb_out *o, sb_db *db, sb_stmt *st, sb_err *e);

/* s with invalid UTF-8 replaced by U+FFFD and control characters other
 * than tab kept; allocated, the caller frees it (NULL when out of
 * memory). */
char *sb_utf8_clean(const char *s, size_t n);

#endif
