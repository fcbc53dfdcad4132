/* out.c: listings in table, csv and json (see out.h). */
#include "report/out.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ledger/money.h"
#include "ledger/timefmt.h"
#include "report/csvout.h"
#include "report/json.h"

struct sb_out {
	FILE *f;              /* where it goes (borrowed) */
	sb_format fmt;        /* output format */
	bool failed;          /* memory ran out for a cell or a row: the listing is not whole */
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

sb_out *sb_out_new(FILE *f, sb_format fmt, bool csv_raw, const sb_col *cols, size_t n)
{
	sb_out *o = calloc(1, sizeof *o);

	if (o == NULL)
		return NULL;
	o->f = f;
	o->fmt = fmt;
	o->cols = cols;
	o->n_cols = n;
	o->first_row = true;
	if (fmt == FMT_CSV) {
		sb_csv_out_init(&o->csv, f, csv_raw);
		for (size_t i = 0; i < n; i++)
			sb_csv_value(&o->csv, cols[i].name);
		sb_csv_end(&o->csv);
	} else if (fmt == FMT_JSON) {
		fputc('[', f);
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

/* The columns code point u takes on a terminal: 2 for the East Asian
 * wide and fullwidth ranges and the emoji blocks, 0 for the combining
 * marks, else 1 (the ranges of Markus Kuhn's wcwidth, which needs no
 * locale). */
static size_t columns_of(uint32_t u)
{
	if ((u >= 0x0300 && u <= 0x036F) || (u >= 0x200B && u <= 0x200F) || (u >= 0xFE20 && u <= 0xFE2F))
		return 0;
	if ((u >= 0x1100 && u <= 0x115F) || (u >= 0x2E80 && u <= 0xA4CF && u != 0x303F) ||
	    (u >= 0xAC00 && u <= 0xD7A3) || (u >= 0xF900 && u <= 0xFAFF) || (u >= 0xFE30 && u <= 0xFE4F) ||
	    (u >= 0xFF00 && u <= 0xFF60) || (u >= 0xFFE0 && u <= 0xFFE6) || (u >= 0x1F300 && u <= 0x1F64F) ||
	    (u >= 0x1F900 && u <= 0x1F9FF) || (u >= 0x20000 && u <= 0x3FFFD))
		return 2;
	return 1;
}

/* How many columns text takes on a line of a table: each UTF-8 character
 * its columns_of (a byte that is not valid UTF-8 counts one), so that a
 * name with accents or in Japanese lines up with the others. */
static size_t text_width(const char *text)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t n = 0;

	while (*p != '\0') {
		uint32_t u = *p;
		size_t more = *p >= 0xF0 ? 3 : *p >= 0xE0 ? 2 : *p >= 0xC0 ? 1 : 0, i;

		u &= more == 3 ? 0x07 : more == 2 ? 0x0F : more == 1 ? 0x1F : 0xFF;
		for (i = 1; i <= more && (p[i] >> 6) == 2; i++)
			u = (u << 6) | (p[i] & 0x3F);
		if (i <= more) {   /* not UTF-8: one column a byte */
			n++;
			p++;
			continue;
		}
		n += columns_of(u);
		p += more + 1;
	}
	return n;
}

/* The byte at which text must be cut to keep its first cols columns at
 * most (at a character boundary), or its length when it is narrower. */
static size_t cut_at(const char *text, size_t cols)
{
	size_t i = 0;

	while (text[i] != '\0') {
		size_t j = i + 1;
		char one[8];

		while (((unsigned char)text[j] >> 6) == 2 && j - i < 4)
			j++;
		memcpy(one, text + i, j - i);
		one[j - i] = '\0';
		if (text_width(one) > cols)
			break;
		cols -= text_width(one);
		i = j;
	}
	return i;
}

/* The byte from which text's last cols columns at most begin (at a
 * character boundary). */
static size_t tail_from(const char *text, size_t cols)
{
	size_t total = text_width(text), from;

	if (total <= cols)
		return 0;
	from = cut_at(text, total - cols);
	while (text[from] != '\0' && text_width(text + from) > cols) {   /* a wide character straddled */
		from++;
		while (((unsigned char)text[from] >> 6) == 2)
			from++;
	}
	return from;
}

/* Cut text to at most width columns (width > 4) from the left, keeping
 * its end: "..." and the longest tail that starts at a '/' (so that a path
 * keeps its last directories and its file name whole); a file name longer
 * than the width is kept whole all the same ("..." then "/" and the name:
 * the column is wider, the name is not cut), and a text without a '/' is
 * cut to its last characters that fit. */
static void keep_end(char *text, size_t width)
{
	size_t len = strlen(text), from = tail_from(text, width - 3);
	const char *slash;

	if ((slash = strchr(text + from, '/')) != NULL && slash[1] != '\0')
		from = (size_t)(slash - text);
	else if ((slash = strrchr(text, '/')) != NULL && slash[1] != '\0')
		from = (size_t)(slash - text);
	memmove(text + 3, text + from, len - from + 1);
	memcpy(text, "...", 3);
}

/* Store one cell: text (borrowed; NULL for an absent value) for table
 * and csv, json for JSON (a new reference, consumed; NULL when making it
 * ran out of memory).  A table keeps a copy of the text, "-" for an
 * absent value. */
static void cell(sb_out *o, const char *text, json_t *json)
{
	const sb_col *c = &o->cols[o->col < o->n_cols ? o->col : o->n_cols - 1];
	char *copy;

	o->col++;
	if (o->fmt == FMT_JSON) {
		if (o->row == NULL && (o->row = json_object()) == NULL)
			o->failed = true;
		if (json == NULL || json_object_set_new(o->row, c->name, json) != 0)
			o->failed = true;
		return;
	}
	json_decref(json);
	if (o->fmt == FMT_CSV) {
		if (c->type == COL_TEXT)
			sb_csv_text(&o->csv, text);
		else
			sb_csv_value(&o->csv, text);
		return;
	}
	if ((copy = strdup(text != NULL ? text : "-")) == NULL) {
		o->failed = true;
		return;
	}
	if (c->table_width > 0 && text_width(copy) > (size_t)c->table_width) {
		/* cut at a character boundary and mark the cut */
		strcpy(copy + cut_at(copy, (size_t)c->table_width - 3), "...");
	} else if (c->table_width < 0 && text_width(copy) > (size_t)-c->table_width) {
		keep_end(copy, (size_t)-c->table_width);
	}
	if (o->n_cells == o->cap_cells) {
		size_t cap = o->cap_cells ? 2 * o->cap_cells : 64;
		char **cells = realloc(o->cells, cap * sizeof *cells);
		if (cells == NULL) {
			free(copy);
			o->failed = true;
			return;
		}
		o->cells = cells;
		o->cap_cells = cap;
	}
	o->cells[o->n_cells++] = copy;
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
	const sb_col *c;

	if (o == NULL)
		return;
	c = &o->cols[o->col < o->n_cols ? o->col : o->n_cols - 1];
	if (o->fmt == FMT_TABLE && c->type == COL_COUNT)
		sb_thousands(v, buf);
	else
		snprintf(buf, sizeof buf, "%lld", (long long)v);
	cell(o, buf, o->fmt == FMT_JSON ? json_integer((json_int_t)v) : NULL);
}

void sb_out_money(sb_out *o, int64_t nanos)
{
	char data[SB_MONEY_BUFSZ], shown[SB_MONEY_BUFSZ];
	const sb_col *c;
	int decimals;

	if (o == NULL)
		return;
	c = &o->cols[o->col < o->n_cols ? o->col : o->n_cols - 1];
	decimals = o->fmt == FMT_TABLE && c->type == COL_MONEY ? 6 : 9;
	sb_money_format(nanos, 9, data);
	sb_money_format(nanos, decimals, shown);
	cell(o, shown, o->fmt == FMT_JSON ? json_string(data) : NULL);
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
	char *clean;

	if (o == NULL)
		return;
	if ((clean = sb_utf8_clean(s, n)) == NULL) {
		o->failed = true;
		sb_out_null(o);
		return;
	}
	if (o->fmt == FMT_TABLE) {
		/* one line per row: control characters as spaces */
		for (char *p = clean; *p != '\0'; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = ' ';
	}
	cell(o, clean, o->fmt == FMT_JSON ? json_string(clean) : NULL);
	free(clean);
}

void sb_out_time(sb_out *o, int64_t ms)
{
	char buf[SB_TIME_BUFSZ];

	if (o == NULL)
		return;
	sb_time_format(ms, buf);
	cell(o, buf, o->fmt == FMT_JSON ? json_string(buf) : NULL);
}

void sb_out_bool(sb_out *o, bool v)
{
	if (o != NULL)
		cell(o, v ? "true" : "false", o->fmt == FMT_JSON ? json_boolean(v) : NULL);
}

void sb_out_null(sb_out *o)
{
	if (o != NULL)
		cell(o, NULL, o->fmt == FMT_JSON ? json_null() : NULL);
}

void sb_out_unknown(sb_out *o)
{
	if (o != NULL)
		cell(o, o->fmt == FMT_TABLE ? "unknown" : NULL, o->fmt == FMT_JSON ? json_null() : NULL);
}

void sb_out_indent(sb_out *o, int spaces)
{
	if (o != NULL)
		o->indent = spaces;
}

void sb_out_no_heading(sb_out *o)
{
	if (o != NULL)
		o->no_heading = true;
}

void sb_out_row(sb_out *o)
{
	if (o == NULL)
		return;
	o->col = 0;
	if (o->fmt == FMT_CSV) {
		sb_csv_end(&o->csv);
	} else if (o->fmt == FMT_JSON) {
		/* a row without its whole text is not written: sb_out_end says so */
		char *text = sb_json_text(o->row, JSON_INDENT(0) | JSON_ENCODE_ANY);
		if (text == NULL)
			o->failed = true;
		else
			fprintf(o->f, "%s\n%s", o->first_row ? "" : ",", text);
		free(text);
		json_decref(o->row);
		o->row = NULL;
		o->first_row = o->first_row && text == NULL;
	}
}

void sb_out_stmt_cells(sb_out *o, sb_stmt *st, size_t n)
{
	if (o == NULL)
		return;
	for (size_t i = 0; i < n && i < o->n_cols; i++) {
		int c = (int)i;
		if (sb_col_is_null(st, c)) {
			sb_out_null(o);
			continue;
		}
		switch (o->cols[i].type) {
		case COL_INT:
		case COL_COUNT: sb_out_int(o, sb_col_i64(st, c)); break;
		case COL_MONEY:
		case COL_RATE: sb_out_money(o, sb_col_i64(st, c)); break;
		case COL_TIME: sb_out_time(o, sb_col_i64(st, c)); break;
		case COL_BOOL: sb_out_bool(o, sb_col_i64(st, c) != 0); break;
		case COL_TEXT:
		case COL_NUMBER:
		{
			/* its bytes as stored: a rejected line's, a bill's row */
			size_t len;
			const void *v = sb_col_blob(st, c, &len);
			sb_out_textn(o, v, len);
			break;
		}
		}
	}
}

void sb_out_stmt(sb_out *o, sb_stmt *st)
{
	if (o == NULL)
		return;
	sb_out_stmt_cells(o, st, o->n_cols);
	sb_out_row(o);
}

int sb_out_rows(sb_out *o, sb_db *db, sb_stmt *st, sb_err *e)
{
	while (sb_db_step(db, st, e) == SB_ROW)
		sb_out_stmt(o, st);
	sb_stmt_reset(st);
	return e->code;
}

/* Is a column of this type a number (right-aligned in a table)? */
static bool numeric(sb_col_type t)
{
	return t == COL_INT || t == COL_MONEY || t == COL_RATE || t == COL_COUNT || t == COL_NUMBER;
}

/* Print the stored table with aligned columns: numbers to the right, text
 * to the left, the last column unpadded.  False when out of memory
 * (nothing printed). */
static bool print_table(sb_out *o)
{
	size_t *width = calloc(o->n_cols, sizeof *width);
	size_t rows = o->n_cells / o->n_cols;
	FILE *f = o->f;

	if (width == NULL)
		return false;
	for (size_t c = 0; c < o->n_cols && !o->no_heading; c++)
		width[c] = text_width(o->cols[c].name);
	for (size_t i = 0; i < o->n_cells; i++) {
		size_t len = text_width(o->cells[i]);
		if (len > width[i % o->n_cols])
			width[i % o->n_cols] = len;
	}
	for (size_t r = o->no_heading ? 1 : 0; r <= rows; r++) {
		const char *const *row = r == 0 ? NULL : (const char *const *)&o->cells[(r - 1) * o->n_cols];
		size_t end = o->n_cols;
		/* no trailing blanks: the line ends with its last cell that is not empty */
		while (end > 1 && row != NULL && row[end - 1][0] == '\0')
			end--;
		fprintf(f, "%*s", o->indent, "");
		for (size_t c = 0; c < end; c++) {
			const char *text = row == NULL ? o->cols[c].name : row[c];
			bool last = c + 1 == end;
			size_t pad = width[c] - text_width(text);
			if (numeric(o->cols[c].type))
				fprintf(f, "%*s%s", (int)pad, "", text);
			else if (last)
				fputs(text, f);
			else
				fprintf(f, "%s%*s", text, (int)pad, "");
			fputs(last ? "\n" : "  ", f);
		}
	}
	free(width);
	return true;
}

int sb_out_end(sb_out *o, sb_err *e)
{
	bool whole;

	if (o == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory while writing the result");
	/* a table that lost a cell is not printed: its rows would not line up */
	if (o->fmt == FMT_JSON)
		fputs(o->first_row ? "]\n" : "\n]\n", o->f);
	else if (o->fmt == FMT_TABLE && !o->failed && !print_table(o))
		o->failed = true;
	whole = !o->failed;
	for (size_t i = 0; i < o->n_cells; i++)
		free(o->cells[i]);
	free(o->cells);
	json_decref(o->row);
	free(o);
	return whole ? SB_OK : sb_fail(e, SB_EINTERNAL, "out of memory while writing the result");
}
