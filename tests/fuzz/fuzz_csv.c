/* fuzz_csv.c: the CSV reader (importers/csv.h).
 *
 * Options from the first three bytes: flags (header, ignore case), the
 * read size and the longest record (a few bytes, to reach the too-long
 * path with short inputs); then the input.  Every record, good or bad, must be the input's bytes at
 * its offset (unless cut at the maximum) and start where the one before
 * it said the next would; a good record written back as CSV (quoted
 * fields quoted, quotes doubled) must give its raw bytes again, with as
 * many fields as the header; each header name must be found by
 * sb_csv_column.  A reader reset to a record's next_offset (a resumed
 * import) must then give the same records as the uninterrupted one.
 */
#include <stdbool.h>
#include <string.h>

#include "importers/csv.h"
#include "tests/fuzz/fuzz.h"

enum { MAX_RECORDS = 2048 };

/* What a record was, for comparing two readers. */
struct seen {
	int64_t line, offset, next_line, next_offset;
	size_t raw_len, nfields;
	bool bad, truncated;
	uint64_t hash;   /* of the raw bytes and the fields */
};

/* True when two readers saw the same record. */
static bool same(const struct seen *a, const struct seen *b)
{
	return a->line == b->line && a->offset == b->offset && a->next_line == b->next_line &&
	       a->next_offset == b->next_offset && a->raw_len == b->raw_len &&
	       a->nfields == b->nfields && a->bad == b->bad && a->truncated == b->truncated &&
	       a->hash == b->hash;
}

/* FNV-1a over n bytes, continuing from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * UINT64_C(1099511628211);
	return h;
}

/* Write the fields of a good record back as CSV into out (cap bytes);
 * returns the length, or cap when it does not fit. */
static size_t rewrite(const sb_csv_record *rec, char *out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < rec->nfields; i++) {
		const sb_csv_field *f = &rec->fields[i];
		if (i > 0 && n < cap)
			out[n++] = ',';
		if (f->quoted && n < cap)
			out[n++] = '"';
		for (size_t k = 0; k < f->len && n < cap; k++) {
			if (f->quoted && f->text[k] == '"' && n + 1 < cap)
				out[n++] = '"';
			out[n++] = f->text[k];
		}
		if (f->quoted && n < cap)
			out[n++] = '"';
	}
	return n;
}

/* Check one record of text[0..len) read with the given maximum. */
static void check_record(const sb_csv *csv, const sb_csv_record *rec, bool bad, const char *text,
                         size_t len, size_t max_record, struct seen *s)
{
	static char back[1 << 20];

	FUZZ_CHECK(rec->offset >= 0 && rec->next_offset > rec->offset);
	FUZZ_CHECK((size_t)rec->next_offset <= len);
	FUZZ_CHECK(rec->raw[rec->raw_len] == '\0');
	if (rec->truncated) {
		FUZZ_CHECK(bad && rec->raw_len == max_record);
	} else {
		FUZZ_CHECK(rec->raw_len <= max_record);
		FUZZ_CHECK((size_t)rec->offset + rec->raw_len <= len);
		FUZZ_CHECK(memcmp(rec->raw, text + rec->offset, rec->raw_len) == 0);
	}
	s->hash = fnv(UINT64_C(1469598103934665603), rec->raw, rec->raw_len);
	if (bad) {
		FUZZ_CHECK(rec->fields == NULL && rec->nfields == 0);
	} else {
		size_t n = rewrite(rec, back, sizeof back);
		FUZZ_CHECK(n == rec->raw_len && memcmp(back, rec->raw, n) == 0);
		if (sb_csv_columns(csv) > 0)
			FUZZ_CHECK(rec->nfields == sb_csv_columns(csv));
		for (size_t i = 0; i < rec->nfields; i++) {
			const sb_csv_field *f = &rec->fields[i];
			FUZZ_CHECK(f->text != NULL || (f->len == 0 && !f->quoted));
			if (f->text != NULL) {
				FUZZ_CHECK(f->text[f->len] == '\0');
				s->hash = fnv(s->hash, f->text, f->len + 1);
			}
			FUZZ_CHECK(sb_csv_cell(rec, (int)i) == f);
		}
		FUZZ_CHECK(sb_csv_cell(rec, (int)rec->nfields) == NULL);
		FUZZ_CHECK(sb_csv_cell(rec, -1) == NULL);
	}
	*s = (struct seen){rec->line, rec->offset, rec->next_line, rec->next_offset, rec->raw_len,
	                   rec->nfields, bad, rec->truncated, s->hash};
}

