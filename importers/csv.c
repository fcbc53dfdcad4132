/* csv.c: the streaming CSV reader (see csv.h).
 *
 * Longer than 600 lines on purpose: one state machine (the states below)
 * over one reader's buffer, with the header, the separator detected and
 * resume offsets that share its position; the public calls are at the
 * end.  Split, the states would have to export the reader's insides.
 */
#include "importers/csv.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the parser is inside the record being read. */
enum csv_state {
	ST_START,  /* at the start of a field */
	ST_UNQ,    /* inside an unquoted field */
	ST_Q,      /* inside a quoted field */
	ST_QQ,     /* a quote inside a quoted field: closing, or half of "" */
	ST_QQ_CR   /* a CR after a closing quote: CRLF, or text after it */
};

/* What read_record found. */
enum csv_got {
	GOT_RECORD,  /* a good record, in csv->rec */
	GOT_BAD,     /* a bad record, in csv->rec, its reason in csv->reason */
	GOT_END,     /* end of input, no record */
	GOT_STOP     /* read error or out of memory, in e and csv->stop_* */
};

/* A field of the record being read, as a place in csv->text. */
struct csv_span {
	size_t start;  /* offset of its first byte in csv->text */
	size_t len;    /* its length */
	bool quoted;   /* it was written in quotes */
};

/* A header column, for the sorted lookup table. */
struct csv_col {
	const char *name;  /* its name, in csv->names_buf */
	size_t len;        /* the name's length */
	size_t index;      /* its column index */
};

struct sb_csv {
	sb_read_fn read;                /* where the bytes come from */
	void *read_ctx;                 /* its ctx (borrowed) */
	unsigned flags;                 /* SB_CSV_* of sb_csv_open */
	size_t max_record;              /* longest record accepted, in bytes */
	char delim;                     /* the field separator: ',' or ';' */
	bool special_unq[256];          /* bytes that end a plain run outside quotes */

	char *in;                       /* the current block, SB_CSV_BLOCK bytes */
	size_t in_pos;                  /* next byte of in to parse */
	size_t in_len;                  /* bytes of in filled */
	bool eof;                       /* the read function gave 0 bytes */
	bool at_start;                  /* at offset 0, where a BOM may be */
	int stop_code;                  /* read error or out of memory; SB_OK */
	char stop_msg[SB_ERR_MSG_MAX];  /* its message */

	int64_t offset;                 /* input offset of in[in_pos] */
	int64_t line;                   /* line of in[in_pos] */

	char *raw;                      /* the record's bytes as read */
	size_t raw_len;                 /* bytes in raw */
	size_t raw_cap;                 /* bytes allocated for raw */
	char *text;                     /* field values, each followed by a NUL */
	size_t text_len;                /* bytes in text */
	size_t text_cap;                /* bytes allocated for text */
	struct csv_span *spans;         /* the record's fields so far */
	size_t nspans;                  /* how many */
	size_t spans_cap;               /* how many allocated */
	sb_csv_field *fields;           /* rec.fields, built from spans */
	size_t fields_cap;              /* how many allocated */
	sb_csv_record rec;              /* the record handed out */

	enum csv_state state;           /* parser state in the current record */
	bool quoted;                    /* the current field opened with a quote */
	bool cr_last;                   /* the last byte of the current field is
	                                   a CR outside quotes */
	size_t field_start;             /* where the current field starts in text */
	bool too_long;                  /* the record passed max_record: bytes are
	                                   no longer stored */
	char reason[160];               /* what is wrong with the record; "" */

	bool has_header;                /* the header has been read */
	char *names_buf;                /* the column names, NUL after each */
	const char **names;             /* ncolumns names by column index */
	char *keys_buf;                 /* SB_CSV_FOLD: the folded names, NUL after each */
	const char **keys;              /* ncolumns lookup keys by column index (the
	                                   folded names, or the names) */
	struct csv_col *cols;           /* ncolumns columns sorted by name */
	size_t ncolumns;                /* columns in the header */
};

/* Make room for `need` elements of `size` bytes in *buf, whose capacity is
 * *cap elements, by doubling (at least 64 elements).  Returns false when
 * out of memory, leaving *buf and *cap as they were. */
