/* out.c: listings in table, csv and json (see out.h). */
#include "cli/out.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ledger/csvout.h"
#include "ledger/money.h"
#include "ledger/timefmt.h"

struct sb_out {
	sb_format fmt;        /* output format */
	const sb_col *cols;   /* the columns (borrowed) */
	size_t n_cols;        /* how many */
	size_t col;           /* next cell of the current row */
	json_t *row;          /* JSON: the current row */
	bool first_row;       /* JSON: no row printed yet */
	char **cells;         /* table: every cell text, row-major */
	size_t n_cells;       /* table: cells stored */
	size_t cap_cells;     /* table: allocated */
	int indent;           /* table: spaces before each line */
	bool no_heading;      /* table: no heading row */
	sb_csv_out csv;       /* CSV: the writer */
};

/* --raw: CSV free text unguarded (one command per process). */
static bool csv_raw;

void sb_out_set_csv_raw(bool raw)
{
	csv_raw = raw;
}

sb_out *sb_out_new(sb_format fmt, const sb_col *cols, size_t n)
{
	sb_out *o = calloc(1, sizeof *o);

	if (o == NULL)
		return NULL;
	o->fmt = fmt;
	o->cols = cols;
	o->n_cols = n;
	o->first_row = true;
	if (fmt == FMT_CSV) {
		sb_csv_out_init(&o->csv, stdout, csv_raw);
		for (size_t i = 0; i < n; i++)
			sb_csv_value(&o->csv, cols[i].name);
		sb_csv_end(&o->csv);
	} else if (fmt == FMT_JSON) {
		putchar('[');
	}
	return o;
}

