/* billing.h: the billing formats of docs/formats-billing.md, behind one
 * interface.
 *
 * A format is one file in importers/ (billing_record.c, billing_focus.c,
 * ...) defining an sb_bill_format: its name, the input shapes it reads
 * (JSON Lines, a JSON array, CSV), and a parse function that turns one
 * record into zero or more normalized lines (ledger/lines.h) or a reason
 * naming the field.  The table in billing.c lists them; adding a provider
 * is one file and one row there.  The import driver (importers/import.c)
 * reads the records and the ledger writer (ledger/lines.c) stores the
 * lines; neither knows a format.
 *
 * Ownership: a parser (sb_bill_parser_new, freed by sb_bill_parser_free)
 * owns the lines it hands out and every string in them until its next
 * record.  Nothing here prints.
 */
#ifndef SB_BILLING_H
#define SB_BILLING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "importers/json_in.h"
#include "importers/records.h"
#include "ledger/err.h"
#include "ledger/lines.h"

/* Options of an import that formats may need. */
typedef struct sb_bill_opts {
	int64_t interval_ms;      /* modal: the length of a row's interval (a day or an hour) */
	bool has_period;          /* the import was given the period its input covers */
	int64_t period_from_ms;   /* that period: start (daytona: rows without times) */
	int64_t period_to_ms;     /* and end, excluded */
} sb_bill_opts;

/* Where a format reads fields from: a JSON object, or a CSV row. */
typedef struct sb_scope {
	json_t *obj;                 /* the JSON object (borrowed), NULL for CSV */
	const sb_csv *csv;           /* CSV: the reader, for its header */
	const sb_csv_record *row;    /* CSV: the row */
	const char *path;            /* prefix of field names in messages ("" at the top,
	                                "event_data.execution." inside) */
	const sb_json_in *json;      /* JSON: the reader obj comes from, which keeps each
	                                number's text (NULL for CSV) */
} sb_scope;

typedef struct sb_bill_parser sb_bill_parser;

/* One record to lines: add each line with sb_bill_emit and fill it; add
 * none to skip the record (counted as skipped).  Return SB_OK, SB_EDATA
 * with the reason in why (naming the field), or SB_EINTERNAL. */
typedef int (*sb_bill_parse_fn)(sb_bill_parser *p, const sb_scope *rec, sb_err *why);

/* A billing format. */
typedef struct sb_bill_format {
	const char *name;              /* the --format value */
	unsigned shapes;               /* SB_REC_* it reads; the first bytes of a file pick one */
	const char *member;            /* JSON: the top-level object's member holding the
	                                  array of records, or NULL for a top-level array */
	unsigned csv_flags;            /* CSV: SB_CSV_* flags of the format's reader */
	const char *const *required;   /* CSV: columns the header must have (NULL-ended) */
	const char *const *one_of;     /* CSV: the header must have one of these, or NULL */
	sb_bill_parse_fn parse;        /* one record to lines */
	bool loose_identity;           /* a line without a charge identity is the same charge
	                                  as one with any (Modal: a total and its resources) */
} sb_bill_format;

/* The formats, one per file. */
extern const sb_bill_format sb_bill_record;
extern const sb_bill_format sb_bill_focus;
extern const sb_bill_format sb_bill_modal;
extern const sb_bill_format sb_bill_daytona;
extern const sb_bill_format sb_bill_e2b_events;
extern const sb_bill_format sb_bill_deepinfra_usage;

/* The format named name, or NULL.  Borrowed (static). */
const sb_bill_format *sb_bill_format_find(const char *name);

/* The names of every format, comma separated (static text). */
const char *sb_bill_format_names(void);

/* A parser for format f with options o (copied).  NULL when out of
 * memory.  Free it with sb_bill_parser_free. */
sb_bill_parser *sb_bill_parser_new(const sb_bill_format *f, const sb_bill_opts *o);

/* Free p and everything it handed out; NULL is allowed. */
void sb_bill_parser_free(sb_bill_parser *p);

/* Check a CSV header against the format's required columns: SB_EDATA
 * with a message naming the missing column and listing the header's, so
 * that a file of another format is told apart at once. */
int sb_bill_check_header(const sb_bill_format *f, const sb_csv *csv, sb_err *why);

/* Parse one record: a JSON object (JSON shapes: text is parsed here) or a
 * CSV row.  On SB_OK *lines points at *n lines (0: skip the record), owned
 * by p until its next call; SB_EDATA with the reason in why; SB_EINTERNAL
 * in why when out of memory. */
int sb_bill_parse(sb_bill_parser *p, const sb_rec *rec, const sb_bill_line **lines, size_t *n,
                  sb_err *why);