static bool reserve(void **buf, size_t *cap, size_t need, size_t size)
{
	size_t ncap;
	void *nbuf;

	if (need <= *cap)
		return true;
	ncap = *cap < 64 ? 64 : *cap;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return false;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / size)
		return false;
	nbuf = realloc(*buf, ncap * size);
	if (!nbuf)
		return false;
	*buf = nbuf;
	*cap = ncap;
	return true;
}

/* Stop the reader with code and the message now in e (or msg when e holds
 * none): later calls repeat them until sb_csv_reset.  Returns GOT_STOP. */
static enum csv_got stop(sb_csv *csv, int code, const char *msg, sb_err *e)
{
	sb_fail(e, code, "%s", msg);
	csv->stop_code = e->code;
	memcpy(csv->stop_msg, e->msg, sizeof csv->stop_msg);
	return GOT_STOP;
}

/* Read more input into the block after its unparsed bytes
 * in[in_pos..in_len), starting the block afresh when all were parsed.
 * Only skip_bom and detect_delim call this with unparsed bytes left, and
 * only while the block has room.  Sets eof when
 * the read function gives no bytes.  Returns false (the reader stopped)
 * on a read error. */
static bool fill(sb_csv *csv, sb_err *e)
{
	size_t room;
	size_t got = 0;
	int rc;

	if (csv->in_pos == csv->in_len) {
		csv->in_pos = 0;
		csv->in_len = 0;
	}
	room = SB_CSV_BLOCK - csv->in_len;
	rc = csv->read(csv->read_ctx, csv->in + csv->in_len, room, &got, e);
	if (rc != SB_OK) {
		stop(csv, rc, "read error", e);
		return false;
	}
	if (got > room) {
		stop(csv, SB_EINTERNAL, "CSV read function returned more bytes than asked", e);
		return false;
	}
	if (got == 0)
		csv->eof = true;
	csv->in_len += got;
	return true;
}

/* At offset 0, with nothing parsed from the block yet: read until three
 * bytes are buffered (or input ends) and skip a UTF-8 byte-order mark
 * (EF BB BF) if they are one.  Returns false
 * when the reader stopped on a read error. */
static bool skip_bom(sb_csv *csv, sb_err *e)
{
	csv->at_start = false;
	while (csv->in_len - csv->in_pos < 3 && !csv->eof)
		if (!fill(csv, e))
			return false;
	if (csv->in_len - csv->in_pos >= 3 &&
	    memcmp(csv->in + csv->in_pos, "\xEF\xBB\xBF", 3) == 0) {
		csv->in_pos += 3;
		csv->offset += 3;
	}
	return true;
}

/* Record the first thing wrong with the record being read (later ones are
 * dropped): a printf-style reason for the caller's message. */