char *sb_utf8_clean(const char *s, size_t n)
{
	char *out = malloc(3 * n + 1);
	size_t o = 0;

	if (out == NULL)
		return NULL;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
		bool ok = len > 0 && i + len <= n && c != 0;
		for (size_t k = 1; ok && k < len; k++)
			ok = ((unsigned char)s[i + k] >> 6) == 2;
		if (ok && len == 2 && c < 0xC2)
			ok = false;
		if (ok) {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
		} else {
			memcpy(out + o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

/* Cut text to at most width bytes (width > 4) from the left, keeping its
 * end: "..." and the longest tail that starts at a '/' (so that a path
 * keeps its last directories and its file name whole), else the last bytes
 * that fit, at a character boundary. */
static void keep_end(char *text, size_t width)
{
	size_t len = strlen(text), from = len - (width - 3);
	const char *slash;

	while (from < len && ((unsigned char)text[from] >> 6) == 2)
		from++;
	if ((slash = strchr(text + from, '/')) != NULL && slash[1] != '\0')
		from = (size_t)(slash - text);
	memmove(text + 3, text + from, len - from + 1);
	memcpy(text, "...", 3);
}

/* Store one cell: text for table and csv (taking ownership of the
 * allocated text), json for JSON (a new reference). */
static void cell(sb_out *o, char *text, json_t *json)
{
	const sb_col *c = &o->cols[o->col < o->n_cols ? o->col : o->n_cols - 1];

	o->col++;
	if (o->fmt == FMT_JSON) {
		if (o->row == NULL)
			o->row = json_object();
		json_object_set_new(o->row, c->name, json != NULL ? json : json_null());
		free(text);
		return;
	}
	json_decref(json);
	if (o->fmt == FMT_CSV) {
		if (c->type == COL_TEXT)
			sb_csv_text(&o->csv, text);
		else
			sb_csv_value(&o->csv, text);
		free(text);
		return;
	}
	if (text != NULL && c->table_width > 0 && strlen(text) > (size_t)c->table_width) {
		/* cut at a character boundary and mark the cut */
		size_t cut = (size_t)c->table_width - 3;
		while (cut > 0 && ((unsigned char)text[cut] >> 6) == 2)
			cut--;
		strcpy(text + cut, "...");
	} else if (text != NULL && c->table_width < 0 && strlen(text) > (size_t)-c->table_width) {
		keep_end(text, (size_t)-c->table_width);
	}
	if (o->n_cells == o->cap_cells) {
		size_t cap = o->cap_cells ? 2 * o->cap_cells : 64;
		char **cells = realloc(o->cells, cap * sizeof *cells);
		if (cells == NULL) {
			free(text);
			return;
		}
		o->cells = cells;
		o->cap_cells = cap;
	}
	o->cells[o->n_cells++] = text;
}

char *sb_thousands(int64_t v, char buf[32])
{
	char digits[24];
	int n = snprintf(digits, sizeof digits, "%lld", (long long)v), o = 0;
	int sign = digits[0] == '-';

	for (int i = 0; i < n; i++) {
		buf[o++] = digits[i];
		if (i >= sign && i + 1 < n && (n - 1 - i) % 3 == 0)
			buf[o++] = ',';
	}
	buf[o] = '\0';
	return buf;
}

void sb_out_int(sb_out *o, int64_t v)
{
	char buf[32];
	const sb_col *c = &o->cols[o->col < o->n_cols ? o->col : o->n_cols - 1];

	if (o->fmt == FMT_TABLE && c->type == COL_COUNT)
		sb_thousands(v, buf);
	else
		snprintf(buf, sizeof buf, "%lld", (long long)v);
	cell(o, strdup(buf), json_integer((json_int_t)v));
}

void sb_out_money(sb_out *o, int64_t nanos)
{
	char data[SB_MONEY_BUFSZ], shown[SB_MONEY_BUFSZ];
	const sb_col *c = &o->cols[o->col < o->n_cols ? o->col : o->n_cols - 1];
	int decimals = o->fmt == FMT_TABLE && c->type == COL_MONEY ? 6 : 9;

	sb_money_format(nanos, 9, data);
	sb_money_format(nanos, decimals, shown);
	cell(o, strdup(shown), json_string(data));
}

void sb_out_text(sb_out *o, const char *s)
{
	if (s == NULL)
		sb_out_null(o);
	else
		sb_out_textn(o, s, strlen(s));
}

void sb_out_textn(sb_out *o, const char *s, size_t n)
{
	char *clean = sb_utf8_clean(s, n);

	if (clean == NULL) {
		sb_out_null(o);
		return;
	}
	if (o->fmt == FMT_TABLE) {
		/* one line per row: control characters as spaces */
		for (char *p = clean; *p != '\0'; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = ' ';
	}
	cell(o, clean, json_string(clean));
}

void sb_out_time(sb_out *o, int64_t ms)
{
	char buf[SB_TIME_BUFSZ];

	sb_time_format(ms, buf);
	cell(o, strdup(buf), json_string(buf));
}

void sb_out_bool(sb_out *o, bool v)
{
	cell(o, strdup(v ? "true" : "false"), json_boolean(v));
}

void sb_out_null(sb_out *o)
{
	cell(o, o->fmt == FMT_TABLE ? strdup("-") : NULL, json_null());
}

void sb_out_indent(sb_out *o, int spaces)
{
	o->indent = spaces;
}

void sb_out_no_heading(sb_out *o)
{
	o->no_heading = true;
}

void sb_out_row(sb_out *o)
{
	o->col = 0;
	if (o->fmt == FMT_CSV) {
		sb_csv_end(&o->csv);
	} else if (o->fmt == FMT_JSON) {
		char *text = json_dumps(o->row, JSON_INDENT(0) | JSON_ENCODE_ANY);
		printf("%s\n%s", o->first_row ? "" : ",", text != NULL ? text : "null");
		free(text);
		json_decref(o->row);
		o->row = NULL;
		o->first_row = false;
	}
}

void sb_out_stmt(sb_out *o, sqlite3_stmt *st)
{
	for (size_t i = 0; i < o->n_cols; i++) {
		int c = (int)i;
		if (sqlite3_column_type(st, c) == SQLITE_NULL) {
			sb_out_null(o);
			continue;
		}
		switch (o->cols[i].type) {
		case COL_INT:
		case COL_COUNT: sb_out_int(o, sqlite3_column_int64(st, c)); break;
		case COL_MONEY:
		case COL_RATE: sb_out_money(o, sqlite3_column_int64(st, c)); break;
		case COL_TIME: sb_out_time(o, sqlite3_column_int64(st, c)); break;
		case COL_BOOL: sb_out_bool(o, sqlite3_column_int64(st, c) != 0); break;
		case COL_TEXT:
		case COL_NUMBER:
			sb_out_textn(o, sqlite3_column_blob(st, c), (size_t)sqlite3_column_bytes(st, c));
			break;
		}
	}
	sb_out_row(o);
}

int cli_list(sb_cli *cli, sb_db *db, sb_format fmt, const sb_col *cols, size_t n, const char *query,
             sb_list_bind bind, const void *ctx)
{
	sqlite3_stmt *st;
	sb_out *o;

	if ((st = sb_db_stmt(db, query, &cli->err)) == NULL)
		return cli_report(&cli->err);
	if (bind != NULL)
		bind(db, st, ctx);
	if ((o = sb_out_new(fmt, cols, n)) == NULL) {
		sb_fail(&cli->err, SB_EINTERNAL, "out of memory");
		return cli_report(&cli->err);
	}
	while (sb_db_step(db, st, &cli->err) == SQLITE_ROW)
		sb_out_stmt(o, st);
	sqlite3_reset(st);
	sb_out_end(o);
	return cli_report(&cli->err);
}

/* Is a column of this type a number (right-aligned in a table)? */
static bool numeric(sb_col_type t)
{
	return t == COL_INT || t == COL_MONEY || t == COL_RATE || t == COL_COUNT || t == COL_NUMBER;
}

/* Print the stored table with aligned columns: numbers to the right, text
 * to the left, the last column unpadded. */
static void print_table(sb_out *o)
{
	size_t *width = calloc(o->n_cols, sizeof *width);
	size_t rows = o->n_cells / o->n_cols;

	if (width == NULL)
		return;
	for (size_t c = 0; c < o->n_cols && !o->no_heading; c++)
		width[c] = strlen(o->cols[c].name);
	for (size_t i = 0; i < o->n_cells; i++) {
		size_t len = o->cells[i] != NULL ? strlen(o->cells[i]) : 0;
		if (len > width[i % o->n_cols])
			width[i % o->n_cols] = len;
	}
	for (size_t r = o->no_heading ? 1 : 0; r <= rows; r++) {
		const char *const *row = r == 0 ? NULL : (const char *const *)&o->cells[(r - 1) * o->n_cols];
		size_t end = o->n_cols;
		/* no trailing blanks: the line ends with its last cell that is not empty */
		while (end > 1 && row != NULL && (row[end - 1] == NULL || row[end - 1][0] == '\0'))
			end--;
		printf("%*s", o->indent, "");
		for (size_t c = 0; c < end; c++) {
			const char *text = row == NULL ? o->cols[c].name : row[c];
			bool last = c + 1 == end;
			if (text == NULL)
				text = "";
			if (numeric(o->cols[c].type))
				printf("%*s", (int)width[c], text);
			else if (last)
				fputs(text, stdout);
			else
				printf("%-*s", (int)width[c], text);
			fputs(last ? "\n" : "  ", stdout);
		}
	}
	free(width);
}

void sb_out_end(sb_out *o)
{
	if (o == NULL)
		return;
	if (o->fmt == FMT_JSON)
		fputs(o->first_row ? "]\n" : "\n]\n", stdout);
	else if (o->fmt == FMT_TABLE)
		print_table(o);
	for (size_t i = 0; i < o->n_cells; i++)
		free(o->cells[i]);
	free(o->cells);
	json_decref(o->row);
	free(o);
}