/* For format files: ------------------------------------------------------ */

/* The import's options. */
const sb_bill_opts *sb_bill_opts_of(const sb_bill_parser *p);

/* Add a line for the current record: zeroed, kind billed, currency "USD",
 * backend and the rest to be filled by the caller.  NULL when out of
 * memory.  Owned by p. */
sb_bill_line *sb_bill_emit(sb_bill_parser *p);

/* Keep text (allocated with malloc) until the next record and return it;
 * NULL (after freeing text) when out of memory. */
const char *sb_bill_keep(sb_bill_parser *p, char *text);

/* v as compact JSON with sorted keys, kept until the next record; NULL
 * for NULL, or when out of memory. */
const char *sb_bill_dump(sb_bill_parser *p, json_t *v);

/* One field of a record. */
typedef struct sb_field {
	bool present;     /* the member or column exists */
	bool null;        /* absent, JSON null, an empty CSV cell or an empty string */
	const char *text; /* the text of a string or CSV cell, else NULL */
	size_t len;       /* its length */
	json_t *json;     /* JSON: the value (borrowed), else NULL */
	const char *num;  /* JSON: a number's text as written (borrowed), else NULL */
	size_t num_len;   /* its length */
} sb_field;

/* Look name up in s. */
void sb_field_get(const sb_scope *s, const char *name, sb_field *f);

/* A required field is missing: SB_EDATA naming it; for a JSON object at
 * the top, the message lists the record's keys, to tell another format. */
int sb_field_missing(const sb_scope *s, const char *name, sb_err *why);

/* name as a non-empty string (JSON string or CSV cell) of at most max
 * bytes without NUL, into *out; NULL when absent or null (SB_EDATA when
 * required). */
int sb_field_string(const sb_scope *s, const char *name, bool required, size_t max,
                    const char **out, sb_err *why);

/* name as money: decimal text parsed exactly (E-notation allowed), a
 * JSON number too, from the text it is written with (never a double).  *has false when absent or null (SB_EDATA
 * when required); a negative amount is SB_EDATA unless negative_ok. */
int sb_field_money(const sb_scope *s, const char *name, bool required, bool negative_ok,
                   bool *has, int64_t *nanos, sb_err *why);

/* name as a timestamp: RFC 3339 with an offset, or also without one
 * (UTC) when flags has SB_TIME_NAIVE_UTC.  *has false when absent or null
 * (SB_EDATA when required). */
int sb_field_time(const sb_scope *s, const char *name, bool required, int flags, bool *has,
                  int64_t *ms, sb_err *why);

/* name as a non-negative whole number (a JSON integer literal: 1.0 and
 * 1E3 are refused; or digits in a CSV cell).  *has false when absent or null (SB_EDATA when
 * required). */
int sb_field_count(const sb_scope *s, const char *name, bool required, bool *has,
                   int64_t *out, sb_err *why);

/* name as a decimal number kept as text (a quantity): the cell's text when
 * it is a number, a JSON number's shortest text.  NULL when absent or
 * null; SB_EDATA when it is not a number. */
int sb_field_number_text(sb_bill_parser *p, const sb_scope *s, const char *name,
                         const char **out, sb_err *why);

/* name as an ISO 4217 currency code (upper-cased) into *code, "USD" when
 * absent or null and not required.  SB_EDATA for an unknown code. */
int sb_field_currency(sb_bill_parser *p, const sb_scope *s, const char *name, bool required,
                      const char **code, sb_err *why);

/* A provider's name folded to a backend id (lower case, white space
 * removed, an SDK client class mapped: "Vercel" vercel, "Deep Infra"
 * deepinfra), kept by p.  SB_EDATA naming field when it does not fold to
 * [a-z0-9_-]{1,64}. */
int sb_bill_backend(sb_bill_parser *p, const char *field, const char *name, const char **id,
                    sb_err *why);

/* The fields of s whose names (CSV: the header's lookup keys, folded
 * with SB_CSV_FOLD) are neither in known (NULL-ended) nor begin
 * with ignore_prefix (ASCII case ignored; NULL for none), as one JSON
 * object: CSV cells as strings, JSON members as they are, empty cells and
 * nulls left out.  New reference (the caller decrefs it), NULL when there
 * are none or memory ran out. */
json_t *sb_bill_extra(const sb_scope *s, const char *const *known, const char *ignore_prefix);

/* The end of a charge period must not precede its start: SB_EDATA naming
 * both fields otherwise. */
int sb_bill_check_period(const sb_scope *s, const char *start_name, const char *end_name,
                         int64_t start_ms, int64_t end_ms, sb_err *why);

#endif