static void bad(sb_csv *csv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void bad(sb_csv *csv, const char *fmt, ...)
{
	va_list ap;

	if (csv->reason[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(csv->reason, sizeof csv->reason, fmt, ap);
	va_end(ap);
}

/* Mark the record as longer than max_record: bytes are no longer stored,
 * and this reason replaces any other, since raw is now cut short. */
static void set_too_long(sb_csv *csv)
{
	csv->too_long = true;
	csv->reason[0] = '\0';
	bad(csv, "record longer than %zu bytes", csv->max_record);
}

/* Append one input byte to raw.  Room is kept for max_record bytes and a
 * CRLF; past that the record is too long and nothing more is stored.
 * Returns false when out of memory. */
static bool put_raw(sb_csv *csv, char ch)
{
	if (csv->too_long)
		return true;
	if (csv->raw_len >= csv->max_record + 2) {
		set_too_long(csv);
		return true;
	}
	if (!reserve((void **)&csv->raw, &csv->raw_cap, csv->raw_len + 1, 1))
		return false;
	csv->raw[csv->raw_len++] = ch;
	return true;
}

/* Append one byte to the current field's value (nothing once the record
 * is too long).  Returns false when out of memory. */
static bool put_text(sb_csv *csv, char ch)
{
	if (csv->too_long)
		return true;
	if (!reserve((void **)&csv->text, &csv->text_cap, csv->text_len + 1, 1))
		return false;
	csv->text[csv->text_len++] = ch;
	return true;
}

/* Bytes that end a run of plain bytes inside quotes (outside them:
 * csv->special_unq, which has the reader's separator). */
static const bool special_q[256] = {['"'] = true, ['\n'] = true};

/* How many bytes from in[in_pos] on the parser, in state ST_START, ST_UNQ
 * or ST_Q of a record that is not too long, would only copy to raw and the
 * field: those before the next comma, quote, CR or LF outside quotes, or
 * the next quote or LF inside them, and no more than raw has room for
 * below max_record + 2 bytes. */
static size_t plain_run(const sb_csv *csv)
{
	const unsigned char *p = (const unsigned char *)csv->in + csv->in_pos;
	const bool *special = csv->state == ST_Q ? special_q : csv->special_unq;
	size_t n = csv->in_len - csv->in_pos;
	size_t room = csv->max_record + 2 - csv->raw_len;
	size_t i = 0;

	if (n > room)
		n = room;
	while (i < n && !special[p[i]])
		i++;
	return i;
}

/* Consume the n plain bytes at in[in_pos] found by plain_run: append them
 * to raw and to the current field, which becomes unquoted text when it
 * was at its start.  Returns false when out of memory. */
static bool put_run(sb_csv *csv, size_t n)
{
	const char *p = csv->in + csv->in_pos;

	if (!reserve((void **)&csv->raw, &csv->raw_cap, csv->raw_len + n, 1) ||
	    !reserve((void **)&csv->text, &csv->text_cap, csv->text_len + n, 1))
		return false;
	memcpy(csv->raw + csv->raw_len, p, n);
	csv->raw_len += n;
	memcpy(csv->text + csv->text_len, p, n);
	csv->text_len += n;
	csv->in_pos += n;
	csv->offset += (int64_t)n;
	csv->cr_last = false;
	if (csv->state == ST_START)
		csv->state = ST_UNQ;
	return true;
}

/* End the current field: add its span and a NUL after its value, and start
 * the next field (unquoted, at ST_START is the caller's business).  Nothing
 * is stored once the record is too long.  Returns false when out of
 * memory. */
static bool end_field(sb_csv *csv)
{
	struct csv_span *sp;

	if (!csv->too_long) {
		if (!reserve((void **)&csv->spans, &csv->spans_cap,
		             csv->nspans + 1, sizeof *csv->spans))
			return false;
		sp = &csv->spans[csv->nspans++];
		sp->start = csv->field_start;
		sp->len = csv->text_len - csv->field_start;
		sp->quoted = csv->quoted;
		if (!put_text(csv, '\0'))
			return false;
	}
	csv->field_start = csv->text_len;
	csv->quoted = false;
	csv->cr_last = false;
	return true;
}

/* Start a new record at the current input position: empty buffers, state
 * ST_START, no reason. */
static void begin_record(sb_csv *csv)
{
	csv->raw_len = 0;
	csv->text_len = 0;
	csv->nspans = 0;
	csv->state = ST_START;
	csv->quoted = false;
	csv->cr_last = false;
	csv->field_start = 0;
	csv->too_long = false;
	csv->reason[0] = '\0';
	memset(&csv->rec, 0, sizeof csv->rec);
	csv->rec.line = csv->line;
	csv->rec.offset = csv->offset;
}

/* The rules of flags for a data cell: a formula guard's quote taken off
 * (SB_CSV_UNGUARD), an unquoted NULL made an empty cell (SB_CSV_NULL_WORD). */
static void cell_rules(const sb_csv *csv, sb_csv_field *f)
{
	if ((csv->flags & SB_CSV_UNGUARD) && f->len >= 2 && f->text[0] == '\'' &&
	    memchr("=+-@\t\r", f->text[1], 6) != NULL) {
		f->text++;
		f->len--;
	}
	if ((csv->flags & SB_CSV_NULL_WORD) && !f->quoted && f->len == 4 &&
	    memcmp(f->text, "NULL", 4) == 0) {
		f->text = NULL;
		f->len = 0;
	}
}

/* The record ends: at an LF outside quotes (at_eof false; the LF was the
 * last byte put in raw) or at the end of input.  Drops the line end (LF,
 * and a CR outside quotes just before it or before the end of input) from
 * raw and the last field, ends the last field, checks the length and,
 * with a header, the field count, and fills csv->rec.  Returns GOT_RECORD,
 * GOT_BAD, GOT_END for an empty line (to be skipped), or GOT_STOP when out
 * of memory. */
static enum csv_got end_record(sb_csv *csv, bool at_eof, sb_err *e)
{
	bool cr_end;

	if (at_eof && csv->state == ST_Q)
		bad(csv, "quoted field %zu is not closed at the end of input",
		    csv->nspans + 1);
	cr_end = (csv->state == ST_UNQ && csv->cr_last) || csv->state == ST_QQ_CR;
	if (!csv->too_long) {
		if (!at_eof)
			csv->raw_len--;
		if (cr_end)
			csv->raw_len--;
		if (csv->state == ST_UNQ && csv->cr_last)
			csv->text_len--;
	}
	if (!end_field(csv))
		return stop(csv, SB_EINTERNAL, "out of memory reading CSV", e);
	if (!csv->too_long && csv->raw_len == 0)
		return GOT_END;
	if (!csv->too_long && csv->raw_len > csv->max_record)
		set_too_long(csv);
	if (csv->too_long) {
		csv->raw_len = csv->max_record;
		csv->rec.truncated = true;
	}
	if (csv->reason[0] == '\0' && csv->has_header &&
	    csv->nspans != csv->ncolumns)
		bad(csv, "row has %zu fields, the header has %zu",
		    csv->nspans, csv->ncolumns);

	if (!reserve((void **)&csv->raw, &csv->raw_cap, csv->raw_len + 1, 1))
		return stop(csv, SB_EINTERNAL, "out of memory reading CSV", e);
	csv->raw[csv->raw_len] = '\0';
	csv->rec.raw = csv->raw;
	csv->rec.raw_len = csv->raw_len;
	csv->rec.next_line = csv->line;
	csv->rec.next_offset = csv->offset;
	if (csv->reason[0] != '\0')
		return GOT_BAD;

	if (!reserve((void **)&csv->fields, &csv->fields_cap, csv->nspans,
	             sizeof *csv->fields))
		return stop(csv, SB_EINTERNAL, "out of memory reading CSV", e);
	for (size_t i = 0; i < csv->nspans; i++) {
		const struct csv_span *sp = &csv->spans[i];
		sb_csv_field *f = &csv->fields[i];

		f->quoted = sp->quoted;
		f->len = sp->len;
		f->text = (sp->len == 0 && !sp->quoted) ? NULL : csv->text + sp->start;
		if (csv->has_header || !(csv->flags & SB_CSV_HEADER))
			cell_rules(csv, f);
	}
	csv->rec.fields = csv->fields;
	csv->rec.nfields = csv->nspans;
	return GOT_RECORD;
}

/* Read the next record (skipping a BOM at offset 0 and empty lines) into
 * csv->rec, through the state machine of enum csv_state: runs of plain
 * bytes are copied whole (plain_run, put_run), other bytes go one at a
 * time; the block is refilled as it empties.  After a bad record the
 * input is positioned after the LF that ended it outside quotes.  Returns
 * an enum csv_got; on GOT_STOP the message is in e. */
static enum csv_got read_record(sb_csv *csv, sb_err *e)
{
	enum csv_got got;

	if (csv->at_start && !skip_bom(csv, e))
		return GOT_STOP;
	begin_record(csv);
	for (;;) {
		char ch;
		bool ok = true;

		if (csv->in_pos == csv->in_len) {
			if (!csv->eof) {
				if (!fill(csv, e))
					return GOT_STOP;
				continue;
			}
			if (csv->state == ST_START && csv->raw_len == 0 &&
			    !csv->too_long && csv->nspans == 0)
				return GOT_END;
			got = end_record(csv, true, e);
			if (got == GOT_END)
				begin_record(csv);
			else
				return got;
			continue;
		}
		if (!csv->too_long && (csv->state == ST_START ||
		                       csv->state == ST_UNQ || csv->state == ST_Q)) {
			size_t n = plain_run(csv);

			if (n > 0) {
				if (!put_run(csv, n))
					return stop(csv, SB_EINTERNAL, "out of memory reading CSV", e);
				continue;
			}
		}
		ch = csv->in[csv->in_pos++];
		csv->offset++;
		if (ch == '\n')
			csv->line++;
		if (!put_raw(csv, ch))
			return stop(csv, SB_EINTERNAL, "out of memory reading CSV", e);
again:
		switch (csv->state) {
		case ST_START:
		case ST_UNQ:
			if (ch == csv->delim) {
				ok = end_field(csv);
				csv->state = ST_START;
			} else if (ch == '\n') {
				got = end_record(csv, false, e);
				if (got != GOT_END)
					return got;
				begin_record(csv);
			} else if (ch == '"' && csv->state == ST_START) {
				csv->quoted = true;
				csv->state = ST_Q;
			} else {
				if (ch == '"')
					bad(csv, "quote inside unquoted field %zu",
					    csv->nspans + 1);
				ok = put_text(csv, ch);
				csv->cr_last = ch == '\r';
				csv->state = ST_UNQ;
			}
			break;
		case ST_Q:
			if (ch == '"')
				csv->state = ST_QQ;
			else
				ok = put_text(csv, ch);
			break;
		case ST_QQ:
			if (ch == '"') {
				ok = put_text(csv, ch);
				csv->state = ST_Q;
			} else if (ch == csv->delim) {
				ok = end_field(csv);
				csv->state = ST_START;
			} else if (ch == '\n') {
				return end_record(csv, false, e);
			} else if (ch == '\r') {
				csv->state = ST_QQ_CR;
			} else {
				bad(csv, "text after the closing quote of field %zu",
				    csv->nspans + 1);
				ok = put_text(csv, ch);
				csv->cr_last = false;
				csv->state = ST_UNQ;
			}
			break;
		case ST_QQ_CR:
			if (ch == '\n')
				return end_record(csv, false, e);
			bad(csv, "text after the closing quote of field %zu",
			    csv->nspans + 1);
			if (!put_text(csv, '\r'))
				return stop(csv, SB_EINTERNAL, "out of memory reading CSV", e);
			csv->cr_last = false;
			csv->state = ST_UNQ;
			goto again;
		}
		if (!ok)
			return stop(csv, SB_EINTERNAL, "out of memory reading CSV", e);
	}
}

/* Compare name a[0..alen) with b[0..blen): bytes as unsigned, ASCII case
 * folded when nocase; a shorter name that is a prefix of the other sorts
 * first.  Returns <0, 0 or >0. */
static int name_cmp(const char *a, size_t alen, const char *b, size_t blen,
                    bool nocase)
{
	size_t n = alen < blen ? alen : blen;

	for (size_t i = 0; i < n; i++) {
		int ca = (unsigned char)a[i];
		int cb = (unsigned char)b[i];

		if (nocase) {
			if (ca >= 'A' && ca <= 'Z')
				ca += 'a' - 'A';
			if (cb >= 'A' && cb <= 'Z')
				cb += 'a' - 'A';
		}
		if (ca != cb)
			return ca - cb;
	}
	return alen < blen ? -1 : alen > blen ? 1 : 0;
}

/* qsort comparators for header columns: by name (exact or folded), then
 * by column index, so that duplicates sit next to each other in column
 * order. */
static int col_cmp_exact(const void *pa, const void *pb)
{
	const struct csv_col *a = pa, *b = pb;
	int c = name_cmp(a->name, a->len, b->name, b->len, false);

	return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

static int col_cmp_nocase(const void *pa, const void *pb)
{
	const struct csv_col *a = pa, *b = pb;
	int c = name_cmp(a->name, a->len, b->name, b->len, true);

	return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

/* Fold name[0..len) into out (room for len + 1 bytes): ASCII letters
 * lowered, every run of other bytes that are not digits made one '_', none
 * at either end ("Interval Start" and "interval_start" fold alike).
 * Returns the folded length. */
static size_t fold_name(const char *name, size_t len, char *out)
{
	size_t n = 0;
	bool gap = false;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		if (!alnum) {
			gap = n > 0;
			continue;
		}
		if (gap)
			out[n++] = '_';
		gap = false;
		out[n++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : (char)c;
	}
	out[n] = '\0';
	return n;
}

/* Keep the record in csv->rec as the header: copy the names (and with
 * SB_CSV_FOLD their folded keys), sort the keys for lookup and fail with
 * SB_EDATA on a duplicate (the pair with the lowest key in sort order is
 * named).  SB_EINTERNAL when out of memory. */
static int keep_header(sb_csv *csv, sb_err *e)
{
	const sb_csv_record *rec = &csv->rec;
	bool nocase = (csv->flags & SB_CSV_NOCASE) != 0;
	bool fold = (csv->flags & SB_CSV_FOLD) != 0;
	size_t total = 0;
	char *p, *k = NULL;

	for (size_t i = 0; i < rec->nfields; i++)
		total += rec->fields[i].len + 1;
	csv->names_buf = malloc(total);
	csv->names = calloc(rec->nfields ? rec->nfields : 1, sizeof *csv->names);
	csv->keys = calloc(rec->nfields ? rec->nfields : 1, sizeof *csv->keys);
	csv->cols = calloc(rec->nfields ? rec->nfields : 1, sizeof *csv->cols);
	if (fold)
		k = csv->keys_buf = malloc(total);
	if (!csv->names_buf || !csv->names || !csv->keys || !csv->cols || (fold && !k))
		return sb_fail(e, SB_EINTERNAL, "out of memory reading CSV header");
	p = csv->names_buf;
	for (size_t i = 0; i < rec->nfields; i++) {
		const sb_csv_field *f = &rec->fields[i];

		if (f->len > 0)
			memcpy(p, f->text, f->len);
		p[f->len] = '\0';
		csv->names[i] = p;
		csv->keys[i] = p;
		csv->cols[i].name = p;
		csv->cols[i].len = f->len;
		csv->cols[i].index = i;
		if (fold) {
			csv->keys[i] = csv->cols[i].name = k;
			csv->cols[i].len = fold_name(p, f->len, k);
			k += csv->cols[i].len + 1;
		}
		p += f->len + 1;
	}
	csv->ncolumns = rec->nfields;
	qsort(csv->cols, csv->ncolumns, sizeof *csv->cols,
	      nocase ? col_cmp_nocase : col_cmp_exact);
	for (size_t i = 1; i < csv->ncolumns; i++) {
		const struct csv_col *a = &csv->cols[i - 1], *b = &csv->cols[i];

		if (name_cmp(a->name, a->len, b->name, b->len, nocase) == 0)
			return sb_fail(e, SB_EDATA,
			               "duplicate column \"%.*s\" (columns %zu and %zu)",
			               (int)(a->len > 200 ? 200 : a->len), a->name,
			               a->index + 1, b->index + 1);
	}
	csv->has_header = true;
	return SB_OK;
}

/* SB_CSV_DETECT: read the first line (as much of it as the first block
 * holds) and take ';' as the separator when it holds more semicolons than
 * commas outside quotes, else ','.  Returns false when the reader
 * stopped on a read error. */
static bool detect_delim(sb_csv *csv, sb_err *e)
{
	size_t commas = 0, semis = 0;
	bool in_q = false;

	if (csv->at_start && !skip_bom(csv, e))
		return false;
	while (!csv->eof && csv->in_len < SB_CSV_BLOCK &&
	       memchr(csv->in + csv->in_pos, '\n', csv->in_len - csv->in_pos) == NULL)
		if (!fill(csv, e))
			return false;
	for (size_t i = csv->in_pos; i < csv->in_len && (in_q || csv->in[i] != '\n'); i++) {
		char c = csv->in[i];
		if (c == '"')
			in_q = !in_q;
		else if (!in_q && c == ',')
			commas++;
		else if (!in_q && c == ';')
			semis++;
	}
	csv->delim = semis > commas ? ';' : ',';
	return true;
}

int sb_csv_open(sb_read_fn fn, void *ctx, unsigned flags, size_t max_record,
                sb_csv **out, sb_err *e)
{
	sb_csv *csv;
	int rc = SB_OK;

	*out = NULL;
	csv = calloc(1, sizeof *csv);
	if (!csv)
		return sb_fail(e, SB_EINTERNAL, "out of memory opening CSV reader");
	csv->read = fn;
	csv->read_ctx = ctx;
	csv->flags = flags;
	csv->max_record = max_record > 0 ? max_record : SB_CSV_MAX_RECORD;
	if (csv->max_record > SIZE_MAX / 4)
		csv->max_record = SIZE_MAX / 4;
	csv->at_start = true;
	csv->line = 1;
	csv->delim = (flags & SB_CSV_SEMICOLON) ? ';' : ',';
	csv->in = malloc(SB_CSV_BLOCK);
	if (!csv->in) {
		rc = sb_fail(e, SB_EINTERNAL, "out of memory opening CSV reader");
		goto cleanup;
	}
	if ((flags & SB_CSV_DETECT) && !detect_delim(csv, e)) {
		rc = e->code;
		goto cleanup;
	}
	csv->special_unq[(unsigned char)csv->delim] = true;
	csv->special_unq['"'] = true;
	csv->special_unq['\r'] = true;
	csv->special_unq['\n'] = true;
	if (flags & SB_CSV_HEADER) {
		switch (read_record(csv, e)) {
		case GOT_RECORD:
			rc = keep_header(csv, e);
			break;
		case GOT_BAD:
			rc = sb_fail(e, SB_EDATA, "header: %s", csv->reason);
			break;
		case GOT_END:
			rc = sb_fail(e, SB_EDATA, "no header row");
			break;
		case GOT_STOP:
			rc = e->code;
			break;
		}
		memset(&csv->rec, 0, sizeof csv->rec);
	}
cleanup:
	if (rc != SB_OK) {
		sb_csv_free(csv);
		return rc;
	}
	*out = csv;
	return SB_OK;
}

int sb_csv_next(sb_csv *csv, const sb_csv_record **out, sb_err *e)
{
	*out = NULL;
	if (e->code != SB_OK)
		return e->code;
	if (csv->stop_code != SB_OK)
		return sb_fail(e, csv->stop_code, "%s", csv->stop_msg);
	switch (read_record(csv, e)) {
	case GOT_RECORD:
		*out = &csv->rec;
		return SB_OK;
	case GOT_BAD:
		*out = &csv->rec;
		return sb_fail(e, SB_EDATA, "%s", csv->reason);
	case GOT_END:
		return SB_OK;
	case GOT_STOP:
		break;
	}
	return e->code;
}

int sb_csv_column(const sb_csv *csv, const char *name)
{
	bool nocase = (csv->flags & SB_CSV_NOCASE) != 0;
	size_t len = strlen(name);
	size_t lo = 0, hi = csv->ncolumns;
	char folded[128];

	if (csv->flags & SB_CSV_FOLD) {
		if (len >= sizeof folded)
			return -1;
		len = fold_name(name, len, folded);
		name = folded;
	}

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct csv_col *c = &csv->cols[mid];
		int cmp = name_cmp(c->name, c->len, name, len, nocase);

		if (cmp == 0)
			return c->index > INT_MAX ? -1 : (int)c->index;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

size_t sb_csv_columns(const sb_csv *csv)
{
	return csv->ncolumns;
}

const char *sb_csv_column_name(const sb_csv *csv, size_t i)
{
	return i < csv->ncolumns ? csv->names[i] : NULL;
}

const char *sb_csv_column_key(const sb_csv *csv, size_t i)
{
	return i < csv->ncolumns ? csv->keys[i] : NULL;
}

char sb_csv_delimiter(const sb_csv *csv)
{
	return csv->delim;
}

const sb_csv_field *sb_csv_cell(const sb_csv_record *rec, int col)
{
	if (col < 0 || (size_t)col >= rec->nfields)
		return NULL;
	return &rec->fields[col];
}

void sb_csv_tell(const sb_csv *csv, int64_t *offset, int64_t *line)
{
	*offset = csv->offset;
	*line = csv->line;
}

void sb_csv_reset(sb_csv *csv, int64_t offset, int64_t line)
{
	csv->in_pos = 0;
	csv->in_len = 0;
	csv->eof = false;
	csv->stop_code = SB_OK;
	csv->stop_msg[0] = '\0';
	csv->offset = offset;
	csv->line = line;
	csv->at_start = offset == 0;
	memset(&csv->rec, 0, sizeof csv->rec);
}

void sb_csv_free(sb_csv *csv)
{
	if (!csv)
		return;
	free(csv->in);
	free(csv->raw);
	free(csv->text);
	free(csv->spans);
	free(csv->fields);
	free(csv->names_buf);
	free(csv->names);
	free(csv->keys_buf);
	free(csv->keys);
	free(csv->cols);
	free(csv);
}