/* Read every record from the reader's position into seen; returns how many. */
static size_t read_all(sb_csv *csv, const char *text, size_t len, size_t max_record,
                       int64_t from, struct seen *seen)
{
	size_t n = 0;

	while (n < MAX_RECORDS) {
		const sb_csv_record *rec = NULL;
		sb_err e;
		int rc;
		sb_err_clear(&e);
		rc = sb_csv_next(csv, &rec, &e);
		if (rc == SB_OK && rec == NULL)
			break;
		FUZZ_CHECK(rc == SB_OK || rc == SB_EDATA);
		FUZZ_CHECK(rec != NULL);
		FUZZ_CHECK(rec->offset >= from);
		from = rec->next_offset;
		check_record(csv, rec, rc == SB_EDATA, text, len, max_record, &seen[n++]);
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct seen first[MAX_RECORDS], again[MAX_RECORDS];
	uint8_t opt = fuzz_byte(&data, &size);
	size_t chunk = fuzz_byte(&data, &size);
	size_t max_record = fuzz_byte(&data, &size);
	unsigned flags = (opt & 1 ? SB_CSV_HEADER : 0) | (opt & 2 ? SB_CSV_NOCASE : 0);
	size_t len = size, n;
	const char *text = (const char *)data;
	sb_membuf mb = {text, len, 0, chunk};
	sb_csv *csv = NULL;
	int64_t start_offset = 0, start_line = 1;
	sb_err e;
	int rc;

	max_record = max_record == 0 ? 0 : opt & 4 ? max_record * 4096 : max_record;
	sb_err_clear(&e);
	rc = sb_csv_open(sb_membuf_read, &mb, flags, max_record, &csv, &e);
	if (max_record == 0)
		max_record = SB_CSV_MAX_RECORD;
	if (rc != SB_OK) {
		FUZZ_CHECK(rc == SB_EDATA && csv == NULL && (flags & SB_CSV_HEADER));
		return 0;
	}
	sb_csv_tell(csv, &start_offset, &start_line);
	/* names are C strings: one holding a NUL byte cannot be looked up */
	for (size_t i = 0; i < sb_csv_columns(csv) && !memchr(text, '\0', (size_t)start_offset); i++) {
		const char *name = sb_csv_column_name(csv, i);
		int col = sb_csv_column(csv, name);
		FUZZ_CHECK(name != NULL && col >= 0);
		FUZZ_CHECK(strcmp(sb_csv_column_name(csv, (size_t)col), name) == 0 ||
		           ((flags & SB_CSV_NOCASE) &&
		            strcasecmp(sb_csv_column_name(csv, (size_t)col), name) == 0));
	}
	FUZZ_CHECK(sb_csv_column_name(csv, sb_csv_columns(csv)) == NULL);
	n = read_all(csv, text, len, max_record, start_offset, first);
	for (size_t i = 1; i < n; i++)
		FUZZ_CHECK(first[i].offset >= first[i - 1].next_offset &&
		           first[i].line >= first[i - 1].next_line);
	if (n < MAX_RECORDS) {
		/* resume after record k (k == n: from the position after the
		 * header) and read on */
		size_t k = opt >> 3 <= n ? opt >> 3 : n;
		int64_t off = k == n ? start_offset : first[k].next_offset;
		int64_t line = k == n ? start_line : first[k].next_line;
		size_t skip = k == n ? 0 : k + 1, m;
		mb.pos = (size_t)off;
		sb_csv_reset(csv, off, line);
		m = read_all(csv, text, len, max_record, off, again);
		FUZZ_CHECK(m == n - skip);
		for (size_t i = 0; i < m; i++)
			FUZZ_CHECK(same(&again[i], &first[skip + i]));
	}
	sb_csv_free(csv);
	return 0;
}
