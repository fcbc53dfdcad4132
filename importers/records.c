/* records.c: records from lines, JSON arrays or CSV (see records.h). */
#include "importers/records.h"

#include <stdlib.h>
#include <string.h>

#include "importers/jsonarray.h"
#include "importers/lines.h"

struct sb_records {
	sb_records_opts o;       /* how to read */
	sb_read_fn fn;           /* where bytes come from */
	void *ctx;               /* its context */
	sb_lines *lines;         /* SB_REC_LINES */
	sb_jarr *jarr;           /* SB_REC_JSON_ARRAY */
	sb_csv *csv;             /* SB_REC_CSV */
};

int sb_records_open(sb_read_fn fn, void *ctx, const sb_records_opts *o, sb_records **out,
                    sb_err *e)
{
	sb_records *r = calloc(1, sizeof *r);

	*out = NULL;
	if (r == NULL)
		return sb_fail(e, SB_EINTERNAL, "out of memory");
	r->o = *o;
	r->fn = fn;
	r->ctx = ctx;
	if (o->shape == SB_REC_LINES) {
		r->lines = sb_lines_new(fn, ctx, o->max_record, 0, 1);
		if (r->lines == NULL)
			sb_fail(e, SB_EINTERNAL, "out of memory");
	} else if (o->shape == SB_REC_CSV) {
		sb_csv_open(fn, ctx, SB_CSV_HEADER | o->csv_flags, o->max_record, &r->csv, e);
	} else if (o->shape != 0 && (o->shape & ~(unsigned)(SB_REC_JSON_ARRAY | SB_REC_JSON_VALUES)) == 0) {
		/* a stream of documents where objects are records, or the
		 * member's array of each object; a lone array as before */
		unsigned flags = (o->shape & SB_REC_JSON_ARRAY ? SB_JARR_ARRAYS : 0) |
		                 (o->shape & SB_REC_JSON_VALUES ? SB_JARR_OBJECTS : 0) |
		                 (o->shape & SB_REC_JSON_VALUES || o->member != NULL ? SB_JARR_STREAM : 0);
		r->jarr = sb_jarr_new_stream(fn, ctx, o->member, o->max_record, flags);
		if (r->jarr == NULL)
			sb_fail(e, SB_EINTERNAL, "out of memory");
	} else {
		sb_fail(e, SB_EINTERNAL, "unknown record shape %u", o->shape);
	}
	if (e->code != SB_OK) {
		sb_records_free(r);
		return e->code;
	}
	*out = r;
	return SB_OK;
}

void sb_records_resume(sb_records *r, int64_t offset, int64_t line)
{
	if (r->lines != NULL) {
		sb_lines *lr = sb_lines_new(r->fn, r->ctx, r->o.max_record, offset, line);
		if (lr != NULL) {
			sb_lines_free(r->lines);
			r->lines = lr;
		}
	} else if (r->jarr != NULL) {
		sb_jarr_resume(r->jarr, offset, line);
	} else if (r->csv != NULL) {
		sb_csv_reset(r->csv, offset, line);
	}
}

/* The next line as a record. */
static int next_line(sb_records *r, sb_rec *out, bool *eof, sb_err *why, sb_err *e)
{
	sb_line line;

	if (sb_lines_next(r->lines, &line, eof, e) != SB_OK || *eof)
		return e->code;
	out->text = line.text;
	out->len = line.len;
	out->lineno = line.lineno;
	out->next_offset = line.next_offset;
	out->next_line = line.lineno + 1;
	out->too_long = line.too_long;
	out->full_len = line.full_len;
	if (line.too_long)
		sb_fail(why, SB_EDATA, "line is %lld bytes long, more than the limit of %zu",
		        (long long)line.full_len, r->o.max_record);
	return SB_OK;
}

/* The next array element as a record. */
static int next_element(sb_records *r, sb_rec *out, bool *eof, sb_err *why, sb_err *e)
{
	sb_jelem el;

	if (sb_jarr_next(r->jarr, &el, eof, why, e) != SB_OK || *eof)
		return e->code;
	out->text = el.text;
	out->len = el.len;
	out->lineno = el.lineno;
	out->next_offset = el.next_offset;
	out->next_line = el.next_line;
	out->too_long = el.too_long;
	out->full_len = el.full_len;
	if (el.too_long)
		sb_fail(why, SB_EDATA, "%s is %lld bytes long, more than the limit of %zu",
		        el.top ? "record" : "element", (long long)el.full_len, r->o.max_record);
	return SB_OK;
}

