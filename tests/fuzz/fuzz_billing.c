/* fuzz_billing.c: one billing format (importers/billing.h), built once per
 * format with -DFUZZ_FORMAT='"focus"' (the Makefile names the programs
 * fuzz_billing_FORMAT).
 *
 * The first byte picks options (Modal's interval, the longest record, a
 * period given to the import, the CSV separator named or told from the
 * header); the rest is a whole input file, read as the import driver
 * reads it: the shape sniffed from the first bytes after a byte-order
 * mark, records one at a time (lines, array elements or CSV rows), the
 * CSV header checked, each record parsed to lines.  No record may be an
 * internal error, and every line parsed keeps the rules of docs/formats-billing.md:
 * a backend id, the charge end not before its start, a known
 * ISO 4217 currency, an amount on billed lines only and usage on metered
 * lines only, no negative usage.
 */
#include <stdbool.h>
#include <string.h>

#include "importers/billing.h"
#include "importers/runs_jsonl.h"
#include "ledger/fx.h"
#include "ledger/timefmt.h"
#include "tests/fuzz/fuzz.h"

#ifndef FUZZ_FORMAT
#error "build with -DFUZZ_FORMAT='\"focus\"' (a billing format)"
#endif

/* Check the lines of one record. */
static void check_lines(const sb_bill_line *lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const sb_bill_line *l = &lines[i];
		FUZZ_CHECK(l->backend != NULL && sb_backend_id_valid(l->backend));
		FUZZ_CHECK(l->end_ms >= l->start_ms);
		FUZZ_CHECK(l->currency != NULL && strlen(l->currency) == 3 &&
		           sb_currency_known(l->currency));
		FUZZ_CHECK(l->session_id == NULL || l->session_id[0] != '\0');
		FUZZ_CHECK(l->line_key == NULL || l->line_key[0] != '\0');
		if (l->kind == SB_LINE_METERED) {
			FUZZ_CHECK(!l->has_amount && l->has_metered);
			FUZZ_CHECK(l->vcpu_ms >= 0 && l->memory_mb_ms >= 0);
		} else {
			FUZZ_CHECK(l->kind == SB_LINE_BILLED && l->has_amount);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const sb_bill_format *f = sb_bill_format_find(FUZZ_FORMAT);
	uint8_t opt = fuzz_byte(&data, &size);
	sb_bill_opts bo = {opt & 1 ? SB_MS_PER_DAY / 24 : SB_MS_PER_DAY, (opt & 4) != 0,
	                   sb_days_from_civil_ms(2026, 11, 1), sb_days_from_civil_ms(2026, 12, 1)};
	sb_records_opts ro = {0, f->member, f->csv_flags | (opt & 8 ? SB_CSV_SEMICOLON : SB_CSV_DETECT),
	                      opt & 2 ? 64 : 1 << 20};
	sb_membuf mb = {(const char *)data, size, 0, 0};
	sb_bill_parser *p = sb_bill_parser_new(f, &bo);
	sb_records *rr = NULL;
	sb_err e, why;
	bool eof = false;

	FUZZ_CHECK(p != NULL);
	sb_err_clear(&e);
	sb_err_clear(&why);
	/* the import driver's input_open: sniff, open, check the header */
	if (sb_records_sniff((const char *)data, size < 4096 ? size : 4096, f->shapes,
	                     f->member != NULL, &ro.shape, &why) != SB_OK) {
		FUZZ_CHECK(why.code == SB_EDATA);
		goto done;
	}
	if (sb_records_open(sb_membuf_read, &mb, &ro, &rr, &why) != SB_OK) {
		FUZZ_CHECK(why.code == SB_EDATA && ro.shape == SB_REC_CSV);
		goto done;
	}
	if (ro.shape == SB_REC_CSV && sb_bill_check_header(f, sb_records_csv(rr), &why) != SB_OK)
		goto done;
	for (int guard = 0; guard < 100000; guard++) {
		sb_rec rec;
		const sb_bill_line *lines = NULL;
		size_t n = 0;
		sb_err_clear(&why);
		FUZZ_CHECK(sb_records_next(rr, &rec, &eof, &why, &e) == SB_OK);
		if (eof)
			break;
		if (why.code != SB_OK)
			continue;   /* bad at the level of the shape: rejected as it is */
		if (sb_bill_parse(p, &rec, &lines, &n, &why) == SB_OK)
			check_lines(lines, n);
		else
			FUZZ_CHECK(why.code == SB_EDATA && why.msg[0] != '\0');
	}
done:
	sb_records_free(rr);
	sb_bill_parser_free(p);
	return 0;
}