/* The next CSV row as a record. */
static int next_row(sb_records *r, sb_rec *out, bool *eof, sb_err *why, sb_err *e)
{
	const sb_csv_record *row = NULL;
	sb_err cerr;
	int rc;

	sb_err_clear(&cerr);
	rc = sb_csv_next(r->csv, &row, &cerr);
	if (rc != SB_OK && rc != SB_EDATA) {
		sb_fail(e, rc, "%s", cerr.msg);
		return rc;
	}
	if (row == NULL) {
		*eof = true;
		return SB_OK;
	}
	out->text = row->raw;
	out->len = row->raw_len;
	out->lineno = row->line;
	out->next_offset = row->next_offset;
	out->next_line = row->next_line;
	out->too_long = row->truncated;
	out->full_len = (int64_t)row->raw_len;
	out->csv = r->csv;
	out->row = rc == SB_OK ? row : NULL;
	if (rc == SB_EDATA)
		sb_fail(why, SB_EDATA, "%s", cerr.msg);
	return SB_OK;
}

int sb_records_next(sb_records *r, sb_rec *out, bool *eof, sb_err *why, sb_err *e)
{
	memset(out, 0, sizeof *out);
	*eof = false;
	if (r->lines != NULL)
		return next_line(r, out, eof, why, e);
	if (r->jarr != NULL)
		return next_element(r, out, eof, why, e);
	return next_row(r, out, eof, why, e);
}

bool sb_records_framed(const sb_records *r)
{
	return r->csv != NULL || (r->jarr != NULL && sb_jarr_opened(r->jarr));
}

const sb_csv *sb_records_csv(const sb_records *r)
{
	return r->csv;
}

void sb_records_free(sb_records *r)
{
	if (r == NULL)
		return;
	sb_lines_free(r->lines);
	sb_jarr_free(r->jarr);
	sb_csv_free(r->csv);
	free(r);
}

/* A name for a shape, for messages. */
static const char *shape_name(unsigned shape, bool member_mode)
{
	switch (shape) {
	case SB_REC_LINES: return "JSON Lines (one object per line)";
	case SB_REC_JSON_ARRAY: return member_mode ? "a JSON object" : "a JSON array";
	case SB_REC_JSON_VALUES: return "JSON objects (JSON Lines, or pretty-printed one after another)";
	default: return "CSV with a header row";
	}
}

int sb_records_sniff(const char *head, size_t len, unsigned allowed, bool member_mode,
                     unsigned *shape, sb_err *e)
{
	size_t i = len >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	const char *seen_name;
	char expected[160] = "";
	unsigned seen;

	while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
		i++;
	if (i < len && head[i] == '[') {
		seen = member_mode ? 0 : SB_REC_JSON_ARRAY;
		seen_name = "a JSON array";
	} else if (i < len && head[i] == '{') {
		seen = member_mode ? SB_REC_JSON_ARRAY : (allowed & SB_REC_LINES) ? SB_REC_LINES : SB_REC_JSON_VALUES;
		seen_name = member_mode ? "a JSON object" : "JSON Lines (or one JSON object)";
	} else {
		seen = SB_REC_CSV;
		seen_name = "CSV or plain text";
	}
	if (allowed & seen) {
		*shape = seen & (SB_REC_JSON_ARRAY | SB_REC_JSON_VALUES) ?
		         allowed & (SB_REC_JSON_ARRAY | SB_REC_JSON_VALUES) : seen;
		return SB_OK;
	}
	for (unsigned s = SB_REC_LINES; s <= SB_REC_JSON_VALUES; s <<= 1) {
		if (!(allowed & s))
			continue;
		if (expected[0] != '\0')
			strcat(expected, " or ");
		strcat(expected, shape_name(s, member_mode));
	}
	return sb_fail(e, SB_EDATA, "the file looks like %s, but this format reads %s", seen_name,
	               expected);
}
